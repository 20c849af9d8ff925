// Constraint checks and tuple encoding shared by the INSERT and UPDATE executors.
#include "catalog/key_encoding.h"
#include "exec/modify_table.h"
#include "storage/tuple.h"

namespace meridian::exec {

Status CheckNotNull(const catalog::Table& table, const Row& row) {
  const catalog::TableSchema& schema = table.schema();
  for (size_t c = 0; c < schema.columns.size(); ++c) {
    if (schema.columns[c].not_null && row[c].IsNull()) {
      return Status::Error(sqlstate::kNotNullViolation, "null value in column \"" +
                                                            schema.columns[c].name +
                                                            "\" of relation \"" + schema.name +
                                                            "\" violates not-null constraint")
          .WithDetail("Failing row contains (" + catalog::KeyToText(row) + ").");
    }
  }
  return Status::Ok();
}

Status DuplicateKeyError(const catalog::Table& table, const Row& row) {
  const catalog::TableSchema& schema = table.schema();
  std::string names;
  for (size_t i = 0; i < schema.primary_key.size(); ++i) {
    if (i > 0) names += ", ";
    names += schema.columns[schema.primary_key[i]].name;
  }
  return Status::Error(
             sqlstate::kUniqueViolation,
             "duplicate key value violates unique constraint \"" + schema.PrimaryKeyName() + "\"")
      .WithDetail("Key (" + names + ")=(" + catalog::KeyToText(table.KeyValues(row)) +
                  ") already exists.");
}

Result<std::string> EncodeRow(const catalog::Table& table, const Row& row) {
  std::string bytes = storage::EncodeTuple(row, table.types());
  if (bytes.size() > storage::HeapFile::MaxTupleSize()) {
    return Status::Error(sqlstate::kProgramLimitExceeded,
                         "row is too big: size " + std::to_string(bytes.size()) +
                             ", maximum size " + std::to_string(storage::HeapFile::MaxTupleSize()));
  }
  return bytes;
}

}  // namespace meridian::exec
