// TransactionBlock: one session's transaction state for PostgreSQL's transaction blocks —
// autocommit outside BEGIN ... COMMIT, the open block's transaction, the failed state after an
// error (25P02 until ROLLBACK), savepoints, and the ReadyForQuery status (I/T/E). Owned by the
// session's SessionSettings; used by one request at a time.
#pragma once

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "catalog/catalog.h"
#include "catalog/transaction.h"
#include "meridian/parser/ast.h"
#include "meridian/status.h"

namespace meridian::exec {

class SessionSettings;

// A COMMIT handed to the group committer without waiting (TransactionBlock::Execute under
// ExecControl::defer_commit; the server's side is meridian::PendingCommit): the log's callback
// reports to it (Done, on the committer thread), the server learns of it (WhenDone) and then
// ends the transaction as a waiting COMMIT would have (Finish, on the session's thread).
class CommitInFlight {
 public:
  explicit CommitInFlight(std::shared_ptr<catalog::Transaction> txn) : txn_(std::move(txn)) {}
  void Done(Result<txn::Timestamp> ts);
  void WhenDone(std::function<void()> done);
  // Waits for Done if it has not come (a server that goes away), then stamps the versions (or
  // releases a failure's marks), ends the block's settings and runs ON COMMIT actions.
  // Returns the commit's outcome. Once.
  Status Finish(catalog::Catalog* catalog, SessionSettings& settings);
  bool finished() const { return finished_; }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  bool done_ = false;                                               // guarded by mu_
  Result<txn::Timestamp> ts_ = Status::Internal("commit running");  // guarded by mu_
  std::function<void()> on_done_;                                   // guarded by mu_
  std::shared_ptr<catalog::Transaction> txn_;
  bool finished_ = false;
};

class TransactionBlock {
 public:
  TransactionBlock() = default;
  TransactionBlock(const TransactionBlock&) = delete;
  TransactionBlock& operator=(const TransactionBlock&) = delete;

  bool active() const { return txn_ != nullptr; }  // inside BEGIN ... COMMIT
  bool failed() const { return failed_; }
  // ReadyForQuery's transaction status: 'I' idle, 'T' in a block, 'E' in a failed block.
  char status() const { return !active() ? 'I' : failed_ ? 'E' : 'T'; }
  // SHOW transaction_isolation inside a block.
  const std::string& isolation_name() const { return isolation_name_; }
  // The open block's READ ONLY mode (SHOW transaction_read_only inside a block).
  bool read_only() const { return txn_ != nullptr && txn_->read_only(); }
  // SET TRANSACTION READ ONLY / READ WRITE (also SET transaction_read_only): READ WRITE after
  // the block's first statement in a READ ONLY block is 25001. Outside a block: no effect.
  Status SetReadOnly(bool read_only);

  // The transaction one statement runs in.
  struct StatementTxn {
    std::shared_ptr<catalog::Transaction> txn;
    bool autocommit = false;
    size_t mark = 0;                   // write-set position at the statement's start
    const ExecControl* ctl = nullptr;  // Enter's: an autocommit's commit under no_wait
  };
  // Starts a statement: the block's transaction with the statement's snapshot, or a new
  // autocommit transaction. 25P02 in a failed block.
  // ctl (may be null), shows_rows: see catalog::Transaction::TakeStatementSnapshot
  // (ShowsRows(stmt) in statement.cc).
  Result<StatementTxn> Enter(catalog::Catalog* catalog, const SessionSettings& settings,
                             const ExecControl* ctl = nullptr, bool shows_rows = true);
  // Ends it with its outcome st: an autocommit transaction commits (st ok) or aborts; in a
  // block a failure rolls the statement back and fails the block. Returns st, or the commit's
  // error. An autocommit under no_wait commits as COMMIT does there (Execute): deferred
  // (TakeCommitInFlight), at once when it wrote nothing, else aborted with WouldBlock().
  Status Leave(catalog::Catalog* catalog, const SessionSettings& settings, StatementTxn& stx,
               Status st);
  // Whether a 40001 of this statement may be retried by the server with a new snapshot
  // (autocommit, or READ COMMITTED: PostgreSQL would re-check the newer row version).
  bool CanRetry(const StatementTxn& stx) const;
  // A lazily fetched SELECT failed inside the block.
  void MarkFailed(const catalog::Transaction* txn);

  // BEGIN, COMMIT, ROLLBACK, SAVEPOINT, ... Returns the command tag; *notice gets a warning
  // PostgreSQL would send (BEGIN inside a block, COMMIT outside one).
  // *notice_state: the warning's SQLSTATE (25001, 25P01).
  // ctl (may be null): under ExecControl::no_wait COMMIT either completes without waiting (a
  // block that wrote nothing), or with defer_commit hands a small writing transaction to the
  // group committer and returns its tag at once (TakeCommitInFlight), or refuses with
  // WouldBlock() leaving the block as it was.
  Result<std::string> Execute(const ast::TransactionStmt& stmt, catalog::Catalog* catalog,
                              SessionSettings& settings, std::string* notice,
                              std::string* notice_state, const ExecControl* ctl = nullptr);
  // The commit the last COMMIT left in flight, or null.
  std::shared_ptr<CommitInFlight> TakeCommitInFlight() { return std::move(in_flight_); }
  // The most writes (rows written, locked or deleted) a deferred COMMIT stamps on the
  // server's network thread; a larger transaction commits on the pool.
  static constexpr size_t kMaxDeferredWrites = 1024;

 private:
  // Under ctl's no_wait: starts t's commit in the group committer (in_flight_) and returns
  // true, or false when t has to commit where waiting is allowed (it is left as it was).
  bool DeferCommit(catalog::Catalog* catalog, const SessionSettings& settings,
                   const ExecControl& ctl, const std::shared_ptr<catalog::Transaction>& t);

 public:
  // DDL run inside the open block (main/ddl_undo.h): undo runs, last first, when the block
  // rolls back, ends failed or fails to commit, or a ROLLBACK TO goes back past it.
  void AddDdlUndo(std::function<void(catalog::Catalog*)> undo);
  // A statement of the block failed outside Leave (a transaction statement's error).
  void Fail() { failed_ = active(); }
  // The session ends: an open transaction is rolled back.
  void Close(catalog::Catalog* catalog);

 private:
  void End(catalog::Catalog* catalog);  // aborts the open transaction and leaves the block
  // Runs the DDL undo actions past the first keep, last first, and forgets them.
  void UndoDdl(catalog::Catalog* catalog, size_t keep);

  std::shared_ptr<catalog::Transaction> txn_;
  std::string isolation_name_;
  bool failed_ = false;
  bool ran_statement_ = false;  // SET TRANSACTION ISOLATION must come first
  std::vector<std::pair<std::string, size_t>> savepoints_;
  std::vector<size_t> savepoint_ddl_;  // per savepoint: ddl_undo_.size() when it was set
  std::vector<std::function<void(catalog::Catalog*)>> ddl_undo_;
  std::shared_ptr<CommitInFlight> in_flight_;  // a deferred COMMIT not yet taken
};

}  // namespace meridian::exec
