// Type names as written (INT, VARCHAR(n), DOUBLE PRECISION, ...) to the canonical TypeSpec
// names listed in ast.h. Unknown names are 42704, as PostgreSQL reports them.

#include <algorithm>
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
    {"bpchar", "char"},
    {"numeric", "numeric"},
    {"decimal", "numeric"},
    {"dec", "numeric"},
    {"date", "date"},
    {"timestamp", "timestamp"},
    {"timestamptz", "timestamptz"},
    {"interval", "interval"},
    {"time", "time"},
    {"uuid", "uuid"},
    {"bytea", "bytea"},
    {"json", "json"},
    {"jsonb", "jsonb"},
    {"point", "point"},
    {"box", "box"},
    {"record", "record"},
    {"boolean", "boolean"},
    {"bool", "boolean"},
    {"oid", "oid"},
    {"name", "name"},
    {"regclass", "regclass"},
    {"regtype", "regtype"},
    {"regnamespace", "regnamespace"},
    {"regproc", "regproc"},
};

constexpr int32_t kMaxCharLength = 10485760;    // PostgreSQL's limit for char(n)/varchar(n)
constexpr int64_t kMaxNumericPrecision = 1000;  // PostgreSQL's NUMERIC_MAX_PRECISION
constexpr int64_t kMaxTimestampPrecision = 6;

int64_t ModifierValue(antlr4::tree::TerminalNode* node) {
  std::string digits = node->getText();
  int64_t n = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
  if (ec != std::errc() || end != digits.data() + digits.size()) n = int64_t{1} << 40;
  return n;
}

}  // namespace

ast::TypeSpec Transformer::TransformType(P::TypeNameContext* ctx) {
  ast::TypeSpec type = TransformSimpleType(ctx->simpleTypeName());
  // int[], int[3], int[][], int ARRAY: PostgreSQL ignores the bounds and the number of
  // dimensions; so does Meridian (its arrays have one dimension).
  // (TransformSimpleType already set array for pg_type's array names: _int4, _text, ...)
  type.array = type.array || !ctx->arrayBounds().empty() || ctx->K_ARRAY() != nullptr;
  return type;
}

ast::TypeSpec Transformer::TransformSimpleType(P::SimpleTypeNameContext* ctx) {
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
  // pg_type's names of the array types: "_" and the element type's pg_type name.
  static constexpr const char* kArrayTypeNames[] = {
      "_int2",      "_int4",        "_int8",     "_float4", "_float8", "_numeric",
      "_text",      "_varchar",     "_bpchar",   "_bool",   "_date",   "_time",
      "_timestamp", "_timestamptz", "_interval", "_uuid",   "_bytea",  "_json",
      "_jsonb",     "_point",       "_box",      "_oid",    "_name"};
  if (type.name.empty() && std::find(std::begin(kArrayTypeNames), std::end(kArrayTypeNames),
                                     written) != std::end(kArrayTypeNames)) {
    for (const TypeAlias& alias : kTypeAliases) {
      if (written.substr(1) == alias.written) type.name = alias.canonical;
    }
    type.array = true;
  }
  if (type.name.empty()) {
    Fail(ErrorAt(ctx, "42704", "type \"" + written + "\" does not exist"));
    return type;
  }
  if (ctx->K_ZONE() != nullptr && type.name != "timestamp" && type.name != "time") {
    Fail(ErrorAt(ctx, sqlstate::kSyntaxError,
                 "syntax error at or near \"" + ctx->K_ZONE()->getText() + "\""));
    return type;
  }
  if (ctx->K_WITH() != nullptr && ctx->K_ZONE() != nullptr) {
    if (type.name == "time") {
      Fail(ErrorAt(ctx, sqlstate::kFeatureNotSupported,
                   "type time with time zone is not supported"));
      return type;
    }
    type.name = "timestamptz";
  }

  antlr4::tree::TerminalNode* modifier = ctx->INTEGER_LITERAL();
  if (modifier == nullptr) return type;
  const int64_t n = ModifierValue(modifier);
  if (ctx->scale != nullptr && type.name != "numeric") {
    Fail(ErrorAt(ctx, sqlstate::kSyntaxError,
                 "type modifier is not allowed for type \"" + type.name + "\""));
    return type;
  }
  if (type.name == "numeric") {  // modifier = (p << 16) | s, PostgreSQL's typmod - 4
    if (n < 1 || n > kMaxNumericPrecision) {
      Fail(ErrorAt(ctx, "22023",
                   "NUMERIC precision " + std::to_string(n) + " must be between 1 and 1000"));
      return type;
    }
    int64_t scale = 0;
    if (ctx->scale != nullptr) {
      scale = ModifierValue(ctx->scale->INTEGER_LITERAL());
      if (ctx->scale->MINUS() != nullptr) scale = -scale;
    }
    if (scale < 0 || scale > n) {
      Fail(ErrorAt(
          ctx, sqlstate::kFeatureNotSupported,
          "NUMERIC scale " + std::to_string(scale) + " outside 0 .. precision is not supported"));
      return type;
    }
    type.modifier = static_cast<int32_t>((n << 16) | scale);
    return type;
  }
  if (type.name == "timestamp" || type.name == "timestamptz" || type.name == "time") {
    // timestamp(p), time(p): more than 6 is reduced to 6
    if (n < 0) {
      Fail(ErrorAt(ctx, "22023",
                   std::string(type.name == "time" ? "TIME(" : "TIMESTAMP(") + std::to_string(n) +
                       ") precision must not be negative"));
    }
    type.modifier = static_cast<int32_t>(std::min(n, kMaxTimestampPrecision));
    return type;
  }

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
