// Constraint checks, index maintenance and row collection shared by the INSERT, UPDATE and
// DELETE executors (see modify_table.h).
#include <algorithm>
#include <unordered_map>

#include "catalog/key_encoding.h"
#include "exec/access_path.h"
#include "exec/evaluator.h"
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

Status DuplicateKeyError(const catalog::Table& table, const catalog::Index& index, const Row& row) {
  return Status::Error(sqlstate::kUniqueViolation,
                       "duplicate key value violates unique constraint \"" + index.name() + "\"")
      .WithDetail("Key (" + table.KeyColumnNames(index.schema()) + ")=(" +
                  catalog::KeyToText(index.KeyValues(row)) + ") already exists.");
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

Status CheckUniqueIndexes(catalog::Table& table, const std::vector<KeyChange>& changes) {
  for (const std::shared_ptr<catalog::Index>& index : table.indexes()) {
    if (!index->schema().unique) continue;
    // Rows whose entry under their old key goes away: the key they leave may be reused.
    std::vector<std::string> leaving;
    std::vector<std::string> new_keys(changes.size());
    std::vector<bool> key_changes(changes.size(), true);  // the row gains a new entry
    for (size_t i = 0; i < changes.size(); ++i) {
      const KeyChange& c = changes[i];
      new_keys[i] = index->EncodeKey(*c.new_row);
      if (c.old_row == nullptr) continue;
      key_changes[i] = index->EncodeKey(*c.old_row) != new_keys[i];
      if (key_changes[i]) leaving.push_back(catalog::EncodeRid(c.old_rid));
    }
    std::sort(leaving.begin(), leaving.end());
    std::unordered_map<std::string, size_t> seen;
    for (size_t i = 0; i < changes.size(); ++i) {
      const KeyChange& c = changes[i];
      if (index->KeyHasNull(*c.new_row)) continue;  // NULLs are distinct
      if (!key_changes[i]) continue;
      if (!seen.emplace(new_keys[i], i).second) return DuplicateKeyError(table, *index, *c.new_row);
      MERIDIAN_ASSIGN_OR_RETURN(std::vector<std::string> rids, index->Lookup(new_keys[i]));
      for (const std::string& rid : rids) {
        if (!std::binary_search(leaving.begin(), leaving.end(), rid)) {
          return DuplicateKeyError(table, *index, *c.new_row);
        }
      }
    }
  }
  return Status::Ok();
}

Status InsertIndexEntries(catalog::Table& table, const Row& row, storage::Rid rid) {
  const auto& indexes = table.indexes();
  for (size_t i = 0; i < indexes.size(); ++i) {
    Status st = indexes[i]->Insert(row, rid);
    if (!st.ok()) {
      for (size_t j = 0; j < i; ++j) (void)indexes[j]->Erase(row, rid);
      return st;
    }
  }
  return Status::Ok();
}

Status EraseIndexEntries(catalog::Table& table, const Row& row, storage::Rid rid) {
  const auto& indexes = table.indexes();
  for (size_t i = 0; i < indexes.size(); ++i) {
    Status st = indexes[i]->Erase(row, rid);
    if (!st.ok()) {
      for (size_t j = 0; j < i; ++j) (void)indexes[j]->Insert(row, rid);
      return st;
    }
  }
  return Status::Ok();
}

Result<std::vector<MatchedRow>> CollectMatches(const std::shared_ptr<catalog::Table>& table,
                                               BoundExprPtr where, ExecContext* exec) {
  AccessRequest request;
  request.table = table;
  request.conjuncts = SplitConjuncts(std::move(where));
  AccessPlan plan = ChooseAccessPath(std::move(request), nullptr);
  BoundExprPtr residual = JoinConjuncts(std::move(plan.residual));
  std::unique_ptr<RowSourceOp> scan = MakeAccessOperator(table, &plan);
  MERIDIAN_RETURN_IF_ERROR(scan->Open(nullptr, exec));
  std::vector<MatchedRow> out;
  Row row;
  EvalContext ctx{&row, nullptr, exec};
  int until_check = kCheckInterval;
  while (true) {
    MERIDIAN_ASSIGN_OR_RETURN(bool more, scan->Next(&row));
    if (!more) break;
    if (--until_check <= 0) {
      MERIDIAN_RETURN_IF_ERROR(exec->ctl->Check());
      until_check = kCheckInterval;
    }
    if (residual != nullptr) {
      MERIDIAN_ASSIGN_OR_RETURN(bool pass, EvalPredicate(*residual, ctx));
      if (!pass) continue;
    }
    out.push_back({scan->last_rid(), row});
  }
  return out;
}

}  // namespace meridian::exec
