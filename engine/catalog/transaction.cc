// Transaction: write set, row write locks, statement rollback, commit stamping (see
// transaction.h and docs/txn.md sections 2-4).
#include "catalog/transaction.h"

#include <algorithm>
#include <chrono>
#include <set>

#include "catalog/key_share_locks.h"
#include "catalog/table.h"

namespace meridian::catalog {

namespace {

using storage::kTupleFlagLockOnly;
using storage::TupleHeader;

// After t took a version: waits for its FOR KEY SHARE holders, the transactions whose foreign
// key checks rely on it (key_share_locks.h). Waits even under NOWAIT / SKIP LOCKED (a
// deviation: those apply to the version's own lock).
Status WaitForKeyShareHolders(Transaction& t, const Table& table, storage::Rid rid,
                              const ExecControl* ctl, int64_t lock_timeout_ms) {
  while (true) {
    std::vector<uint64_t> holders = KeyShareHolders(*t.manager(), table.id(), rid, t.id());
    if (holders.empty()) return Status::Ok();
    for (uint64_t holder : holders) {
      MERIDIAN_RETURN_IF_ERROR(t.WaitFor(holder, ctl, lock_timeout_ms).status());
    }
  }
}

// 40001: a committing transaction this one built on (early lock release) failed to commit.
Status DependencyFailed() {
  return Status::Error(sqlstate::kSerializationFailure,
                       "could not serialize access due to concurrent update")
      .WithDetail("A transaction whose changes this one built on failed to commit.");
}

}  // namespace

Transaction::Transaction(std::shared_ptr<txn::TxnManager> txns, uint64_t id, Isolation isolation)
    : txns_(std::move(txns)), id_(id), isolation_(isolation), start_time_(datetime::Now()) {}

Status Transaction::EndReadOnly() {
  txns_->Abort(id_);      // nothing to commit; "aborted" makes its id resolve like never written
  return CleanAborted();  // releases FOR UPDATE marks, if any
}

Status Transaction::TakeStatementSnapshot(const ExecControl* ctl, bool shows_rows) {
  NextCommand();
  if (has_snapshot_ && isolation_ == Isolation::kRepeatableRead) return Status::Ok();
  return RefreshSnapshot(ctl, shows_rows);
}

Status Transaction::RefreshSnapshot(const ExecControl* ctl, bool shows_rows) {
  NextCommand();
  if (shows_rows) {
    MERIDIAN_RETURN_IF_ERROR(AwaitDependencies(ctl));
    snapshot_ = txns_->TakeSnapshot(id_);
    snapshot_.command = command_;
    has_snapshot_ = true;
    return Status::Ok();
  }
  // Reads through the newest commit timestamp among the dependencies still committing:
  // TxnManager::Visible counts a committing transaction at or below read_ts as committed. Only
  // one group is ever between its commit decision and its publication (the committer runs
  // them one after another, publishing in timestamp order), so every committing transaction
  // this snapshot sees is in that dependency's group: it fails only with it, and then this
  // transaction fails at its commit (CommitLog checks FailedCommit of its dependencies).
  txn::Timestamp through = 0;
  for (size_t i = deps_published_; i < depends_on_.size(); ++i) {
    const uint64_t d = depends_on_[i];
    if (txns_->FailedCommit(d)) return DependencyFailed();
    if (txns_->State(d) != txn::TxnState::kCommitting) continue;
    const txn::Timestamp ts = txns_->ResolveDecided(d);  // kInfinity if it failed meanwhile
    if (ts != txn::kInfinity) through = std::max(through, ts);
  }
  snapshot_ = txns_->TakeSnapshot(id_);
  snapshot_.read_ts = std::max(snapshot_.read_ts, through);
  snapshot_.command = command_;
  has_snapshot_ = true;
  return Status::Ok();
}

Status Transaction::AwaitDependencies(const ExecControl* ctl) {
  for (; deps_published_ < depends_on_.size(); ++deps_published_) {
    const uint64_t d = depends_on_[deps_published_];
    // A dependency was committing when noted: it ends committed (or, stamped and forgotten
    // since, unknown) unless its group failed.
    while (!txns_->FailedCommit(d) && txns_->State(d) == txn::TxnState::kCommitting) {
      MERIDIAN_RETURN_IF_ERROR(WaitFor(d, ctl, 0).status());
    }
    if (txns_->FailedCommit(d)) {
      return DependencyFailed();
    }
  }
  return Status::Ok();
}

namespace {

uint32_t Generation(const Table& table) {
  return static_cast<uint32_t>(table.storage_generation());
}

}  // namespace

void Transaction::NextCommand() {
  ++command_;
  snapshot_.command = command_;
}

void Transaction::IndexWrites(uint32_t from) const {
  if (inserted_by_.size() < tables_.size()) {
    inserted_by_.resize(tables_.size());
    ended_by_.resize(tables_.size());
  }
  auto add = [&](size_t i) {
    const Write& w = writes_[i];
    // A TRUNCATE since took the write's heap away (its rid may name a new version now).
    if (w.generation != Generation(*tables_[w.table])) return;
    const uint64_t key = uint64_t{w.rid.page} << 16 | w.rid.slot;
    if (w.kind == Write::Kind::kInsert) inserted_by_[w.table][key] = w.command;
    if (w.kind == Write::Kind::kEnd) ended_by_[w.table][key] = w.command;
  };
  const size_t first = static_cast<size_t>(
      std::lower_bound(writes_.begin(), writes_.end(), from,
                       [](const Write& w, uint32_t c) { return w.command < c; }) -
      writes_.begin());
  if (indexed_from_ == indexed_to_) indexed_from_ = indexed_to_ = first;  // nothing indexed yet
  for (; indexed_from_ > first; add(--indexed_from_)) {
  }
  for (; indexed_to_ < writes_.size(); add(indexed_to_++)) {
  }
}

bool Transaction::VisibleOwn(uint64_t begin, uint64_t end, const Table& table,
                             storage::Rid rid) const {
  const uint32_t command = snapshot_.command;
  if (!writes_.empty() && writes_.back().command >= command) {
    IndexWrites(command);
    for (uint32_t slot = 0; slot < tables_.size(); ++slot) {
      if (tables_[slot].get() != &table) continue;
      const uint64_t key = uint64_t{rid.page} << 16 | rid.slot;
      if (begin == id_) {  // created by the snapshot's command or a later one: not there yet
        auto c = inserted_by_[slot].find(key);
        if (c != inserted_by_[slot].end() && c->second >= command) return false;
      }
      if (end == id_) {  // deleted (or replaced) by them: still there
        auto c = ended_by_[slot].find(key);
        if (c != ended_by_[slot].end() && c->second >= command) end = 0;
      }
      break;
    }
  }
  return txns_->Visible(begin, end, snapshot_);
}

uint32_t Transaction::TableSlot(const std::shared_ptr<Table>& table) {
  for (uint32_t i = 0; i < tables_.size(); ++i) {
    if (tables_[i].get() == table.get()) return i;
  }
  tables_.push_back(table);
  return static_cast<uint32_t>(tables_.size() - 1);
}

void Transaction::NoteInsert(const std::shared_ptr<Table>& table, storage::Rid rid) {
  writes_.push_back({Write::Kind::kInsert, TableSlot(table), rid, Generation(*table), command_});
  wrote_ = true;
}

Result<txn::TxnState> Transaction::WaitFor(uint64_t holder, const ExecControl* ctl,
                                           int64_t lock_timeout_ms, bool until_decided) {
  // A quick write on a thread that must not block (Request::QuickWrite): refuse, the caller
  // undoes the statement and runs it again where it may wait.
  if (ctl != nullptr && ctl->no_wait()) return ExecControl::WouldBlock();
  const auto start = std::chrono::steady_clock::now();
  struct Waiting {  // tells the server a worker thread waits (ExecControl::WaitObserver)
    ExecControl::WaitObserver* observer;
    explicit Waiting(ExecControl::WaitObserver* o) : observer(o) {
      if (observer != nullptr) observer->WaitBegins();
    }
    ~Waiting() {
      if (observer != nullptr) observer->WaitEnds();
    }
  } waiting(ctl != nullptr ? ctl->wait_observer() : nullptr);
  return txns_->WaitFor(
      id_, holder,
      [&]() -> Status {
        if (ctl != nullptr) MERIDIAN_RETURN_IF_ERROR(ctl->Check());
        if (lock_timeout_ms > 0 && std::chrono::steady_clock::now() - start >=
                                       std::chrono::milliseconds(lock_timeout_ms)) {
          return Status::Error(sqlstate::kLockNotAvailable,
                               "canceling statement due to lock timeout");
        }
        return Status::Ok();
      },
      until_decided);
}

Result<Transaction::LockResult> Transaction::LockVersion(const std::shared_ptr<Table>& table,
                                                         storage::Rid rid, bool lock_only,
                                                         const ExecControl* ctl,
                                                         int64_t lock_timeout_ms, bool wait) {
  enum class Outcome { kTaken, kUpgraded, kMine, kWait, kConflict };
  while (true) {
    Outcome outcome = Outcome::kConflict;
    uint64_t holder = 0, committing = 0;
    auto fn = [&](TupleHeader* h) {
      const bool lock_mark = (h->flags & kTupleFlagLockOnly) != 0;
      bool free = h->end == 0;
      if (!free && h->end == id_) {
        if (lock_mark && !lock_only) {
          outcome = Outcome::kUpgraded;  // my FOR UPDATE lock becomes my delete
          h->flags = static_cast<uint8_t>(h->flags & ~kTupleFlagLockOnly);
          return true;
        }
        outcome = Outcome::kMine;
        return false;
      }
      if (!free && txn::IsTxnId(h->end)) {
        switch (txns_->State(h->end)) {
          case txn::TxnState::kCommitting:
            // Early lock release: a decided commit is as good as done for a writer (a
            // conflict, or a dead lock mark); a FOR UPDATE locker still waits, since its new
            // snapshot would not see the commit yet.
            if (!lock_only) {
              free = lock_mark;
              if (!free) committing = h->end;
              break;
            }
            [[fallthrough]];
          case txn::TxnState::kRunning:
            outcome = Outcome::kWait;
            holder = h->end;
            return false;
          case txn::TxnState::kAborted:
            free = true;
            break;
          case txn::TxnState::kCommitted:
            free = lock_mark;  // a finished locker's mark is no lock
            break;
        }
      } else if (!free) {
        free = lock_mark;  // a committed deleter (timestamp): conflict unless a lock mark
      }
      if (!free) {
        outcome = Outcome::kConflict;
        return false;
      }
      outcome = Outcome::kTaken;
      h->end = id_;
      h->flags = static_cast<uint8_t>(lock_only ? (h->flags | kTupleFlagLockOnly)
                                                : (h->flags & ~kTupleFlagLockOnly));
      return true;
    };
    MERIDIAN_RETURN_IF_ERROR(table->heap()->UpdateHeader(rid, fn).status());
    switch (outcome) {
      case Outcome::kTaken:
        writes_.push_back({lock_only ? Write::Kind::kLock : Write::Kind::kEnd, TableSlot(table),
                           rid, Generation(*table), command_});
        wrote_ = wrote_ || !lock_only;
        MERIDIAN_RETURN_IF_ERROR(WaitForKeyShareHolders(*this, *table, rid, ctl, lock_timeout_ms));
        return LockResult::kLocked;
      case Outcome::kUpgraded:
        writes_.push_back({Write::Kind::kEnd, TableSlot(table), rid, Generation(*table), command_});
        wrote_ = true;
        MERIDIAN_RETURN_IF_ERROR(WaitForKeyShareHolders(*this, *table, rid, ctl, lock_timeout_ms));
        return LockResult::kLocked;
      case Outcome::kMine:
        return LockResult::kAlreadyMine;
      case Outcome::kConflict:
        if (committing != 0) NoteDependency(committing);
        return LockResult::kUpdated;
      case Outcome::kWait: {
        if (!wait) return LockResult::kBusy;
        MERIDIAN_ASSIGN_OR_RETURN(
            txn::TxnState st, WaitFor(holder, ctl, lock_timeout_ms, /*until_decided=*/!lock_only));
        (void)st;  // re-read the header: aborted → free, committed → conflict or a lock mark
        break;
      }
    }
  }
}

Status Transaction::ForEachWrite(
    size_t from,
    const std::function<Result<storage::TupleHeader>(storage::HeapFile*, const Write&)>& fn) {
  // Grouped by table so each table's shared lock is taken once. Every write is tried; the
  // first failure is returned.
  Status first;
  for (uint32_t slot = 0; slot < tables_.size(); ++slot) {
    Table& table = *tables_[slot];
    ScopedTableLock lock(table, LockMode::kShared);
    if (!lock.status().ok() || !table.CheckUsable().ok()) continue;  // dropped meanwhile
    const uint32_t generation = Generation(table);
    for (size_t i = from; i < writes_.size(); ++i) {
      // A TRUNCATE (at once, not transactional) since the write took its heap away.
      if (writes_[i].table != slot || writes_[i].generation != generation) continue;
      Result<storage::TupleHeader> r = fn(table.heap(), writes_[i]);
      if (!r.ok() && first.ok()) first = r.status();
    }
  }
  return first;
}

void Transaction::NoteGarbage(size_t from, Write::Kind kind) const {
  std::vector<uint32_t> pages;
  for (uint32_t slot = 0; slot < tables_.size(); ++slot) {
    pages.clear();
    for (size_t i = from; i < writes_.size(); ++i) {
      const Write& w = writes_[i];
      if (w.table != slot || w.kind != kind) continue;
      if (pages.empty() || pages.back() != w.rid.page) pages.push_back(w.rid.page);
    }
    tables_[slot]->NoteGarbagePages(pages);
  }
}

Status Transaction::RollbackTo(size_t mark) {
  if (!doomed_.ok()) return doomed_;
  if (mark >= writes_.size()) return Status::Ok();
  const uint64_t me = id_;
  Status st = ForEachWrite(mark, [me](storage::HeapFile* heap, const Write& w) {
    return heap->UpdateHeader(w.rid, [&](TupleHeader* h) {
      if (w.kind == Write::Kind::kInsert) {
        h->end = me;  // dead to everyone, this transaction included
        h->flags = static_cast<uint8_t>(h->flags & ~kTupleFlagLockOnly);
        return true;
      }
      if (h->end != me) return false;
      h->end = 0;
      h->flags = static_cast<uint8_t>(h->flags & ~kTupleFlagLockOnly);
      return true;
    });
  });
  if (!st.ok()) {
    // Some versions created since mark may still be live for this transaction: it must never
    // commit. Its writes stay recorded so the abort releases every mark it can.
    doomed_ = Status::Error(st.sqlstate(),
                            "could not undo the changes of a failed statement "
                            "or savepoint: " +
                                st.message())
                  .WithHint("The transaction can only be rolled back.");
    return doomed_;
  }
  // A version both created and deleted since mark: the insert's undo already made it dead.
  NoteGarbage(mark, Write::Kind::kInsert);
  writes_.resize(mark);
  if (indexed_to_ > mark) {  // the index names undone writes: start it again
    indexed_from_ = indexed_to_ = 0;
    for (auto& m : inserted_by_) m.clear();
    for (auto& m : ended_by_) m.clear();
  }
  txns_->NotifyReleased(id_);  // writers waiting for rows this transaction kept may go on
  wrote_ = std::any_of(writes_.begin(), writes_.end(),
                       [](const Write& w) { return w.kind != Write::Kind::kLock; });
  return Status::Ok();
}

std::vector<txn::EndStamp> Transaction::EndStamps() const {
  std::vector<txn::EndStamp> out;
  for (const Write& w : writes_) {
    if (w.kind != Write::Kind::kEnd) continue;
    out.push_back({tables_[w.table]->id(), w.rid.page, w.rid.slot, id_});
  }
  return out;
}

std::vector<PageRef> Transaction::InsertPages() const {
  std::set<PageRef> pages;
  for (const Write& w : writes_) {
    if (w.kind == Write::Kind::kInsert) pages.insert({tables_[w.table]->id(), w.rid.page});
  }
  return {pages.begin(), pages.end()};
}

Status Transaction::StampCommitted(txn::Timestamp ts) {
  const uint64_t me = id_;
  Status st = ForEachWrite(0, [me, ts](storage::HeapFile* heap, const Write& w) {
    return heap->UpdateHeader(w.rid, [&](TupleHeader* h) {
      bool changed = false;
      if (h->begin == me) {
        h->begin = ts;
        changed = true;
      }
      if (h->end == me) {
        if ((h->flags & kTupleFlagLockOnly) != 0) {
          h->end = 0;  // a row lock ends with the transaction
          h->flags = static_cast<uint8_t>(h->flags & ~kTupleFlagLockOnly);
        } else {
          h->end = ts;
        }
        changed = true;
      }
      return changed;
    });
  });
  NoteGarbage(0, Write::Kind::kEnd);
  ReleaseKeyShareLocks(*txns_, id_);
  if (st.ok()) txns_->MarkStamped(id_);  // else its id must keep resolving to ts
  return st;
}

Status Transaction::CleanAborted() {
  const uint64_t me = id_;
  Status st = ForEachWrite(0, [me](storage::HeapFile* heap, const Write& w) -> Result<TupleHeader> {
    if (w.kind == Write::Kind::kInsert) return TupleHeader{};  // dead already: its creator aborted
    return heap->UpdateHeader(w.rid, [&](TupleHeader* h) {
      if (h->end != me) return false;
      h->end = 0;
      h->flags = static_cast<uint8_t>(h->flags & ~kTupleFlagLockOnly);
      return true;
    });
  });
  NoteGarbage(0, Write::Kind::kInsert);
  ReleaseKeyShareLocks(*txns_, id_);
  txns_->MarkStamped(id_);  // a mark left behind names an aborted (later: forgotten) id
  return st;
}

}  // namespace meridian::catalog
