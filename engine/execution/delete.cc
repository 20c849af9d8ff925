// DELETE executor: collects the matching rows of the statement's snapshot (through the cheapest
// access path), then takes each one's row write lock by setting its end field (READ COMMITTED
// follows rows replaced meanwhile, see LockRowForWrite). Index entries stay (readers filter by
// visibility) until garbage collection. DELETE ... USING takes its rows from the planned join
// (each target row once); RETURNING reads the joined row. See modify_table.h.
#include "catalog/transaction.h"
#include "execution/foreign_keys.h"
#include "execution/modify_table.h"

namespace meridian::exec {

Result<uint64_t> ExecuteDelete(BoundDelete& b, ExecContext* exec) {
  catalog::Table& table = *b.table;
  MERIDIAN_RETURN_IF_ERROR(table.CheckUsable());
  if (exec->txn == nullptr) return Status::Internal("DELETE outside a transaction");
  MERIDIAN_ASSIGN_OR_RETURN(std::vector<MatchedRow> victims, CollectMatches(b, exec));
  uint64_t deleted = 0;
  const bool foreign_keys = HasForeignKeys(table, exec);
  TableChanges changes;
  for (MatchedRow& v : victims) {
    MERIDIAN_ASSIGN_OR_RETURN(bool locked, LockRowForWrite(b.table, &v, b.recheck.get(), exec));
    if (!locked) continue;
    MERIDIAN_RETURN_IF_ERROR(AddReturnedRow(b.returning, v.joined.empty() ? v.row : v.joined, exec));
    if (foreign_keys) changes.deleted.push_back(std::move(v.row));
    ++deleted;
  }
  if (foreign_keys) MERIDIAN_RETURN_IF_ERROR(EnforceForeignKeys(b.table, changes, exec));
  table.AdjustRows(-static_cast<int64_t>(deleted));
  table.NoteChanges(static_cast<int64_t>(deleted));
  return deleted;
}

}  // namespace meridian::exec
