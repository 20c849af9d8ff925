// UPDATE executor: collects every matching row of the statement's snapshot (through the
// cheapest access path) before writing anything (no Halloween problem), takes every row's
// write lock (its old version's end field; READ COMMITTED follows rows replaced meanwhile, see
// LockRowForWrite), then computes each new version from the locked one and appends it with its
// index entries; a SET subquery still reads the table as the statement found it (the command
// rule, catalog::Transaction::NextCommand). UPDATE ... FROM takes its rows from the planned
// join of the FROM items and the target (each target row once), SET and RETURNING reading the
// joined row. See modify_table.h.
#include <algorithm>

#include "catalog/transaction.h"
#include "execution/evaluator.h"
#include "execution/foreign_keys.h"
#include "execution/modify_table.h"

namespace meridian::exec {

Result<uint64_t> ExecuteUpdate(BoundUpdate& b, ExecContext* exec) {
  catalog::Table& table = *b.table;
  MERIDIAN_RETURN_IF_ERROR(table.CheckUsable());
  if (exec->txn == nullptr) return Status::Internal("UPDATE outside a transaction");

  // Phase 1: the rows to change.
  MERIDIAN_ASSIGN_OR_RETURN(std::vector<MatchedRow> matches, CollectMatches(b, exec));
  // The new version of m: SET evaluated on it (with FROM, on the joined row, the locked
  // version in its target columns).
  auto compute = [&](const MatchedRow& m) -> Result<Row> {
    EvalContext ctx{m.joined.empty() ? &m.row : &m.joined, nullptr, exec};
    Row new_row = m.row;
    for (const BoundUpdate::Assignment& a : b.assignments) {
      MERIDIAN_ASSIGN_OR_RETURN(new_row[a.column], Eval(*a.value, ctx));
    }
    return new_row;
  };
  // Phase 2: every row's write lock first (so keys may move between rows of one statement),
  // then the new versions, computed from the locked (possibly newer) versions, and their index
  // entries.
  std::vector<bool> locked(matches.size(), false);
  for (size_t i = 0; i < matches.size(); ++i) {
    MERIDIAN_ASSIGN_OR_RETURN(locked[i],
                              LockRowForWrite(b.table, &matches[i], b.recheck.get(), exec));
  }
  uint64_t updated = 0;
  const bool foreign_keys = HasForeignKeys(table, exec);
  // Unique keys no assignment touches are re-entered for the new versions without the
  // uniqueness probe (AddIndexEntries's kept): every row keeps its key, so none moves onto
  // another's, and each old version, write-locked above, already claims its key.
  std::vector<int> assigned_columns;
  for (const BoundUpdate::Assignment& a : b.assignments) assigned_columns.push_back(a.column);
  const std::vector<std::shared_ptr<catalog::Index>> kept =
      UnchangedUniqueKeys(table, assigned_columns);
  TableChanges changes;
  for (size_t i = 0; i < matches.size(); ++i) {
    if (!locked[i]) continue;  // gone, no longer matching, or already changed by this statement
    MatchedRow& m = matches[i];
    // A subquery in SET reads the tables as the statement found them: the versions this
    // statement locked or wrote are neither gone nor there for its scans (command rule,
    // catalog::Transaction::NextCommand).
    MERIDIAN_ASSIGN_OR_RETURN(Row new_row, compute(m));
    if (m.joined.empty()) {
      MERIDIAN_RETURN_IF_ERROR(
          WriteReplacement(b.table, b.checks, b.returning, m.rid, new_row, exec, &kept).status());
    } else {  // RETURNING reads the joined row with the new version
      MERIDIAN_RETURN_IF_ERROR(
          WriteReplacement(b.table, b.checks, BoundReturning{}, m.rid, new_row, exec, &kept)
              .status());
      std::copy(new_row.begin(), new_row.end(),
                m.joined.begin() + static_cast<ptrdiff_t>(m.offset));
      MERIDIAN_RETURN_IF_ERROR(AddReturnedRow(b.returning, m.joined, exec));
    }
    if (foreign_keys) {
      changes.updated_old.push_back(m.row);
      changes.updated_new.push_back(std::move(new_row));
    }
    ++updated;
  }
  if (foreign_keys) MERIDIAN_RETURN_IF_ERROR(EnforceForeignKeys(b.table, changes, exec));
  table.NoteChanges(static_cast<int64_t>(updated));
  return updated;
}

}  // namespace meridian::exec
