// The PostgreSQL listener: accept loop, network threads, cancel keys; see pg_server.h.
#include "pg_server.h"

#include <spdlog/spdlog.h>

#include <asio/co_spawn.hpp>
#include <asio/detached.hpp>
#include <asio/executor_work_guard.hpp>
#include <asio/strand.hpp>

#include "pg_connection.h"

namespace meridian::server::pgwire {

namespace {

std::vector<std::unique_ptr<asio::io_context>> MakeContexts(unsigned n) {
  std::vector<std::unique_ptr<asio::io_context>> ios;
  for (unsigned i = 0; i < std::max(1u, n); ++i) {
    ios.push_back(std::make_unique<asio::io_context>(1));  // run by one thread
  }
  return ios;
}

}  // namespace

PgServer::PgServer(const AuthConfig* auth, SessionManager* sessions, asio::io_context* pool,
                   unsigned network_threads)
    : auth_(auth),
      sessions_(sessions),
      pool_(pool),
      ios_(MakeContexts(network_threads)),
      acceptor_(*ios_[0]),
      accept_retry_(*ios_[0]) {}

Result<std::unique_ptr<PgServer>> PgServer::Start(const ServerOptions& options,
                                                  const AuthConfig* auth, SessionManager* sessions,
                                                  asio::io_context* pool,
                                                  unsigned network_threads) {
  std::unique_ptr<PgServer> s(new PgServer(auth, sessions, pool, network_threads));
  const std::string& listen = options.pg_listen;
  MERIDIAN_RETURN_IF_ERROR(s->ConfigureTls(options));
  auto colon = listen.rfind(':');
  std::string host = colon == std::string::npos ? listen : listen.substr(0, colon);
  std::string port = colon == std::string::npos ? "5433" : listen.substr(colon + 1);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  auto fail = [&](const std::string& why) {
    std::string msg = "could not listen for PostgreSQL clients on ";
    msg.append(listen).append(": ").append(why);
    return Status::Error(sqlstate::kIoError, msg)
        .WithHint(
            "Is another server already using this address? Choose another one with "
            "--pg-listen.");
  };
  std::error_code ec;
  asio::ip::tcp::resolver resolver(*s->ios_[0]);
  auto endpoints = resolver.resolve(host, port, asio::ip::tcp::resolver::passive, ec);
  if (ec || endpoints.empty()) return fail(ec ? ec.message() : "no address");
  asio::ip::tcp::endpoint endpoint = endpoints.begin()->endpoint();
  if (s->acceptor_.open(endpoint.protocol(), ec); ec) return fail(ec.message());
  if (s->acceptor_.set_option(asio::socket_base::reuse_address(true), ec); ec) {
    return fail(ec.message());
  }
  if (s->acceptor_.bind(endpoint, ec); ec) return fail(ec.message());
  if (s->acceptor_.listen(asio::socket_base::max_listen_connections, ec); ec) {
    return fail(ec.message());
  }
  s->port_ = s->acceptor_.local_endpoint(ec).port();
  s->AcceptNext();
  for (const std::unique_ptr<asio::io_context>& io : s->ios_) {
    s->threads_.emplace_back([io = io.get()] {
      auto guard = asio::make_work_guard(*io);
      io->run();
    });
  }
  spdlog::info("listening for PostgreSQL clients on {} (port {}; authentication {}, TLS {})",
               listen, s->port_, AuthMethodName(s->auth_method()), s->tls_ ? "on" : "off");
  return s;
}

Status PgServer::ConfigureTls(const ServerOptions& options) {
  if (options.tls_cert.empty() && options.tls_key.empty()) return Status::Ok();
  // TLS 1.2 or newer, as libpq requires by default (ssl_min_protocol_version).
  auto ctx = std::make_unique<asio::ssl::context>(asio::ssl::context::tls_server);
  ctx->set_options(asio::ssl::context::default_workarounds | asio::ssl::context::no_sslv2 |
                   asio::ssl::context::no_sslv3 | asio::ssl::context::no_tlsv1 |
                   asio::ssl::context::no_tlsv1_1 | asio::ssl::context::single_dh_use);
  std::error_code ec;
  auto fail = [&](const std::string& what, const std::string& file) {
    return Status::Error(sqlstate::kIoError,
                         "could not load the TLS " + what + " \"" + file + "\": " + ec.message())
        .WithHint("--tls-cert and --tls-key take PEM files (MERIDIAN_TLS_CERT, MERIDIAN_TLS_KEY).");
  };
  if (ctx->use_certificate_chain_file(options.tls_cert, ec); ec) {
    return fail("certificate", options.tls_cert);
  }
  if (ctx->use_private_key_file(options.tls_key, asio::ssl::context::pem, ec); ec) {
    return fail("private key", options.tls_key);
  }
  tls_ = std::move(ctx);
  return Status::Ok();
}

PgServer::~PgServer() {
  Stop();
  // The committer answers every queued commit while the database is open (it closes after
  // the PgServer is gone): the io_contexts must outlive those answers.
  WaitForCommits(std::chrono::hours(1));
}

void PgServer::CommitBegins() {
  std::lock_guard lock(mu_);
  ++commits_in_flight_;
}

void PgServer::CommitEnds() {
  {
    std::lock_guard lock(mu_);
    --commits_in_flight_;
  }
  commits_cv_.notify_all();
}

void PgServer::WaitForCommits(std::chrono::steady_clock::duration limit) {
  std::unique_lock lock(mu_);
  commits_cv_.wait_for(lock, limit, [&] { return commits_in_flight_ == 0; });
}

void PgServer::AcceptNext() {
  // Each connection lives on one network thread's context (round robin), behind a strand of
  // its own as well.
  asio::io_context& io = *ios_[next_io_++ % ios_.size()];
  auto socket = std::make_shared<asio::ip::tcp::socket>(asio::make_strand(io));
  acceptor_.async_accept(*socket, [this, socket](std::error_code ec) {
    if (ec == asio::error::operation_aborted || !acceptor_.is_open()) return;
    if (ec) {
      if (AcceptFailed(ec)) return;  // retried by the timer
    } else {
      auto executor = socket->get_executor();
      auto conn = std::make_shared<PgConnection>(std::move(*socket), this);
      asio::co_spawn(
          executor, [conn] { return conn->Run(); }, asio::detached);
    }
    AcceptNext();
  });
}

bool PgServer::AcceptFailed(std::error_code ec) {
  // Out of descriptors or memory the pending connection stays in the listen backlog and the
  // next accept fails at once: without a pause the loop spins on a core and floods the log.
  bool resources = ec == asio::error::no_descriptors || ec == asio::error::no_buffer_space ||
                   ec == asio::error::no_memory || ec == std::errc::too_many_files_open_in_system;
  ++accept_failures_;
  auto now = std::chrono::steady_clock::now();
  if (accept_failures_ == 1 || now - last_accept_warning_ >= std::chrono::seconds(10)) {
    last_accept_warning_ = now;
    spdlog::warn("accepting a PostgreSQL connection failed: {} ({} failures so far){}",
                 ec.message(), accept_failures_,
                 ec == asio::error::no_descriptors
                     ? "; retrying every 100 ms; raise the open file limit (ulimit -Hn, "
                       "systemd LimitNOFILE=) for more sessions"
                     : "");
  }
  if (!resources) return false;
  accept_retry_.expires_after(std::chrono::milliseconds(100));
  accept_retry_.async_wait([this](std::error_code wait_ec) {
    if (wait_ec || !acceptor_.is_open()) return;
    AcceptNext();
  });
  return true;
}

void PgServer::Stop() {
  if (stopped_) return;
  stopped_ = true;
  // Commits on their way to a connection land before the network threads stop (so their
  // coroutines end as the others do).
  WaitForCommits(std::chrono::seconds(30));
  for (const std::unique_ptr<asio::io_context>& io : ios_) io->stop();
  for (auto& t : threads_) {
    if (t.joinable()) t.join();
  }
  std::error_code ec;
  acceptor_.close(ec);  // no network thread runs any more
}

PgServer::CancelKey PgServer::RegisterCancelKey(std::shared_ptr<ServerSession> session) {
  std::lock_guard lock(mu_);
  CancelKey key;
  do {
    key.pid = next_pid_++;
    if (next_pid_ <= 0) next_pid_ = 1000;
  } while (cancel_keys_.count(key.pid) != 0);
  key.secret = static_cast<int32_t>(rng_());
  cancel_keys_[key.pid] = CancelEntry{key.secret, session};
  return key;
}

void PgServer::UnregisterCancelKey(int32_t pid) {
  std::lock_guard lock(mu_);
  cancel_keys_.erase(pid);
}

void PgServer::Cancel(int32_t pid, int32_t secret) {
  std::shared_ptr<ServerSession> session;
  {
    std::lock_guard lock(mu_);
    auto it = cancel_keys_.find(pid);
    if (it == cancel_keys_.end() || it->second.secret != secret) {
      spdlog::info("PostgreSQL cancel request for unknown key (pid {}) ignored", pid);
      return;
    }
    session = it->second.session.lock();
  }
  if (session != nullptr) {
    bool cancelled = session->CancelRequest("");
    spdlog::info("session {}: cancel request from a PostgreSQL client: {}", session->id(),
                 cancelled ? "statement cancelled" : "nothing running");
  }
}

}  // namespace meridian::server::pgwire
