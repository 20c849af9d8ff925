// SessionManager: the daemon's table of client sessions. A session is created by OpenSession,
// bound to the client's Attach stream, and closed when that stream ends, on CloseSession, when an
// unattached session stays idle past its lease, or at shutdown. Closing cancels the running
// request and drops the engine session (later: aborts its transaction, releases its snapshot).
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "meridian/database.h"
#include "meridian/thread_annotations.h"

namespace meridian::server {

class ServerSession {
 public:
  using Clock = std::chrono::steady_clock;
  ServerSession(std::string id, std::unique_ptr<Session> engine, std::string user,
                std::string database, std::string application_name, std::string peer);

  const std::string& id() const { return id_; }
  const std::string& user() const { return user_; }
  const std::string& application_name() const { return application_name_; }
  const std::string& peer() const { return peer_; }
  Session* engine() { return engine_.get(); }
  // The per-session secret a gRPC client must send with every call after OpenSession (64 hex
  // digits of 32 bytes from RAND_bytes; proto/README.md, "Authentication"). The id names a
  // session; only the secret proves the caller opened it.
  const std::string& secret() const { return secret_; }
  // True when given is this session's secret; constant time (CRYPTO_memcmp).
  bool CheckSecret(std::string_view given) const;

  // Starts a request: fails if the session is closed or already runs one (a session runs one
  // request at a time, as a PostgreSQL connection does). On success *ctl is the request's
  // interrupt state, registered so Cancel() and Close() can reach it. wait: how long to wait
  // for a running request to end first (one the client already gave up on, by deadline or
  // Cancel, may still be winding down on a worker; a PostgreSQL connection likewise runs the
  // next message after the current statement); blocks, so never on a thread that must not.
  Status BeginRequest(const std::string& query_id, std::shared_ptr<ExecControl>* ctl,
                      std::chrono::milliseconds wait = std::chrono::milliseconds(0));
  void EndRequest();
  // Cancels the running request if query_id is empty or matches; true if one was cancelled.
  bool CancelRequest(const std::string& query_id);

  // Attach binding. on_close is called (once, outside locks) when the session closes while
  // attached; Detach() unbinds it. Attach fails when already attached or closed.
  bool Attach(std::function<void()> on_close);
  void Detach();

  void Touch();  // renews the idle lease
  // Numbers for server-chosen prepared statement names; call only inside a request.
  uint64_t NextStatementNumber() { return ++statement_numbers_; }
  // True when unattached, not running a request, and idle for longer than timeout.
  bool IdleExpired(Clock::time_point now, std::chrono::seconds timeout) const;

 private:
  friend class SessionManager;
  // Marks closed, cancels any running request, returns the on_close callback to run.
  std::function<void()> MarkClosed() EXCLUDES(mu_);

  const std::string id_;
  const std::unique_ptr<Session> engine_;
  const std::string user_, database_, application_name_, peer_;
  const std::string secret_;
  uint64_t statement_numbers_ = 0;              // touched by the session's one running request only
  ExecControl::WaitObserver* waits_ = nullptr;  // set once by SessionManager::Open

  mutable Mutex mu_;
  bool closed_ GUARDED_BY(mu_) = false;
  std::string running_query_id_ GUARDED_BY(mu_);
  std::shared_ptr<ExecControl> running_ GUARDED_BY(mu_);
  CondVar ended_;                                   // with mu_: running_ was reset
  std::function<void()> on_close_ GUARDED_BY(mu_);  // set while attached
  bool attached_ GUARDED_BY(mu_) = false;
  Clock::time_point last_active_ GUARDED_BY(mu_);
};

class SessionManager {
 public:
  // waits: told when a request of any session waits for a row lock (the worker pool); may be
  // null.
  SessionManager(Database* db, std::chrono::seconds idle_timeout,
                 ExecControl::WaitObserver* waits = nullptr);

  // Creates a session; fails with 57P01 once shutdown began.
  Result<std::shared_ptr<ServerSession>> Open(const std::string& user, const std::string& database,
                                              const std::string& application_name,
                                              const std::string& peer);
  // The live session with this id, or null.
  std::shared_ptr<ServerSession> Find(const std::string& id);
  // Closes and forgets the session; reason goes to the log. No-op for unknown ids.
  void Close(const std::string& id, const char* reason);
  // Closes unattached sessions idle past the lease. Called periodically.
  void ExpireIdle();
  // Refuses new sessions and closes every open one.
  void Shutdown();
  std::chrono::seconds idle_timeout() const { return idle_timeout_; }

 private:
  Database* const db_;
  const std::chrono::seconds idle_timeout_;
  ExecControl::WaitObserver* const waits_;
  mutable Mutex mu_;
  std::unordered_map<std::string, std::shared_ptr<ServerSession>> sessions_ GUARDED_BY(mu_);
  bool shutting_down_ GUARDED_BY(mu_) = false;
};

}  // namespace meridian::server
