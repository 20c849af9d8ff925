// Start-up and shutdown of meridiand's parts; see daemon.h.
#include "daemon.h"

#include <grpcpp/ext/proto_server_reflection_plugin.h>
#include <grpcpp/health_check_service_interface.h>
#include <grpcpp/server_builder.h>
#include <malloc.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <cstdio>

#include "grpc/grpc_auth.h"

namespace meridian::server {

Result<std::unique_ptr<Daemon>> Daemon::Start(const ServerOptions& options) {
  std::unique_ptr<Daemon> d(new Daemon());
  // Accounts and TLS files first: a bad users file or certificate stops the start before the
  // data directory is opened.
  MERIDIAN_ASSIGN_OR_RETURN(pgwire::AuthConfig auth,
                            pgwire::AuthConfig::Load(options.auth, options.users_file));
  d->auth_ = std::make_unique<pgwire::AuthConfig>(std::move(auth));
  if (!options.users_file.empty()) {
    spdlog::info("users file {}: {} user(s)", options.users_file, d->auth_->users.size());
  }
  MERIDIAN_ASSIGN_OR_RETURN(std::shared_ptr<grpc::ServerCredentials> grpc_credentials,
                            GrpcServerCredentials(options));
  DatabaseOptions db_options;
  db_options.data_dir = options.data_dir;
  db_options.buffer_pool_mb = options.buffer_pool_mb;
  db_options.default_isolation = options.default_isolation;
  db_options.synchronous_commit = options.commit_mode != "async";
  db_options.group_window_us = options.group_window_us;
  db_options.async_window_ms = options.async_window_ms;
  db_options.max_statement_bytes = options.max_statement_bytes;
  MERIDIAN_ASSIGN_OR_RETURN(d->db_, Database::Open(db_options));
  if (const RecoveryInfo r = d->db_->recovery(); !r.clean) {
    spdlog::warn(
        "recovered after an unclean stop in {:.3f} s: {}, {} heap pages from the log tail, {} "
        "index(es) rebuilt, {} index pages of an interrupted checkpoint completed",
        r.seconds, r.tail_only ? "log tail only" : "full heap sweep", r.tail_pages,
        r.indexes_rebuilt, r.journal_pages);
  }

  unsigned threads = options.worker_threads;
  if (threads == 0) threads = std::max(8u, 4 * std::max(1u, std::thread::hardware_concurrency()));
  d->workers_ = std::make_unique<WorkerPool>(threads);
  d->sessions_ = std::make_unique<SessionManager>(
      d->db_.get(), std::chrono::seconds(options.session_idle_timeout_s), d->workers_.get());
  GrpcAuth grpc_auth;
  grpc_auth.accounts = d->auth_.get();
  grpc_auth.tls = !options.tls_cert.empty();
  d->service_ = std::make_unique<SqlService>(d->db_.get(), d->sessions_.get(), &d->workers_->pool(),
                                             grpc_auth);

  grpc::EnableDefaultHealthCheckService(true);
  grpc::reflection::InitProtoReflectionServerBuilderPlugin();
  grpc::ServerBuilder builder;
  builder.AddListeningPort(options.grpc_listen, grpc_credentials, &d->grpc_port_);
  builder.RegisterService(d->service_.get());
  builder.SetMaxReceiveMessageSize(64 * 1024 * 1024);  // large scripts in one request
  builder.SetMaxSendMessageSize(4 * 1024 * 1024);      // chunks stay far below this
  // Keepalive policy shared with the drivers: clients may ping every 10 s, even when idle.
  builder.AddChannelArgument(GRPC_ARG_KEEPALIVE_TIME_MS, 60'000);
  builder.AddChannelArgument(GRPC_ARG_KEEPALIVE_TIMEOUT_MS, 20'000);
  builder.AddChannelArgument(GRPC_ARG_KEEPALIVE_PERMIT_WITHOUT_CALLS, 1);
  builder.AddChannelArgument(GRPC_ARG_HTTP2_MIN_RECV_PING_INTERVAL_WITHOUT_DATA_MS, 10'000);
  builder.AddChannelArgument(GRPC_ARG_HTTP2_MAX_PING_STRIKES, 0);
  builder.AddChannelArgument(GRPC_ARG_MAX_CONCURRENT_STREAMS, 4096);
  d->grpc_ = builder.BuildAndStart();
  if (d->grpc_ == nullptr || d->grpc_port_ == 0) {
    Status st =
        Status::Error(sqlstate::kIoError, "could not listen for gRPC on " + options.grpc_listen)
            .WithHint(
                "Is another server already using this address? Choose another "
                "one with --grpc-listen.");
    (void)d->db_->Close();
    return st;
  }
  auto pg =
      pgwire::PgServer::Start(options, d->auth_.get(), d->sessions_.get(), &d->workers_->pool());
  if (!pg.ok()) {  // like the gRPC address: a taken port is a start-up failure, never silent
    d->grpc_->Shutdown();
    (void)d->db_->Close();
    return pg.status();
  }
  d->pg_ = std::move(pg).value();
  spdlog::info("gRPC sessions: authentication {}, TLS {}{}",
               pgwire::AuthMethodName(d->auth_->method),
               options.tls_cert.empty() ? "off" : "required",
               options.tls_ca.empty() ? "" : ", client certificates required");
  d->grpc_->GetHealthCheckService()->SetServingStatus(true);
  d->maintenance_ =
      std::thread([raw = d.get(), s = options.checkpoint_interval_s] { raw->MaintenanceLoop(s); });
  // The memory limit: --memory-limit-mb, by default 80% of the machine's memory.
  uint64_t limit = uint64_t{options.memory_limit_mb} << 20;
  if (limit == 0) {
    limit = static_cast<uint64_t>(sysconf(_SC_PHYS_PAGES)) *
            static_cast<uint64_t>(sysconf(_SC_PAGESIZE)) / 10 * 8;
  }
  MemoryGuard::SetLimit(limit);
  spdlog::info("memory limit {} MiB (--memory-limit-mb)", limit >> 20);
  d->memory_ = std::thread([raw = d.get(), limit] { raw->MemoryLoop(limit); });
  return d;
}

Daemon::~Daemon() { (void)Shutdown(); }

void Daemon::ReturnFreeMemory() {
  // glibc keeps freed memory in its arenas: after a statement that built a big hash table or
  // sort, the daemon's RSS would stay at its peak. Free memory beyond 64 MiB goes back to the
  // operating system (at most once a second; malloc_trim walks the arenas).
  constexpr size_t kKeepFreeBytes = size_t{64} << 20;
  if (mallinfo2().fordblks > kKeepFreeBytes) malloc_trim(0);
}

namespace {

// The process's resident set in bytes (/proc/self/statm), or 0 when it cannot be read.
uint64_t ResidentBytes() {
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  if (f == nullptr) return 0;
  unsigned long long size = 0, resident = 0;
  const int n = std::fscanf(f, "%llu %llu", &size, &resident);
  std::fclose(f);
  return n == 2 ? resident * static_cast<uint64_t>(sysconf(_SC_PAGESIZE)) : 0;
}

}  // namespace

void Daemon::MemoryLoop(uint64_t limit_bytes) {
  MutexLock lock(mu_);
  while (!stopping_) {
    cv_.WaitFor(mu_, std::chrono::milliseconds(50));
    if (stopping_) break;
    const uint64_t rss = ResidentBytes();
    const bool was = MemoryGuard::Exceeded();
    // Above the limit: running statements fail at their next check and their memory is given
    // back; below 90% of it, work is accepted again.
    if (rss > limit_bytes) {
      if (!was)
        spdlog::warn("resident memory {} MiB is above the limit: refusing work (53200)", rss >> 20);
      MemoryGuard::SetExceeded(true);
      malloc_trim(0);
    } else if (was && rss < limit_bytes / 10 * 9) {
      MemoryGuard::SetExceeded(false);
      spdlog::info("resident memory {} MiB is below the limit again", rss >> 20);
    }
  }
}

void Daemon::MaintenanceLoop(unsigned checkpoint_interval_s) {
  using Clock = std::chrono::steady_clock;
  // Every kGarbageTick a table whose dead versions call for it (a hot row: every scan of its
  // small table reads them all until they are collected) gets an early checkpoint that
  // collects them (Database::CheckpointIfGarbageDue); sessions and memory every second.
  constexpr auto kGarbageTick = std::chrono::milliseconds(250);
  auto next_checkpoint = Clock::now() + std::chrono::seconds(checkpoint_interval_s);
  auto next_second = Clock::now() + std::chrono::seconds(1);
  MutexLock lock(mu_);
  while (!stopping_) {
    cv_.WaitFor(mu_, kGarbageTick);
    if (stopping_) break;
    lock.Unlock();
    if (Clock::now() >= next_second) {
      sessions_->ExpireIdle();
      ReturnFreeMemory();
      next_second = Clock::now() + std::chrono::seconds(1);
    }
    if (Clock::now() < next_checkpoint) {
      if (Result<bool> early = db_->CheckpointIfGarbageDue(); !early.ok()) {
        spdlog::error("checkpoint failed: {}", early.status().ToString());
      }
    } else {
      if (Status st = db_->Checkpoint(); !st.ok()) {
        spdlog::error("checkpoint failed: {}", st.ToString());
      }
      next_checkpoint = Clock::now() + std::chrono::seconds(checkpoint_interval_s);
    }
    lock.Lock();
  }
}

Status Daemon::Shutdown() {
  {
    MutexLock lock(mu_);
    if (stopped_) return Status::Ok();
    stopped_ = true;
    stopping_ = true;
  }
  cv_.NotifyAll();
  if (maintenance_.joinable()) maintenance_.join();
  if (memory_.joinable()) memory_.join();
  if (grpc_) grpc_->GetHealthCheckService()->SetServingStatus(false);
  if (sessions_) sessions_->Shutdown();  // cancels running statements, ends Attach streams
  if (service_) service_->Shutdown();    // ends the ExecuteSession streams
  if (grpc_) grpc_->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(5));
  if (service_) service_->StopCommits();  // every deferred gRPC commit answered
  if (pg_) pg_->Stop();  // network threads joined; connection frames live until pg_.reset()
  if (workers_) workers_->Join();
  pg_.reset();
  Status st = db_ ? db_->Close() : Status::Ok();
  if (!st.ok()) spdlog::error("closing the database failed: {}", st.ToString());
  return st;
}

}  // namespace meridian::server
