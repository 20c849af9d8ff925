// One PostgreSQL client connection as a coroutine: the stream, framing, the message loop that
// dispatches each message, and the disconnect watch; see pg_connection.h and README.md. The
// phases live beside it: pg_startup.cc, pg_simple_query.cc, pg_extended_query.cc. Everything
// runs on the connection's strand except the lambdas given to OnPool, which run on the worker
// pool while the coroutine waits (so they never overlap).
#include "pg_connection.h"

#include <spdlog/spdlog.h>
#include <sys/socket.h>

#include <algorithm>
#include <asio/associated_executor.hpp>
#include <asio/async_result.hpp>
#include <asio/dispatch.hpp>
#include <asio/post.hpp>
#include <asio/use_awaitable.hpp>
#include <asio/write.hpp>
#include <cerrno>
#include <cstring>
#include <system_error>

#include "pg_protocol.h"
#include "pg_server.h"

namespace meridian::server::pgwire {
namespace {

constexpr size_t kReadChunk = 16 * 1024;  // bytes asked of the stream per read (at least)
constexpr size_t kKeepInput = 1 << 20;    // a larger input buffer is freed once drained
constexpr auto kStartupTimeout = std::chrono::seconds(60);  // up to the end of authentication

}  // namespace

PgConnection::PgConnection(asio::ip::tcp::socket socket, PgServer* server)
    : socket_(std::move(socket)), server_(server), startup_timer_(socket_.get_executor()) {
  std::error_code ec;
  auto ep = socket_.remote_endpoint(ec);
  if (!ec) {
    peer_ = ep.address().to_string();
    peer_.append(":").append(std::to_string(ep.port()));
  }
  socket_.set_option(asio::ip::tcp::no_delay(true), ec);
}

PgConnection::~PgConnection() = default;

asio::awaitable<void> PgConnection::Run() {
  auto self = shared_from_this();
  startup_timer_.expires_after(kStartupTimeout);
  startup_timer_.async_wait([weak = weak_from_this()](std::error_code ec) {
    auto conn = weak.lock();
    if (!ec && conn && conn->session_ == nullptr) {
      std::error_code ignored;
      conn->socket_.close(ignored);
    }
  });
  try {
    if (co_await Startup()) {
      startup_timer_.cancel();
      co_await MessageLoop();
    }
  } catch (const std::exception& e) {
    spdlog::debug("pg connection {}: {}", peer_, e.what());
  }
  startup_timer_.cancel();
  StopWatching();
  cursor_.reset();
  request_.reset();
  portals_.clear();
  closed_portals_.clear();
  unnamed_.reset();
  if (session_) {
    session_->Detach();
    server_->UnregisterCancelKey(pid_);
    server_->sessions()->Close(session_->id(), close_reason_.c_str());
    session_.reset();
  }
  std::error_code ec;
  socket_.close(ec);
}

asio::awaitable<size_t> PgConnection::ReadSome(char* data, size_t size) {
  if (tls_) co_return co_await tls_->async_read_some(asio::buffer(data, size), asio::use_awaitable);
  co_return co_await socket_.async_read_some(asio::buffer(data, size), asio::use_awaitable);
}

asio::awaitable<void> PgConnection::Flush() {
  if (out_.empty()) co_return;
  std::string data;
  data.swap(out_);
  if (tls_) {
    co_await asio::async_write(*tls_, asio::buffer(data), asio::use_awaitable);
  } else {
    co_await asio::async_write(socket_, asio::buffer(data), asio::use_awaitable);
  }
}

asio::awaitable<void> PgConnection::Fatal(const Status& status) {
  if (status.sqlstate() == sqlstate::kProtocolViolation) {
    spdlog::warn("pg connection {}: protocol violation: {}", peer_, status.message());
    close_reason_ = "protocol violation";
  } else {
    spdlog::info("pg connection {}: {}", peer_, status.message());
  }
  WriteErrorResponse(&out_, status, "FATAL");
  co_await Flush();
}

asio::awaitable<void> PgConnection::ProtocolViolation(const std::string& message) {
  co_await Fatal(Status::Error(sqlstate::kProtocolViolation, message));
}

char PgConnection::TransactionStatus() const {
  return session_ != nullptr ? session_->engine()->TransactionStatus() : 'I';
}

void PgConnection::AppendReadyForQuery() { WriteReadyForQuery(&out_, TransactionStatus()); }

asio::awaitable<std::optional<PgConnection::Message>> PgConnection::ReadMessage(bool startup) {
  while (true) {
    std::string_view pending(in_.data() + in_begin_, in_end_ - in_begin_);
    auto frame = DecodeFrame(pending, startup);
    if (!frame.ok()) {
      co_await Fatal(frame.status());
      co_return std::nullopt;
    }
    if (frame->complete) {
      Message m{frame->type, std::string(frame->body)};
      in_begin_ += frame->size;
      if (in_begin_ == in_end_) {
        in_begin_ = in_end_ = 0;
        if (in_.size() > kKeepInput) std::string().swap(in_);
      }
      co_return m;
    }
    if (in_end_ == 0 && !startup && tls_ == nullptr) {
      // Nothing buffered: take what has arrived without waiting; if nothing has, the client is
      // idle and its input buffer is freed until the socket is readable (an idle connection
      // keeps no kReadChunk buffer). The socket is non-blocking (MessageLoop).
      if (!in_.empty()) {
        std::error_code ec;
        const size_t n = socket_.read_some(asio::buffer(in_.data(), in_.size()), ec);
        if (!ec) {
          in_end_ = n;
          continue;
        }
        if (ec != asio::error::would_block && ec != asio::error::try_again) {
          throw std::system_error(ec);
        }
        std::string().swap(in_);
      }
      co_await socket_.async_wait(asio::ip::tcp::socket::wait_read, asio::use_awaitable);
    }
    // Move what is left to the front and read at least the rest of the frame's header or body.
    if (in_begin_ > 0) {
      std::memmove(in_.data(), in_.data() + in_begin_, in_end_ - in_begin_);
      in_end_ -= in_begin_;
      in_begin_ = 0;
    }
    size_t need = std::max(frame->size, in_end_ + kReadChunk);
    if (in_.size() < need) in_.resize(need);
    in_end_ += co_await ReadSome(in_.data() + in_end_, in_.size() - in_end_);
  }
}

asio::awaitable<void> PgConnection::OnPool(std::function<void()> fn) {
  // Not a coroutine itself: GCC 12 destroys a coroutine parameter twice when a lambda captures
  // it by move. The initiation posts fn to the pool; its completion resumes the caller on the
  // caller's strand.
  return asio::async_initiate<const asio::use_awaitable_t<>&, void()>(
      [](auto handler, asio::io_context* pool, std::function<void()> work) {
        asio::post(*pool, [work = std::move(work), handler = std::move(handler)]() mutable {
          try {
            work();
          } catch (const std::exception& e) {
            spdlog::error("pg statement step failed: {}", e.what());
          }
          auto executor = asio::get_associated_executor(handler);
          asio::dispatch(executor, std::move(handler));
        });
      },
      asio::use_awaitable, server_->pool(), std::move(fn));
}

asio::awaitable<void> PgConnection::WhenCommitDone(PendingCommit* commit) {
  // As OnPool, not a coroutine. The handler is move-only and WhenDone takes a std::function:
  // it is kept behind a shared_ptr, and run at most once.
  return asio::async_initiate<const asio::use_awaitable_t<>&, void()>(
      [](auto handler, PendingCommit* commit, PgServer* server) {
        auto box = std::make_shared<decltype(handler)>(std::move(handler));
        server->CommitBegins();
        commit->WhenDone([box, server] {
          auto executor = asio::get_associated_executor(*box);
          asio::post(executor, std::move(*box));
          server->CommitEnds();
        });
      },
      asio::use_awaitable, commit, server_);
}

void PgConnection::CloseFromOutside() {
  // Runs on any thread; the socket belongs to the strand.
  asio::post(socket_.get_executor(), [self = shared_from_this()] {
    self->close_reason_ = "closed by the server";
    std::error_code ec;
    self->socket_.close(ec);
  });
}

asio::awaitable<void> PgConnection::MessageLoop() {
  std::error_code nb;
  socket_.non_blocking(true, nb);  // ReadMessage's read without waiting (every other op is async)
  while (true) {
    auto message = co_await ReadMessage(/*startup=*/false);
    if (!message) co_return;
    const std::string& body = message->body;
    if (ignore_till_sync_ && message->type != 'S' && message->type != 'X' && message->type != 'Q') {
      continue;
    }
    switch (message->type) {
      case 'Q': {
        auto sql = DecodeQuery(body);
        if (!sql.ok()) {
          co_await Fatal(sql.status());
          co_return;
        }
        ignore_till_sync_ = false;
        co_await EndExtendedRequest();
        co_await SimpleQuery(std::string(*sql));
        if (closing_) co_return;
        AppendReadyForQuery();
        co_await Flush();
        break;
      }
      case 'X':
        close_reason_ = "client terminated";
        co_return;
      case 'P':
        if (!co_await HandleParse(body)) co_return;
        break;
      case 'B':
        if (!co_await HandleBind(body)) co_return;
        break;
      case 'D':
        if (!co_await HandleDescribe(body)) co_return;
        break;
      case 'E':
        if (!co_await HandleExecute(body)) co_return;
        break;
      case 'C': {
        auto target = DecodeClose(body);
        if (!target.ok()) {
          co_await Fatal(target.status());
          co_return;
        }
        co_await HandleClose(*target);
        break;
      }
      case 'H':
        co_await Flush();
        break;
      case 'S': {
        // End of an implicit transaction: portals die, the request ends.
        ignore_till_sync_ = false;
        co_await EndExtendedRequest();
        AppendReadyForQuery();
        co_await Flush();
        break;
      }
      case 'd':
      case 'c':
      case 'f':
        break;  // COPY messages outside COPY are ignored, as PostgreSQL does
      default: {
        std::string msg = "invalid frontend message type ";
        msg.append(std::to_string(static_cast<unsigned char>(message->type)));
        co_await ProtocolViolation(msg);
        co_return;
      }
    }
  }
}
void PgConnection::AppendParameterChanges() {
  for (const auto& [name, value] : session_->engine()->TakeChangedParameters()) {
    WriteParameterStatus(&out_, name, value);
  }
}
void PgConnection::WatchForDisconnect(std::shared_ptr<ExecControl> ctl) {
  watching_ = true;
  uint64_t generation = ++watch_generation_;
  socket_.async_wait(asio::ip::tcp::socket::wait_read, [self = shared_from_this(), ctl,
                                                        generation](std::error_code ec) {
    // A stale wakeup (the statement ended, or the next message was already read) must not
    // touch the socket; and the peek never blocks: the strand must never wait.
    if (ec == asio::error::operation_aborted || !self->watching_ ||
        generation != self->watch_generation_) {
      return;
    }
    char c;
    ssize_t n = ::recv(self->socket_.native_handle(), &c, 1, MSG_PEEK | MSG_DONTWAIT);
    bool gone = ec || n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK);
    if (gone) ctl->Cancel();  // the client is gone
  });
}

void PgConnection::StopWatching() {
  if (!watching_) return;
  watching_ = false;
  std::error_code ec;
  socket_.cancel(ec);
}

}  // namespace meridian::server::pgwire
