// Daemon: meridiand's running parts: the database, the worker pool, the session manager, the gRPC
// server with health checking, the PostgreSQL wire protocol listener, and the maintenance thread
// (idle-session expiry, checkpoints). Start() brings them up in that order; Shutdown() takes them
// down in reverse.
#pragma once

#include <grpcpp/server.h>

#include <asio/io_context.hpp>
#include <memory>
#include <thread>

#include "grpc/sql_service.h"
#include "meridian/database.h"
#include "meridian/thread_annotations.h"
#include "pg_server.h"
#include "server_options.h"
#include "session_manager.h"
#include "worker_pool.h"

namespace meridian::server {

class Daemon {
 public:
  static Result<std::unique_ptr<Daemon>> Start(const ServerOptions& options);
  ~Daemon();

  // Graceful stop: health NOT_SERVING, refuse new sessions, cancel running statements and close
  // sessions, stop gRPC (in-flight calls get a few seconds), join workers, checkpoint and close
  // the database. Idempotent.
  Status Shutdown();

  int grpc_port() const { return grpc_port_; }
  int pg_port() const { return pg_ ? pg_->port() : 0; }

 private:
  Daemon() = default;
  // Every second: expire idle sessions, return free heap memory to the OS, checkpoint when due.
  void MaintenanceLoop(unsigned checkpoint_interval_s);
  static void ReturnFreeMemory();
  // Every 50 ms: resident memory against the limit (MemoryGuard, 53200 for running work).
  void MemoryLoop(uint64_t limit_bytes);

  std::unique_ptr<pgwire::AuthConfig> auth_;  // --auth, --users-file: both front ends
  std::unique_ptr<Database> db_;
  std::unique_ptr<WorkerPool> workers_;  // statement threads; grows while many wait for locks
  std::unique_ptr<SessionManager> sessions_;
  std::unique_ptr<SqlService> service_;
  std::unique_ptr<grpc::Server> grpc_;
  int grpc_port_ = 0;
  // Destroyed (in Shutdown) after the worker pool was joined: statement steps complete into it.
  std::unique_ptr<pgwire::PgServer> pg_;

  std::thread maintenance_;
  std::thread memory_;
  Mutex mu_;
  CondVar cv_;
  bool stopping_ GUARDED_BY(mu_) = false;
  bool stopped_ GUARDED_BY(mu_) = false;
};

}  // namespace meridian::server
