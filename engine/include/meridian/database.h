// The engine's public API: what server/ (and embedders, tests, benchmarks) may call.
// Concurrency contract: a Database is shared by all threads; a Session is used by one request
// at a time (the server serialises requests per session); a QueryCursor belongs to its request
// and may be advanced from different threads one call at a time. ExecControl is thread-safe.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "meridian/memory_guard.h"
#include "meridian/status.h"
#include "meridian/value.h"

namespace meridian {

namespace storage {
class FileSystem;
}  // namespace storage

// The product and version; PostgreSQL clients see "15.0 (Meridian 0.1.0)" as server_version.
inline constexpr const char* kProductVersion = "Meridian 0.1.0";

struct DatabaseOptions {
  std::string data_dir = "./data";
  size_t buffer_pool_mb = 128;
  // Session defaults: default_transaction_isolation ("read committed" or "repeatable read"),
  // synchronous_commit (false: asynchronous commit, durable within async_window_ms).
  std::string default_isolation = "read committed";
  bool synchronous_commit = true;
  // Group commit: extra wait for more committers before a group is written (0: none).
  int64_t group_window_us = 0;
  int64_t async_window_ms = 200;
  // The longest request text Parse and Prepare accept (54000 beyond it): parsing costs memory
  // in proportion to the text, so one statement cannot exhaust the machine.
  size_t max_statement_bytes = size_t{16} << 20;
  // Tests: every data file goes through this file system (fault injection, simulated crashes);
  // null = the operating system's. Must outlive the Database.
  storage::FileSystem* file_system = nullptr;
};

// Interrupt state of one running request: cancellation (Cancel RPC, client gone, shutdown) and
// the statement deadline. The executor polls Check() between rows.
class ExecControl {
 public:
  using Clock = std::chrono::steady_clock;
  // Told when the statement starts and stops waiting for another transaction (a row lock held
  // across statements). A server that runs statements on a bounded pool of threads adds a
  // thread while too many of them wait, so the transactions they wait for can still run their
  // next statements. Must be thread-safe; outlives the requests that name it.
  class WaitObserver {
   public:
    virtual ~WaitObserver() = default;
    virtual void WaitBegins() = 0;
    virtual void WaitEnds() = 0;
  };
  void set_wait_observer(WaitObserver* observer) { observer_ = observer; }
  WaitObserver* wait_observer() const { return observer_; }

  // Set by a server that runs a quick read (Request::QuickRead) on a thread that must not
  // block: a table lock that is not free at once then fails the Fetch with WouldBlock() (55P03)
  // instead of waiting, having consumed nothing; the caller clears it, drops the cursor and
  // runs the statement again where waiting is allowed.
  // Setting it also refills the quick budget (SpendQuick).
  void set_no_wait(bool no_wait) {
    no_wait_ = no_wait;
    defer_commit_ = false;
    quick_left_ = kQuickRows;
  }
  bool no_wait() const { return no_wait_; }
  // Set (with no_wait) by a server that can wait for a commit without a thread: a COMMIT run
  // under no_wait then hands its transaction to the group committer and returns at once, and
  // the server takes the commit with Session::TakePendingCommit (PendingCommit). Without it a
  // COMMIT under no_wait refuses with WouldBlock(). Cleared by set_no_wait.
  void set_defer_commit(bool defer) { defer_commit_ = defer; }
  bool defer_commit() const { return no_wait_ && defer_commit_; }
  // A quick statement (no_wait) may examine about kQuickRows rows: heap tuples read, index
  // entries visited, kQuickOpenCost per scan opened (an index descent). The scans charge them
  // here; once the budget is spent (the plan met more rows than its shape promised: a long
  // range, many rescans) this returns true and the scan fails with WouldBlock(), so the server
  // runs the statement again on a thread that may take long. Always false without no_wait.
  static constexpr int64_t kQuickRows = 2000;
  static constexpr int64_t kQuickOpenCost = 4;
  // Whether SpendQuick refused since no_wait was last set (not a lock: the statement is too
  // big to be quick).
  bool quick_budget_spent() const { return quick_left_ < 0; }
  bool SpendQuick(int64_t rows) {
    if (!no_wait_) return false;
    quick_left_ -= rows;
    return quick_left_ < 0;
  }
  static Status WouldBlock() { return Status::Error(sqlstate::kLockNotAvailable, kWouldBlock); }
  static bool IsWouldBlock(const Status& st) {
    return !st.ok() && st.sqlstate() == sqlstate::kLockNotAvailable && st.message() == kWouldBlock;
  }

  void Cancel() { cancelled_.store(true, std::memory_order_relaxed); }
  bool cancelled() const { return cancelled_.load(std::memory_order_relaxed); }
  void SetDeadline(Clock::time_point deadline) {
    deadline_ns_.store(deadline.time_since_epoch().count(), std::memory_order_relaxed);
  }
  // Sets the deadline unless an earlier one is set (the client's deadline and the session's
  // statement_timeout both apply).
  void TightenDeadline(Clock::time_point deadline) {
    auto d = deadline.time_since_epoch().count();
    auto cur = deadline_ns_.load(std::memory_order_relaxed);
    while ((cur == 0 || d < cur) &&
           !deadline_ns_.compare_exchange_weak(cur, d, std::memory_order_relaxed)) {
    }
  }
  // OK, or 57014 "canceling statement due to user request" / "... statement timeout", or
  // 53200 while the daemon is above its memory limit (memory_guard.h).
  Status Check() const {
    if (cancelled()) {
      return Status::Error(sqlstate::kQueryCanceled, "canceling statement due to user request");
    }
    auto d = deadline_ns_.load(std::memory_order_relaxed);
    if (d != 0 && Clock::now().time_since_epoch().count() >= d) {
      return Status::Error(sqlstate::kQueryCanceled,
                           "canceling statement due to statement timeout");
    }
    if (MemoryGuard::Exceeded()) {
      return Status::Error(sqlstate::kOutOfMemory, "out of memory")
          .WithDetail("The server's resident memory is above --memory-limit-mb (" +
                      std::to_string(MemoryGuard::limit() >> 20) + " MiB).");
    }
    return Status::Ok();
  }

 private:
  std::atomic<bool> cancelled_{false};
  std::atomic<Clock::rep> deadline_ns_{0};  // 0 = no deadline
  static constexpr const char* kWouldBlock = "the statement would wait for a table lock";
  WaitObserver* observer_ = nullptr;  // set before the request runs
  bool no_wait_ = false;              // set and cleared by the thread running a step
  bool defer_commit_ = false;         // by the same thread
  int64_t quick_left_ = kQuickRows;   // SpendQuick's budget, by the same thread
};

struct ColumnInfo {
  std::string name;
  Type type;
  bool nullable = true;
};

class CopyIn;

// The running result of one statement. Rows are produced on demand (Volcano-style pull), so a
// large scan is never materialised whole.
class QueryCursor {
 public:
  virtual ~QueryCursor() = default;
  // Result columns; empty for statements that return no rows (DDL, INSERT, ...).
  virtual const std::vector<ColumnInfo>& columns() const = 0;
  // Appends up to max_rows rows to *out, stopping early once about max_bytes were appended.
  // Returns true while more rows may follow, false when the statement has finished (then
  // CommandTag() and RowCount() are final). Polls ctl for cancellation.
  virtual Result<bool> Fetch(size_t max_rows, size_t max_bytes, ExecControl& ctl,
                             std::vector<Row>* out) = 0;
  // PostgreSQL's command tag: "SELECT 3", "INSERT 0 5", "UPDATE 2", "DELETE 1",
  // "CREATE TABLE", "DROP TABLE".
  virtual std::string CommandTag() const = 0;
  virtual uint64_t RowCount() const = 0;
  // Notice for the client, e.g. `table "t" does not exist, skipping`; empty if none.
  virtual std::string Notice() const { return {}; }
  // The notice's SQLSTATE when it is a WARNING (e.g. 25001 "there is already a transaction in
  // progress"); empty for a plain NOTICE.
  virtual std::string NoticeSqlstate() const { return {}; }

  // COPY ... FROM STDIN: the sink for the client's data (else null). Fetch returns false at
  // once; CommandTag() ("COPY n") is final after CopyIn::Finish.
  virtual CopyIn* copy_in() { return nullptr; }
  // COPY ... TO STDOUT: true, and Fetch returns one row per data line, a single string value
  // holding the line in COPY's text or CSV format with its newline; columns() is empty and
  // copy_columns() tells how many columns each line has.
  virtual bool copy_out() const { return false; }
  virtual size_t copy_columns() const { return 0; }
};

// The receiving side of COPY ... FROM STDIN (PostgreSQL's CopyData / CopyDone / CopyFail).
// Rows are parsed as data arrives and inserted in batches through the INSERT path (constraints,
// indexes) within one statement that Finish ends: all of them or, on any error (or when the
// cursor is destroyed before Finish), none; in a transaction block an error fails the block.
class CopyIn {
 public:
  virtual ~CopyIn() = default;
  virtual size_t column_count() const = 0;
  // The next piece of the data stream, split anywhere. Bad input: 22P02 / 22P04 / 22001 ...
  // with the line in the error's context.
  virtual Status Write(std::string_view data, ExecControl& ctl) = 0;
  // End of data: inserts the last rows and ends the statement (an autocommit COPY commits);
  // afterwards the cursor's CommandTag() is "COPY n".
  virtual Status Finish(ExecControl& ctl) = 0;
};

// Parameter values for $1, $2, ... of one statement execution. types[i] declares the type of
// $i+1; a missing or Unknown entry is inferred from context as PostgreSQL does (`col = $1`: the
// column's type, `$1 + 1`: integer, INSERT VALUES: the target column's, LIMIT: bigint, else
// text). When the statement starts, each value is converted to its parameter's type: strings
// with the type's input rules (22P02 invalid input, 22003 out of range), numbers and booleans
// with the cast rules. A $n beyond values is 42P02 "there is no parameter $n".
struct StatementParams {
  std::vector<Value> values;
  std::vector<Type> types;
};

// What a statement takes and returns, found by binding it without running it.
struct StatementDescription {
  std::vector<Type> param_types;    // $1..$n: declared, else inferred (unknown becomes text)
  std::vector<ColumnInfo> columns;  // result columns; empty when it returns no rows
};

// How a prepared statement's executions used its plan cache (engine/main/plan_cache.h).
struct PlanCacheStats {
  uint64_t reused = 0;   // executions that ran the cached plan: no binding, no planning
  uint64_t planned = 0;  // executions that bound and planned (first run, after DDL/ANALYZE, ...)
};

// The parsed statements of one request; statement i is bound and planned only when started,
// after statements 0..i-1 ran (so CREATE TABLE t; INSERT INTO t works in one request). A
// request may be started any number of times (a prepared statement keeps its parse).
class Request {
 public:
  virtual ~Request() = default;
  virtual size_t size() const = 0;
  virtual Result<std::unique_ptr<QueryCursor>> Start(size_t index, ExecControl& ctl) = 0;
  // Start with parameter values for $1..$n (see StatementParams).
  virtual Result<std::unique_ptr<QueryCursor>> Start(size_t index, ExecControl& ctl,
                                                     const StatementParams& params) = 0;
  // Binds statement index without running it: parameter types (param_types declares some, as
  // StatementParams::types) and result columns. DDL describes as no parameters and no columns.
  virtual Result<StatementDescription> Describe(size_t index,
                                                const std::vector<Type>& param_types) = 0;
  // Whether statement index is a quick read: a prepared SELECT whose cached plan is built of
  // index scans and small tables' scans (Operator::QuickRead), locks no rows and evaluates no
  // subquery. Under ExecControl::set_no_wait its Start and first Fetch then do a bounded amount
  // of work (ExecControl::SpendQuick) and wait for nothing but page reads (a table lock, or the
  // budget spent, fails with WouldBlock), so a server may run it on a thread that must not
  // block for long; on WouldBlock it drops the cursor and the rows fetched and runs it again.
  virtual bool QuickRead(size_t index) const {
    (void)index;
    return false;
  }
  // Whether statement index is a quick write: BEGIN / START TRANSACTION, SAVEPOINT or RELEASE;
  // or, inside an open transaction block (not failed), a prepared INSERT of one VALUES row
  // (no ON CONFLICT) or UPDATE/DELETE whose cached plan finds its rows by an index scan or a
  // small table's scan (as quick reads, with their budget), evaluating no subquery, or a
  // prepared SELECT ... FOR UPDATE/SHARE whose plan is a quick read's (its lock marks are its
  // writes: a refusal rolls them back with the statement). Its Start does
  // a bounded amount of work and, under ExecControl::set_no_wait, waits for nothing but page reads:
  // a table lock or a row lock held by another transaction (or that transaction's uncommitted key)
  // fails it with WouldBlock(), the statement's writes undone and the block as it was, so the
  // server runs it again where waiting is allowed. COMMIT of an open block is quick too (see
  // ExecControl::set_defer_commit). Outside a block a DML statement commits: it is quick only
  // for a server that takes its commit without waiting (deferred_commit: it runs the statement
  // under ExecControl::set_defer_commit and then takes Session::TakePendingCommit).
  virtual bool QuickWrite(size_t index, bool deferred_commit = false) const {
    (void)index;
    (void)deferred_commit;
    return false;
  }
  // The plan cache's counters of a prepared statement's request (zeros for other requests).
  virtual PlanCacheStats plan_cache_stats() const { return {}; }
};

// A COMMIT that a statement run under ExecControl::set_defer_commit handed to the group
// committer without waiting (Session::TakePendingCommit). The statement's cursor already says
// COMMIT; the client may be told so only after Finish returned OK.
class PendingCommit {
 public:
  // Destroyed without Finish (the server is going away): waits for the group and finishes.
  virtual ~PendingCommit() = default;
  // Calls done exactly once when the commit's group is durable and published, or failed: on the
  // group committer's thread (done must not block: it hands over, e.g. posts to an executor),
  // or at once on this thread if that already happened.
  virtual void WhenDone(std::function<void()> done) = 0;
  // After done: ends the transaction in its session (stamps its versions, runs ON COMMIT
  // actions, keeps or restores the block's settings) and returns the commit's outcome: OK, or
  // the error COMMIT reports (40001, 53100, 58030, ...). Bounded work; the session's next
  // request must not start before it.
  virtual Status Finish() = 0;
};

// A named prepared statement of a session. SQL PREPARE and the PostgreSQL protocol's Parse with
// a statement name share one namespace per session, as in PostgreSQL: EXECUTE, Bind and
// Describe reach either kind by name; DEALLOCATE name / DEALLOCATE ALL and Close drop either.
struct PreparedStatementInfo {
  std::shared_ptr<Request> request;  // statement 0 is the prepared one; null for empty text
  std::vector<Type> param_types;     // $1..$n: declared, else inferred (unknown becomes text)
  std::vector<ColumnInfo> columns;   // result columns; empty when it returns no rows
};

struct ColumnDescription {
  std::string name;
  Type type;
  bool not_null = false;
  std::string default_expr;  // SQL text; empty when none
  bool primary_key = false;
};

struct IndexDescription {
  std::string name;
  std::vector<std::string> columns;  // key columns, in key order
  std::vector<bool> descending;      // per key column
  bool unique = false;
  bool primary_key = false;  // backs the PRIMARY KEY
  bool constraint = false;   // backs a PRIMARY KEY or UNIQUE constraint
};

struct TableDescription {
  std::string name;
  std::vector<ColumnDescription> columns;
  std::vector<std::string> primary_key;
  std::vector<IndexDescription> indexes;  // in creation order
};

// Who a session is for: current_user, current_database(), application_name.
struct SessionOptions {
  std::string user = "meridian";
  std::string database = "meridian";
  std::string application_name;
};

class Session {
 public:
  virtual ~Session() = default;
  // Parses sql (one or more ';'-separated statements). A syntax error is 42601 with the
  // 1-based character position of the offending token.
  virtual Result<std::unique_ptr<Request>> Parse(std::string_view sql) = 0;

  // Run-time parameters (SET/SHOW): those PostgreSQL reports with ParameterStatus, with their
  // values (sent at startup), and those whose value changed since the last call (sent after
  // the statement that changed them).
  virtual std::vector<std::pair<std::string, std::string>> ReportedParameters() { return {}; }
  virtual std::vector<std::pair<std::string, std::string>> TakeChangedParameters() { return {}; }
  // The PostgreSQL front end's process id for this session (pg_backend_pid()).
  virtual void SetBackendPid(int32_t /*pid*/) {}
  // Prepared statements (see PreparedStatementInfo). Prepare parses sql as one statement (more:
  // 42601 "cannot insert multiple commands into a prepared statement"; none: an empty
  // statement, request null), describes it with the declared param_types (Unknown entries are
  // inferred) and stores it under name: 42P05 `prepared statement "x" already exists`. An empty
  // name is the protocol's unnamed statement: described and returned, never stored.
  virtual Result<PreparedStatementInfo> Prepare(const std::string& name, std::string_view sql,
                                                const std::vector<Type>& param_types) = 0;
  // The prepared statement called name (by SQL PREPARE or by the protocol), or nullopt.
  virtual std::optional<PreparedStatementInfo> FindPrepared(const std::string& name) = 0;
  // The protocol's Close of a statement: drops name if it exists (no error otherwise).
  virtual void ClosePrepared(const std::string& name) = 0;

  // Transaction block state for ReadyForQuery: 'I' idle, 'T' in BEGIN ... COMMIT, 'E' in a
  // failed block (statements fail with 25P02 until ROLLBACK).
  virtual char TransactionStatus() const { return 'I'; }
  // The commit the last statement started under ExecControl::set_defer_commit, or null.
  virtual std::unique_ptr<PendingCommit> TakePendingCommit() { return nullptr; }
  // The session's TimeZone (SET TimeZone), for writing timestamptz values as text
  // (datetime::ScopedTimeZone around the conversion); null means UTC.
  virtual std::shared_ptr<const datetime::TimeZone> time_zone() const { return nullptr; }
};

// What the last Open did to recover after an unclean stop (docs/txn.md section 5).
struct RecoveryInfo {
  bool clean = true;             // the previous run closed cleanly: nothing was recovered
  bool tail_only = false;        // only what the log tail names was read (no full heap sweep)
  uint64_t tail_pages = 0;       // heap pages holding the log tail's new versions
  uint64_t indexes_rebuilt = 0;  // index files rebuilt from their heaps
  uint64_t journal_pages = 0;    // index pages an interrupted checkpoint had not written yet
  double seconds = 0;            // Open's wall time
};

class Database {
 public:
  virtual ~Database() = default;
  // Opens (creating if needed) the data directory and takes its lock file; a second Open of the
  // same directory, in this or another process, fails with a message naming the holder.
  static Result<std::unique_ptr<Database>> Open(const DatabaseOptions& options);

  virtual std::unique_ptr<Session> NewSession(const SessionOptions& options = {}) = 0;
  // Tables ordered by name; only `table` when non-empty (42P01 if it does not exist).
  virtual Result<std::vector<TableDescription>> DescribeTables(std::string_view table) = 0;
  // Re-analyzes tables that changed enough since their last ANALYZE, then writes every dirty
  // page and syncs the files (the daemon calls it periodically).
  virtual Status Checkpoint() = 0;
  // A checkpoint that collects garbage only in tables whose dead versions call for it (many
  // writes since the last collection for their size: a hot row's versions, which every scan
  // of a small table reads), when some table's do; false when none was due. The daemon asks
  // several times a second.
  virtual Result<bool> CheckpointIfGarbageDue() = 0;
  // Checkpoints and closes all files; later calls on the database fail. Idempotent.
  virtual Status Close() = 0;
  virtual RecoveryInfo recovery() const = 0;
};

}  // namespace meridian
