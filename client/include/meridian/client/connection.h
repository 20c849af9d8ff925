// Connection: one Meridian session over gRPC (proto/meridian.proto, service meridian.v1.Sql).
// Connect opens the session and holds its Attach stream open on a background thread for the
// session's lifetime; Execute runs SQL (streamed to a ResultHandler or materialized); Cancel may
// be called from any thread; Close (or the destructor) ends the session.
//
// Concurrency: Execute/DescribeCatalog/Close are for one thread at a time (one statement runs per
// session); Cancel and connection_lost() are safe from any thread, including signal-watching ones.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "meridian/client/catalog.h"
#include "meridian/client/client_error.h"
#include "meridian/client/statement_result.h"
#include "meridian/client/value.h"

namespace meridian::client {

inline constexpr const char* kDefaultHost = "127.0.0.1";
inline constexpr int kDefaultPort = 7432;

// TLS to a meridiand started with --tls-cert (its gRPC listener then accepts only TLS). The
// server's certificate is always verified, against ca_file (or the system's roots), and so is
// its name: the host, or server_name when set.
struct TlsOptions {
  bool enabled = false;
  std::string ca_file;      // PEM file of trusted CA certificates; empty: the system's roots
  std::string cert_file;    // client certificate (PEM), for meridiand --tls-ca
  std::string key_file;     // its private key (PEM)
  std::string server_name;  // name expected in the server's certificate; empty: the host
};

// libpq's sslmode words for TlsOptions.enabled: "disable" (off), "require", "verify-ca" and
// "verify-full" (on; gRPC verifies the chain and the name in each case). False for other
// words, leaving tls unchanged.
bool ApplySslMode(std::string_view mode, TlsOptions* tls);

struct ConnectOptions {
  std::string user = "meridian";
  // Checked by meridiand with --auth password or scram-sha-256; it is sent only over TLS or
  // to a loopback address (the server refuses it otherwise, 28000).
  std::string password;
  TlsOptions tls;
  std::string database = "meridian";
  std::string application_name = "meridian-client";
  std::chrono::milliseconds connect_timeout{10000};
  std::chrono::milliseconds keepalive_time{30000};
  int max_receive_message_bytes = 64 * 1024 * 1024;
};

struct ExecuteOptions {
  std::chrono::milliseconds timeout{0};  // gRPC deadline of the call; 0 = none
  uint32_t max_rows_per_chunk = 0;       // 0 = server default
  // Declared types of $1, $2, ... by pg_oid (kOidInt4, ...); a missing entry or 0 lets the
  // server infer the type from context, as PostgreSQL does.
  std::vector<uint32_t> param_types;
};

// A statement prepared in the session (Connection::Prepare): its id and description.
struct PreparedStatement {
  std::string id;                       // the name it is stored under in the session
  std::vector<ColumnInfo> param_types;  // $1..$n (name empty): declared, else inferred
  std::vector<ColumnInfo> columns;      // result columns; empty when it returns no rows
};

struct PrepareOptions {
  std::string id;  // name to store it under; empty: the server picks a free one
  // Declared types of $1, $2, ... by pg_oid; a missing entry or 0 is inferred.
  std::vector<uint32_t> param_types;
  std::chrono::milliseconds timeout{30000};
};

class Connection {
 public:
  // Opens a session at host:port and attaches to it. Errors: 08001 (cannot connect, or a TLS
  // file cannot be read), 28P01 (wrong password or unknown user), 28000 (a password without
  // TLS from another host), or the server's other errors for OpenSession.
  static ClientResult<std::unique_ptr<Connection>> Connect(const std::string& host, int port,
                                                           const ConnectOptions& options);
  // With the default options. (An overload, not a default argument: GCC 12 at -O3 warns
  // maybe-uninitialized about the nested options' strings in a `= {}` temporary.)
  static ClientResult<std::unique_ptr<Connection>> Connect(const std::string& host, int port);

  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  // Runs one or more ';'-separated statements, streaming results to handler. Statements before a
  // failing one have been delivered in full when the error returns.
  ClientStatus Execute(std::string_view sql, ResultHandler& handler,
                       const ExecuteOptions& options = {});
  // Same, materialized: one StatementResult per statement.
  ClientResult<std::vector<StatementResult>> Execute(std::string_view sql,
                                                     const ExecuteOptions& options = {});
  // With parameter values for $1, $2, ... (the same for every statement of sql). The server
  // converts each to its parameter's type: text with the type's input rules (22P02 for 'abc'
  // as an integer, 22003 out of range), numbers and booleans with cast rules.
  ClientStatus Execute(std::string_view sql, const std::vector<Value>& params,
                       ResultHandler& handler, const ExecuteOptions& options = {});
  ClientResult<std::vector<StatementResult>> Execute(std::string_view sql,
                                                     const std::vector<Value>& params,
                                                     const ExecuteOptions& options = {});

  // Prepares one statement (Prepare RPC): parsed, bound and described once. Errors as Execute's
  // (42P05 when options.id is taken). The statement lives until Deallocate or the session ends;
  // SQL `EXECUTE id(...)` and `DEALLOCATE id` reach it too.
  ClientResult<PreparedStatement> Prepare(std::string_view sql, const PrepareOptions& options = {});
  // Runs a prepared statement with values for $1..$n (converted to its parameter types, as
  // Execute converts them); options.param_types is ignored.
  ClientStatus ExecutePrepared(const std::string& id, const std::vector<Value>& params,
                               ResultHandler& handler, const ExecuteOptions& options = {});
  ClientResult<StatementResult> ExecutePrepared(const std::string& id,
                                                const std::vector<Value>& params,
                                                const ExecuteOptions& options = {});
  // Drops a prepared statement (26000 when there is none called id).
  ClientStatus Deallocate(const std::string& id);

  // Cancels the statement running now, if any (Cancel RPC; falls back to cancelling the call).
  // Returns true when a statement was running. Thread-safe.
  bool Cancel();

  // Tables and their columns; table empty = every table.
  ClientResult<std::vector<TableDescription>> DescribeCatalog(
      const std::string& table = "", std::chrono::milliseconds timeout = std::chrono::seconds(30));

  // Closes the session (CloseSession, then ends Attach). Idempotent.
  void Close();

  // True once the Attach stream ended without Close, or a call failed with a connection error.
  bool connection_lost() const;
  const std::string& session_id() const;
  const std::string& server_version() const;
  const std::string& target() const;  // "host:port"

 private:
  struct Impl;
  explicit Connection(std::unique_ptr<Impl> impl);
  // Runs sql, or the prepared statement statement_id when sql is empty: on the session stream
  // (ExecuteSession), or as an ExecuteStream call when it has a timeout.
  ClientStatus Run(std::string_view sql, const std::string& statement_id,
                   const std::vector<Value>& params, ResultHandler& handler,
                   const ExecuteOptions& options);
  std::unique_ptr<Impl> impl_;
};

}  // namespace meridian::client
