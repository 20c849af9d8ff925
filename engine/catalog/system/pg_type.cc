// pg_type: the built-in types (builtin_types.h) and their array types. Meridian has no
// user-defined types, so this table is the same in every database.
#include "catalog/system/builtin_types.h"
#include "catalog/system/system_table.h"

namespace meridian::catalog::system {

namespace {

constexpr BuiltinType kTypes[] = {
    {kOidBool, "bool", "boolean", 1, "B", kOidBoolArray},
    {kOidBytea, "bytea", "bytea", -1, "U", kOidByteaArray},
    {kOidChar, "char", "\"char\"", 1, "Z", kOidCharArray},
    {kOidName, "name", "name", 64, "S", kOidNameArray},
    {kOidInt8, "int8", "bigint", 8, "N", kOidInt8Array},
    {kOidInt2, "int2", "smallint", 2, "N", kOidInt2Array},
    {kOidInt2Vector, "int2vector", "int2vector", -1, "A", kOidInt2VectorArray},
    {kOidInt4, "int4", "integer", 4, "N", kOidInt4Array},
    {kOidRegProc, "regproc", "regproc", 4, "N", kOidRegProcArray},
    {kOidText, "text", "text", -1, "S", kOidTextArray},
    {kOidOid, "oid", "oid", 4, "N", kOidOidArray},
    {kOidOidVector, "oidvector", "oidvector", -1, "A", kOidOidVectorArray},
    {kOidJson, "json", "json", -1, "U", kOidJsonArray},
    {kOidFloat4, "float4", "real", 4, "N", kOidFloat4Array},
    {kOidFloat8, "float8", "double precision", 8, "N", kOidFloat8Array},
    {kOidPoint, "point", "point", 16, "G", kOidPointArray},
    {kOidBox, "box", "box", 32, "G", kOidBoxArray},
    {kOidUnknown, "unknown", "unknown", -2, "X", 0},
    {kOidBpchar, "bpchar", "character", -1, "S", kOidBpcharArray},
    {kOidVarchar, "varchar", "character varying", -1, "S", kOidVarcharArray},
    {kOidDate, "date", "date", 4, "D", kOidDateArray},
    {kOidTime, "time", "time without time zone", 8, "D", kOidTimeArray},
    {kOidTimestamp, "timestamp", "timestamp without time zone", 8, "D", kOidTimestampArray},
    {kOidTimestampTz, "timestamptz", "timestamp with time zone", 8, "D", kOidTimestampTzArray},
    {kOidInterval, "interval", "interval", 16, "T", kOidIntervalArray},
    {kOidNumeric, "numeric", "numeric", -1, "N", kOidNumericArray},
    {kOidRegClass, "regclass", "regclass", 4, "N", kOidRegClassArray},
    {kOidRegType, "regtype", "regtype", 4, "N", kOidRegTypeArray},
    {kOidUuid, "uuid", "uuid", 16, "U", kOidUuidArray},
    {kOidJsonb, "jsonb", "jsonb", -1, "U", kOidJsonbArray},
    {kOidRegNamespace, "regnamespace", "regnamespace", 4, "N", kOidRegNamespaceArray},
};

}  // namespace

std::span<const BuiltinType> BuiltinTypes() { return kTypes; }

const BuiltinType* FindBuiltinType(int64_t oid) {
  for (const BuiltinType& t : kTypes) {
    if (t.oid == oid) return &t;
  }
  return nullptr;
}

int TypLen(Type t) {
  const BuiltinType* b = FindBuiltinType(t.PgOid());
  return b != nullptr ? b->len : -1;
}

static std::vector<Row> PgTypeRows(const Snapshot&) {
  std::vector<Row> rows;
  for (const BuiltinType& t : kTypes) {
    const std::string n = t.name;
    const bool by_val = t.len > 0 && t.len <= 8 && n != "name";
    const bool collatable = n == "text" || n == "varchar" || n == "bpchar" || n == "name";
    rows.push_back({O(t.oid),
                    T(n),
                    O(kOidPgCatalogNamespace),
                    O(kOidBootstrapSuperuser),
                    I(t.len),
                    B(by_val),
                    T(n == "unknown" ? "p" : "b"),
                    T(t.category),
                    B(n == "text" || n == "float8" || n == "bool" || n == "oid"),
                    B(true),
                    T(","),
                    O(0),
                    T("-"),
                    O(0),
                    O(t.array_oid),
                    T(n + "in"),
                    T(n + "out"),
                    T(n + "recv"),
                    T(n + "send"),
                    T("-"),
                    T("-"),
                    T("-"),
                    T(t.len == 8   ? "d"
                      : t.len == 2 ? "s"
                      : t.len == 1 ? "c"
                                   : "i"),
                    T(t.len > 0        ? "p"
                      : n == "numeric" ? "m"
                                       : "x"),  // PostgreSQL's typstorage
                    B(false),
                    O(0),
                    I(-1),
                    I(0),
                    O(collatable ? kOidDefaultCollation : 0),
                    N(),
                    N(),
                    N()});
  }
  // The array types (columns and values of type T[]): "_" and the element's name.
  for (const BuiltinType& t : kTypes) {
    if (t.array_oid == 0) continue;
    const std::string n = t.name;
    const bool collatable = n == "text" || n == "varchar" || n == "bpchar" || n == "name";
    rows.push_back({O(t.array_oid),
                    T("_" + n),
                    O(kOidPgCatalogNamespace),
                    O(kOidBootstrapSuperuser),
                    I(-1),
                    B(false),
                    T("b"),
                    T("A"),
                    B(false),
                    B(true),
                    T(","),
                    O(0),
                    T("array_subscript_handler"),
                    O(t.oid),
                    O(0),
                    T("array_in"),
                    T("array_out"),
                    T("array_recv"),
                    T("array_send"),
                    T("-"),
                    T("-"),
                    T("array_typanalyze"),
                    T(t.len == 8 ? "d" : "i"),
                    T("x"),
                    B(false),
                    O(0),
                    I(-1),
                    I(0),
                    O(collatable ? kOidDefaultCollation : 0),
                    N(),
                    N(),
                    N()});
  }
  return rows;
}

SystemTable PgType() {
  return {"pg_catalog",
          "pg_type",
          kOidPgType,
          false,
          {{"oid", kOidColumn},
           {"typname", Type::Text()},
           {"typnamespace", kOidColumn},
           {"typowner", kOidColumn},
           {"typlen", Type::Integer()},
           {"typbyval", Type::Boolean()},
           {"typtype", Type::Text()},
           {"typcategory", Type::Text()},
           {"typispreferred", Type::Boolean()},
           {"typisdefined", Type::Boolean()},
           {"typdelim", Type::Text()},
           {"typrelid", kOidColumn},
           {"typsubscript", Type::Text()},
           {"typelem", kOidColumn},
           {"typarray", kOidColumn},
           {"typinput", Type::Text()},
           {"typoutput", Type::Text()},
           {"typreceive", Type::Text()},
           {"typsend", Type::Text()},
           {"typmodin", Type::Text()},
           {"typmodout", Type::Text()},
           {"typanalyze", Type::Text()},
           {"typalign", Type::Text()},
           {"typstorage", Type::Text()},
           {"typnotnull", Type::Boolean()},
           {"typbasetype", kOidColumn},
           {"typtypmod", Type::Integer()},
           {"typndims", Type::Integer()},
           {"typcollation", kOidColumn},
           {"typdefaultbin", Type::Text()},
           {"typdefault", Type::Text()},
           {"typacl", Type::Text()}},
          PgTypeRows};
}

}  // namespace meridian::catalog::system
