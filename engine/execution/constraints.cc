// CHECK constraint naming/binding, stored DEFAULTs, and column renames in stored expression
// text (see constraints.h).
#include "execution/constraints.h"

#include <algorithm>

#include "meridian/parser/parser.h"

namespace meridian::exec {

namespace {

void CollectColumns(const ast::Expr& e, std::vector<const ast::Expr*>* refs) {
  if (e.kind == ast::ExprKind::kColumnRef) refs->push_back(&e);
  for (const ast::ExprPtr& c : e.children) {
    if (c != nullptr) CollectColumns(*c, refs);
  }
}

Result<std::shared_ptr<const ast::Expr>> Reparse(const std::string& text, uint32_t position) {
  auto parsed = parser::ParseExpression(text);
  if (!parsed.ok()) return Status(parsed.status()).WithPosition(position);
  return std::shared_ptr<const ast::Expr>(std::move(parsed).value());
}

// Byte offset of the 1-based code point position in text.
size_t ByteOffset(const std::string& text, uint32_t position) {
  uint32_t cp = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) continue;
    if (++cp == position) return i;
  }
  return text.size();
}

// Length of the identifier token at text[at] ("quoted" or plain).
size_t IdentifierLength(const std::string& text, size_t at) {
  size_t i = at;
  if (i < text.size() && text[i] == '"') {
    for (++i; i < text.size(); ++i) {
      if (text[i] != '"') continue;
      if (i + 1 < text.size() && text[i + 1] == '"') {
        ++i;
        continue;
      }
      return i + 1 - at;
    }
    return text.size() - at;
  }
  while (i < text.size() && (std::isalnum(static_cast<unsigned char>(text[i])) || text[i] == '_' ||
                             text[i] == '$' || (static_cast<unsigned char>(text[i]) & 0x80) != 0)) {
    ++i;
  }
  return i - at;
}

std::string Quoted(const std::string& name) {
  std::string out = "\"";
  for (char c : name) {
    if (c == '"') out.push_back('"');
    out.push_back(c);
  }
  return out + "\"";
}

std::string ReplaceRefs(const std::string& text, const std::vector<const ast::Expr*>& refs,
                        const std::string& from, const std::string& replacement) {
  std::vector<std::pair<size_t, size_t>> spans;  // byte offset and length of each column token
  for (const ast::Expr* r : refs) {
    if (r->name != from) continue;
    size_t at = ByteOffset(text, r->loc.position);
    if (!r->table.empty()) {  // t.col: skip the qualifier, the dot and any blanks
      at += IdentifierLength(text, at);
      while (at < text.size() &&
             (text[at] == '.' || std::isspace(static_cast<unsigned char>(text[at]))))
        ++at;
    }
    spans.push_back({at, IdentifierLength(text, at)});
  }
  std::string out = text;
  std::sort(spans.rbegin(), spans.rend());
  for (const auto& [at, len] : spans) out.replace(at, len, replacement);
  return out;
}

}  // namespace

std::vector<std::string> ReferencedColumns(const ast::Expr& expr) {
  std::vector<const ast::Expr*> refs;
  CollectColumns(expr, &refs);
  std::vector<std::string> names;
  for (const ast::Expr* r : refs) {
    if (std::find(names.begin(), names.end(), r->name) == names.end()) names.push_back(r->name);
  }
  return names;
}

Result<catalog::CheckConstraint> MakeCheckConstraint(const ast::CheckDef& def,
                                                     const catalog::TableSchema& schema,
                                                     Binder* binder) {
  MERIDIAN_RETURN_IF_ERROR(binder->BindCheck(*def.expr, schema, nullptr).status());
  catalog::CheckConstraint check;
  if (!def.name.empty()) {
    if (schema.FindCheck(def.name) != nullptr) {
      return Status::Error(
          sqlstate::kDuplicateObject,
          "constraint \"" + def.name + "\" for relation \"" + schema.name + "\" already exists");
    }
    check.name = def.name;
  } else {
    const std::vector<std::string> columns = ReferencedColumns(*def.expr);
    const std::string base =
        schema.name + (columns.size() == 1 ? "_" + columns[0] : std::string()) + "_check";
    check.name = base;
    for (int n = 1; schema.FindCheck(check.name) != nullptr; ++n) {
      check.name = base + std::to_string(n);
    }
  }
  check.text = def.text;
  MERIDIAN_ASSIGN_OR_RETURN(check.expr, Reparse(def.text, def.loc.position));
  return check;
}

Status SetColumnDefault(const ast::Expr& expr, const std::string& text, catalog::Column* col,
                        Binder* binder) {
  MERIDIAN_RETURN_IF_ERROR(binder->BindDefault(expr, col->type, col->name).status());
  col->default_text = text;
  MERIDIAN_ASSIGN_OR_RETURN(col->default_expr, Reparse(text, expr.loc.position));
  return Status::Ok();
}

Result<std::string> RenameColumnInText(const std::string& text, const std::string& from,
                                       const std::string& to) {
  MERIDIAN_ASSIGN_OR_RETURN(ast::ExprPtr parsed, parser::ParseExpression(text));
  std::vector<const ast::Expr*> refs;
  CollectColumns(*parsed, &refs);
  // Unquoted when that reads back as the same name (not a keyword, no capitals), else quoted.
  std::string plain = ReplaceRefs(text, refs, from, to);
  auto check = parser::ParseExpression(plain);
  if (check.ok()) {
    std::vector<std::string> before = ReferencedColumns(*parsed);
    std::vector<std::string> after = ReferencedColumns(**check);
    std::replace(before.begin(), before.end(), from, to);
    if (before == after) return plain;
  }
  return ReplaceRefs(text, refs, from, Quoted(to));
}

}  // namespace meridian::exec
