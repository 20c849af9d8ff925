// TableSchema helpers and the mapping from written type names to Meridian types.
#include "catalog/schema.h"

#include <algorithm>

namespace meridian::catalog {

int TableSchema::FindColumn(const std::string& column) const {
  for (size_t i = 0; i < columns.size(); ++i) {
    if (columns[i].name == column && !columns[i].dropped) return static_cast<int>(i);
  }
  return -1;
}

std::vector<int> TableSchema::LiveColumns() const {
  std::vector<int> out;
  for (size_t i = 0; i < columns.size(); ++i) {
    if (!columns[i].dropped) out.push_back(static_cast<int>(i));
  }
  return out;
}

bool ViewSchema::ReadsRelation(uint32_t relation_id) const {
  return std::find(relations.begin(), relations.end(), relation_id) != relations.end();
}

bool ViewSchema::ReadsColumn(uint32_t table_id, int position) const {
  return std::find(table_columns.begin(), table_columns.end(),
                   std::pair<uint32_t, int>{table_id, position}) != table_columns.end();
}

const ForeignKey* TableSchema::FindForeignKey(const std::string& fk_name) const {
  for (const ForeignKey& fk : foreign_keys) {
    if (fk.name == fk_name) return &fk;
  }
  return nullptr;
}

const CheckConstraint* TableSchema::FindCheck(const std::string& check) const {
  for (const CheckConstraint& c : checks) {
    if (c.name == check) return &c;
  }
  return nullptr;
}

std::vector<Type> TableSchema::Types() const {
  std::vector<Type> types;
  types.reserve(columns.size());
  for (const Column& c : columns) types.push_back(c.type);
  return types;
}

bool TableSchema::IsPrimaryKeyColumn(int index) const {
  for (int k : primary_key) {
    if (k == index) return true;
  }
  return false;
}

Result<Type> TypeFromSpec(const ast::TypeSpec& spec) {
  if (spec.array) {
    ast::TypeSpec element = spec;
    element.array = false;
    MERIDIAN_ASSIGN_OR_RETURN(Type t, TypeFromSpec(element));
    return Type::Array(t);
  }
  const std::string& n = spec.name;
  if (n == "integer" || n == "int" || n == "int4") return Type::Integer();
  if (n == "smallint" || n == "int2") return Type::SmallInt();
  if (n == "real" || n == "float4") return Type::Real();
  if (n == "numeric" || n == "decimal") return Type::Numeric(spec.modifier);
  if (n == "date") return Type::Date();
  if (n == "timestamp") return Type::Timestamp(spec.modifier);
  if (n == "timestamptz") return Type::TimestampTz(spec.modifier);
  if (n == "interval") return Type::Interval();
  if (n == "time") return Type::Time(spec.modifier);
  if (n == "uuid") return Type::Uuid();
  if (n == "bytea") return Type::Bytea();
  if (n == "json") return Type::Json();
  if (n == "jsonb") return Type::Jsonb();
  if (n == "point") return Type::Point();
  if (n == "box") return Type::Box();
  if (n == "record") return Type::Record();
  if (n == "bigint" || n == "int8" || n == "oid") return Type::BigInt();  // oid: no uint32 yet
  if (n == "name") return Type::Text();
  if (n == "double precision" || n == "float" || n == "float8") {
    return Type::Double();
  }
  if (n == "text") return Type::Text();
  if (n == "boolean" || n == "bool") return Type::Boolean();
  if (n == "varchar" || n == "char" || n == "character varying" || n == "character" ||
      n == "bpchar") {
    int32_t len = spec.modifier;
    if (len < 0 && (n == "char" || n == "character" || n == "bpchar")) len = 1;
    if (len == 0) {
      return Status::Error(sqlstate::kInvalidParameterValue,
                           "length for type " + n + " must be at least 1")
          .WithPosition(spec.loc.position);
    }
    if (n == "char" || n == "character" || n == "bpchar") return Type::Char(len);
    return Type::Varchar(len);
  }
  return Status::Error(sqlstate::kUndefinedObject, "type \"" + n + "\" does not exist")
      .WithPosition(spec.loc.position);
}

Status CheckColumnType(Type type, uint32_t position) {
  if (type.id == TypeId::kRecord) {
    return Status::NotSupported("record columns are not supported yet")
        .WithDetail("Records (ROW(...), whole-row references) are values of expressions.")
        .WithPosition(position);
  }
  if (!type.IsArray()) return Status::Ok();
  // One-dimensional arrays of the scalar types are stored (storage/tuple.h); int2vector and
  // oidvector are system-catalog types only, and an array of records is a value only.
  if (type.IsVector() || type.element == TypeId::kRecord || type.element == TypeId::kUnknown) {
    return Status::NotSupported("columns of type " + type.Name() + " are not supported yet")
        .WithPosition(position);
  }
  return Status::Ok();
}

Result<Type> ColumnTypeFromSpec(const ast::TypeSpec& spec) {
  MERIDIAN_ASSIGN_OR_RETURN(Type t, TypeFromSpec(spec));
  MERIDIAN_RETURN_IF_ERROR(CheckColumnType(t, spec.loc.position));
  return t;
}

}  // namespace meridian::catalog
