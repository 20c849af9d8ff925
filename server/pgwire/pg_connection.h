// PgConnection: one PostgreSQL protocol v3 client connection, run as a C++20 coroutine on its own
// strand. Startup (TLS upgrade or refusal, CancelRequest, StartupMessage, trust, cleartext or
// SCRAM-SHA-256 authentication), then the message loop: simple Query and the extended protocol
// (parameters in text or binary format, text or binary results). Engine calls run on the
// daemon's worker pool and are awaited. The member functions are defined by phase:
// pg_connection.cc (stream, framing, message loop, disconnect watch), pg_startup.cc (startup
// packet, TLS, authentication), pg_simple_query.cc (Query, COPY), pg_extended_query.cc (Parse,
// Bind, Describe, Execute, Close, Sync).
#pragma once

#include <asio/awaitable.hpp>
#include <asio/ip/tcp.hpp>
#include <asio/ssl/stream.hpp>
#include <asio/steady_timer.hpp>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "meridian/database.h"
#include "pg_portal.h"
#include "pg_protocol.h"
#include "session_manager.h"

namespace meridian::server::pgwire {

class PgServer;

class PgConnection : public std::enable_shared_from_this<PgConnection> {
 public:
  PgConnection(asio::ip::tcp::socket socket, PgServer* server);
  ~PgConnection();

  // Serves the connection until Terminate, disconnect, a protocol violation or the session's
  // close (shutdown); then closes the session.
  asio::awaitable<void> Run();

 private:
  // Batching shared by both query protocols.
  static constexpr size_t kFetchRows = 1000;         // rows per worker-pool step
  static constexpr size_t kFetchBytes = 256 * 1024;  // bytes per worker-pool step (about)
  static constexpr size_t kFlushBytes = 64 * 1024;   // flush the output buffer beyond this
  static constexpr size_t kQuickQueryBytes = 64;     // a Query this short is parsed here

  struct Message {
    char type = 0;
    std::string body;
  };
  // ---- pg_connection.cc: the stream, framing, the loop, shared replies
  asio::awaitable<void> MessageLoop();
  // The next frame (startup: untyped) from the input buffer, reading as needed. nullopt after
  // a protocol violation (answered); throws when the connection fails.
  asio::awaitable<std::optional<Message>> ReadMessage(bool startup);
  // The stream: the socket, or the TLS stream over it once upgraded.
  asio::awaitable<size_t> ReadSome(char* data, size_t size);
  asio::awaitable<void> Flush();
  // Writes an ErrorResponse FATAL from status and flushes; the caller then closes.
  asio::awaitable<void> Fatal(const Status& status);
  // Fatal with 08P01.
  asio::awaitable<void> ProtocolViolation(const std::string& message);
  // ReadyForQuery's transaction status, read from the session: 'I' idle, 'T' in a transaction
  // block, 'E' in a failed one.
  char TransactionStatus() const;
  void AppendReadyForQuery();
  // ParameterStatus for every reported parameter the last statement changed (SET, set_config).
  void AppendParameterChanges();
  // Runs fn on the worker pool and resumes here when it returns.
  asio::awaitable<void> OnPool(std::function<void()> fn);
  // Resumes here once commit's group is durable and published, or failed (PendingCommit): the
  // group committer's completion is posted to this strand; no thread waits.
  asio::awaitable<void> WhenCommitDone(PendingCommit* commit);
  // Watches the socket while a statement runs: a client that disconnects cancels it.
  void WatchForDisconnect(std::shared_ptr<ExecControl> ctl);
  void StopWatching();
  // Called by the session manager when the session is closed from outside (shutdown).
  void CloseFromOutside();

  // ---- pg_startup.cc
  asio::awaitable<bool> Startup();
  // SSLRequest answered 'S': the TLS handshake; afterwards every byte goes through tls_.
  asio::awaitable<bool> UpgradeToTls();
  // Runs the configured authentication exchange for user; false: failed (answered) or gone.
  asio::awaitable<bool> Authenticate(const std::string& user);
  // The client's next message, which must be a 'p' (password or SASL) message.
  asio::awaitable<std::optional<Message>> ReadAuthResponse();

  // ---- pg_simple_query.cc
  asio::awaitable<void> SimpleQuery(const std::string& sql);
  // COPY ... FROM STDIN inside a simple Query: CopyInResponse, then the client's CopyData up to
  // CopyDone (insert) or CopyFail; Flush and Sync are ignored meanwhile, as PostgreSQL does.
  // A broken or terminated connection sets closing_.
  asio::awaitable<Status> CopyFromClient(ExecControl* ctl);

  // ---- pg_extended_query.cc; each Handle* returns false after a protocol violation (the
  // connection closes).
  asio::awaitable<bool> HandleParse(const std::string& body);
  asio::awaitable<bool> HandleBind(const std::string& body);
  asio::awaitable<bool> HandleDescribe(const std::string& body);
  asio::awaitable<bool> HandleExecute(const std::string& body);
  asio::awaitable<void> HandleClose(const TargetMessage& target);
  // A prepared statement by name: "" is the connection's unnamed statement, any other name is
  // looked up in the session, whose namespace SQL PREPARE / DEALLOCATE share (parsed once at
  // Parse or PREPARE and described then; every portal binds and plans it).
  std::optional<PreparedStatementInfo> FindStatement(const std::string& name) const;
  // Opens the extended protocol's request (up to Sync) unless open.
  Status BeginExtendedRequest();
  // Starts the portal's statement and fetches its first rows if not yet started: on the pool,
  // or here under ExecControl::no_wait for a quick one; error status when it cannot start.
  asio::awaitable<Status> StartPortal(Portal* portal);
  void ExtendedError(const Status& st);
  // Sync (or a simple Query): drops the portals and ends the extended protocol's request.
  asio::awaitable<void> EndExtendedRequest();

  asio::ip::tcp::socket socket_;
  // Set by UpgradeToTls; refers to socket_ (declared after it, so destroyed first).
  std::unique_ptr<asio::ssl::stream<asio::ip::tcp::socket&>> tls_;
  PgServer* const server_;
  asio::steady_timer startup_timer_;
  std::string out_;
  std::string in_;  // input buffer: bytes [in_begin_, in_end_) are read but not yet decoded
  size_t in_begin_ = 0;
  size_t in_end_ = 0;
  std::string peer_;
  std::shared_ptr<ServerSession> session_;
  int32_t pid_ = 0;
  bool watching_ = false;
  uint64_t watch_generation_ = 0;  // tells a stale disconnect-watch wakeup from the current one
  bool ignore_till_sync_ = false;  // an extended-protocol error skips messages up to Sync
  bool closing_ = false;           // the client terminated or broke the protocol inside COPY
  std::string close_reason_ = "client disconnected";

  // Statement state of a simple Query, touched only on the pool between awaits.
  std::unique_ptr<Request> request_;
  std::unique_ptr<QueryCursor> cursor_;
  std::vector<Row> rows_;

  std::shared_ptr<ExecControl> ext_ctl_;          // the extended protocol's request, up to Sync
  std::optional<PreparedStatementInfo> unnamed_;  // named statements live in the engine session
  std::map<std::string, std::unique_ptr<Portal>> portals_;  // "" is the unnamed portal
  std::vector<std::unique_ptr<Portal>> closed_portals_;     // destroyed on the pool at Sync
};

}  // namespace meridian::server::pgwire
