// INSERT, UPDATE and DELETE executors under MVCC (docs/txn.md). Each runs a whole
// statement in one call while the caller holds the target table's SHARED lock (concurrent
// writers meet at row write locks and unique-key locks), in two phases so that a statement
// never sees its own changes (Halloween problem):
//   1. compute: find every affected row in the statement's snapshot (through the cheapest
//      access path), build the new tuples, check NOT NULL and tuple size — no writes;
//   2. apply: take the row write locks (UPDATE/DELETE: the old versions' end fields; waiting
//      for running writers, 40001 when a newer committed version exists), append new versions
//      and their index entries with the unique checks.
// On an error the caller rolls the statement back (Transaction::RollbackTo): versions are
// never overwritten, so nothing needs restoring beyond the header marks.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "binder/bound_statement.h"
#include "execution/operator.h"
#include "optimizer/access_path.h"

namespace meridian::exec {

Result<uint64_t> ExecuteInsert(BoundInsert& insert, ExecContext* exec);
Result<uint64_t> ExecuteUpdate(BoundUpdate& update, ExecContext* exec);
Result<uint64_t> ExecuteDelete(BoundDelete& del, ExecContext* exec);
// Phase 2 of an INSERT with ON CONFLICT (insert_conflict.cc): rows and their encoded tuples
// from the compute phase. Returns the rows inserted or updated.
Result<uint64_t> InsertOnConflict(BoundInsert& insert, std::vector<Row>& rows,
                                  std::vector<std::string>& tuples, ExecContext* exec);

// RETURNING (returning.cc): evaluates returning over row, a row the statement wrote (DELETE:
// the old row), into exec->returned; nothing when there is no RETURNING.
Status AddReturnedRow(const BoundReturning& returning, const Row& row, ExecContext* exec);

// Shared checks of the compute phase (modify_checks.cc).
// 23502 when row has NULL in a NOT NULL column of table.
Status CheckNotNull(const catalog::Table& table, const Row& row);
// 23514 `new row for relation "t" violates check constraint "c"` for the first CHECK whose
// expression is false on row (NULL passes, as in PostgreSQL).
Status CheckConstraints(const catalog::Table& table, const std::vector<BoundCheck>& checks,
                        const Row& row, ExecContext* exec);
// PostgreSQL's "Failing row contains (...)." detail: row's values, dropped columns left out.
std::string FailingRow(const catalog::TableSchema& schema, const Row& row);
// 23505 with PostgreSQL's message naming the index and "Key (a, b)=(1, 2) already exists.".
Status DuplicateKeyError(const catalog::Table& table, const catalog::Index& index, const Row& row);
// Encodes row for table's heap; 54000 when the tuple is larger than the heap accepts.
Result<std::string> EncodeRow(const catalog::Table& table, const Row& row);

// Inserts the version tuple (its begin field set to the statement's transaction) and records
// it in the transaction's write set. Returns where it went.
Result<storage::Rid> InsertVersion(const std::shared_ptr<catalog::Table>& table, std::string tuple,
                                   ExecContext* exec);
// What a version means in the newest committed state (unique checks, foreign keys): dead
// (created by an aborted transaction, deleted by a committed one or by this one), live
// (created by a committed transaction or this one and not deleted; a row lock does not
// delete), or wait (a running transaction created or deletes it: *holder is set). With
// committing set (early lock release), a committing transaction counts as committed and is
// appended to *committing; otherwise it is waited for like a running one.
enum class KeyVersion { kDead, kLive, kWait };
KeyVersion Classify(const storage::TupleHeader& h, const catalog::Transaction& txn,
                    uint64_t* holder, std::vector<uint64_t>* committing = nullptr);

// Adds a new version's entries to every index of table. A unique index is checked first, under
// the key's lock, against every version of the key that is not dead (created by a committed
// or this transaction and not deleted by a committed one or this one): a version of a running
// transaction is waited for; a live one is 23505. NULL keys never conflict.
// skip: indexes already done (ON CONFLICT's arbiters, see ClaimKey). kept: unique indexes whose
// key the new version keeps from the old one it replaces, whose write lock this transaction
// holds, in a statement that changes no key of theirs: the old version's entry already claims
// the key (no other transaction may claim it while the lock is held, and no row of the
// statement moves onto it), so the entry is added without the probe (UnchangedUniqueKeys).
Status AddIndexEntries(catalog::Table& table, const Row& row, storage::Rid rid, ExecContext* exec,
                       const std::vector<std::shared_ptr<catalog::Index>>* skip = nullptr,
                       const std::vector<std::shared_ptr<catalog::Index>>* kept = nullptr);
// UPDATE: the unique indexes of table whose key no assignment can change: plain keys (no
// expression, no predicate) over columns none of assigned_columns names.
std::vector<std::shared_ptr<catalog::Index>> UnchangedUniqueKeys(
    const catalog::Table& table, const std::vector<int>& assigned_columns);
// One unique index's part of AddIndexEntries: under the key's lock, either the rid of a live
// version of row's key (nothing inserted) or rid's entry inserted (none returned).
Result<std::optional<storage::Rid>> ClaimKey(catalog::Table& table, catalog::Index& index,
                                             const Row& row, storage::Rid rid, ExecContext* exec);
// ON CONFLICT's probe: the rid of a live version (as AddIndexEntries judges them) of row's key
// in the unique index, after waiting for running transactions that hold one; none when row's
// key has a NULL or no live version exists. Needs a transaction.
Result<std::optional<storage::Rid>> FindConflict(catalog::Table& table, catalog::Index& index,
                                                 const Row& row, ExecContext* exec);
// The new version of a locked row (UPDATE, ON CONFLICT DO UPDATE): NOT NULL and CHECK on
// new_row, the version appended as old_rid's successor with its index entries, RETURNING.
// kept: as AddIndexEntries's. Returns the new version's rid.
Result<storage::Rid> WriteReplacement(
    const std::shared_ptr<catalog::Table>& table, const std::vector<BoundCheck>& checks,
    const BoundReturning& returning, storage::Rid old_rid, const Row& new_row, ExecContext* exec,
    const std::vector<std::shared_ptr<catalog::Index>>* kept = nullptr);
struct MatchedRow {
  storage::Rid rid;
  Row row;
  // UPDATE ... FROM / DELETE ... USING: the joined row the match came from, holding row at
  // offset (kept equal to it); empty otherwise. The WHERE re-check, SET and RETURNING read it.
  Row joined;
  size_t offset = 0;
};

// Takes the row write lock of m, a version matched in the statement's snapshot. When a
// transaction that committed meanwhile replaced the row: REPEATABLE READ fails with 40001;
// READ COMMITTED follows the row to its newest version, re-checks recheck (the WHERE; null =
// true) on it and locks that one instead, as PostgreSQL's EvalPlanQual does (*m then holds
// it; with m->joined, recheck reads the joined row holding the newer version, the FROM rows
// staying as they were). false: the row is gone, no longer matches, or this statement already
// changed it.
// lock_only: a FOR UPDATE lock that does not delete the version (ON CONFLICT DO UPDATE ...
// WHERE, which may leave the row as it is); a lock this transaction holds already counts.
Result<bool> LockRowForWrite(const std::shared_ptr<catalog::Table>& table, MatchedRow* m,
                             const BoundExpr* recheck, ExecContext* exec, bool lock_only = false);
// lock_timeout of the statement's session (0 = none).
int64_t LockTimeoutMs(const ExecContext* exec);

// The cheapest access path to the rows of table that satisfy where (null: all).
AccessPlan ChooseMatchPath(const std::shared_ptr<catalog::Table>& table, BoundExprPtr where);
// Plans how an UPDATE or DELETE finds its rows: ChooseMatchPath's operator in m->scan and the
// conjuncts it does not enforce in m->residual (m->where is moved into them). Nothing for a
// join (FROM / USING): the statement driver plans m->join with the planner. Planning reads
// only lock-free table facts (invariant 6 of README.md); a plan made before the statement took
// its locks is used only when no DDL or ANALYZE came between (plan_cache.h).
void PlanMatches(BoundMatch* m);
// The rows of m's table that satisfy its WHERE, found through m's planned scan (PlanMatches
// runs first when it has none), with their rids, in one pass and before anything is written.
// With FROM / USING, the target rows of m's planned join (m.join_plan; Internal when missing)
// with their joined rows; a target row several joined rows match is taken once, with the
// first of them (PostgreSQL leaves unspecified which one). Polls exec->ctl.
Result<std::vector<MatchedRow>> CollectMatches(BoundMatch& m, ExecContext* exec);

}  // namespace meridian::exec
