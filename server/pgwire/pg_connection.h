// PgConnection: one PostgreSQL protocol v3 client connection, run as a C++20 coroutine on its own
// strand. Startup (SSL/GSS refusal, CancelRequest, StartupMessage, trust authentication), then the
// message loop: simple Query and the extended protocol without parameters. Engine calls run on
// the daemon's worker pool and are awaited, so network threads never block.
#pragma once

#include <asio/awaitable.hpp>
#include <asio/ip/tcp.hpp>
#include <asio/steady_timer.hpp>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "meridian/database.h"
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
  struct Message {
    char type = 0;
    std::string body;
  };
  // A prepared statement of the extended protocol: its text, parsed on Parse.
  struct Prepared {
    std::string sql;
  };
  // A portal: a bound statement, started on its first Describe or Execute.
  struct Portal {
    std::string sql;
    std::unique_ptr<Request> request;
    std::unique_ptr<QueryCursor> cursor;
    bool started = false;
    bool done = false;
    bool empty = false;  // the statement text has no statement
    std::vector<ColumnInfo> columns;
    std::string tag;
    std::string notice;
  };

  asio::awaitable<bool> Startup();
  asio::awaitable<void> MessageLoop();
  asio::awaitable<std::optional<Message>> ReadMessage();
  asio::awaitable<void> Flush();
  // Writes an ErrorResponse 08P01 (FATAL) and flushes; the caller then closes.
  asio::awaitable<void> ProtocolViolation(const std::string& message);
  // Runs fn on the worker pool and resumes here when it returns.
  asio::awaitable<void> OnPool(std::function<void()> fn);

  asio::awaitable<void> SimpleQuery(const std::string& sql);
  // Extended protocol; each returns false after a protocol violation (connection closes).
  asio::awaitable<bool> HandleParse(const std::string& body);
  asio::awaitable<bool> HandleBind(const std::string& body);
  asio::awaitable<bool> HandleDescribe(const std::string& body);
  asio::awaitable<bool> HandleExecute(const std::string& body);
  bool HandleClose(const std::string& body);
  // Starts the portal's statement (on the pool) if not yet started; error status on failure.
  asio::awaitable<Status> StartPortal(Portal* portal);
  void ExtendedError(const Status& st);
  // Sync (or a simple Query): drops the portals and ends the extended protocol's request.
  asio::awaitable<void> EndExtendedRequest();

  // Watches the socket while a statement runs: a client that disconnects cancels it.
  void WatchForDisconnect(std::shared_ptr<ExecControl> ctl);
  void StopWatching();
  // Called by the session manager when the session is closed from outside (shutdown).
  void CloseFromOutside();

  asio::ip::tcp::socket socket_;
  PgServer* const server_;
  asio::steady_timer startup_timer_;
  std::string out_;
  std::string peer_;
  std::shared_ptr<ServerSession> session_;
  int32_t pid_ = 0;
  bool watching_ = false;
  uint64_t watch_generation_ = 0;  // tells a stale disconnect-watch wakeup from the current one
  bool ignore_till_sync_ = false;  // an extended-protocol error skips messages up to Sync
  std::string close_reason_ = "client disconnected";

  // Statement state of a simple Query, touched only on the pool between awaits.
  std::unique_ptr<Request> request_;
  std::unique_ptr<QueryCursor> cursor_;
  std::vector<Row> rows_;

  std::shared_ptr<ExecControl> ext_ctl_;        // the extended protocol's request, up to Sync
  std::map<std::string, Prepared> statements_;  // "" is the unnamed statement
  std::map<std::string, std::unique_ptr<Portal>> portals_;  // "" is the unnamed portal
};

}  // namespace meridian::server::pgwire
