// SessionSettings: one session's run-time parameters (SET / SHOW / RESET, current_setting,
// set_config) with PostgreSQL's names, defaults and SHOW formats, and who the session is
// (current_user, current_database(), pg_backend_pid()). Owned by the engine session and used
// by one request at a time (the server serialises requests per session), so it has no lock.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "meridian/status.h"

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
  // SHOW ALL: (name, setting, description) ordered by name.
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
  static const Param* Find(std::string_view name);
  std::string ShowOr(std::string_view name, const char* fallback) const;
  Status Store(const Param& p, std::string value);
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
  std::shared_ptr<TransactionBlock> txn_block_;  // shared by copies (scratch settings)
  // The session's prepared statements; shared by copies, like txn_block_.
  std::shared_ptr<PreparedStatements> prepared_;
  std::shared_ptr<SequenceValues> sequence_values_;
};

}  // namespace meridian::exec
