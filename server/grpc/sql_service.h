// SqlService: the gRPC Sql service on the callback API. No thread per session or call: unary
// handlers answer inline; ExecuteStream (one request per call) and ExecuteSession (requests one
// after another on one stream) run each step of a request (start a statement, fetch one chunk)
// as a task on the worker pool and write the chunk; the next step is posted only when the write
// completed, so a slow client holds memory for one chunk and no thread. A COMMIT (or a quick
// autocommit write) started on gRPC's thread goes to the group committer without a thread
// waiting for it; the committer's completion is handed to the service's commit threads, which
// end the commit and write the answer (CommitBegins/CommitEnds count them in flight).
#pragma once

#include <asio/executor_work_guard.hpp>
#include <asio/io_context.hpp>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "meridian.grpc.pb.h"
#include "meridian/database.h"
#include "pg_auth.h"
#include "session_manager.h"

namespace meridian::server {

inline constexpr const char* kServerVersion = kProductVersion;  // meridian/database.h

struct ChunkLimits {
  uint32_t default_rows = 4096;   // rows per chunk unless the request asks for fewer
  size_t max_bytes = 512 * 1024;  // far below gRPC's 4 MiB message limit
};

// Who may open sessions and how calls prove they belong to one (server/README.md,
// proto/README.md "Authentication").
struct GrpcAuth {
  const pgwire::AuthConfig* accounts = nullptr;  // null: trust; outlives the service
  bool tls = false;  // the listener accepts only TLS connections (--tls-cert)
};

struct SessionStreamState;  // sql_service.cc

class SqlService final : public v1::Sql::CallbackService {
 public:
  SqlService(Database* db, SessionManager* sessions, asio::io_context* pool, GrpcAuth auth = {},
             ChunkLimits limits = {});
  ~SqlService() override;

  grpc::ServerUnaryReactor* OpenSession(grpc::CallbackServerContext* ctx,
                                        const v1::OpenSessionRequest* req,
                                        v1::OpenSessionResponse* resp) override;
  grpc::ServerWriteReactor<v1::SessionEvent>* Attach(grpc::CallbackServerContext* ctx,
                                                     const v1::AttachRequest* req) override;
  grpc::ServerUnaryReactor* CloseSession(grpc::CallbackServerContext* ctx,
                                         const v1::CloseSessionRequest* req,
                                         v1::CloseSessionResponse* resp) override;
  grpc::ServerWriteReactor<v1::ResultChunk>* ExecuteStream(grpc::CallbackServerContext* ctx,
                                                           const v1::ExecuteRequest* req) override;
  grpc::ServerBidiReactor<v1::ExecuteRequest, v1::ResultChunk>* ExecuteSession(
      grpc::CallbackServerContext* ctx) override;
  grpc::ServerUnaryReactor* Cancel(grpc::CallbackServerContext* ctx, const v1::CancelRequest* req,
                                   v1::CancelResponse* resp) override;
  grpc::ServerUnaryReactor* DescribeCatalog(grpc::CallbackServerContext* ctx,
                                            const v1::DescribeCatalogRequest* req,
                                            v1::DescribeCatalogResponse* resp) override;
  grpc::ServerUnaryReactor* Prepare(grpc::CallbackServerContext* ctx, const v1::PrepareRequest* req,
                                    v1::PrepareResponse* resp) override;
  grpc::ServerUnaryReactor* Deallocate(grpc::CallbackServerContext* ctx,
                                       const v1::DeallocateRequest* req,
                                       v1::DeallocateResponse* resp) override;

  // Prepares req.sql in session under req.statement_id (or a free name) and fills resp.
  static Result<PreparedStatementInfo> PrepareNamed(ServerSession* session,
                                                    const v1::PrepareRequest& req,
                                                    const std::vector<Type>& declared,
                                                    v1::PrepareResponse* resp);

  // The session named by id if the call carries its secret (metadata
  // x-meridian-session-secret); otherwise null, and *status is NOT_FOUND (08003) for an unknown
  // id or UNAUTHENTICATED (28000) for a missing or wrong secret.
  std::shared_ptr<ServerSession> Authorize(const grpc::CallbackServerContext* ctx,
                                           const std::string& id, grpc::Status* status);

  // The daemon's stop, after the sessions closed and before gRPC's own shutdown: ends every
  // ExecuteSession stream waiting for a request, and the others once their request ended (gRPC
  // would otherwise wait for them until its shutdown deadline). Later streams are refused.
  void Shutdown();
  // A new ExecuteSession stream's state, kept for Shutdown; false once it ran.
  bool RegisterStream(const std::shared_ptr<SessionStreamState>& state);

  // Commits in flight (PendingCommit): CommitBegins before PendingCommit::WhenDone, and the
  // completion calls OnCommitThread, whose task calls CommitEnds as its last act. false once
  // StopCommits ran: the caller then waits for its commit on its own thread.
  bool CommitBegins();
  // Runs fn on a commit thread (from the group committer's callback: it must not block).
  void OnCommitThread(std::function<void()> fn);
  void CommitEnds();
  // Waits until no commit is in flight, then joins the commit threads (idempotent). The daemon
  // calls it after gRPC's shutdown and before the database closes: the committer answers every
  // queued commit while the database is open.
  void StopCommits();

  Database* db() { return db_; }
  SessionManager* sessions() { return sessions_; }
  asio::io_context* pool() { return pool_; }
  const ChunkLimits& limits() const { return limits_; }

 private:
  Database* const db_;
  SessionManager* const sessions_;
  asio::io_context* const pool_;
  const GrpcAuth auth_;
  const ChunkLimits limits_;
  std::mutex streams_mu_;
  std::vector<std::weak_ptr<SessionStreamState>> streams_;  // guarded by streams_mu_
  size_t live_streams_hint_ = 0;                            // guarded by streams_mu_
  bool stopping_ = false;                                   // guarded by streams_mu_
  // The commit threads (one per core, at least 2: a group's members are answered in parallel):
  // they end deferred commits (PendingCommit::Finish) and write their answers.
  asio::io_context commits_;
  asio::executor_work_guard<asio::io_context::executor_type> commits_work_;
  std::vector<std::thread> commit_threads_;
  std::mutex commits_mu_;
  std::condition_variable commits_cv_;
  size_t commits_in_flight_ = 0;  // guarded by commits_mu_
  bool commits_stopped_ = false;  // guarded by commits_mu_

  // Opens the session of an authenticated (or trusted) user and fills resp.
  grpc::Status OpenAuthenticated(const v1::OpenSessionRequest& req, const std::string& peer,
                                 v1::OpenSessionResponse* resp);
};

// The gRPC status for an unknown or closed session id (NOT_FOUND, SQLSTATE 08003).
grpc::Status SessionNotFound(const std::string& id);

}  // namespace meridian::server
