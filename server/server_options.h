// meridiand's configuration: command-line flags over MERIDIAN_* environment variables over
// built-in defaults (the order PostgreSQL's image and most daemons use).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace meridian::server {

struct ServerOptions {
  std::string data_dir = "./data";             // --data-dir, MERIDIAN_DATA_DIR
  std::string grpc_listen = "127.0.0.1:7432";  // --grpc-listen, MERIDIAN_GRPC_LISTEN
  std::string pg_listen = "127.0.0.1:5433";    // --pg-listen, MERIDIAN_PG_LISTEN
  std::string log_level = "info";              // --log-level, MERIDIAN_LOG_LEVEL
  size_t buffer_pool_mb = 128;                 // --buffer-pool-mb, MERIDIAN_BUFFER_POOL_MB
  unsigned worker_threads = 0;           // --worker-threads, MERIDIAN_WORKER_THREADS (0: auto)
  unsigned checkpoint_interval_s = 5;    // --checkpoint-interval-s, MERIDIAN_CHECKPOINT_INTERVAL_S
  unsigned session_idle_timeout_s = 60;  // --session-idle-timeout-s: unattached session lease
  // Security of both listeners (server/README.md, server/pgwire/README.md). auth: "trust",
  // "password" or "scram-sha-256"; empty means scram-sha-256 when a users file is given, trust
  // otherwise. With tls_cert the gRPC listener accepts only TLS; the PostgreSQL one offers it.
  std::string auth;        // --auth, MERIDIAN_AUTH
  std::string users_file;  // --users-file, MERIDIAN_USERS_FILE: user:secret lines
  std::string tls_cert;    // --tls-cert, MERIDIAN_TLS_CERT: PEM certificate (chain)
  std::string tls_key;     // --tls-key, MERIDIAN_TLS_KEY: PEM private key
  std::string tls_ca;      // --tls-ca, MERIDIAN_TLS_CA: gRPC clients need a certificate it signed
  // Transactions (docs/txn.md): default isolation of new sessions ("read committed"
  // or "repeatable read"), commit mode ("sync": acknowledged means durable; "async":
  // acknowledged first, durable within async_window_ms), group commit window.
  std::string default_isolation = "read committed";  // --default-isolation
  std::string commit_mode = "sync";                  // --commit-mode
  unsigned group_window_us = 0;                      // --group-window-us
  unsigned async_window_ms = 200;                    // --async-window-ms
  size_t max_statement_bytes = size_t{16} << 20;     // --max-statement-bytes
  unsigned memory_limit_mb = 0;  // --memory-limit-mb: 53200 above it (0: 80% of the memory)
  // True when --pg-listen or MERIDIAN_PG_LISTEN was given: only then is a failed bind fatal.
};

struct ParsedOptions {
  ServerOptions options;
  bool show_help = false;
  bool show_version = false;
  std::string error;  // non-empty: a bad flag or value; print it and exit 2
};

// Parses argv over the environment (environ lookups through getenv).
ParsedOptions ParseServerOptions(int argc, const char* const* argv);
std::string ServerUsage();

}  // namespace meridian::server
