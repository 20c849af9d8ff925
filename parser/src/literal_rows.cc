// The literal-rows scanner behind the bulk INSERT shortcut (see literal_rows.h). It accepts a
// strict subset of what the grammar accepts and gives up on anything else, so a request it
// declines is parsed by ANTLR alone.

#include "literal_rows.h"

#include <cctype>
#include <string>

namespace meridian::parser {
namespace {

bool IdentStart(unsigned char c) { return std::isalpha(c) != 0 || c == '_' || c >= 0x80; }
bool IdentCont(unsigned char c) { return IdentStart(c) || std::isdigit(c) != 0 || c == '$'; }
bool Digit(char c) { return c >= '0' && c <= '9'; }
bool Space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

// A position in the text with the code-point index, line and column ANTLR would report.
class Cursor {
 public:
  explicit Cursor(std::string_view t) : t_(t) {}

  bool AtEnd() const { return i_ >= t_.size(); }
  char Peek(size_t ahead = 0) const { return i_ + ahead < t_.size() ? t_[i_ + ahead] : '\0'; }
  size_t byte() const { return i_; }
  size_t code_point() const { return cp_; }
  ast::Location Loc() const { return {cp_ + 1, line_, column_}; }

  void Advance(size_t n = 1) {
    for (size_t k = 0; k < n && i_ < t_.size(); ++k, ++i_) {
      const auto c = static_cast<unsigned char>(t_[i_]);
      if ((c & 0xC0) == 0x80) continue;  // a UTF-8 continuation byte
      ++cp_;
      if (c == '\n') {
        ++line_;
        column_ = 1;
      } else {
        ++column_;
      }
    }
  }
  void SkipSpace() {
    while (!AtEnd() && Space(Peek())) Advance();
  }
  bool Take(char c) {
    SkipSpace();
    if (Peek() != c) return false;
    Advance();
    return true;
  }
  // An unquoted word, lower-cased (empty when none starts here).
  std::string Word() {
    SkipSpace();
    std::string w;
    if (AtEnd() || !IdentStart(static_cast<unsigned char>(Peek()))) return w;
    while (!AtEnd() && IdentCont(static_cast<unsigned char>(Peek()))) {
      w += static_cast<char>(std::tolower(static_cast<unsigned char>(Peek())));
      Advance();
    }
    return w;
  }
  // Skips a quoted run ('...' or "...", doubled quotes inside); false when unterminated.
  bool SkipQuoted() {
    const char q = Peek();
    Advance();
    while (!AtEnd()) {
      if (Peek() == q) {
        if (Peek(1) != q) {
          Advance();
          return true;
        }
        Advance();
      }
      Advance();
    }
    return false;
  }
  // A table, column or alias name: a word that is not VALUES, or a "quoted" identifier.
  bool Name() {
    SkipSpace();
    if (Peek() == '"') return SkipQuoted();
    const std::string w = Word();
    return !w.empty() && w != "values" && w != "as" && w != "overriding";
  }

 private:
  std::string_view t_;
  size_t i_ = 0;
  uint32_t cp_ = 0;
  uint32_t line_ = 1;
  uint32_t column_ = 1;
};

// INSERT INTO name[.name] [AS alias] [(name, ...)] VALUES, leaving c before the first row.
bool ReadHead(Cursor* c) {
  if (c->Word() != "insert" || c->Word() != "into" || !c->Name()) return false;
  if (c->Take('.') && !c->Name()) return false;
  Cursor before = *c;
  if (c->Word() == "as") {
    if (!c->Name()) return false;
  } else {
    *c = before;
  }
  if (c->Take('(')) {
    do {
      if (!c->Name()) return false;
    } while (c->Take(','));
    if (!c->Take(')')) return false;
  }
  return c->Word() == "values";
}

// The first row, whatever it holds (ANTLR parses it): c moves past its closing parenthesis.
// Declines dollar quotes, $n parameters and E'' strings rather than scan them exactly.
bool SkipFirstRow(Cursor* c) {
  if (!c->Take('(')) return false;
  int depth = 1;
  char prev = '(';
  while (!c->AtEnd() && depth > 0) {
    const char ch = c->Peek();
    if (ch == '$') return false;
    if (ch == '\'' || ch == '"') {
      if (ch == '\'' && (prev == 'e' || prev == 'E' || prev == '&')) return false;
      if (!c->SkipQuoted()) return false;
      prev = ch;
      continue;
    }
    if (ch == '(') ++depth;
    if (ch == ')') --depth;
    prev = ch;
    c->Advance();
  }
  return depth == 0;
}

// One literal of a row: *out is the literal (null for DEFAULT); false when there is none.
bool ReadLiteral(Cursor* c, ast::ExprPtr* out) {
  c->SkipSpace();
  const ast::Location loc = c->Loc();
  auto literal = [&](ast::LiteralKind kind) {
    *out = std::make_unique<ast::Expr>();
    (*out)->kind = ast::ExprKind::kLiteral;
    (*out)->loc = loc;
    (*out)->literal_kind = kind;
    return out->get();
  };
  const char first = c->Peek();
  if (first == '\'') {
    std::string text;
    c->Advance();
    while (true) {
      if (c->AtEnd()) return false;
      if (c->Peek() == '\'') {
        if (c->Peek(1) != '\'') break;
        c->Advance();
      }
      text += c->Peek();
      c->Advance();
    }
    c->Advance();
    literal(ast::LiteralKind::kString)->text = std::move(text);
    return true;
  }
  std::string number;
  if (first == '-') {
    number = "-";
    c->Advance();
    c->SkipSpace();
  }
  if (Digit(c->Peek()) || (c->Peek() == '.' && Digit(c->Peek(1)))) {
    // INTEGER_LITERAL : DIGIT+ ; DECIMAL_LITERAL : DIGIT+ '.' DIGIT* EXPONENT? | '.' DIGIT+
    // EXPONENT? | DIGIT+ EXPONENT, EXPONENT : [eE] [+-]? DIGIT+ .
    bool integer = true;
    auto digits = [&] {
      while (Digit(c->Peek())) {
        number += c->Peek();
        c->Advance();
      }
    };
    digits();
    if (c->Peek() == '.') {
      integer = false;
      number += '.';
      c->Advance();
      digits();
    }
    if (c->Peek() == 'e' || c->Peek() == 'E') {
      const size_t sign = c->Peek(1) == '+' || c->Peek(1) == '-' ? 1 : 0;
      if (Digit(c->Peek(1 + sign))) {
        integer = false;
        for (size_t k = 0; k <= sign; ++k) {
          number += c->Peek();
          c->Advance();
        }
        digits();
      }
    }
    literal(integer ? ast::LiteralKind::kInteger : ast::LiteralKind::kFloat)->text =
        std::move(number);
    return true;
  }
  if (!number.empty()) return false;  // '-' before something else
  const std::string word = c->Word();
  if (word == "null") {
    literal(ast::LiteralKind::kNull);
  } else if (word == "true" || word == "false") {
    literal(ast::LiteralKind::kBool)->bool_value = word == "true";
  } else if (word == "default") {
    out->reset();
  } else {
    return false;
  }
  return true;
}

// ", (literal, ...)": the row, or false (c then stands anywhere).
bool ReadLiteralRow(Cursor* c, std::vector<ast::ExprPtr>* row) {
  if (!c->Take(',') || !c->Take('(')) return false;
  do {
    ast::ExprPtr item;
    if (!ReadLiteral(c, &item)) return false;
    row->push_back(std::move(item));
  } while (c->Take(','));
  return c->Take(')');
}

}  // namespace

LiteralRows FindLiteralRows(std::string_view lexer_text) {
  LiteralRows out;
  Cursor c(lexer_text);
  if (!ReadHead(&c) || !SkipFirstRow(&c)) return out;
  out.begin = out.end = c.byte();
  out.begin_cp = out.end_cp = c.code_point();
  while (true) {
    Cursor next = c;
    std::vector<ast::ExprPtr> row;
    if (!ReadLiteralRow(&next, &row)) break;
    out.rows.push_back(std::move(row));
    c = next;
    out.end = c.byte();
    out.end_cp = c.code_point();
  }
  return out;
}

}  // namespace meridian::parser
