// SessionSettings: one session's run-time parameters (SET / SHOW / RESET, current_setting,
// set_config) with PostgreSQL's names, defaults and SHOW formats, and who the session is
// (current_user, current_database(), pg_backend_pid()). Owned by the engine session and used
// by one request at a time (the server serialises requests per session), so it has no lock.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "meridian/datetime.h"
#include "meridian/status.h"

namespace meridian::catalog {
struct SearchPath;
}

namespace meridian::exec {

class TransactionBlock;
class PreparedStatements;
struct SequenceValues;

// The PostgreSQL version Meridian presents: server_version and version() (clients parse the
// leading "15.0" / "PostgreSQL 15.0").
inline constexpr const char* kPgVersionNumber = "15.0";
inline constexpr const char* kPgVersionNum = "150000";  // server_version_num

class SessionSettings {
 public:
  SessionSettings(std::string user, std::string database, std::string application_name);
  ~SessionSettings();

  const std::string& user() const { return user_; }
  const std::string& database() const { return database_; }
  int32_t backend_pid() const { return backend_pid_; }
  void set_backend_pid(int32_t pid) { backend_pid_ = pid; }
  // Unique per SessionSettings in this process (never 0): owns the session's TEMP views.
  uint64_t session_id() const { return session_id_; }

  // SHOW's value of name (any case); 42704 `unrecognized configuration parameter "x"`.
  Result<std::string> Show(std::string_view name) const;
  // SHOW's column name: the parameter's canonical spelling ("DateStyle", "TimeZone").
  static std::string ColumnName(std::string_view name);
  // SET name TO values (a list is joined with ", "). 42704 unknown, 55P02 read-only,
  // 22023 invalid value, 0A000 a client_encoding other than UTF8. Returns the new SHOW value.
  Result<std::string> Set(std::string_view name, const std::vector<std::string>& values);
  // RESET name, or every settable parameter for "all".
  Status Reset(std::string_view name);
  // SET LOCAL / set_config(..., true) inside a transaction block: like Set, but the value lasts
  // only until the transaction ends.
  Result<std::string> SetLocal(std::string_view name, const std::vector<std::string>& values);
  Status ResetLocal(std::string_view name);  // SET LOCAL x TO DEFAULT

  // PostgreSQL's transactional settings, driven by the session's TransactionBlock: a SET or
  // RESET inside a block is undone when the block rolls back (also ROLLBACK TO a savepoint set
  // before it) and kept when it commits; a SET LOCAL is undone when the block ends either way.
  bool in_transaction() const { return txn_.has_value(); }  // between BEGIN and its end
  void TransactionBegun();
  void TransactionEnded(bool committed);
  void SavepointSet();                     // a SAVEPOINT: the values now
  void SavepointsKept(size_t count);       // RELEASE: only the first count savepoints remain
  void RollbackToSavepoint(size_t index);  // ROLLBACK TO savepoint index (0-based; it stays)
  // SHOW ALL: (name, setting, description, then pg_settings' vartype and context) ordered
  // by name.
  std::vector<std::vector<std::string>> ShowAll() const;
  // Parameters PostgreSQL reports with ParameterStatus and their values (at startup), and those
  // whose value changed since the last TakeChanged (after a statement).
  std::vector<std::pair<std::string, std::string>> Reported() const;
  std::vector<std::pair<std::string, std::string>> TakeChanged();
  // statement_timeout in milliseconds; 0 = none.
  int64_t statement_timeout_ms() const { return statement_timeout_ms_; }
  // lock_timeout in milliseconds; 0 = none.
  int64_t lock_timeout_ms() const { return lock_timeout_ms_; }
  // work_mem in bytes (default 64MB; PostgreSQL's is 4MB): what a sort holds in memory before
  // it spills runs to temporary files.
  int64_t work_mem_bytes() const { return work_mem_bytes_; }
  // TimeZone as a zone (never null): what timestamptz input, output and arithmetic use
  // while a statement of this session runs (datetime::ScopedTimeZone).
  const std::shared_ptr<const datetime::TimeZone>& time_zone() const { return zone_; }
  // search_path, parsed, with this session's user and id: what the catalog resolves names
  // with while a statement of this session runs (catalog::ScopedSearchPath).
  const std::shared_ptr<const catalog::SearchPath>& search_path() const { return search_path_; }
  // synchronous_commit: false for "off" (asynchronous commit).
  bool synchronous_commit() const { return synchronous_commit_; }
  // default_transaction_isolation: true for repeatable read (and serializable, which runs as
  // snapshot isolation).
  bool default_repeatable_read() const { return default_repeatable_read_; }
  // default_transaction_read_only: new transactions start READ ONLY.
  bool default_read_only() const { return default_read_only_; }
  // The transaction block of this session (BEGIN ... COMMIT) and what SHOW
  // transaction_isolation reports while one is open.
  TransactionBlock& txn_block() { return *txn_block_; }
  // The session's prepared statements (PREPARE and the protocol's named Parse; prepared.h).
  PreparedStatements& prepared() { return *prepared_; }
  // What currval and lastval read (sequence.h); shared by copies, like prepared_.
  SequenceValues& sequence_values() { return *sequence_values_; }

 private:
  struct Param;
  static std::span<const Param> Params();  // every parameter, in the table's order
  static const Param* Find(std::string_view name);
  std::string ShowOr(std::string_view name, const char* fallback) const;
  Status Store(const Param& p, std::string value);
  Result<std::string> SetImpl(std::string_view name, const std::vector<std::string>& values);
  Status ResetImpl(std::string_view name);
  // Inside a transaction: the value of name now is also its value after COMMIT.
  void KeepAtCommit(std::string_view name);
  struct Snapshot {
    std::map<std::string, std::string> values, custom;
  };
  // Replaces the values (reported parameters that change are queued for ParameterStatus).
  void Install(const Snapshot& snapshot);
  // Before a SET / RESET inside a block: the first one of the block takes the snapshots below
  // (a block that sets nothing, the common case, copies and restores nothing).
  void BeforeChange();
  struct TxnSettings {
    bool changed = false;  // a SET / RESET ran in the block; begin and commit are set only then
    Snapshot begin;        // at BEGIN: what ROLLBACK restores
    Snapshot commit;       // what COMMIT leaves: begin plus the block's SET / RESET (not LOCAL)
    // (values, commit) at each SAVEPOINT; nullopt: nothing changed before it (= begin).
    std::vector<std::optional<std::pair<Snapshot, Snapshot>>> savepoints;
  };
  std::optional<TxnSettings> txn_;  // between BEGIN and COMMIT / ROLLBACK
  // Recomputes the settings read on every statement (below) from values_.
  void CacheDerived();

  const std::string user_, database_;
  std::string startup_application_name_;  // RESET application_name goes back to it
  int32_t backend_pid_ = 0;
  const uint64_t session_id_;
  std::map<std::string, std::string> values_;  // by canonical name; absent = default
  std::map<std::string, std::string> custom_;  // "prefix.name" placeholders, by lower name
  std::set<std::string> changed_;              // reported parameters changed since Take
  // Derived from values_ by CacheDerived (statements read them without a name lookup).
  int64_t statement_timeout_ms_ = 0;
  int64_t lock_timeout_ms_ = 0;
  int64_t work_mem_bytes_ = int64_t{64} << 20;
  bool synchronous_commit_ = true;
  bool default_repeatable_read_ = false;
  bool default_read_only_ = false;
  std::shared_ptr<const datetime::TimeZone> zone_;
  std::shared_ptr<const catalog::SearchPath> search_path_;
  std::shared_ptr<TransactionBlock> txn_block_;  // shared by copies (scratch settings)
  // The session's prepared statements; shared by copies, like txn_block_.
  std::shared_ptr<PreparedStatements> prepared_;
  std::shared_ptr<SequenceValues> sequence_values_;
};

}  // namespace meridian::exec
