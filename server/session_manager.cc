// Session table and per-session request/attach state; see session_manager.h.
#include "session_manager.h"

#include <spdlog/spdlog.h>

#include <random>

#include "pg_auth.h"

namespace meridian::server {
namespace {

std::string NewSessionId() {
  static thread_local std::mt19937_64 rng{std::random_device{}()};
  static const char kHex[] = "0123456789abcdef";
  std::string id(32, '0');
  for (int half = 0; half < 2; ++half) {
    uint64_t r = rng();
    for (int i = 0; i < 16; ++i) id[half * 16 + i] = kHex[(r >> (4 * i)) & 0xF];
  }
  return id;
}

// 32 random bytes as 64 lowercase hex digits.
std::string NewSessionSecret() {
  static const char kHex[] = "0123456789abcdef";
  const std::string bytes = pgwire::RandomBytes(32);
  std::string hex;
  hex.reserve(bytes.size() * 2);
  for (unsigned char b : bytes) {
    hex.push_back(kHex[b >> 4]);
    hex.push_back(kHex[b & 0xF]);
  }
  return hex;
}

}  // namespace

ServerSession::ServerSession(std::string id, std::unique_ptr<Session> engine, std::string user,
                             std::string database, std::string application_name, std::string peer)
    : id_(std::move(id)),
      engine_(std::move(engine)),
      user_(std::move(user)),
      database_(std::move(database)),
      application_name_(std::move(application_name)),
      peer_(std::move(peer)),
      secret_(NewSessionSecret()),
      last_active_(Clock::now()) {}

bool ServerSession::CheckSecret(std::string_view given) const {
  return pgwire::ConstantTimeEqual(given, secret_);
}

Status ServerSession::BeginRequest(const std::string& query_id, std::shared_ptr<ExecControl>* ctl,
                                   std::chrono::milliseconds wait) {
  MutexLock lock(mu_);
  if (running_ && wait.count() > 0) {
    // A worker thread waits: the pool keeps others free for the request it waits for.
    if (waits_ != nullptr) waits_->WaitBegins();
    const auto deadline = std::chrono::steady_clock::now() + wait;
    while (running_ && !closed_) {
      if (ended_.WaitUntil(mu_, deadline) == std::cv_status::timeout) break;
    }
    if (waits_ != nullptr) waits_->WaitEnds();
  }
  if (closed_) return Status::Error(sqlstate::kConnectionDoesNotExist, "session is closed");
  if (running_) {
    return Status::Error(sqlstate::kObjectNotInPrerequisiteState,
                         "another request is already running in this session")
        .WithHint(
            "A session runs one request at a time; open another session to run statements "
            "concurrently.");
  }
  running_ = std::make_shared<ExecControl>();
  running_->set_wait_observer(waits_);
  running_query_id_ = query_id;
  last_active_ = Clock::now();
  *ctl = running_;
  return Status::Ok();
}

void ServerSession::EndRequest() {
  {
    MutexLock lock(mu_);
    running_.reset();
    running_query_id_.clear();
    last_active_ = Clock::now();
  }
  ended_.NotifyAll();
}

bool ServerSession::CancelRequest(const std::string& query_id) {
  MutexLock lock(mu_);
  if (!running_ || (!query_id.empty() && query_id != running_query_id_)) return false;
  running_->Cancel();
  return true;
}

bool ServerSession::Attach(std::function<void()> on_close) {
  MutexLock lock(mu_);
  if (closed_ || attached_) return false;
  attached_ = true;
  on_close_ = std::move(on_close);
  return true;
}

void ServerSession::Detach() {
  MutexLock lock(mu_);
  attached_ = false;
  on_close_ = nullptr;
}

void ServerSession::Touch() {
  MutexLock lock(mu_);
  last_active_ = Clock::now();
}

bool ServerSession::IdleExpired(Clock::time_point now, std::chrono::seconds timeout) const {
  MutexLock lock(mu_);
  return !attached_ && !running_ && now - last_active_ > timeout;
}

std::function<void()> ServerSession::MarkClosed() {
  std::function<void()> cb;
  {
    MutexLock lock(mu_);
    closed_ = true;
    if (running_) running_->Cancel();
    cb = std::move(on_close_);
    on_close_ = nullptr;
  }
  ended_.NotifyAll();  // a request waiting in BeginRequest fails at once (08003)
  return cb;
}

SessionManager::SessionManager(Database* db, std::chrono::seconds idle_timeout,
                               ExecControl::WaitObserver* waits)
    : db_(db), idle_timeout_(idle_timeout), waits_(waits) {}

namespace {

// application_name as PostgreSQL 15 keeps it: every byte outside printable ASCII becomes '?'
// (pg_clean_ascii) and the result is cut to NAMEDATALEN - 1 = 63 bytes; never refused or dropped.
std::string CleanApplicationName(std::string_view name) {
  std::string out(name.substr(0, 63));
  for (char& c : out) {
    if (c < 0x20 || c > 0x7E) c = '?';  // char is signed: bytes >= 0x80 are negative
  }
  return out;
}

}  // namespace

Result<std::shared_ptr<ServerSession>> SessionManager::Open(const std::string& user,
                                                            const std::string& database,
                                                            const std::string& raw_application_name,
                                                            const std::string& peer) {
  const std::string application_name = CleanApplicationName(raw_application_name);
  SessionOptions options;
  if (!user.empty()) options.user = user;
  if (!database.empty()) options.database = database;
  options.application_name = application_name;
  auto session = std::make_shared<ServerSession>(NewSessionId(), db_->NewSession(options), user,
                                                 database, application_name, peer);
  session->waits_ = waits_;
  {
    MutexLock lock(mu_);
    if (shutting_down_) {
      return Status::Error(sqlstate::kAdminShutdown, "the database system is shutting down");
    }
    sessions_.emplace(session->id(), session);
  }
  spdlog::info("session {} opened: user={} database={} application={} peer={}", session->id(), user,
               database, application_name.empty() ? "-" : application_name, peer);
  return session;
}

std::shared_ptr<ServerSession> SessionManager::Find(const std::string& id) {
  MutexLock lock(mu_);
  auto it = sessions_.find(id);
  return it == sessions_.end() ? nullptr : it->second;
}

void SessionManager::Close(const std::string& id, const char* reason) {
  std::shared_ptr<ServerSession> session;
  {
    MutexLock lock(mu_);
    auto it = sessions_.find(id);
    if (it == sessions_.end()) return;
    session = std::move(it->second);
    sessions_.erase(it);
  }
  auto on_close = session->MarkClosed();
  spdlog::info("session {} closed: {}", id, reason);
  if (on_close) on_close();
}

void SessionManager::ExpireIdle() {
  std::vector<std::string> expired;
  auto now = ServerSession::Clock::now();
  {
    MutexLock lock(mu_);
    for (auto& [id, s] : sessions_) {
      if (s->IdleExpired(now, idle_timeout_)) expired.push_back(id);
    }
  }
  for (auto& id : expired) Close(id, "idle lease expired without an attached client");
}

void SessionManager::Shutdown() {
  std::vector<std::string> ids;
  {
    MutexLock lock(mu_);
    shutting_down_ = true;
    for (auto& [id, s] : sessions_) ids.push_back(id);
  }
  for (auto& id : ids) Close(id, "server shutting down");
}

}  // namespace meridian::server
