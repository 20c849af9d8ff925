// Transaction: one SQL transaction's MVCC state (docs/txn.md): its id, isolation
// level, current snapshot and write set — every version it created (kInsert), every version
// whose end field it took as a deleter (kEnd) or as a row locker (kLock). The write set drives
// statement rollback (RollbackTo), abort, the commit record (end stamps, pages of new versions)
// and the stamping of commit timestamps after the commit is published.
// Concurrency: used by one session thread at a time; page latches and the TxnManager
// serialise what it shares with other transactions.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "meridian/database.h"
#include "meridian/datetime.h"
#include "meridian/status.h"
#include "storage/heap_file.h"
#include "txn/commit_log.h"
#include "txn/txn_manager.h"

namespace meridian::catalog {

class Table;

enum class Isolation : uint8_t { kReadCommitted, kRepeatableRead };

// A page that holds versions a transaction created (the write-behind flush set).
struct PageRef {
  uint32_t table = 0;
  uint32_t page = 0;
  friend auto operator<=>(const PageRef&, const PageRef&) = default;
};

class Transaction {
 public:
  // Shares ownership of txns: a cursor may end its transaction after the catalog is gone.
  Transaction(std::shared_ptr<txn::TxnManager> txns, uint64_t id, Isolation isolation);
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;

  uint64_t id() const { return id_; }
  // Wall-clock time when the transaction began: now() / CURRENT_TIMESTAMP, as in PostgreSQL.
  Timestamp start_time() const { return start_time_; }
  Isolation isolation() const { return isolation_; }
  // Before the first statement only (SET TRANSACTION ISOLATION LEVEL).
  void set_isolation(Isolation isolation) { isolation_ = isolation; }
  // READ ONLY (BEGIN READ ONLY, SET TRANSACTION, default_transaction_read_only): the
  // executor refuses writes, DDL and nextval/setval with 25006. Set by the session only.
  bool read_only() const { return read_only_; }
  void set_read_only(bool read_only) { read_only_ = read_only; }
  txn::TxnManager* manager() const { return txns_.get(); }
  // Ends a transaction that wrote nothing (a finished read-only query; row locks released):
  // no log record, no catalog needed. A failure is CleanAborted's (harmless, for the log).
  Status EndReadOnly();

  // The snapshot statements read: READ COMMITTED takes a new one per statement, REPEATABLE
  // READ keeps the one its first statement took. A new snapshot must not see the versions the
  // committing transactions this one built on (NoteDependency) replaced as live; 40001 if one
  // of them failed to commit. shows_rows (a statement that may send the client rows: SELECT,
  // RETURNING, anything but a plain INSERT/UPDATE/DELETE): it first waits until they are
  // published. Otherwise it does not wait: its snapshot reads up to their commit timestamps,
  // decided but maybe not yet durable, and what it writes commits after them or not at all
  // (docs/txn.md section 3). ctl (may be null): cancel, no_wait (WouldBlock).
  Status TakeStatementSnapshot(const ExecControl* ctl = nullptr, bool shows_rows = true);
  // A new snapshot whatever the isolation (a statement retried after a serialization failure).
  Status RefreshSnapshot(const ExecControl* ctl = nullptr, bool shows_rows = true);
  const txn::Snapshot& snapshot() const { return snapshot_; }
  // Exchanges the snapshot scans read with *other: a query read lazily across later statements
  // of its transaction (a suspended portal at READ COMMITTED) reads with its own statement's
  // snapshot during each of its fetches (main/statement.cc SelectCursor).
  void SwapSnapshot(txn::Snapshot* other) { std::swap(snapshot_, *other); }
  // Is the version at rid of table, with this header, visible to the current snapshot and
  // command? Inline for stamped versions (txn::VisibleByTimestamps), else a status lookup;
  // this transaction's own versions follow the command rule (NextCommand).
  bool Visible(const storage::TupleHeader& h, const Table& table, storage::Rid rid) const {
    const uint64_t end = storage::DeletingEnd(h);
    if (std::optional<bool> stamped = txn::VisibleByTimestamps(h.begin, end, snapshot_)) {
      return *stamped;
    }
    if (h.begin != id_ && end != id_) return txns_->Visible(h.begin, end, snapshot_);
    return VisibleOwn(h.begin, end, table, rid);
  }
  // Starts a new command (PostgreSQL's command id): every statement is one (and so is a
  // statement run again after a serialization failure), numbered upwards; the snapshot
  // carries it (a suspended portal keeps its own). For the transaction's own scans, a version
  // it created in the snapshot's command or a later one is not there yet, and one it deleted
  // or replaced in them is still there: a statement sees the writes of its transaction's
  // earlier statements, not its own (RETURNING, ON CONFLICT DO UPDATE and UPDATE SET
  // subqueries read the table as the statement found it), and a portal read lazily sees none
  // of the statements that ran after it began. Foreign key and unique checks look at the
  // newest state (Classify) and are not affected. Called by TakeStatementSnapshot and
  // RefreshSnapshot.
  void NextCommand();

  // Records a version this transaction created (its begin field is id()).
  void NoteInsert(const std::shared_ptr<Table>& table, storage::Rid rid);

  // kUpdated: a transaction that committed after the snapshot deleted or replaced the version
  // (REPEATABLE READ fails with 40001; READ COMMITTED follows to the newest version).
  // kBusy: another running transaction holds it and wait was false (NOWAIT, SKIP LOCKED).
  enum class LockResult { kLocked, kAlreadyMine, kUpdated, kBusy };
  // Takes the row write lock of the visible version at rid: sets its end field to id()
  // (lock_only: as a FOR UPDATE lock that does not delete it). Waits while another running
  // transaction holds it (ctl and lock_timeout_ms polled; 40P01 on a deadlock; 55P03 on a lock
  // timeout); kUpdated when a transaction that committed after the snapshot deleted or replaced
  // it. kAlreadyMine when this transaction already deleted it (or already locked it, lock_only).
  Result<LockResult> LockVersion(const std::shared_ptr<Table>& table, storage::Rid rid,
                                 bool lock_only, const ExecControl* ctl, int64_t lock_timeout_ms,
                                 bool wait = true);

  // Waits for another transaction that holds a row (or a unique key) to finish
  // (until_decided: or to have its commit timestamp, TxnManager::WaitFor).
  Result<txn::TxnState> WaitFor(uint64_t holder, const ExecControl* ctl, int64_t lock_timeout_ms,
                                bool until_decided = false);
  // Early lock release (docs/txn.md section 3): this transaction acted on the effects
  // of a committing one (not yet durable), so it may commit only if that one did.
  void NoteDependency(uint64_t committing) { depends_on_.push_back(committing); }
  const std::vector<uint64_t>& dependencies() const { return depends_on_; }
  // Waits until those are published; 40001 if one of them failed to commit. Called before
  // rows that may rest on them reach the client, and before a COMMIT that wrote nothing.
  Status AwaitDependencies(const ExecControl* ctl);

  // Write-set position; RollbackTo(mark) undoes everything recorded since (statement
  // rollback): created versions become dead (end = id()), taken end fields are released.
  // A version it could not reach (a page that could not be read or written) dooms the
  // transaction: the undone rows would otherwise commit with it. A doomed transaction can only
  // abort (Catalog::CommitTransaction refuses it); doomed() says why.
  size_t mark() const { return writes_.size(); }
  Status RollbackTo(size_t mark);
  const Status& doomed() const { return doomed_; }
  bool wrote() const { return wrote_; }

  // Commit record contents: end stamps of deleted/replaced versions and the pages holding
  // created versions.
  std::vector<txn::EndStamp> EndStamps() const;
  std::vector<PageRef> InsertPages() const;
  // After the commit is published: rewrites this transaction's id in begin/end fields to ts
  // and releases row locks, then marks it stamped in the TxnManager. When a page cannot be
  // reached it stays unstamped (the TxnManager keeps resolving its id to ts, and checkpoints
  // carry it) and the error is returned: the commit itself stands.
  Status StampCommitted(txn::Timestamp ts);
  // After an abort: releases end fields (deletes and locks) and marks it stamped. A mark it
  // cannot release names an aborted id, which every reader and writer treats as no mark: the
  // error is returned for the log only.
  Status CleanAborted();

 private:
  struct Write {
    enum class Kind : uint8_t { kInsert, kEnd, kLock };
    Kind kind;
    uint32_t table;  // index into tables_
    storage::Rid rid;
    uint32_t generation;  // the table's storage generation (a TRUNCATE since: rid is gone)
    uint32_t command;     // NextCommand's number when it was written
  };
  uint32_t TableSlot(const std::shared_ptr<Table>& table);
  // Rewrites this transaction's marks in entries [from, end): fn per (heap, write), every one
  // tried; the first failure is returned.
  Status ForEachWrite(
      size_t from,
      const std::function<Result<storage::TupleHeader>(storage::HeapFile*, const Write&)>& fn);
  // Tells each table the pages of writes_[from..] of this kind, whose versions garbage
  // collection must visit (Table::NoteGarbagePages).
  void NoteGarbage(size_t from, Write::Kind kind) const;

  // Visible for a version this transaction created or deleted (begin or end is id()).
  bool VisibleOwn(uint64_t begin, uint64_t end, const Table& table, storage::Rid rid) const;
  // Makes the write index (below) cover every write of command `from` and later ones.
  void IndexWrites(uint32_t from) const;

  const std::shared_ptr<txn::TxnManager> txns_;
  const uint64_t id_;
  Isolation isolation_;
  bool read_only_ = false;
  Timestamp start_time_;
  txn::Snapshot snapshot_;
  bool has_snapshot_ = false;
  bool wrote_ = false;
  Status doomed_;  // set by a RollbackTo that could not undo every write
  std::vector<std::shared_ptr<Table>> tables_;  // tables written, by slot
  std::vector<Write> writes_;
  uint32_t command_ = 0;  // NextCommand; writes_ is in command order
  // Which command created (kInsert) or ended (kEnd) the versions of writes_[indexed_from_,
  // indexed_to_), by table slot and page << 16 | slot. Built lazily, only from the oldest
  // command a scan asked about, and only when a scan meets one of this transaction's versions
  // while writes of its snapshot's command or later exist: a bulk INSERT or COPY, or a read
  // after it, pays nothing.
  mutable size_t indexed_from_ = 0;
  mutable size_t indexed_to_ = 0;
  mutable std::vector<std::unordered_map<uint64_t, uint32_t>> inserted_by_;
  mutable std::vector<std::unordered_map<uint64_t, uint32_t>> ended_by_;
  std::vector<uint64_t> depends_on_;  // NoteDependency
  size_t deps_published_ = 0;         // depends_on_[0, this) are known published
};

}  // namespace meridian::catalog
