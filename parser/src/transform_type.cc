// Type names as written (INT, VARCHAR(n), DOUBLE PRECISION, ...) to the canonical TypeSpec
// names listed in ast.h. Unknown names are 42704, as PostgreSQL reports them.

#include <charconv>

#include "transformer.h"

namespace meridian::parser {
namespace {

struct TypeAlias {
  const char* written;
  const char* canonical;
};

constexpr TypeAlias kTypeAliases[] = {
    {"int", "integer"},
    {"integer", "integer"},
    {"int4", "integer"},
    {"smallint", "smallint"},
    {"int2", "smallint"},
    {"bigint", "bigint"},
    {"int8", "bigint"},
    {"float", "double precision"},
    {"float8", "double precision"},
    {"real", "real"},
    {"float4", "real"},
    {"text", "text"},
    {"varchar", "varchar"},
    {"char", "char"},
    {"character", "char"},
    {"boolean", "boolean"},
    {"bool", "boolean"},
    {"oid", "oid"},
    {"name", "name"},
    {"regclass", "regclass"},
    {"regtype", "regtype"},
    {"regnamespace", "regnamespace"},
    {"regproc", "regproc"},
};

constexpr int32_t kMaxCharLength = 10485760;  // PostgreSQL's limit for char(n)/varchar(n)

}  // namespace

ast::TypeSpec Transformer::TransformType(P::TypeNameContext* ctx) {
  ast::TypeSpec type;
  type.loc = Loc(ctx);
  std::string written;
  if (ctx->K_DOUBLE() != nullptr) {
    written = "double precision";
  } else if (ctx->K_VARYING() != nullptr) {
    written = "varchar";
  } else {
    std::string schema;
    QualifiedName(ctx->qualifiedName(), &schema, &written);
    // Built-in types live in pg_catalog; any other schema names no type.
    if (!schema.empty() && schema != "pg_catalog") written = schema + "." + written;
  }
  for (const TypeAlias& alias : kTypeAliases) {
    if (written == alias.written) type.name = alias.canonical;
  }
  if (written == "double precision") type.name = written;
  if (type.name.empty()) {
    Fail(ErrorAt(ctx, "42704", "type \"" + written + "\" does not exist"));
    return type;
  }

  antlr4::tree::TerminalNode* modifier = ctx->INTEGER_LITERAL();
  if (modifier == nullptr) return type;
  std::string digits = modifier->getText();
  int64_t n = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
  if (ec != std::errc() || end != digits.data() + digits.size()) n = int64_t{1} << 40;

  if (written == "float") {  // float(p): p bits of precision, as PostgreSQL
    if (n < 1) Fail(ErrorAt(ctx, "22023", "precision for type float must be at least 1 bit"));
    if (n > 53) Fail(ErrorAt(ctx, "22023", "precision for type float must be less than 54 bits"));
    if (n <= 24) type.name = "real";
    return type;
  }
  if (type.name != "varchar" && type.name != "char") {
    Fail(ErrorAt(ctx, sqlstate::kSyntaxError,
                 "type modifier is not allowed for type \"" + type.name + "\""));
    return type;
  }
  if (n < 1) {
    Fail(ErrorAt(ctx, "22023", "length for type " + type.name + " must be at least 1"));
  } else if (n > kMaxCharLength) {
    Fail(ErrorAt(
        ctx, sqlstate::kProgramLimitExceeded,
        "length for type " + type.name + " cannot exceed " + std::to_string(kMaxCharLength)));
  } else {
    type.modifier = static_cast<int32_t>(n);
  }
  return type;
}

}  // namespace meridian::parser
