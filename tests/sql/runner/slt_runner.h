// Runs parsed sqllogictest records against an SltExecutor (Meridian sessions in the real
// runner, a fake in unit tests) and counts passed / failed / skipped records.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "meridian/client/connection.h"
#include "runner/slt_parser.h"

namespace meridian::slt {

// What a file's records run on. Execute is all a single-session executor needs; the other
// calls serve Meridian's extensions (connection, async/wait, restart) and by default fail with
// 0A000 ("not supported by this executor").
class SltExecutor {
 public:
  virtual ~SltExecutor() = default;
  // Runs sql (one statement) on the current session; the result of its last statement.
  virtual client::ClientResult<client::StatementResult> Execute(const std::string& sql) = 0;
  // Makes session name current (opened on first use). Every file starts on "default".
  virtual client::ClientStatus UseSession(const std::string& name);
  // Starts sql on the current session in the background and returns once it is seen waiting
  // for a lock (true) or finished (false: collect it with Collect). Errors: a session that
  // already runs one, or not seen blocked within the statement timeout.
  virtual client::ClientResult<bool> StartBlocking(const std::string& sql);
  // Whether session name has a background statement not collected yet.
  virtual bool HasPending(const std::string& name) const;
  // Waits for the background statement of session name and returns its result.
  virtual client::ClientResult<client::StatementResult> Collect(const std::string& name);
  // Cancels every background statement still running (Collect then returns soon).
  virtual void CancelBackground();
  // Stops the daemon (SIGKILL when kill), starts it on the same data directory and reconnects
  // every session (new sessions: settings, prepared statements and open transactions are gone).
  // An executor that cannot restart the daemon reconnects every session and fails with 0A000.
  virtual client::ClientStatus Restart(bool kill);
};

// Sessions of one file on a Meridian daemon: a connection per session name, opened through
// connect; background statements on their own threads; a monitor connection polls
// `SELECT count(*) FROM pg_locks WHERE NOT granted` to see a statement block (no sleeps but the
// short polling interval). restart restarts the daemon (connect then reaches the new one); when
// it is empty, Restart only reconnects the sessions and fails with 0A000.
class SessionExecutor : public SltExecutor {
 public:
  using Connector = std::function<client::ClientResult<std::unique_ptr<client::Connection>>()>;
  using Restarter = std::function<client::ClientStatus(bool kill)>;
  SessionExecutor(Connector connect, Restarter restart, std::chrono::milliseconds timeout);
  ~SessionExecutor() override;
  SessionExecutor(const SessionExecutor&) = delete;
  SessionExecutor& operator=(const SessionExecutor&) = delete;

  // The current session's connection (opened on first use).
  client::ClientResult<client::Connection*> Current();

  client::ClientResult<client::StatementResult> Execute(const std::string& sql) override;
  client::ClientStatus UseSession(const std::string& name) override;
  client::ClientResult<bool> StartBlocking(const std::string& sql) override;
  bool HasPending(const std::string& name) const override;
  client::ClientResult<client::StatementResult> Collect(const std::string& name) override;
  void CancelBackground() override;
  client::ClientStatus Restart(bool kill) override;
  // Cancels and collects every background statement, then closes every session.
  void CloseAll();

 private:
  struct Session;
  client::ClientResult<Session*> Open(const std::string& name);
  client::ClientResult<int64_t> CountLockWaits();

  Connector connect_;
  Restarter restart_;
  std::chrono::milliseconds timeout_;
  std::map<std::string, std::unique_ptr<Session>> sessions_;
  std::string current_ = "default";
  std::unique_ptr<client::Connection> monitor_;
};

struct SltRunOptions {
  std::string engine = "postgresql";  // for skipif/onlyif
  bool verbose = false;               // print every failure with SQL, expected and got
  int max_brief_failures = 10;        // without verbose: one line each for the first N
};

struct SltFileResult {
  int passed = 0;
  int failed = 0;
  int skipped = 0;
  bool connection_lost = false;
};

SltFileResult RunSltRecords(const std::vector<SltRecord>& records, SltExecutor& executor,
                            const SltRunOptions& options, const std::string& file_name,
                            std::ostream& log);

}  // namespace meridian::slt
