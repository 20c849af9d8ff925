// One PostgreSQL client connection as a coroutine; see pg_connection.h and README.md for the
// message flow. Everything here runs on the connection's strand except the lambdas given to
// OnPool, which run on the worker pool while the coroutine waits (so they never overlap).
#include "pg_connection.h"

#include <spdlog/spdlog.h>
#include <sys/socket.h>

#include <asio/associated_executor.hpp>
#include <asio/async_result.hpp>
#include <asio/dispatch.hpp>
#include <asio/post.hpp>
#include <asio/read.hpp>
#include <asio/use_awaitable.hpp>
#include <asio/write.hpp>
#include <cerrno>

#include "pg_protocol.h"
#include "pg_server.h"
#include "sql_service.h"

namespace meridian::server::pgwire {
namespace {

constexpr size_t kFetchRows = 1000;         // rows per worker-pool step
constexpr size_t kFetchBytes = 256 * 1024;  // bytes per worker-pool step (about)
constexpr size_t kFlushBytes = 64 * 1024;   // flush the output buffer beyond this
constexpr auto kStartupTimeout = std::chrono::seconds(60);

uint32_t BigEndian32(const unsigned char* p) {
  return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | uint32_t{p[3]};
}

Status ProtocolError(std::string message) {
  return Status::Error(kProtocolViolation, std::move(message));
}

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
  if (session_) {
    session_->Detach();
    server_->UnregisterCancelKey(pid_);
    server_->sessions()->Close(session_->id(), close_reason_.c_str());
    session_.reset();
  }
  std::error_code ec;
  socket_.close(ec);
}

asio::awaitable<void> PgConnection::Flush() {
  if (out_.empty()) co_return;
  std::string data;
  data.swap(out_);
  co_await asio::async_write(socket_, asio::buffer(data), asio::use_awaitable);
}

asio::awaitable<void> PgConnection::ProtocolViolation(const std::string& message) {
  spdlog::warn("pg connection {}: protocol violation: {}", peer_, message);
  close_reason_ = "protocol violation";
  WriteErrorResponse(&out_, ProtocolError(message), "FATAL");
  co_await Flush();
}

asio::awaitable<void> PgConnection::OnPool(std::function<void()> fn) {
  // Not a coroutine itself: GCC 12 destroys a coroutine parameter twice when a lambda captures
  // it by move. The initiation posts fn to the pool; its completion resumes the caller on the
  // caller's strand.
  return asio::async_initiate<const asio::use_awaitable_t<>&, void()>(
      [](auto handler, asio::thread_pool* pool, std::function<void()> work) {
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

asio::awaitable<bool> PgConnection::Startup() {
  while (true) {
    unsigned char header[4];
    co_await asio::async_read(socket_, asio::buffer(header), asio::use_awaitable);
    uint32_t len = BigEndian32(header);
    if (len < 8 || len > kMaxStartupLength) {
      co_await ProtocolViolation("invalid length of startup packet");
      co_return false;
    }
    std::string body(len - 4, '\0');
    co_await asio::async_read(socket_, asio::buffer(body), asio::use_awaitable);
    MessageReader reader(body);
    auto code = static_cast<uint32_t>(reader.Int32());
    if (code == kSslRequestCode || code == kGssEncRequestCode) {
      if (len != 8) {
        co_await ProtocolViolation("invalid length of SSL or GSS encryption request");
        co_return false;
      }
      out_.push_back('N');  // no TLS, no GSS encryption: the client continues in the clear
      co_await Flush();
      continue;
    }
    if (code == kCancelRequestCode) {
      if (len == 16) {
        int32_t pid = reader.Int32();
        int32_t secret = reader.Int32();
        server_->Cancel(pid, secret);
      }
      co_return false;  // the cancel connection gets no answer
    }
    if (code >> 16 != 3 || (code & 0xFFFF) != 0) {
      std::string msg = "unsupported frontend protocol ";
      msg.append(std::to_string(code >> 16)).append(".").append(std::to_string(code & 0xFFFF));
      msg.append(": server supports 3.0 to 3.0");
      WriteErrorResponse(&out_, Status::NotSupported(msg), "FATAL");
      co_await Flush();
      co_return false;
    }
    auto params = ParseStartupParameters(reader);
    if (!params) {
      co_await ProtocolViolation("invalid startup packet layout: expected terminator as last byte");
      co_return false;
    }
    std::string user, database, application_name;
    for (const auto& [name, value] : *params) {
      if (name == "user") user = value;
      if (name == "database") database = value;
      if (name == "application_name") application_name = value;
    }
    if (user.empty()) {
      WriteErrorResponse(&out_,
                         Status::Error("28000",
                                       "no PostgreSQL user name specified in startup "
                                       "packet"),
                         "FATAL");
      co_await Flush();
      co_return false;
    }
    if (database.empty()) database = user;
    std::string peer = "pg:";
    peer.append(peer_);
    auto opened = server_->sessions()->Open(user, database, application_name, peer);
    if (!opened.ok()) {
      WriteErrorResponse(&out_, opened.status(), "FATAL");
      co_await Flush();
      co_return false;
    }
    session_ = std::move(opened).value();
    if (!session_->Attach([weak = weak_from_this()] {
          if (auto conn = weak.lock()) conn->CloseFromOutside();
        })) {
      session_.reset();
      co_return false;
    }
    auto key = server_->RegisterCancelKey(session_);
    pid_ = key.pid;
    WriteAuthenticationOk(&out_);
    std::string version = "15.0 (";
    version.append(kServerVersion).append(")");
    WriteParameterStatus(&out_, "server_version", version);
    WriteParameterStatus(&out_, "server_encoding", "UTF8");
    WriteParameterStatus(&out_, "client_encoding", "UTF8");
    WriteParameterStatus(&out_, "DateStyle", "ISO, MDY");
    WriteParameterStatus(&out_, "TimeZone", "UTC");
    WriteParameterStatus(&out_, "integer_datetimes", "on");
    WriteParameterStatus(&out_, "standard_conforming_strings", "on");
    WriteParameterStatus(&out_, "application_name", application_name);
    WriteBackendKeyData(&out_, key.pid, key.secret);
    WriteReadyForQuery(&out_, 'I');
    co_await Flush();
    co_return true;
  }
}

void PgConnection::CloseFromOutside() {
  // Runs on any thread; the socket belongs to the strand.
  asio::post(socket_.get_executor(), [self = shared_from_this()] {
    self->close_reason_ = "closed by the server";
    std::error_code ec;
    self->socket_.close(ec);
  });
}

asio::awaitable<std::optional<PgConnection::Message>> PgConnection::ReadMessage() {
  unsigned char header[5];
  co_await asio::async_read(socket_, asio::buffer(header), asio::use_awaitable);
  Message m;
  m.type = static_cast<char>(header[0]);
  uint32_t len = BigEndian32(header + 1);
  if (len < 4 || len > kMaxMessageLength) {
    co_await ProtocolViolation("invalid message length");
    co_return std::nullopt;
  }
  m.body.resize(len - 4);
  co_await asio::async_read(socket_, asio::buffer(m.body), asio::use_awaitable);
  co_return m;
}

asio::awaitable<void> PgConnection::MessageLoop() {
  while (true) {
    auto message = co_await ReadMessage();
    if (!message) co_return;
    const std::string& body = message->body;
    if (ignore_till_sync_ && message->type != 'S' && message->type != 'X' && message->type != 'Q') {
      continue;
    }
    switch (message->type) {
      case 'Q': {
        MessageReader reader(body);
        std::string sql(reader.CString());
        if (!reader.ok() || !reader.AtEnd()) {
          co_await ProtocolViolation("invalid Query message format");
          co_return;
        }
        ignore_till_sync_ = false;
        co_await EndExtendedRequest();
        co_await SimpleQuery(sql);
        WriteReadyForQuery(&out_, 'I');
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
      case 'C':
        if (!HandleClose(body)) {
          co_await ProtocolViolation("invalid Close message format");
          co_return;
        }
        break;
      case 'H':
        co_await Flush();
        break;
      case 'S': {
        // End of an implicit transaction: portals die, the request ends.
        ignore_till_sync_ = false;
        co_await EndExtendedRequest();
        WriteReadyForQuery(&out_, 'I');
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

asio::awaitable<void> PgConnection::SimpleQuery(const std::string& sql) {
  std::shared_ptr<ExecControl> ctl;
  if (Status st = session_->BeginRequest("", &ctl); !st.ok()) {
    WriteErrorResponse(&out_, st);
    co_return;
  }
  WatchForDisconnect(ctl);
  Status status;
  co_await OnPool([&] {
    auto parsed = session_->engine()->Parse(sql);
    if (parsed.ok()) {
      request_ = std::move(parsed).value();
    } else {
      status = parsed.status();
    }
  });
  if (status.ok() && request_->size() == 0) WriteEmptyQueryResponse(&out_);
  for (size_t i = 0; status.ok() && i < request_->size(); ++i) {
    bool more = true, first = true;
    std::string tag, notice;
    while (more && status.ok()) {
      co_await OnPool([&] {
        try {
          rows_.clear();
          if (cursor_ == nullptr) {
            if (status = ctl->Check(); !status.ok()) return;
            auto started = request_->Start(i, *ctl);
            if (!started.ok()) {
              status = started.status();
              return;
            }
            cursor_ = std::move(started).value();
          }
          auto fetched = cursor_->Fetch(kFetchRows, kFetchBytes, *ctl, &rows_);
          if (!fetched.ok()) {
            status = fetched.status();
            cursor_.reset();
            return;
          }
          more = *fetched;
          if (!more) {
            tag = cursor_->CommandTag();
            notice = cursor_->Notice();
          }
        } catch (const std::exception& e) {
          status = Status::Internal(std::string("internal error: ") + e.what());
          cursor_.reset();
        }
      });
      if (!status.ok()) break;
      if (first && !cursor_->columns().empty()) WriteRowDescription(&out_, cursor_->columns());
      first = false;
      for (const Row& row : rows_) WriteDataRow(&out_, row);
      if (out_.size() > kFlushBytes) co_await Flush();
    }
    if (!status.ok()) break;
    if (!notice.empty()) WriteNoticeResponse(&out_, notice);
    WriteCommandComplete(&out_, tag);
    co_await OnPool([&] { cursor_.reset(); });
  }
  if (!status.ok()) WriteErrorResponse(&out_, status);
  co_await OnPool([&] {
    cursor_.reset();
    request_.reset();
  });
  rows_.clear();
  StopWatching();
  session_->EndRequest();
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

// ---- Extended protocol -------------------------------------------------------------------

asio::awaitable<void> PgConnection::EndExtendedRequest() {
  // End of the implicit transaction: portals die (on the pool: a cursor may release locks) and
  // the session's request ends.
  std::vector<std::unique_ptr<Portal>> dropped;
  for (auto& [name, portal] : portals_) dropped.push_back(std::move(portal));
  portals_.clear();
  if (!dropped.empty()) co_await OnPool([&dropped] { dropped.clear(); });
  if (ext_ctl_ != nullptr) {
    ext_ctl_.reset();
    session_->EndRequest();
  }
}

void PgConnection::ExtendedError(const Status& st) {
  WriteErrorResponse(&out_, st);
  ignore_till_sync_ = true;
}

asio::awaitable<bool> PgConnection::HandleParse(const std::string& body) {
  MessageReader reader(body);
  std::string name(reader.CString());
  std::string sql(reader.CString());
  int16_t nparams = reader.Int16();
  for (int16_t i = 0; i < nparams && reader.ok(); ++i) (void)reader.Int32();
  if (!reader.ok() || !reader.AtEnd() || nparams < 0) {
    co_await ProtocolViolation("invalid Parse message format");
    co_return false;
  }
  if (nparams > 0) {
    ExtendedError(Status::NotSupported("parameters are not supported yet"));
    co_return true;
  }
  Status status;
  co_await OnPool([&] {
    auto parsed = session_->engine()->Parse(sql);
    if (!parsed.ok()) {
      status = parsed.status();
    } else if ((*parsed)->size() > 1) {
      status = Status::Error(sqlstate::kSyntaxError,
                             "cannot insert multiple commands into a prepared "
                             "statement");
    }
  });
  if (!status.ok()) {
    ExtendedError(status);
    co_return true;
  }
  if (!name.empty() && statements_.count(name) != 0) {
    ExtendedError(Status::Error("42P05", "prepared statement \"" + name + "\" already exists"));
    co_return true;
  }
  statements_[name] = Prepared{sql};
  WriteParseComplete(&out_);
  co_return true;
}

asio::awaitable<bool> PgConnection::HandleBind(const std::string& body) {
  MessageReader reader(body);
  std::string portal_name(reader.CString());
  std::string statement_name(reader.CString());
  int16_t nformats = reader.Int16();
  for (int16_t i = 0; i < nformats && reader.ok(); ++i) (void)reader.Int16();
  int16_t nparams = reader.Int16();
  for (int16_t i = 0; i < nparams && reader.ok(); ++i) {
    int32_t len = reader.Int32();
    if (len > 0) (void)reader.Bytes(static_cast<size_t>(len));
  }
  int16_t nresult_formats = reader.Int16();
  bool binary = false;
  for (int16_t i = 0; i < nresult_formats && reader.ok(); ++i) binary |= reader.Int16() != 0;
  if (!reader.ok() || !reader.AtEnd() || nformats < 0 || nparams < 0 || nresult_formats < 0) {
    co_await ProtocolViolation("invalid Bind message format");
    co_return false;
  }
  if (nparams > 0) {
    ExtendedError(Status::NotSupported("parameters are not supported yet"));
    co_return true;
  }
  if (binary) {
    ExtendedError(Status::NotSupported("binary result format is not supported yet"));
    co_return true;
  }
  auto it = statements_.find(statement_name);
  if (it == statements_.end()) {
    ExtendedError(
        Status::Error("26000", "prepared statement \"" + statement_name + "\" does not exist"));
    co_return true;
  }
  if (!portal_name.empty() && portals_.count(portal_name) != 0) {
    ExtendedError(Status::Error("42P03", "cursor \"" + portal_name + "\" already exists"));
    co_return true;
  }
  if (auto old = portals_.find(portal_name); old != portals_.end()) {
    std::unique_ptr<Portal> dropped = std::move(old->second);
    portals_.erase(old);
    co_await OnPool([&dropped] { dropped.reset(); });
  }
  auto portal = std::make_unique<Portal>();
  portal->sql = it->second.sql;
  portals_[portal_name] = std::move(portal);
  WriteBindComplete(&out_);
  co_return true;
}

asio::awaitable<Status> PgConnection::StartPortal(Portal* portal) {
  if (portal->started) co_return Status::Ok();
  portal->started = true;
  // The extended protocol's request spans the messages up to Sync.
  if (ext_ctl_ == nullptr) {
    if (Status st = session_->BeginRequest("", &ext_ctl_); !st.ok()) co_return st;
  }
  ExecControl* ctl = ext_ctl_.get();
  Status status;
  co_await OnPool([&] {
    auto parsed = session_->engine()->Parse(portal->sql);
    if (!parsed.ok()) {
      status = parsed.status();
      return;
    }
    portal->request = std::move(parsed).value();
    if (portal->request->size() == 0) {
      portal->empty = true;
      portal->done = true;
      return;
    }
    auto started = portal->request->Start(0, *ctl);
    if (!started.ok()) {
      status = started.status();
      return;
    }
    portal->cursor = std::move(started).value();
    portal->columns = portal->cursor->columns();
  });
  co_return status;
}

asio::awaitable<bool> PgConnection::HandleDescribe(const std::string& body) {
  MessageReader reader(body);
  uint8_t kind = reader.Byte();
  std::string name(reader.CString());
  if (!reader.ok() || !reader.AtEnd() || (kind != 'S' && kind != 'P')) {
    co_await ProtocolViolation("invalid Describe message format");
    co_return false;
  }
  if (kind == 'S') {
    if (statements_.count(name) == 0) {
      ExtendedError(Status::Error("26000", "prepared statement \"" + name + "\" does not exist"));
      co_return true;
    }
    // Result columns are known only once a statement is bound and planned; statement-level
    // Describe reports no parameters and NoData for now (see README.md).
    WriteParameterDescription(&out_, {});
    WriteNoData(&out_);
    co_return true;
  }
  auto it = portals_.find(name);
  if (it == portals_.end()) {
    ExtendedError(Status::Error("34000", "portal \"" + name + "\" does not exist"));
    co_return true;
  }
  Status st = co_await StartPortal(it->second.get());
  if (!st.ok()) {
    ExtendedError(st);
    co_return true;
  }
  if (it->second->columns.empty()) {
    WriteNoData(&out_);
  } else {
    WriteRowDescription(&out_, it->second->columns);
  }
  co_return true;
}

asio::awaitable<bool> PgConnection::HandleExecute(const std::string& body) {
  MessageReader reader(body);
  std::string name(reader.CString());
  int32_t max_rows = reader.Int32();
  if (!reader.ok() || !reader.AtEnd()) {
    co_await ProtocolViolation("invalid Execute message format");
    co_return false;
  }
  auto it = portals_.find(name);
  if (it == portals_.end()) {
    ExtendedError(Status::Error("34000", "portal \"" + name + "\" does not exist"));
    co_return true;
  }
  Portal* portal = it->second.get();
  Status st = co_await StartPortal(portal);
  if (!st.ok()) {
    ExtendedError(st);
    co_return true;
  }
  if (portal->empty) {
    WriteEmptyQueryResponse(&out_);
    co_return true;
  }
  if (portal->done) {
    // A finished portal executes to nothing, like PostgreSQL's.
    WriteCommandComplete(&out_, portal->tag);
    co_return true;
  }
  size_t limit = max_rows > 0 ? static_cast<size_t>(max_rows) : SIZE_MAX;
  size_t sent = 0;
  Status status;
  while (status.ok() && !portal->done && sent < limit) {
    size_t want = std::min(kFetchRows, limit - sent);
    co_await OnPool([&] {
      rows_.clear();
      auto fetched = portal->cursor->Fetch(want, kFetchBytes, *ext_ctl_, &rows_);
      if (!fetched.ok()) {
        status = fetched.status();
        return;
      }
      if (!*fetched) {
        portal->done = true;
        portal->tag = portal->cursor->CommandTag();
        portal->notice = portal->cursor->Notice();
        portal->cursor.reset();
      }
    });
    if (!status.ok()) break;
    for (const Row& row : rows_) WriteDataRow(&out_, row);
    sent += rows_.size();
    if (out_.size() > kFlushBytes) co_await Flush();
  }
  rows_.clear();
  if (!status.ok()) {
    ExtendedError(status);
    co_return true;
  }
  if (!portal->done) {
    WritePortalSuspended(&out_);
    co_return true;
  }
  if (!portal->notice.empty()) WriteNoticeResponse(&out_, portal->notice);
  WriteCommandComplete(&out_, portal->tag);
  co_return true;
}

bool PgConnection::HandleClose(const std::string& body) {
  MessageReader reader(body);
  uint8_t kind = reader.Byte();
  std::string name(reader.CString());
  if (!reader.ok() || !reader.AtEnd() || (kind != 'S' && kind != 'P')) return false;
  if (kind == 'S') {
    statements_.erase(name);
  } else {
    portals_.erase(name);
  }
  WriteCloseComplete(&out_);
  return true;
}

}  // namespace meridian::server::pgwire
