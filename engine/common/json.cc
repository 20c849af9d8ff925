// JSON/JSONB text forms and operations (see meridian/json.h).
#include "meridian/json.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace meridian::json {

namespace {

constexpr int kMaxDepth = 6400;

bool IsWordChar(char c) {
  const auto u = static_cast<unsigned char>(c);
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         u >= 0x80;
}

void AppendUtf8(uint32_t cp, std::string* out) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

// numeric_in's limits for a JSON number kept as numeric (jsonb): at most 131072 digits before
// the decimal point and 16383 after it (22003 "value overflows numeric format").
Status CheckNumericRange(std::string_view t) {
  size_t i = t.size() > 0 && t[0] == '-' ? 1 : 0;
  long long int_digits = 0, frac_digits = 0, leading_zeros = 0;
  bool significant = false;
  for (; i < t.size() && t[i] >= '0' && t[i] <= '9'; ++i) {
    ++int_digits;
    if (t[i] != '0') significant = true;
    if (!significant) ++leading_zeros;
  }
  if (i < t.size() && t[i] == '.') {
    for (++i; i < t.size() && t[i] >= '0' && t[i] <= '9'; ++i) {
      if (t[i] != '0') significant = true;
      ++frac_digits;
    }
  }
  long long exp = 0;
  if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
    ++i;
    const bool negative = i < t.size() && t[i] == '-';
    if (i < t.size() && (t[i] == '+' || t[i] == '-')) ++i;
    for (; i < t.size() && t[i] >= '0' && t[i] <= '9'; ++i) {
      if (exp < 1000000000) exp = exp * 10 + (t[i] - '0');
    }
    if (negative) exp = -exp;
  }
  const long long scale = frac_digits - exp;
  const long long weight = significant ? int_digits - leading_zeros + exp : 0;
  if (scale > 16383 || weight > 131072) {
    return Status::Error(sqlstate::kNumericValueOutOfRange, "value overflows numeric format");
  }
  return Status::Ok();
}

// A recursive-descent reader of one JSON text with PostgreSQL's error details.
class Reader {
 public:
  // strict: unpaired surrogates and \u0000 are errors (jsonb, and json's de-escaping
  // functions); json_in only checks the syntax.
  Reader(std::string_view s, bool jsonb, bool build, bool strict)
      : s_(s), jsonb_(jsonb), build_(build), strict_(strict) {}

  Status Run(Node* out) {
    SkipSpace();
    MERIDIAN_RETURN_IF_ERROR(ReadValue(out, 0));
    SkipSpace();
    if (pos_ < s_.size()) return Expected("end of input", pos_);
    return Status::Ok();
  }

 private:
  void SkipSpace() {
    while (pos_ < s_.size() &&
           (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\n' || s_[pos_] == '\r')) {
      ++pos_;
    }
  }

  // The token at p as PostgreSQL's lexer reports it: a punctuation character, a string, or a
  // run of word characters.
  size_t TokenEnd(size_t p) const {
    if (p >= s_.size()) return p;
    const char c = s_[p];
    if (!IsWordChar(c) && c != '-') return p + 1;
    size_t e = p + 1;
    while (e < s_.size() && IsWordChar(s_[e])) ++e;
    return e;
  }

  Status Error(std::string detail, size_t upto,
               const char* sqlstate = sqlstate::kInvalidTextRepresentation) const {
    // CONTEXT: the line holding the error, up to the end of the offending token.
    int line = 1;
    size_t line_start = 0;
    for (size_t i = 0; i < upto && i < s_.size(); ++i) {
      if (s_[i] == '\n') {
        ++line;
        line_start = i + 1;
      }
    }
    std::string context = "JSON data, line " + std::to_string(line) + ": ";
    if (line_start > 0) context += "...";
    const size_t stop = std::min(upto, s_.size());
    context.append(s_.substr(line_start, stop - line_start));
    if (stop < s_.size()) context += "...";
    std::string message = std::strcmp(sqlstate, sqlstate::kUntranslatableCharacter) == 0
                              ? "unsupported Unicode escape sequence"
                              : "invalid input syntax for type json";
    Status st = Status::Error(sqlstate, message);
    st.WithDetail(std::move(detail));
    st.WithContext(std::move(context));
    return st;
  }

  Status Expected(const std::string& what, size_t p) const {
    if (p >= s_.size()) return Error("The input string ended unexpectedly.", p);
    const size_t e = TokenEnd(p);
    if (IsWordChar(s_[p]) || s_[p] == '-') {
      // A word that is not a literal or a number: the lexer rejects it before the parser.
      const std::string_view tok = s_.substr(p, e - p);
      if (tok != "true" && tok != "false" && tok != "null" && !IsNumberToken(tok)) {
        return Error("Token \"" + std::string(tok) + "\" is invalid.", e);
      }
    }
    size_t te = e;
    if (s_[p] == '"') {  // a string token: up to its closing quote
      te = p + 1;
      while (te < s_.size() && s_[te] != '"') te += s_[te] == '\\' ? 2 : 1;
      te = std::min(te + 1, s_.size());
    }
    return Error("Expected " + what + ", but found \"" + std::string(s_.substr(p, te - p)) +
                     "\".",
                 te);
  }

  static bool IsNumberToken(std::string_view t) {
    size_t i = 0;
    if (i < t.size() && t[i] == '-') ++i;
    if (i >= t.size()) return false;
    if (t[i] == '0') {
      ++i;
    } else if (t[i] >= '1' && t[i] <= '9') {
      while (i < t.size() && t[i] >= '0' && t[i] <= '9') ++i;
    } else {
      return false;
    }
    return i == t.size();  // fractions and exponents are read by ReadNumber
  }

  Status ReadValue(Node* out, int depth) {
    if (depth > kMaxDepth) {
      return Status::Error(sqlstate::kStatementTooComplex, "stack depth limit exceeded");
    }
    if (pos_ >= s_.size()) return Error("The input string ended unexpectedly.", pos_);
    const size_t start = pos_;
    if (build_) out->begin = start;
    const char c = s_[pos_];
    Status st = Status::Ok();
    if (c == '{') {
      st = ReadObject(out, depth);
    } else if (c == '[') {
      st = ReadArray(out, depth);
    } else if (c == '"') {
      std::string text;
      st = ReadString(build_ ? &text : nullptr);
      if (build_) {
        out->kind = Node::kString;
        out->text = std::move(text);
      }
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      st = ReadNumber(out);
    } else if (IsWordChar(c)) {
      const size_t e = TokenEnd(pos_);
      const std::string_view tok = s_.substr(pos_, e - pos_);
      if (tok == "true" || tok == "false" || tok == "null") {
        if (build_) {
          out->kind = tok == "true" ? Node::kTrue : tok == "false" ? Node::kFalse : Node::kNull;
        }
        pos_ = e;
      } else {
        return Error("Token \"" + std::string(tok) + "\" is invalid.", e);
      }
    } else {
      return Expected("JSON value", pos_);
    }
    MERIDIAN_RETURN_IF_ERROR(st);
    if (build_) out->end = pos_;
    return Status::Ok();
  }

  Status ReadNumber(Node* out) {
    const size_t start = pos_;
    size_t p = pos_;
    auto digit = [&](size_t i) { return i < s_.size() && s_[i] >= '0' && s_[i] <= '9'; };
    auto bad = [&]() {
      size_t e = p;
      while (e < s_.size() && (IsWordChar(s_[e]) || s_[e] == '.' || s_[e] == '+' || s_[e] == '-')) {
        ++e;
      }
      e = std::max(e, start + 1);
      return Error("Token \"" + std::string(s_.substr(start, e - start)) + "\" is invalid.", e);
    };
    if (s_[p] == '-') ++p;
    if (!digit(p)) return bad();
    if (s_[p] == '0') {
      ++p;
    } else {
      while (digit(p)) ++p;
    }
    if (p < s_.size() && s_[p] == '.') {
      ++p;
      if (!digit(p)) return bad();
      while (digit(p)) ++p;
    }
    if (p < s_.size() && (s_[p] == 'e' || s_[p] == 'E')) {
      ++p;
      if (p < s_.size() && (s_[p] == '+' || s_[p] == '-')) ++p;
      if (!digit(p)) return bad();
      while (digit(p)) ++p;
    }
    if (p < s_.size() && IsWordChar(s_[p])) {
      while (p < s_.size() && IsWordChar(s_[p])) ++p;
      return Error("Token \"" + std::string(s_.substr(start, p - start)) + "\" is invalid.", p);
    }
    pos_ = p;
    if (jsonb_) MERIDIAN_RETURN_IF_ERROR(CheckNumericRange(s_.substr(start, p - start)));
    if (build_) {
      out->kind = Node::kNumber;
      const std::string_view t = s_.substr(start, p - start);
      out->text = jsonb_ ? NormalizeNumber(t) : std::string(t);
    }
    return Status::Ok();
  }

  int Hex(size_t i) const {
    if (i >= s_.size()) return -1;
    const char c = s_[i];
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  }

  // A string token from pos_ (at its opening quote); its decoded text into out when given.
  Status ReadString(std::string* out) {
    const size_t start = pos_;
    size_t p = pos_ + 1;
    int high = -1;  // a pending high surrogate
    while (true) {
      if (p >= s_.size()) return Error("The input string ended unexpectedly.", p);
      const auto c = static_cast<unsigned char>(s_[p]);
      if (c == '"') break;
      if (c < 0x20) {
        char buf[64];
        std::snprintf(buf, sizeof(buf), "Character with value 0x%02x must be escaped.", c);
        return Error(buf, p + 1);
      }
      if (c != '\\') {
        if (high >= 0 && strict_) {
          return Error("Unicode low surrogate must follow a high surrogate.", p);
        }
        high = -1;
        if (out != nullptr) out->push_back(static_cast<char>(c));
        ++p;
        continue;
      }
      if (p + 1 >= s_.size()) return Error("The input string ended unexpectedly.", p + 1);
      const char e = s_[p + 1];
      if (e == 'u') {
        uint32_t cp = 0;
        for (int k = 0; k < 4; ++k) {
          const int h = Hex(p + 2 + k);
          if (h < 0) {
            size_t end = p + 2;
            while (end < s_.size() && IsWordChar(s_[end])) ++end;
            return Error("\"\\u\" must be followed by four hexadecimal digits.", end);
          }
          cp = cp * 16 + static_cast<uint32_t>(h);
        }
        p += 6;
        if (cp >= 0xD800 && cp <= 0xDBFF) {
          if (high >= 0 && strict_) {
            return Error("Unicode high surrogate must not follow a high surrogate.", p);
          }
          high = static_cast<int>(cp);
          continue;
        }
        if (cp >= 0xDC00 && cp <= 0xDFFF) {
          if (high < 0) {
            if (strict_) return Error("Unicode low surrogate must follow a high surrogate.", p);
            cp = 0xFFFD;  // not decoded for anyone (json_in checks the syntax only)
          } else {
            cp = 0x10000 + ((static_cast<uint32_t>(high) - 0xD800) << 10) + (cp - 0xDC00);
          }
          high = -1;
        } else if (high >= 0) {
          if (strict_) return Error("Unicode low surrogate must follow a high surrogate.", p);
          high = -1;
        }
        if (cp == 0 && strict_) {
          return Error("\\u0000 cannot be converted to text.", p,
                       sqlstate::kUntranslatableCharacter);
        }
        if (out != nullptr && cp != 0) AppendUtf8(cp, out);
        continue;
      }
      if (high >= 0 && strict_) {
        return Error("Unicode low surrogate must follow a high surrogate.", p);
      }
      high = -1;
      char d = 0;
      switch (e) {
        case '"': d = '"'; break;
        case '\\': d = '\\'; break;
        case '/': d = '/'; break;
        case 'b': d = '\b'; break;
        case 'f': d = '\f'; break;
        case 'n': d = '\n'; break;
        case 'r': d = '\r'; break;
        case 't': d = '\t'; break;
        default: {
          size_t end = p + 2;
          if (static_cast<unsigned char>(e) >= 0x80) {
            while (end < s_.size() && (static_cast<unsigned char>(s_[end]) & 0xC0) == 0x80) ++end;
          }
          return Error("Escape sequence \"\\" + std::string(s_.substr(p + 1, end - p - 1)) +
                           "\" is invalid.",
                       end);
        }
      }
      if (out != nullptr) out->push_back(d);
      p += 2;
    }
    if (high >= 0 && strict_) {
      return Error("Unicode low surrogate must follow a high surrogate.", p);
    }
    (void)start;
    pos_ = p + 1;
    return Status::Ok();
  }

  Status ReadArray(Node* out, int depth) {
    ++pos_;  // '['
    if (build_) out->kind = Node::kArray;
    SkipSpace();
    if (pos_ < s_.size() && s_[pos_] == ']') {
      ++pos_;
      return Status::Ok();
    }
    while (true) {
      SkipSpace();
      if (pos_ < s_.size() && s_[pos_] == ']') return Expected("JSON value", pos_);
      Node item;
      MERIDIAN_RETURN_IF_ERROR(ReadValue(&item, depth + 1));
      if (build_) out->items.push_back(std::move(item));
      SkipSpace();
      if (pos_ < s_.size() && s_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (pos_ < s_.size() && s_[pos_] == ']') {
        ++pos_;
        return Status::Ok();
      }
      return Expected("\",\" or \"]\"", pos_);
    }
  }

  Status ReadObject(Node* out, int depth) {
    ++pos_;  // '{'
    if (build_) out->kind = Node::kObject;
    SkipSpace();
    if (pos_ < s_.size() && s_[pos_] == '}') {
      ++pos_;
      if (build_ && jsonb_) NormalizeObject(out);
      return Status::Ok();
    }
    bool first = true;
    while (true) {
      SkipSpace();
      if (pos_ >= s_.size() || s_[pos_] != '"') {
        return Expected(first ? "string or \"}\"" : "string", pos_);
      }
      first = false;
      std::string key;
      MERIDIAN_RETURN_IF_ERROR(ReadString(build_ ? &key : nullptr));
      SkipSpace();
      if (pos_ >= s_.size() || s_[pos_] != ':') return Expected("\":\"", pos_);
      ++pos_;
      SkipSpace();
      Node value;
      MERIDIAN_RETURN_IF_ERROR(ReadValue(&value, depth + 1));
      if (build_) {
        out->keys.push_back(std::move(key));
        out->items.push_back(std::move(value));
      }
      SkipSpace();
      if (pos_ < s_.size() && s_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (pos_ < s_.size() && s_[pos_] == '}') {
        ++pos_;
        if (build_ && jsonb_) NormalizeObject(out);
        return Status::Ok();
      }
      return Expected("\",\" or \"}\"", pos_);
    }
  }

  std::string_view s_;
  bool jsonb_;
  bool build_;
  bool strict_;
  size_t pos_ = 0;
};

bool KeyLess(const std::string& a, const std::string& b) {
  if (a.size() != b.size()) return a.size() < b.size();
  return a < b;
}

// A number split for comparison: sign, integer digits without leading zeros, fraction digits
// without trailing zeros (zero: empty both, positive).
struct Decimal {
  bool negative = false;
  std::string integer, fraction;
};

Decimal SplitNumber(std::string_view t) {
  const std::string norm = NormalizeNumber(t);
  Decimal d;
  std::string_view n = norm;
  if (!n.empty() && n[0] == '-') {
    d.negative = true;
    n.remove_prefix(1);
  }
  const size_t dot = n.find('.');
  std::string_view ip = n.substr(0, dot);
  std::string_view fp = dot == std::string_view::npos ? std::string_view() : n.substr(dot + 1);
  while (!ip.empty() && ip[0] == '0') ip.remove_prefix(1);
  while (!fp.empty() && fp.back() == '0') fp.remove_suffix(1);
  d.integer = std::string(ip);
  d.fraction = std::string(fp);
  if (d.integer.empty() && d.fraction.empty()) d.negative = false;
  return d;
}

int Rank(const Node& n) {
  switch (n.kind) {
    case Node::kNull:
      return 0;
    case Node::kString:
      return 1;
    case Node::kNumber:
      return 2;
    case Node::kFalse:
    case Node::kTrue:
      return 3;
    case Node::kArray:
      return 4;
    case Node::kObject:
      return 5;
  }
  return 0;
}

bool ScalarEqual(const Node& a, const Node& b) {
  if (a.kind != b.kind) return false;
  if (a.kind == Node::kString) return a.text == b.text;
  if (a.kind == Node::kNumber) return CompareNumbers(a.text, b.text) == 0;
  return true;
}

bool IsContainer(const Node& n) { return n.kind == Node::kArray || n.kind == Node::kObject; }

bool DeepContains(const Node& a, const Node& b) {
  if (a.kind != b.kind) return false;
  if (a.kind == Node::kObject) {
    for (size_t i = 0; i < b.keys.size(); ++i) {
      const Node* v = Field(a, b.keys[i]);
      if (v == nullptr) return false;
      const Node& w = b.items[i];
      if (!IsContainer(w)) {
        if (!ScalarEqual(*v, w)) return false;
      } else if (!DeepContains(*v, w)) {
        return false;
      }
    }
    return true;
  }
  if (a.kind == Node::kArray) {
    for (const Node& w : b.items) {
      bool found = false;
      for (const Node& v : a.items) {
        if (IsContainer(w) ? DeepContains(v, w) : ScalarEqual(v, w)) {
          found = true;
          break;
        }
      }
      if (!found) return false;
    }
    return true;
  }
  return ScalarEqual(a, b);
}

void Indent(int level, std::string* out) { out->append(static_cast<size_t>(level) * 4, ' '); }

void AppendPretty(const Node& n, int level, std::string* out) {
  if (n.kind == Node::kArray || n.kind == Node::kObject) {
    const bool obj = n.kind == Node::kObject;
    if (n.items.empty()) {
      out->append(obj ? "{\n" : "[\n");
      Indent(level, out);
      out->append(obj ? "}" : "]");
      return;
    }
    out->push_back(obj ? '{' : '[');
    for (size_t i = 0; i < n.items.size(); ++i) {
      if (i > 0) out->push_back(',');
      out->push_back('\n');
      Indent(level + 1, out);
      if (obj) {
        AppendQuoted(n.keys[i], out);
        out->append(": ");
      }
      AppendPretty(n.items[i], level + 1, out);
    }
    out->push_back('\n');
    Indent(level, out);
    out->push_back(obj ? '}' : ']');
    return;
  }
  AppendJsonb(n, out);
}

// A cursor over a valid JSON text: skips values without building them.
class Scanner {
 public:
  explicit Scanner(std::string_view s) : s_(s) {}
  void Space() {
    while (p_ < s_.size() &&
           (s_[p_] == ' ' || s_[p_] == '\t' || s_[p_] == '\n' || s_[p_] == '\r')) {
      ++p_;
    }
  }
  bool At(char c) {
    Space();
    return p_ < s_.size() && s_[p_] == c;
  }
  void Skip(char) { ++p_; }
  size_t pos() const { return p_; }
  // The raw contents of the string at the cursor (between its quotes); escaped says whether it
  // holds a backslash.
  std::string_view String(bool* escaped) {
    const size_t start = ++p_;
    *escaped = false;
    while (p_ < s_.size() && s_[p_] != '"') {
      if (s_[p_] == '\\') {
        *escaped = true;
        ++p_;
      }
      ++p_;
    }
    const std::string_view raw = s_.substr(start, p_ - start);
    ++p_;
    return raw;
  }
  void SkipValue() {
    Space();
    if (p_ >= s_.size()) return;
    const char c = s_[p_];
    if (c == '"') {
      bool escaped;
      String(&escaped);
      return;
    }
    if (c == '{' || c == '[') {
      int depth = 0;
      while (p_ < s_.size()) {
        const char d = s_[p_];
        if (d == '"') {
          bool escaped;
          String(&escaped);
          continue;
        }
        if (d == '{' || d == '[') ++depth;
        if (d == '}' || d == ']') {
          if (--depth == 0) {
            ++p_;
            return;
          }
        }
        ++p_;
      }
      return;
    }
    while (p_ < s_.size() && s_[p_] != ',' && s_[p_] != '}' && s_[p_] != ']' && s_[p_] != ' ' &&
           s_[p_] != '\t' && s_[p_] != '\n' && s_[p_] != '\r') {
      ++p_;
    }
  }

 private:
  std::string_view s_;
  size_t p_ = 0;
};

bool KeyEquals(std::string_view raw, bool escaped, std::string_view key) {
  if (!escaped) return raw == key;
  auto n = Parse("\"" + std::string(raw) + "\"", false);
  return n.ok() && n->text == key;
}

}  // namespace

bool FindField(std::string_view text, std::string_view key, std::string_view* value) {
  Scanner sc(text);
  if (!sc.At('{')) return false;
  sc.Skip('{');
  bool found = false;
  while (sc.At('"')) {
    bool escaped;
    const std::string_view raw = sc.String(&escaped);
    sc.At(':');
    sc.Skip(':');
    sc.Space();
    const size_t begin = sc.pos();
    sc.SkipValue();
    if (KeyEquals(raw, escaped, key)) {
      *value = text.substr(begin, sc.pos() - begin);
      found = true;  // json may repeat a key: the last one counts
    }
    if (!sc.At(',')) break;
    sc.Skip(',');
  }
  return found;
}

bool FindElement(std::string_view text, long long index, std::string_view* value) {
  Scanner sc(text);
  if (!sc.At('[')) return false;
  sc.Skip('[');
  std::vector<std::pair<size_t, size_t>> spans;
  if (!sc.At(']')) {
    while (true) {
      sc.Space();
      const size_t begin = sc.pos();
      sc.SkipValue();
      spans.emplace_back(begin, sc.pos());
      if (index >= 0 && static_cast<long long>(spans.size()) > index) break;
      if (!sc.At(',')) break;
      sc.Skip(',');
    }
  }
  if (index < 0) index += static_cast<long long>(spans.size());
  if (index < 0 || index >= static_cast<long long>(spans.size())) return false;
  const auto [b, e] = spans[static_cast<size_t>(index)];
  *value = text.substr(b, e - b);
  return true;
}

Result<Node> Parse(std::string_view text, bool jsonb, bool decode) {
  Node n;
  Reader r(text, jsonb, true, jsonb || decode);
  MERIDIAN_RETURN_IF_ERROR(r.Run(&n));
  return n;
}

Status Validate(std::string_view text, bool strict) {
  Reader r(text, false, false, strict);
  return r.Run(nullptr);
}

void AppendQuoted(std::string_view s, std::string* out) {
  out->push_back('"');
  for (char c : s) {
    switch (c) {
      case '"':
        out->append("\\\"");
        break;
      case '\\':
        out->append("\\\\");
        break;
      case '\b':
        out->append("\\b");
        break;
      case '\f':
        out->append("\\f");
        break;
      case '\n':
        out->append("\\n");
        break;
      case '\r':
        out->append("\\r");
        break;
      case '\t':
        out->append("\\t");
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof(buf), "\\u%04x", static_cast<unsigned>(c));
          out->append(buf);
        } else {
          out->push_back(c);
        }
    }
  }
  out->push_back('"');
}

std::string Quoted(std::string_view s) {
  std::string out;
  AppendQuoted(s, &out);
  return out;
}

void AppendJsonb(const Node& n, std::string* out) {
  switch (n.kind) {
    case Node::kNull:
      out->append("null");
      return;
    case Node::kTrue:
      out->append("true");
      return;
    case Node::kFalse:
      out->append("false");
      return;
    case Node::kNumber:
      out->append(n.text);
      return;
    case Node::kString:
      AppendQuoted(n.text, out);
      return;
    case Node::kArray:
      out->push_back('[');
      for (size_t i = 0; i < n.items.size(); ++i) {
        if (i > 0) out->append(", ");
        AppendJsonb(n.items[i], out);
      }
      out->push_back(']');
      return;
    case Node::kObject:
      out->push_back('{');
      for (size_t i = 0; i < n.items.size(); ++i) {
        if (i > 0) out->append(", ");
        AppendQuoted(n.keys[i], out);
        out->append(": ");
        AppendJsonb(n.items[i], out);
      }
      out->push_back('}');
      return;
  }
}

std::string ToJsonb(const Node& n) {
  std::string out;
  AppendJsonb(n, &out);
  return out;
}

std::string Pretty(const Node& n) {
  std::string out;
  AppendPretty(n, 0, &out);
  return out;
}

std::string NormalizeNumber(std::string_view t) {
  bool negative = false;
  size_t i = 0;
  if (i < t.size() && t[i] == '-') {
    negative = true;
    ++i;
  }
  std::string digits;
  size_t int_digits = 0, frac_digits = 0;
  while (i < t.size() && t[i] >= '0' && t[i] <= '9') {
    digits.push_back(t[i++]);
    ++int_digits;
  }
  if (i < t.size() && t[i] == '.') {
    ++i;
    while (i < t.size() && t[i] >= '0' && t[i] <= '9') {
      digits.push_back(t[i++]);
      ++frac_digits;
    }
  }
  long long exp = 0;
  if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
    ++i;
    bool eneg = false;
    if (i < t.size() && (t[i] == '+' || t[i] == '-')) eneg = t[i++] == '-';
    while (i < t.size() && t[i] >= '0' && t[i] <= '9') {
      if (exp < 100000000) exp = exp * 10 + (t[i] - '0');
      ++i;
    }
    if (eneg) exp = -exp;
  }
  // The decimal point sits after point digits of `digits`; dscale as numeric_in sets it.
  const long long point = static_cast<long long>(int_digits) + exp;
  const long long scale = std::max<long long>(0, static_cast<long long>(frac_digits) - exp);
  std::string ip, fp;
  for (long long k = 0; k < point; ++k) {
    ip.push_back(k < static_cast<long long>(digits.size()) ? digits[static_cast<size_t>(k)] : '0');
  }
  for (long long k = 0; k < scale; ++k) {
    const long long idx = point + k;
    fp.push_back(idx >= 0 && idx < static_cast<long long>(digits.size())
                     ? digits[static_cast<size_t>(idx)]
                     : '0');
  }
  size_t lead = 0;
  while (lead + 1 < ip.size() && ip[lead] == '0') ++lead;
  ip.erase(0, lead);
  if (ip.empty()) ip = "0";
  const bool zero = ip == "0" && fp.find_first_not_of('0') == std::string::npos;
  std::string out = negative && !zero ? "-" : "";
  out += ip;
  if (!fp.empty()) out += "." + fp;
  return out;
}

int CompareNumbers(std::string_view a, std::string_view b) {
  const Decimal x = SplitNumber(a), y = SplitNumber(b);
  if (x.negative != y.negative) return x.negative ? -1 : 1;
  int c = 0;
  if (x.integer.size() != y.integer.size()) {
    c = x.integer.size() < y.integer.size() ? -1 : 1;
  } else if (int k = x.integer.compare(y.integer); k != 0) {
    c = k < 0 ? -1 : 1;
  } else if (int f = x.fraction.compare(y.fraction); f != 0) {
    c = f < 0 ? -1 : 1;
  }
  return x.negative ? -c : c;
}

void NormalizeObject(Node* n) {
  const size_t count = n->keys.size();
  std::vector<size_t> order(count);
  for (size_t i = 0; i < count; ++i) order[i] = i;
  // Stable: of equal keys the later one comes last, and is the one kept.
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return KeyLess(n->keys[a], n->keys[b]); });
  std::vector<std::string> keys;
  std::vector<Node> items;
  keys.reserve(count);
  items.reserve(count);
  for (size_t k = 0; k < count; ++k) {
    const size_t i = order[k];
    if (!keys.empty() && keys.back() == n->keys[i]) {
      items.back() = std::move(n->items[i]);
      continue;
    }
    keys.push_back(std::move(n->keys[i]));
    items.push_back(std::move(n->items[i]));
  }
  n->keys = std::move(keys);
  n->items = std::move(items);
}

const Node* Field(const Node& n, std::string_view key) {
  if (n.kind != Node::kObject) return nullptr;
  for (size_t i = n.keys.size(); i-- > 0;) {
    if (n.keys[i] == key) return &n.items[i];
  }
  return nullptr;
}

const Node* Element(const Node& n, long long index) {
  if (n.kind != Node::kArray) return nullptr;
  const auto size = static_cast<long long>(n.items.size());
  if (index < 0) index += size;
  if (index < 0 || index >= size) return nullptr;
  return &n.items[static_cast<size_t>(index)];
}

namespace {

// The value at path[level..] below n. A json object may repeat a key: every occurrence is
// followed and the last complete match wins, as PostgreSQL's json path walk has it.
const Node* AtPathFrom(const Node& n, const std::vector<std::string>& path, size_t level) {
  if (level == path.size()) return &n;
  const std::string& step = path[level];
  if (n.kind == Node::kObject) {
    const Node* found = nullptr;
    for (size_t i = 0; i < n.keys.size(); ++i) {
      if (n.keys[i] != step) continue;
      if (const Node* r = AtPathFrom(n.items[i], path, level + 1)) found = r;
    }
    return found;
  }
  if (n.kind == Node::kArray) {
    // An array step must be an integer (else no value), as PostgreSQL's path lookup.
    char* end = nullptr;
    errno = 0;
    const long long i = std::strtoll(step.c_str(), &end, 10);
    if (step.empty() || end == nullptr || *end != '\0' || errno != 0) return nullptr;
    const Node* e = Element(n, i);
    return e == nullptr ? nullptr : AtPathFrom(*e, path, level + 1);
  }
  return nullptr;
}

}  // namespace

const Node* AtPath(const Node& n, const std::vector<std::string>& path) {
  return AtPathFrom(n, path, 0);
}

std::string TextOf(const Node& n, std::string_view src, bool jsonb) {
  if (n.kind == Node::kString) return n.text;
  return ValueText(n, src, jsonb);
}

std::string ValueText(const Node& n, std::string_view src, bool jsonb) {
  if (!jsonb) return std::string(src.substr(n.begin, n.end - n.begin));
  return ToJsonb(n);
}

const char* TypeName(const Node& n) {
  switch (n.kind) {
    case Node::kNull:
      return "null";
    case Node::kTrue:
    case Node::kFalse:
      return "boolean";
    case Node::kNumber:
      return "number";
    case Node::kString:
      return "string";
    case Node::kArray:
      return "array";
    case Node::kObject:
      return "object";
  }
  return "null";
}

bool Contains(const Node& a, const Node& b) {
  // The top level: objects only match objects; an array (or a scalar, held by jsonb as a
  // one-element array) contains a scalar that it has as an element.
  if ((a.kind == Node::kObject) != (b.kind == Node::kObject)) return false;
  if (a.kind == Node::kArray && !IsContainer(b)) {
    for (const Node& v : a.items) {
      if (ScalarEqual(v, b)) return true;
    }
    return false;
  }
  if (!IsContainer(a) && b.kind == Node::kArray) return false;
  return DeepContains(a, b);
}

Result<bool> ContainsText(std::string_view a, const Node& b) {
  const size_t first = a.find_first_not_of(" \t\n\r");
  if (b.kind == Node::kObject && first != std::string_view::npos && a[first] == '{') {
    for (size_t i = 0; i < b.keys.size(); ++i) {
      std::string_view found;
      if (!FindField(a, b.keys[i], &found)) return false;
      const Node& w = b.items[i];
      if (!IsContainer(w) && !found.empty()) {
        // A scalar against the normalised text, without parsing it: strings and literals
        // are written one way only, numbers compare by value.
        const char c = found[0];
        if (w.kind == Node::kNumber) {
          if (!(c == '-' || (c >= '0' && c <= '9')) || CompareNumbers(found, w.text) != 0) {
            return false;
          }
          continue;
        }
        if (w.kind == Node::kString) {
          if (c != '"' || found != Quoted(w.text)) return false;
          continue;
        }
        if (found != (w.kind == Node::kNull ? "null" : w.kind == Node::kTrue ? "true" : "false")) {
          return false;
        }
        continue;
      }
      MERIDIAN_ASSIGN_OR_RETURN(Node v, Parse(found, true));
      if (!(IsContainer(w) ? DeepContains(v, w) : ScalarEqual(v, w))) return false;
    }
    return true;
  }
  MERIDIAN_ASSIGN_OR_RETURN(Node x, Parse(a, true));
  return Contains(x, b);
}

namespace {

void PutCount(size_t n, std::string* out) {
  for (int shift = 24; shift >= 0; shift -= 8) {
    out->push_back(static_cast<char>((n >> shift) & 0xFF));
  }
}

void PutString(std::string_view s, std::string* out) {
  for (char c : s) {
    out->push_back(c);
    if (c == '\0') out->push_back(static_cast<char>(0xFF));
  }
  out->append(2, '\0');
}

// A number: 0x80 for zero; else 0xC0 (positive) or 0x40 (negative, every later byte inverted)
// then the weight (digits before the point of the first significant digit) as offset binary
// and the significant digits, ended by 0x00: larger weights, then larger digits, sort later.
void PutNumber(std::string_view text, std::string* out) {
  const Decimal d = SplitNumber(text);
  if (d.integer.empty() && d.fraction.empty()) {
    out->push_back(static_cast<char>(0x80));
    return;
  }
  std::string digits = d.integer + d.fraction;
  long long weight = static_cast<long long>(d.integer.size());
  size_t lead = 0;
  while (lead < digits.size() && digits[lead] == '0') ++lead;
  weight -= static_cast<long long>(lead);
  digits.erase(0, lead);
  while (!digits.empty() && digits.back() == '0') digits.pop_back();
  std::string body;
  const auto w = static_cast<uint32_t>(weight + (1LL << 31));
  for (int shift = 24; shift >= 0; shift -= 8) {
    body.push_back(static_cast<char>((w >> shift) & 0xFF));
  }
  body += digits;
  body.push_back('\0');
  out->push_back(static_cast<char>(d.negative ? 0x40 : 0xC0));
  for (char c : body) out->push_back(d.negative ? static_cast<char>(~c) : c);
}

void PutSortKey(const Node& n, std::string* out);

// The top level: jsonb holds a scalar as a one-element "raw scalar" array, so arrays and
// scalars order by element count first (a scalar counts one), then a scalar before an array
// of one element; objects come after both.
void PutTopSortKey(const Node& n, std::string* out) {
  if (n.kind == Node::kObject) {
    PutSortKey(n, out);
    return;
  }
  out->push_back(0x50);
  const bool raw = n.kind != Node::kArray;
  PutCount(raw ? 1 : n.items.size(), out);
  out->push_back(raw ? 0 : 1);
  if (raw) {
    PutSortKey(n, out);
  } else {
    for (const Node& e : n.items) PutSortKey(e, out);
  }
}

void PutSortKey(const Node& n, std::string* out) {
  out->push_back(static_cast<char>(0x10 * (Rank(n) + 1)));
  switch (n.kind) {
    case Node::kNull:
      return;
    case Node::kString:
      PutString(n.text, out);
      return;
    case Node::kNumber:
      PutNumber(n.text, out);
      return;
    case Node::kFalse:
    case Node::kTrue:
      out->push_back(n.kind == Node::kTrue ? 1 : 0);
      return;
    case Node::kArray:
    case Node::kObject:
      PutCount(n.items.size(), out);
      for (size_t i = 0; i < n.items.size(); ++i) {
        if (n.kind == Node::kObject) PutString(n.keys[i], out);
        PutSortKey(n.items[i], out);
      }
      return;
  }
}

}  // namespace

std::string SortKey(const Node& n) {
  std::string out;
  PutTopSortKey(n, &out);
  return out;
}

namespace {

int CompareInner(const Node& a, const Node& b);

}  // namespace

int Compare(const Node& a, const Node& b) {
  // The top level (see PutTopSortKey): scalars are one-element arrays that sort before real
  // one-element arrays.
  const bool ao = a.kind == Node::kObject, bo = b.kind == Node::kObject;
  if (ao || bo) return ao && bo ? CompareInner(a, b) : (ao ? 1 : -1);
  const bool ar = a.kind != Node::kArray, br = b.kind != Node::kArray;
  const size_t an = ar ? 1 : a.items.size(), bn = br ? 1 : b.items.size();
  if (an != bn) return an < bn ? -1 : 1;
  if (ar != br) return ar ? -1 : 1;
  return CompareInner(a, b);
}

namespace {

int CompareInner(const Node& a, const Node& b) {
  // Inside containers: by kind (null, string, number, boolean, array, object), then value.
  const int ra = Rank(a), rb = Rank(b);
  if (ra != rb) return ra < rb ? -1 : 1;
  switch (a.kind) {
    case Node::kNull:
      return 0;
    case Node::kString: {
      const int c = a.text.compare(b.text);
      return c < 0 ? -1 : (c > 0 ? 1 : 0);
    }
    case Node::kNumber:
      return CompareNumbers(a.text, b.text);
    case Node::kFalse:
    case Node::kTrue:
      return a.kind == b.kind ? 0 : (a.kind == Node::kFalse ? -1 : 1);
    case Node::kArray:
    case Node::kObject: {
      if (a.items.size() != b.items.size()) return a.items.size() < b.items.size() ? -1 : 1;
      for (size_t i = 0; i < a.items.size(); ++i) {
        if (a.kind == Node::kObject) {
          const int k = a.keys[i].compare(b.keys[i]);
          if (k != 0) return k < 0 ? -1 : 1;
        }
        const int c = CompareInner(a.items[i], b.items[i]);
        if (c != 0) return c;
      }
      return 0;
    }
  }
  return 0;
}

}  // namespace

}  // namespace meridian::json
