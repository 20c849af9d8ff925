// PgServer: meridiand's PostgreSQL wire protocol listener. It owns one io_context per network
// thread (a small fixed set; connections are spread over them round robin), accepts connections on
// --pg-listen and runs each as a coroutine (PgConnection) on its own strand; statements run on the
// daemon's worker pool. It also keeps the cancel-key table that a CancelRequest on a fresh
// connection is checked against, and the security settings every connection shares: authentication
// method, users, TLS context.
#pragma once

#include <asio/io_context.hpp>
#include <asio/ip/tcp.hpp>
#include <asio/ssl/context.hpp>
#include <asio/steady_timer.hpp>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "meridian/status.h"
#include "pg_auth.h"
#include "server_options.h"
#include "session_manager.h"

namespace meridian::server::pgwire {

class PgServer {
 public:
  // Loads the TLS certificate named in options, binds options.pg_listen ("HOST:PORT"; port 0
  // picks a free one) and starts network_threads threads. auth: the accounts (--auth,
  // --users-file) the daemon loaded for both front ends; it outlives the PgServer.
  static Result<std::unique_ptr<PgServer>> Start(const ServerOptions& options,
                                                 const AuthConfig* auth, SessionManager* sessions,
                                                 asio::io_context* pool,
                                                 unsigned network_threads = 2);
  ~PgServer();

  int port() const { return port_; }
  // Closes the listening socket, stops the network threads and joins them. Connections still
  // open are abandoned (their sessions were closed by SessionManager::Shutdown before). The
  // remaining coroutine frames are destroyed with the PgServer, which must happen only after
  // the worker pool was joined. Idempotent.
  void Stop();

  // Cancel keys (BackendKeyData): a process id unique in this server and a random secret.
  struct CancelKey {
    int32_t pid = 0;
    int32_t secret = 0;
  };
  CancelKey RegisterCancelKey(std::shared_ptr<ServerSession> session);
  void UnregisterCancelKey(int32_t pid);
  // Cancels the running statement of the session with this key; a wrong secret is ignored
  // (as PostgreSQL does, without telling the sender).
  void Cancel(int32_t pid, int32_t secret);

  // Commits the connections await without a thread (PendingCommit): counted from the moment a
  // connection hands one its completion until that completion was posted to the connection's
  // strand, so that Stop and the destructor can wait for them (a completion posted to a
  // destroyed io_context would be lost in freed memory).
  void CommitBegins();
  void CommitEnds();

  SessionManager* sessions() { return sessions_; }
  asio::io_context* pool() { return pool_; }
  // Set once by Start, read-only afterwards (shared by the connections without a lock).
  AuthMethod auth_method() const { return auth_->method; }
  const UserTable& users() const { return auth_->users; }
  asio::ssl::context* tls_context() { return tls_.get(); }  // null: TLS off ('N' to SSLRequest)

 private:
  PgServer(const AuthConfig* auth, SessionManager* sessions, asio::io_context* pool,
           unsigned network_threads);
  void AcceptNext();
  // An accept that failed: logs it (at most every 10 s); when the cause is a lack of
  // descriptors or memory, schedules AcceptNext in 100 ms and returns true.
  bool AcceptFailed(std::error_code ec);
  // The TLS context from the options.
  Status ConfigureTls(const ServerOptions& options);

  const AuthConfig* const auth_;
  SessionManager* const sessions_;
  asio::io_context* const pool_;
  // One per network thread, each run by that thread alone: a connection's handlers and the
  // replies the worker pool posts back to it wake only its own thread (one shared context
  // run by two threads handed each statement between them).
  std::vector<std::unique_ptr<asio::io_context>> ios_;
  size_t next_io_ = 0;  // the accept loop's round robin (only its handler touches it)
  asio::ip::tcp::acceptor acceptor_;
  asio::steady_timer accept_retry_;  // the accept loop's pause after EMFILE and the like
  uint64_t accept_failures_ = 0;     // only the accept loop touches these two
  std::chrono::steady_clock::time_point last_accept_warning_;
  int port_ = 0;
  std::unique_ptr<asio::ssl::context> tls_;
  std::vector<std::thread> threads_;
  bool stopped_ = false;  // only touched by Start/Stop (the daemon's control thread)

  struct CancelEntry {
    int32_t secret;
    std::weak_ptr<ServerSession> session;
  };
  std::mutex mu_;
  int32_t next_pid_ = 1000;                               // guarded by mu_
  std::mt19937 rng_{std::random_device{}()};              // guarded by mu_
  std::unordered_map<int32_t, CancelEntry> cancel_keys_;  // guarded by mu_
  std::condition_variable commits_cv_;
  uint64_t commits_in_flight_ = 0;  // guarded by mu_
  // Waits (at most limit) until no commit completion is on its way to a connection.
  void WaitForCommits(std::chrono::steady_clock::duration limit);
};

}  // namespace meridian::server::pgwire
