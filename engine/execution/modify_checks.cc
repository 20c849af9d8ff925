// Constraint checks, index maintenance and row collection shared by the INSERT, UPDATE and
// DELETE executors (see modify_table.h).
#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "catalog/key_text.h"
#include "catalog/transaction.h"
#include "execution/evaluator.h"
#include "execution/modify_table.h"
#include "main/session_settings.h"
#include "optimizer/access_path.h"
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
          .WithDetail(FailingRow(schema, row));
    }
  }
  return Status::Ok();
}

std::string FailingRow(const catalog::TableSchema& schema, const Row& row) {
  Row shown;
  for (int c : schema.LiveColumns()) {
    if (static_cast<size_t>(c) < row.size()) shown.push_back(row[c]);
  }
  return "Failing row contains (" + catalog::KeyToText(shown) + ").";
}

Status CheckConstraints(const catalog::Table& table, const std::vector<BoundCheck>& checks,
                        const Row& row, ExecContext* exec) {
  EvalContext ctx{&row, nullptr, exec};
  for (const BoundCheck& c : checks) {
    MERIDIAN_ASSIGN_OR_RETURN(Value v, Eval(*c.expr, ctx));
    if (v.IsNull() || v.AsBool()) continue;  // NULL passes a CHECK
    return Status::Error(sqlstate::kCheckViolation, "new row for relation \"" + table.name() +
                                                        "\" violates check constraint \"" + c.name +
                                                        "\"")
        .WithDetail(FailingRow(table.schema(), row));
  }
  return Status::Ok();
}

Status DuplicateKeyError(const catalog::Table& table, const catalog::Index& index, const Row& row) {
  MERIDIAN_ASSIGN_OR_RETURN(std::vector<Value> values, index.KeyValues(row));
  return Status::Error(sqlstate::kUniqueViolation,
                       "duplicate key value violates unique constraint \"" + index.name() + "\"")
      .WithDetail("Key (" + table.KeyColumnNames(index.schema()) + ")=(" +
                  catalog::KeyToText(values) + ") already exists.");
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

int64_t LockTimeoutMs(const ExecContext* exec) {
  return exec->settings != nullptr ? exec->settings->lock_timeout_ms() : 0;
}

Result<storage::Rid> InsertVersion(const std::shared_ptr<catalog::Table>& table, std::string tuple,
                                   ExecContext* exec) {
  catalog::Transaction* txn = exec->txn;
  if (txn == nullptr) return Status::Internal("a write outside a transaction");
  storage::WriteTupleHeader(tuple.data(), storage::TupleHeader{txn->id(), 0, 0});
  MERIDIAN_ASSIGN_OR_RETURN(storage::Rid rid, table->heap()->Insert(tuple));
  txn->NoteInsert(table, rid);
  return rid;
}

Result<bool> LockRowForWrite(const std::shared_ptr<catalog::Table>& table, MatchedRow* m,
                             const BoundExpr* recheck, ExecContext* exec, bool lock_only) {
  catalog::Transaction& txn = *exec->txn;
  const txn::TxnManager& txns = *txn.manager();
  while (true) {
    MERIDIAN_ASSIGN_OR_RETURN(
        catalog::Transaction::LockResult r,
        txn.LockVersion(table, m->rid, lock_only, exec->ctl, LockTimeoutMs(exec)));
    if (r == catalog::Transaction::LockResult::kLocked) return true;
    // lock_only: a live version whose lock this transaction already holds.
    if (r == catalog::Transaction::LockResult::kAlreadyMine && lock_only) return true;
    if (r == catalog::Transaction::LockResult::kAlreadyMine ||
        r == catalog::Transaction::LockResult::kBusy) {
      return false;
    }
    if (txn.isolation() != catalog::Isolation::kReadCommitted) {
      return Status::Error(sqlstate::kSerializationFailure,
                           "could not serialize access due to concurrent update");
    }
    // READ COMMITTED: find the version that replaced this one, if any (none: deleted).
    MERIDIAN_ASSIGN_OR_RETURN(storage::TupleHeader old, table->heap()->ReadHeader(m->rid));
    std::optional<storage::Rid> next = table->Successor(m->rid);
    if (!next) return false;
    std::string bytes;
    if (!table->heap()->Get(*next, &bytes).ok()) return false;
    const storage::TupleHeader h = storage::ReadTupleHeader(bytes);
    // Only the replacement its committed deleter wrote (not one of an aborted update).
    // A committing deleter counts (early lock release: LockVersion noted the dependency).
    const txn::Timestamp created = txns.ResolveDecided(h.begin);
    if (created == txn::kInfinity || created != txns.ResolveDecided(old.end)) return false;
    Row row;
    MERIDIAN_RETURN_IF_ERROR(table->DecodeRow(bytes, &row));
    Row joined;
    if (!m->joined.empty()) {  // the newer version in the joined row, the FROM rows as before
      joined = m->joined;
      std::copy(
          row.begin(),
          row.begin() + static_cast<ptrdiff_t>(std::min(row.size(), joined.size() - m->offset)),
          joined.begin() + static_cast<ptrdiff_t>(m->offset));
    }
    if (recheck != nullptr) {
      EvalContext ctx{m->joined.empty() ? &row : &joined, nullptr, exec};
      MERIDIAN_ASSIGN_OR_RETURN(bool pass, EvalPredicate(*recheck, ctx));
      if (!pass) return false;
    }
    m->rid = *next;
    m->row = std::move(row);
    if (!m->joined.empty()) m->joined = std::move(joined);
  }
}

KeyVersion Classify(const storage::TupleHeader& h, const catalog::Transaction& txn,
                    uint64_t* holder, std::vector<uint64_t>* committing) {
  const txn::TxnManager& m = *txn.manager();
  const bool lock_mark = (h.flags & storage::kTupleFlagLockOnly) != 0;
  // Created and deleted by one transaction (a rolled-back statement or savepoint): dead.
  if (h.end == h.begin && txn::IsTxnId(h.begin) && !lock_mark) return KeyVersion::kDead;
  if (txn::IsTxnId(h.begin) && h.begin != txn.id()) {
    switch (m.State(h.begin)) {
      case txn::TxnState::kAborted:
        return KeyVersion::kDead;
      case txn::TxnState::kCommitting:
        if (committing != nullptr) {
          committing->push_back(h.begin);
          break;
        }
        [[fallthrough]];
      case txn::TxnState::kRunning:
        *holder = h.begin;
        return KeyVersion::kWait;
      case txn::TxnState::kCommitted:
        break;
    }
  }
  if (h.end == 0 || lock_mark) return KeyVersion::kLive;
  if (h.end == txn.id()) return KeyVersion::kDead;
  if (!txn::IsTxnId(h.end)) return KeyVersion::kDead;  // deleted by a committed transaction
  switch (m.State(h.end)) {
    case txn::TxnState::kAborted:
      return KeyVersion::kLive;
    case txn::TxnState::kCommitting:
      if (committing != nullptr) {
        committing->push_back(h.end);
        return KeyVersion::kDead;
      }
      [[fallthrough]];
    case txn::TxnState::kRunning:
      *holder = h.end;
      return KeyVersion::kWait;
    case txn::TxnState::kCommitted:
      return KeyVersion::kDead;
  }
  return KeyVersion::kLive;
}

namespace {

// Under the key's lock: the rid of a live version of key in index, or none. *holder is set
// (and none returned) when a running transaction's version decides.
Result<std::optional<storage::Rid>> LiveVersionOfKey(catalog::Table& table, catalog::Index& index,
                                                     const std::string& key, ExecContext* exec,
                                                     uint64_t* holder) {
  MERIDIAN_ASSIGN_OR_RETURN(std::vector<std::string> rids, index.Lookup(key));
  for (const std::string& r : rids) {
    const storage::Rid rid = catalog::DecodeRid(r);
    auto header = table.heap()->ReadHeader(rid);
    if (!header.ok()) continue;  // a slot freed by garbage collection
    std::vector<uint64_t> committing;
    KeyVersion v = Classify(*header, *exec->txn, holder, &committing);
    // The answer rests on those commits (early lock release): so does this transaction.
    for (uint64_t c : committing) exec->txn->NoteDependency(c);
    if (v == KeyVersion::kLive) return std::optional<storage::Rid>(rid);
    if (v == KeyVersion::kWait) break;
  }
  return std::optional<storage::Rid>();
}

}  // namespace

namespace {

// ClaimKey and FindConflict: under the key's lock, a live version's rid, or (claim set) the
// claim's entry inserted; waits for running holders of the key in between.
Result<std::optional<storage::Rid>> ProbeKey(catalog::Table& table, catalog::Index& index,
                                             const Row& row, const storage::Rid* claim,
                                             ExecContext* exec) {
  // A partial index's predicate rejecting the row: no entry, so no conflict either.
  MERIDIAN_ASSIGN_OR_RETURN(bool covered, index.Covers(row));
  if (!covered) return std::optional<storage::Rid>();
  MERIDIAN_ASSIGN_OR_RETURN(bool has_null, index.KeyHasNull(row));
  if (has_null || exec->txn == nullptr) {
    if (claim != nullptr) MERIDIAN_RETURN_IF_ERROR(index.Insert(row, *claim));
    return std::optional<storage::Rid>();
  }
  MERIDIAN_ASSIGN_OR_RETURN(const std::string key, index.EncodeKey(row));
  while (true) {
    uint64_t holder = 0;
    {
      std::lock_guard key_lock(index.KeyLock(key));
      MERIDIAN_ASSIGN_OR_RETURN(std::optional<storage::Rid> live,
                                LiveVersionOfKey(table, index, key, exec, &holder));
      if (live) return live;
      if (holder == 0) {
        if (claim != nullptr) MERIDIAN_RETURN_IF_ERROR(index.Insert(row, *claim));
        return std::optional<storage::Rid>();
      }
    }
    // Another transaction's version of this key decides: wait for it (until its commit is
    // decided, at least), then look again.
    MERIDIAN_RETURN_IF_ERROR(
        exec->txn->WaitFor(holder, exec->ctl, LockTimeoutMs(exec), /*until_decided=*/true)
            .status());
  }
}

}  // namespace

Result<std::optional<storage::Rid>> ClaimKey(catalog::Table& table, catalog::Index& index,
                                             const Row& row, storage::Rid rid, ExecContext* exec) {
  return ProbeKey(table, index, row, &rid, exec);
}

Result<std::optional<storage::Rid>> FindConflict(catalog::Table& table, catalog::Index& index,
                                                 const Row& row, ExecContext* exec) {
  return ProbeKey(table, index, row, nullptr, exec);
}

Status AddIndexEntries(catalog::Table& table, const Row& row, storage::Rid rid, ExecContext* exec,
                       const std::vector<std::shared_ptr<catalog::Index>>* skip,
                       const std::vector<std::shared_ptr<catalog::Index>>* kept) {
  for (const std::shared_ptr<catalog::Index>& index : table.indexes()) {
    if (skip != nullptr && std::find(skip->begin(), skip->end(), index) != skip->end()) continue;
    const bool key_kept =
        kept != nullptr && std::find(kept->begin(), kept->end(), index) != kept->end();
    if (!index->schema().unique || key_kept) {
      MERIDIAN_RETURN_IF_ERROR(index->Insert(row, rid));
      continue;
    }
    MERIDIAN_ASSIGN_OR_RETURN(std::optional<storage::Rid> live,
                              ClaimKey(table, *index, row, rid, exec));
    if (live) return DuplicateKeyError(table, *index, row);
  }
  return Status::Ok();
}

std::vector<std::shared_ptr<catalog::Index>> UnchangedUniqueKeys(
    const catalog::Table& table, const std::vector<int>& assigned_columns) {
  std::vector<std::shared_ptr<catalog::Index>> kept;
  for (const std::shared_ptr<catalog::Index>& index : table.indexes()) {
    const catalog::IndexSchema& s = index->schema();
    if (!s.unique || !s.predicate.empty() || s.HasExpressions()) continue;
    bool assigned = false;
    for (int c : s.columns) {
      assigned = assigned || std::find(assigned_columns.begin(), assigned_columns.end(), c) !=
                                 assigned_columns.end();
    }
    if (!assigned) kept.push_back(index);
  }
  return kept;
}

Result<storage::Rid> WriteReplacement(const std::shared_ptr<catalog::Table>& table,
                                      const std::vector<BoundCheck>& checks,
                                      const BoundReturning& returning, storage::Rid old_rid,
                                      const Row& new_row, ExecContext* exec,
                                      const std::vector<std::shared_ptr<catalog::Index>>* kept) {
  MERIDIAN_RETURN_IF_ERROR(CheckNotNull(*table, new_row));
  MERIDIAN_RETURN_IF_ERROR(CheckConstraints(*table, checks, new_row, exec));
  MERIDIAN_ASSIGN_OR_RETURN(std::string tuple, EncodeRow(*table, new_row));
  MERIDIAN_ASSIGN_OR_RETURN(storage::Rid rid, InsertVersion(table, std::move(tuple), exec));
  table->NoteSuccessor(old_rid, rid, exec->txn->id());
  MERIDIAN_RETURN_IF_ERROR(AddIndexEntries(*table, new_row, rid, exec, nullptr, kept));
  MERIDIAN_RETURN_IF_ERROR(AddReturnedRow(returning, new_row, exec));
  return rid;
}

AccessPlan ChooseMatchPath(const std::shared_ptr<catalog::Table>& table, BoundExprPtr where) {
  AccessRequest request;
  request.table = table;
  request.conjuncts = SplitConjuncts(std::move(where));
  return ChooseAccessPath(std::move(request), nullptr);
}

void PlanMatches(BoundMatch* m) {
  if (m->join != nullptr || m->join_plan != nullptr) return;  // planned by the driver
  AccessPlan plan = ChooseMatchPath(m->table, std::move(m->where));
  m->residual = JoinConjuncts(std::move(plan.residual));
  m->scan = MakeAccessOperator(m->table, &plan);
}

namespace {

// CollectMatches of UPDATE ... FROM / DELETE ... USING: the target rows of the planned join,
// each once (the first joined row that names its rid).
Result<std::vector<MatchedRow>> CollectJoinMatches(BoundMatch& m, ExecContext* exec) {
  if (m.join_plan == nullptr) return Status::Internal("UPDATE/DELETE join not planned");
  Operator& join = *m.join_plan;
  MERIDIAN_RETURN_IF_ERROR(join.Open(nullptr, exec));
  const size_t offset = static_cast<size_t>(m.target_offset);
  const size_t width = m.table->types().size();
  std::vector<MatchedRow> out;
  std::unordered_set<int64_t> seen;
  Row row;
  int until_check = kCheckInterval;
  while (true) {
    MERIDIAN_ASSIGN_OR_RETURN(bool more, join.Next(&row));
    if (!more) break;
    if (--until_check <= 0) {
      MERIDIAN_RETURN_IF_ERROR(exec->ctl->Check());
      until_check = kCheckInterval;
    }
    if (row.size() <= offset + width) return Status::Internal("UPDATE/DELETE join row too short");
    const int64_t rid = row[offset + width].AsInt();
    if (!seen.insert(rid).second) continue;  // already matched by an earlier joined row
    MatchedRow match;
    match.rid = RidOfValue(rid);
    match.row.assign(row.begin() + static_cast<ptrdiff_t>(offset),
                     row.begin() + static_cast<ptrdiff_t>(offset + width));
    match.joined = row;
    match.offset = offset;
    out.push_back(std::move(match));
  }
  return out;
}

}  // namespace

Result<std::vector<MatchedRow>> CollectMatches(BoundMatch& m, ExecContext* exec) {
  if (m.join_plan != nullptr || m.join != nullptr) return CollectJoinMatches(m, exec);
  if (m.scan == nullptr) PlanMatches(&m);
  RowSourceOp& scan = *m.scan;
  MERIDIAN_RETURN_IF_ERROR(scan.Open(nullptr, exec));
  std::vector<MatchedRow> out;
  Row row;
  EvalContext ctx{&row, nullptr, exec};
  int until_check = kCheckInterval;
  while (true) {
    MERIDIAN_ASSIGN_OR_RETURN(bool more, scan.Next(&row));
    if (!more) break;
    if (--until_check <= 0) {
      MERIDIAN_RETURN_IF_ERROR(exec->ctl->Check());
      until_check = kCheckInterval;
    }
    if (m.residual != nullptr) {
      MERIDIAN_ASSIGN_OR_RETURN(bool pass, EvalPredicate(*m.residual, ctx));
      if (!pass) continue;
    }
    out.push_back({scan.last_rid(), row, {}, 0});
  }
  return out;
}

}  // namespace meridian::exec
