// INSERT executor: evaluates every source row, fills defaults, checks constraints, then
// inserts all tuples (undoing the inserted ones if a heap write fails). See modify_table.h.
#include <unordered_set>

#include "catalog/key_encoding.h"
#include "exec/evaluator.h"
#include "exec/modify_table.h"

namespace meridian::exec {

Result<uint64_t> ExecuteInsert(BoundInsert& b, ExecContext* exec) {
  catalog::Table& table = *b.table;
  MERIDIAN_RETURN_IF_ERROR(table.CheckUsable());
  const size_t ncols = table.schema().columns.size();

  // Phase 1: compute and validate every row.
  MERIDIAN_RETURN_IF_ERROR(b.source->Open(nullptr, exec));
  Row empty;
  EvalContext ctx{&empty, nullptr, exec};
  std::vector<std::string> tuples;
  std::vector<std::string> keys;
  std::unordered_set<std::string> batch_keys;
  Row src;
  int until_check = kCheckInterval;
  while (true) {
    MERIDIAN_ASSIGN_OR_RETURN(bool more, b.source->Next(&src));
    if (!more) break;
    if (--until_check <= 0) {
      MERIDIAN_RETURN_IF_ERROR(exec->ctl->Check());
      until_check = kCheckInterval;
    }
    Row row(ncols);
    for (size_t c = 0; c < ncols; ++c) {
      if (b.column_source[c] >= 0) {
        row[c] = std::move(src[b.column_source[c]]);
      } else if (b.defaults[c] != nullptr) {
        MERIDIAN_ASSIGN_OR_RETURN(row[c], Eval(*b.defaults[c], ctx));
      }
    }
    MERIDIAN_RETURN_IF_ERROR(CheckNotNull(table, row));
    if (table.has_primary_key()) {
      std::string key = catalog::EncodeKey(table.KeyValues(row));
      if (table.pk().Contains(key) || !batch_keys.insert(key).second) {
        return DuplicateKeyError(table, row);
      }
      keys.push_back(std::move(key));
    }
    MERIDIAN_ASSIGN_OR_RETURN(std::string bytes, EncodeRow(table, row));
    tuples.push_back(std::move(bytes));
  }

  // Phase 2: apply; undo on failure so the statement has no partial effect.
  std::vector<storage::Rid> inserted;
  inserted.reserve(tuples.size());
  for (const std::string& t : tuples) {
    auto rid = table.heap()->Insert(t);
    if (!rid.ok()) {
      for (const storage::Rid& r : inserted) (void)table.heap()->Delete(r);
      return rid.status();
    }
    inserted.push_back(*rid);
  }
  for (std::string& k : keys) table.pk().Insert(std::move(k));
  return static_cast<uint64_t>(tuples.size());
}

}  // namespace meridian::exec
