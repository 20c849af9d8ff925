// INSERT ... ON CONFLICT, row by row after the compute phase of insert.cc: each proposed row is
// probed against the arbiter indexes (FindConflict waits for running transactions that hold
// its key). No live conflict: the row is inserted as without ON CONFLICT. A conflict: DO
// NOTHING skips the row; DO UPDATE takes the existing row's write lock (READ COMMITTED follows
// it to its newest version, REPEATABLE READ fails with 40001 if a concurrent transaction
// changed it), evaluates WHERE and SET over the existing row followed by the proposed one
// (EXCLUDED) and appends the new version. A row this statement already inserted or updated is
// 21000 for DO UPDATE (PostgreSQL's "cannot affect row a second time") and skipped by DO
// NOTHING. A concurrent insert of the same key between the probe and the insert is caught by
// claiming the arbiters' keys under their locks (as PostgreSQL's speculative insertion does).
#include <unordered_set>

#include "catalog/transaction.h"
#include "execution/evaluator.h"
#include "execution/foreign_keys.h"
#include "execution/modify_table.h"

namespace meridian::exec {

namespace {

struct RidHash {
  size_t operator()(storage::Rid r) const {
    return std::hash<uint64_t>{}((static_cast<uint64_t>(r.page) << 16) ^ r.slot);
  }
};
using RidSet = std::unordered_set<storage::Rid, RidHash>;

// The existing version at rid, updated by DO UPDATE's SET over (existing, proposed). false: the
// row vanished meanwhile (the caller probes again) or WHERE rejected it (then *skipped).
Result<bool> UpdateExisting(BoundInsert& b, storage::Rid rid, const Row& proposed,
                            RidSet* written, bool* skipped, TableChanges* changes,
                            ExecContext* exec) {
  catalog::Table& table = *b.table;
  const BoundOnConflict& oc = *b.on_conflict;
  std::string bytes;
  if (!table.heap()->Get(rid, &bytes).ok()) return false;
  MatchedRow m{rid, {}, {}, 0};
  MERIDIAN_RETURN_IF_ERROR(table.DecodeRow(bytes, &m.row));
  // With a WHERE the row is locked FOR UPDATE first (it stays locked and unchanged when WHERE
  // rejects it, as in PostgreSQL); the lock becomes the old version's end once it passes.
  const bool has_where = oc.where != nullptr;
  MERIDIAN_ASSIGN_OR_RETURN(bool locked, LockRowForWrite(b.table, &m, nullptr, exec, has_where));
  if (!locked) return false;
  Row both = m.row;
  both.insert(both.end(), proposed.begin(), proposed.end());
  EvalContext ctx{&both, nullptr, exec};
  if (has_where) {
    MERIDIAN_ASSIGN_OR_RETURN(bool pass, EvalPredicate(*oc.where, ctx));
    if (!pass) {
      *skipped = true;
      return true;
    }
    MERIDIAN_ASSIGN_OR_RETURN(
        catalog::Transaction::LockResult r,
        exec->txn->LockVersion(b.table, m.rid, false, exec->ctl, LockTimeoutMs(exec)));
    if (r != catalog::Transaction::LockResult::kLocked) {
      return Status::Internal("ON CONFLICT: the row lock could not become a write");
    }
  }
  Row new_row = m.row;
  for (const BoundAssignment& a : oc.assignments) {
    MERIDIAN_ASSIGN_OR_RETURN(new_row[a.column], Eval(*a.value, ctx));
  }
  MERIDIAN_ASSIGN_OR_RETURN(storage::Rid new_rid,
                            WriteReplacement(b.table, b.checks, b.returning, m.rid, new_row, exec));
  written->insert(new_rid);
  if (changes != nullptr) {
    changes->updated_old.push_back(std::move(m.row));
    changes->updated_new.push_back(std::move(new_row));
  }
  return true;
}

}  // namespace

Result<uint64_t> InsertOnConflict(BoundInsert& b, std::vector<Row>& rows,
                                  std::vector<std::string>& tuples, ExecContext* exec) {
  if (exec->txn == nullptr) return Status::Internal("INSERT ... ON CONFLICT outside a transaction");
  catalog::Table& table = *b.table;
  const BoundOnConflict& oc = *b.on_conflict;
  RidSet written;  // versions this statement wrote
  uint64_t inserted = 0;
  uint64_t affected = 0;
  const bool foreign_keys = HasForeignKeys(table, exec);
  TableChanges changes;
  for (size_t i = 0; i < rows.size(); ++i) {
    if (i % kCheckInterval == 0) MERIDIAN_RETURN_IF_ERROR(exec->ctl->Check());
    while (true) {
      std::optional<storage::Rid> conflict;
      for (const std::shared_ptr<catalog::Index>& index : oc.arbiters) {
        MERIDIAN_ASSIGN_OR_RETURN(conflict, FindConflict(table, *index, rows[i], exec));
        if (conflict) break;
      }
      if (!conflict) {
        // Speculative insertion: the version first, then each arbiter's key claimed under the
        // key's lock. A transaction that committed the key between the probe and the claim
        // wins: this version dies (deleted by its own transaction) and the row is decided again.
        MERIDIAN_ASSIGN_OR_RETURN(storage::Rid rid, InsertVersion(b.table, tuples[i], exec));
        std::optional<storage::Rid> raced;
        for (const std::shared_ptr<catalog::Index>& index : oc.arbiters) {
          MERIDIAN_ASSIGN_OR_RETURN(raced, ClaimKey(table, *index, rows[i], rid, exec));
          if (raced) break;
        }
        if (raced) {
          MERIDIAN_RETURN_IF_ERROR(
              exec->txn->LockVersion(b.table, rid, false, exec->ctl, LockTimeoutMs(exec))
                  .status());
          continue;
        }
        MERIDIAN_RETURN_IF_ERROR(AddIndexEntries(table, rows[i], rid, exec, &oc.arbiters));
        MERIDIAN_RETURN_IF_ERROR(AddReturnedRow(b.returning, rows[i], exec));
        written.insert(rid);
        if (foreign_keys) changes.inserted.push_back(rows[i]);
        ++inserted;
        ++affected;
        break;
      }
      if (written.count(*conflict) != 0) {
        if (!oc.do_update) break;
        return Status::Error(sqlstate::kCardinalityViolation,
                             "ON CONFLICT DO UPDATE command cannot affect row a second time")
            .WithHint("Ensure that no rows proposed for insertion within the same command have "
                      "duplicate constrained values.");
      }
      if (!oc.do_update) break;
      bool skipped = false;
      MERIDIAN_ASSIGN_OR_RETURN(bool done,
                                UpdateExisting(b, *conflict, rows[i], &written, &skipped,
                                               foreign_keys ? &changes : nullptr, exec));
      if (!done) continue;  // the row went away meanwhile: probe again
      if (!skipped) ++affected;
      break;
    }
  }
  if (foreign_keys) MERIDIAN_RETURN_IF_ERROR(EnforceForeignKeys(b.table, changes, exec));
  table.AdjustRows(static_cast<int64_t>(inserted));
  table.NoteChanges(static_cast<int64_t>(affected));
  return affected;
}

}  // namespace meridian::exec
