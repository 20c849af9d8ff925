// One PostgreSQL client connection as a coroutine; see pg_connection.h and README.md for the
// message flow. Everything here runs on the connection's strand except the lambdas given to
// OnPool, which run on the worker pool while the coroutine waits (so they never overlap).
#include "pg_connection.h"

#include <spdlog/spdlog.h>
#include <sys/socket.h>

#include <algorithm>
#include <asio/associated_executor.hpp>
#include <asio/async_result.hpp>
#include <asio/dispatch.hpp>
#include <asio/post.hpp>
#include <asio/ssl/error.hpp>
#include <asio/use_awaitable.hpp>
#include <asio/write.hpp>
#include <cerrno>
#include <cstring>

#include "pg_protocol.h"
#include "pg_server.h"
#include "grpc/sql_service.h"

namespace meridian::server::pgwire {
namespace {

constexpr size_t kFetchRows = 1000;         // rows per worker-pool step
constexpr size_t kFetchBytes = 256 * 1024;  // bytes per worker-pool step (about)
constexpr size_t kFlushBytes = 64 * 1024;   // flush the output buffer beyond this
constexpr size_t kReadChunk = 16 * 1024;    // bytes asked of the stream per read (at least)
constexpr size_t kKeepInput = 1 << 20;      // a larger input buffer is freed once drained
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
    auto message = co_await ReadMessage(/*startup=*/true);
    if (!message) co_return false;
    auto packet = DecodeStartupPacket(message->body);
    if (!packet.ok()) {
      co_await Fatal(packet.status());
      co_return false;
    }
    switch (packet->kind) {
      case StartupPacket::Kind::kSslRequest:
        if (tls_ != nullptr) {
          co_await ProtocolViolation("SSLRequest on an encrypted connection");
          co_return false;
        }
        if (server_->tls_context() != nullptr) {
          if (!co_await UpgradeToTls()) co_return false;
          continue;
        }
        out_.push_back('N');  // no TLS: the client continues in the clear (or gives up)
        co_await Flush();
        continue;
      case StartupPacket::Kind::kGssEncRequest:
        out_.push_back('N');  // no GSS encryption
        co_await Flush();
        continue;
      case StartupPacket::Kind::kCancelRequest:
        server_->Cancel(packet->cancel_pid, packet->cancel_secret);
        co_return false;  // the cancel connection gets no answer
      case StartupPacket::Kind::kStartup:
        break;
    }
    if (!co_await Authenticate(packet->user)) co_return false;
    std::string peer = "pg:";
    peer.append(peer_);
    if (tls_) peer.append(" (TLS)");
    auto opened =
        server_->sessions()->Open(packet->user, packet->database, packet->application_name, peer);
    if (!opened.ok()) {
      co_await Fatal(opened.status());
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
    session_->engine()->SetBackendPid(key.pid);
    WriteAuthenticationOk(&out_);
    // The session's reported parameters (server_version "15.0 (Meridian ...)", UTF8,
    // "ISO, MDY", UTC, application_name, ...): the same values SHOW gives.
    for (const auto& [name, value] : session_->engine()->ReportedParameters()) {
      WriteParameterStatus(&out_, name, value);
    }
    session_->engine()->TakeChangedParameters();
    WriteBackendKeyData(&out_, key.pid, key.secret);
    AppendReadyForQuery();
    co_await Flush();
    co_return true;
  }
}

asio::awaitable<bool> PgConnection::UpgradeToTls() {
  // Bytes pipelined behind the SSLRequest were sent in the clear: refuse them, as PostgreSQL
  // does (CVE-2021-23214), instead of treating them as if they came through TLS.
  if (in_begin_ != in_end_) {
    co_await ProtocolViolation("received unencrypted data after SSL request");
    co_return false;
  }
  out_.push_back('S');
  co_await Flush();
  tls_ =
      std::make_unique<asio::ssl::stream<asio::ip::tcp::socket&>>(socket_, *server_->tls_context());
  try {
    co_await tls_->async_handshake(asio::ssl::stream_base::server, asio::use_awaitable);
  } catch (const std::system_error& e) {
    spdlog::info("pg connection {}: TLS handshake failed: {}", peer_, e.what());
    co_return false;
  }
  co_return true;
}

asio::awaitable<std::optional<PgConnection::Message>> PgConnection::ReadAuthResponse() {
  auto message = co_await ReadMessage(/*startup=*/false);
  if (message && message->type != 'p') {
    co_await ProtocolViolation("expected password response, got message type " +
                               std::to_string(static_cast<unsigned char>(message->type)));
    co_return std::nullopt;
  }
  co_return message;
}

asio::awaitable<bool> PgConnection::Authenticate(const std::string& user) {
  const AuthMethod method = server_->auth_method();
  if (method == AuthMethod::kTrust) co_return true;
  const UserTable& users = server_->users();
  const UserTable::Secret* secret = users.Find(user);
  bool ok = false;
  if (method == AuthMethod::kPassword) {
    WriteAuthenticationCleartextPassword(&out_);
    co_await Flush();
    auto message = co_await ReadAuthResponse();
    if (!message) co_return false;
    auto password = DecodePasswordMessage(message->body);
    if (!password.ok()) {
      co_await Fatal(password.status());
      co_return false;
    }
    // A verifier costs a PBKDF2 run (thousands of HMACs): not on a network thread.
    co_await OnPool([&] { ok = users.CheckPassword(user, *password); });
  } else {
    WriteAuthenticationSasl(&out_, {kScramMechanism});
    co_await Flush();
    auto message = co_await ReadAuthResponse();
    if (!message) co_return false;
    auto initial = DecodeSaslInitialResponse(message->body);
    if (!initial.ok()) {
      co_await Fatal(initial.status());
      co_return false;
    }
    if (initial->mechanism != kScramMechanism) {
      co_await ProtocolViolation("client selected an invalid SASL authentication mechanism");
      co_return false;
    }
    // An unknown user goes through the whole exchange against a mock verifier and fails at the
    // end with the message of a wrong password, so the answer does not tell who exists.
    ScramServer scram(secret ? secret->verifier : users.MockVerifier(user), secret == nullptr);
    auto server_first = scram.ClientFirst(initial->data.value_or(""));
    if (!server_first.ok()) {
      co_await Fatal(server_first.status());
      co_return false;
    }
    WriteAuthenticationSaslContinue(&out_, *server_first);
    co_await Flush();
    message = co_await ReadAuthResponse();
    if (!message) co_return false;
    auto server_final = scram.ClientFinal(message->body);
    if (server_final.ok()) {
      WriteAuthenticationSaslFinal(&out_, *server_final);  // sent with AuthenticationOk
      ok = true;
    } else if (server_final.status().sqlstate() != sqlstate::kInvalidPassword) {
      co_await Fatal(server_final.status());
      co_return false;
    }
  }
  if (!ok) {
    co_await Fatal(AuthenticationFailed(user));
    co_return false;
  }
  co_return true;
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

asio::awaitable<void> PgConnection::SimpleQuery(const std::string& sql) {
  std::shared_ptr<ExecControl> ctl;
  if (Status st = session_->BeginRequest("", &ctl); !st.ok()) {
    WriteErrorResponse(&out_, st);
    co_return;
  }
  WatchForDisconnect(ctl);
  // Each pool step parses (the first), starts a statement if none runs, fetches, and drops a
  // finished statement's cursor (and, after the last statement, the request): a short query is
  // one trip to the pool and back. COPY keeps its cursor until the copy ends.
  Status status;
  size_t statements = 0;
  for (size_t i = 0; status.ok() && (i == 0 || i < statements); ++i) {
    bool more = true, first = true, copy_out = false, copy_in = false;
    size_t copy_columns = 0;
    std::vector<ColumnInfo> columns;
    std::string tag, notice, notice_state;
    while (more && status.ok()) {
      co_await OnPool([&] {
        try {
          rows_.clear();
          if (request_ == nullptr) {
            auto parsed = session_->engine()->Parse(sql);
            if (!parsed.ok()) {
              status = parsed.status();
              return;
            }
            request_ = std::move(parsed).value();
            statements = request_->size();
            if (statements == 0) {
              more = false;
              request_.reset();
              return;
            }
          }
          if (cursor_ == nullptr) {
            if (status = ctl->Check(); !status.ok()) return;
            auto started = request_->Start(i, *ctl);
            if (!started.ok()) {
              status = started.status();
              return;
            }
            cursor_ = std::move(started).value();
            columns = cursor_->columns();
            copy_out = cursor_->copy_out();
            copy_columns = cursor_->copy_columns();
            copy_in = cursor_->copy_in() != nullptr;
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
            notice_state = cursor_->NoticeSqlstate();
            if (!copy_in) {
              cursor_.reset();
              if (i + 1 == statements) request_.reset();
            }
          }
        } catch (const std::exception& e) {
          status = Status::Internal(std::string("internal error: ") + e.what());
          cursor_.reset();
        }
      });
      if (!status.ok()) break;
      if (statements == 0) {
        WriteEmptyQueryResponse(&out_);
        break;
      }
      if (first && copy_out) WriteCopyOutResponse(&out_, copy_columns);
      if (first && !columns.empty()) WriteRowDescription(&out_, columns);
      first = false;
      {
        // Not across a co_await: the zone is the thread's, and the coroutine may move.
        datetime::ScopedTimeZone in_zone(session_->engine()->time_zone());
        for (const Row& row : rows_) {
          if (copy_out) {
            WriteCopyData(&out_, row[0].AsString());
          } else {
            WriteDataRow(&out_, row, columns, {});
          }
        }
      }
      if (out_.size() > kFlushBytes) co_await Flush();
    }
    if (!status.ok() || statements == 0) break;
    if (copy_out) WriteCopyDone(&out_);
    if (copy_in) {
      status = co_await CopyFromClient(ctl.get());
      if (closing_) {
        co_await OnPool([&] {
          cursor_.reset();
          request_.reset();
        });
        session_->EndRequest();
        co_return;
      }
      if (status.ok()) tag = cursor_->CommandTag();
      co_await OnPool([&] {
        cursor_.reset();
        if (i + 1 == statements) request_.reset();
      });
      if (!status.ok()) break;
    }
    if (!notice.empty()) WriteNoticeResponse(&out_, notice, notice_state);
    WriteCommandComplete(&out_, tag);
    AppendParameterChanges();
  }
  if (!status.ok()) {
    WriteErrorResponse(&out_, status);
    AppendParameterChanges();  // e.g. set_config() in a statement that failed later
  }
  if (cursor_ != nullptr || request_ != nullptr) {
    co_await OnPool([&] {
      cursor_.reset();
      request_.reset();
    });
  }
  rows_.clear();
  StopWatching();
  session_->EndRequest();
}

void PgConnection::AppendParameterChanges() {
  for (const auto& [name, value] : session_->engine()->TakeChangedParameters()) {
    WriteParameterStatus(&out_, name, value);
  }
}

asio::awaitable<Status> PgConnection::CopyFromClient(ExecControl* ctl) {
  StopWatching();  // the client's messages are read here now
  CopyIn* sink = cursor_->copy_in();
  WriteCopyInResponse(&out_, sink->column_count());
  co_await Flush();
  // CopyData bodies are one byte stream (their boundaries mean nothing; pgbench sends a message
  // per row): they are gathered here and handed to the pool in chunks of kCopyChunk bytes, not
  // one pool hop per message.
  static constexpr size_t kCopyChunk = 256 * 1024;
  std::string pending;
  auto write_pending = [&]() -> asio::awaitable<Status> {
    Status status;
    if (!pending.empty()) {
      co_await OnPool([&] { status = sink->Write(pending, *ctl); });
      pending.clear();
    }
    co_return status;
  };
  while (true) {
    auto message = co_await ReadMessage(/*startup=*/false);
    if (!message) {  // a protocol violation, already answered with FATAL
      closing_ = true;
      co_return Status::Error(sqlstate::kProtocolViolation, "protocol violation during COPY");
    }
    Status status;
    switch (message->type) {
      case 'd':
        pending.append(message->body);
        if (pending.size() >= kCopyChunk) {
          status = co_await write_pending();
          if (!status.ok()) co_return status;  // the rest of the data is ignored by the loop
        }
        break;
      case 'c':
        status = co_await write_pending();
        if (!status.ok()) co_return status;
        co_await OnPool([&] { status = sink->Finish(*ctl); });
        co_return status;
      case 'f': {
        auto reason = DecodeCopyFail(message->body);
        if (!reason.ok()) {
          co_await Fatal(reason.status());
          closing_ = true;
          co_return reason.status();
        }
        co_return Status::Error(sqlstate::kQueryCanceled,
                                "COPY from stdin failed: " + std::string(*reason));
      }
      case 'H':
      case 'S':
        break;  // Flush and Sync mean nothing during COPY
      case 'X':
        close_reason_ = "client terminated";
        closing_ = true;
        co_return Status::Error(sqlstate::kQueryCanceled, "client terminated during COPY");
      default: {
        char hex[8];
        std::snprintf(hex, sizeof(hex), "0x%02X", static_cast<unsigned char>(message->type));
        co_return Status::Error(sqlstate::kProtocolViolation, std::string("unexpected message type ") + hex +
                                                        " during COPY from stdin");
      }
    }
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

// ---- Extended protocol -------------------------------------------------------------------

asio::awaitable<void> PgConnection::EndExtendedRequest() {
  // End of the implicit transaction: portals die (on the pool: a cursor may release locks) and
  // the session's request ends.
  std::vector<std::unique_ptr<Portal>> dropped;
  for (auto& [name, portal] : portals_) dropped.push_back(std::move(portal));
  for (auto& portal : closed_portals_) dropped.push_back(std::move(portal));
  closed_portals_.clear();
  portals_.clear();
  // A portal that ran to its end has no cursor left and is freed here; a live cursor (it may
  // hold locks or a transaction) is destroyed on the pool.
  const bool live = std::any_of(dropped.begin(), dropped.end(),
                                [](const auto& portal) { return portal->cursor != nullptr; });
  if (live) co_await OnPool([&dropped] { dropped.clear(); });
  dropped.clear();
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
  auto parse = DecodeParse(body);
  if (!parse.ok()) {
    co_await Fatal(parse.status());
    co_return false;
  }
  std::string name(parse->statement);
  std::string sql(parse->sql);
  std::vector<Type> declared;
  for (uint32_t oid : parse->parameter_types) {
    auto type = ParamTypeFromOid(oid);
    if (!type.ok()) {
      ExtendedError(type.status());
      co_return true;
    }
    declared.push_back(*type);
  }
  // Parsed once here and described (parameter types, result columns), as PostgreSQL's Parse
  // does parse analysis; Bind/Execute only bind, plan and run it. A named statement goes into
  // the session's namespace (42P05 when taken), the unnamed one replaces the previous one.
  Status status;
  co_await OnPool([&] {
    auto prepared = session_->engine()->Prepare(name, sql, declared);
    if (!prepared.ok()) {
      status = prepared.status();
    } else if (name.empty()) {
      unnamed_ = std::move(prepared).value();
    }
  });
  if (!status.ok()) {
    ExtendedError(status);
    co_return true;
  }
  WriteParseComplete(&out_);
  co_return true;
}

std::optional<PreparedStatementInfo> PgConnection::FindStatement(const std::string& name) const {
  if (name.empty()) return unnamed_;
  return session_->engine()->FindPrepared(name);
}

asio::awaitable<bool> PgConnection::HandleBind(const std::string& body) {
  auto bind = DecodeBind(body);
  if (!bind.ok()) {
    co_await Fatal(bind.status());
    co_return false;
  }
  std::string portal_name(bind->portal);
  std::string statement_name(bind->statement);
  const std::optional<PreparedStatementInfo> found = FindStatement(statement_name);
  if (!found) {
    ExtendedError(Status::Error(sqlstate::kInvalidSqlStatementName,
                                "prepared statement \"" + statement_name + "\" does not exist"));
    co_return true;
  }
  const PreparedStatementInfo& prepared = *found;
  if (bind->parameters.size() != prepared.param_types.size()) {
    ExtendedError(Status::Error(sqlstate::kProtocolViolation,
                                "bind message supplies " + std::to_string(bind->parameters.size()) +
                                    " parameters, but prepared statement \"" + statement_name +
                                    "\" requires " + std::to_string(prepared.param_types.size())));
    co_return true;
  }
  auto formats = ResolveFormats(bind->parameter_formats, bind->parameters.size(),
                                "parameter formats", "parameters");
  if (!formats.ok()) {
    ExtendedError(formats.status());
    co_return true;
  }
  if (!prepared.columns.empty()) {
    // Checked here against the described columns, again per column when the portal starts.
    auto results =
        ResolveFormats(bind->result_formats, prepared.columns.size(), "result formats", "columns");
    if (!results.ok()) {
      ExtendedError(results.status());
      co_return true;
    }
  }
  StatementParams params;
  params.types = prepared.param_types;
  for (size_t i = 0; i < bind->parameters.size(); ++i) {
    const std::optional<std::string_view>& p = bind->parameters[i];
    if (!p) {
      params.values.push_back(Value::Null());
    } else if ((*formats)[i] == kBinaryFormat) {
      auto v = DecodeBinaryValue(*p, prepared.param_types[i], i);
      if (!v.ok()) {
        ExtendedError(v.status());
        co_return true;
      }
      params.values.push_back(std::move(v).value());
    } else {
      // Text format: the engine casts the string with the parameter type's input rules.
      params.values.push_back(Value::String(std::string(*p)));
    }
  }
  if (!portal_name.empty() && portals_.count(portal_name) != 0) {
    ExtendedError(
        Status::Error(sqlstate::kDuplicateCursor, "cursor \"" + portal_name + "\" already exists"));
    co_return true;
  }
  if (auto old = portals_.find(portal_name); old != portals_.end()) {
    std::unique_ptr<Portal> dropped = std::move(old->second);
    portals_.erase(old);
    co_await OnPool([&dropped] { dropped.reset(); });
  }
  auto portal = std::make_unique<Portal>();
  portal->request = prepared.request;
  portal->params = std::move(params);
  portal->result_formats = bind->result_formats;
  portal->empty = prepared.request == nullptr;
  portal->done = portal->empty;
  portals_[portal_name] = std::move(portal);
  WriteBindComplete(&out_);
  co_return true;
}

Status PgConnection::BeginExtendedRequest() {
  // The extended protocol's request spans the messages up to Sync.
  if (ext_ctl_ != nullptr) return Status::Ok();
  return session_->BeginRequest("", &ext_ctl_);
}

Status PgConnection::StartPortalNow(Portal* portal) {
  portal->started = true;
  if (portal->empty) return Status::Ok();
  auto started = portal->request->Start(0, *ext_ctl_, portal->params);
  if (!started.ok()) return started.status();
  portal->cursor = std::move(started).value();
  portal->columns = portal->cursor->columns();
  // A prepared statement whose result changed since Parse (DDL in between) failed to start
  // with 0A000 "cached plan must not change result type" (engine: CheckCachedResult).
  if (portal->cursor->copy_in() != nullptr || portal->cursor->copy_out()) {
    portal->cursor.reset();
    return Status::NotSupported("COPY is supported only in the simple query protocol");
  }
  auto formats =
      ResolveFormats(portal->result_formats, portal->columns.size(), "result formats", "columns");
  if (!formats.ok()) return formats.status();
  portal->formats = std::move(formats).value();
  return Status::Ok();
}

void PgConnection::FetchPortal(Portal* portal, size_t want) {
  portal->buffered.clear();
  portal->buffered_next = 0;
  auto fetched = portal->cursor->Fetch(want, kFetchBytes, *ext_ctl_, &portal->buffered);
  if (!fetched.ok()) {
    portal->error = fetched.status();
    portal->cursor.reset();
    return;
  }
  if (!*fetched) {
    portal->finished = true;
    portal->tag = portal->cursor->CommandTag();
    portal->notice = portal->cursor->Notice();
    portal->notice_state = portal->cursor->NoticeSqlstate();
    portal->cursor.reset();
  }
}

asio::awaitable<Status> PgConnection::StartPortal(Portal* portal) {
  if (portal->started) co_return Status::Ok();
  if (Status st = BeginExtendedRequest(); !st.ok()) co_return st;
  if (portal->empty) {
    portal->started = true;
    co_return Status::Ok();
  }
  // A prepared quick read or quick write (Request::QuickRead, QuickWrite: one row by a unique
  // key, one VALUES row, BEGIN) runs here on the connection's I/O thread: bounded work, and
  // under ExecControl::no_wait a busy table or row lock refuses at once instead of blocking the
  // thread (the statement undone; it then goes to the pool below). A pool hop costs two thread
  // wake-ups, much of such a statement's time.
  Status status;
  if (portal->request->QuickRead(0) || portal->request->QuickWrite(0)) {
    ext_ctl_->set_no_wait(true);
    status = StartPortalNow(portal);
    if (status.ok()) FetchPortal(portal, kFetchRows);
    ext_ctl_->set_no_wait(false);
    if (!ExecControl::IsWouldBlock(portal->error) && !ExecControl::IsWouldBlock(status)) {
      co_return status;
    }
    Portal fresh;  // as Bind left it: nothing started, nothing fetched
    fresh.request = std::move(portal->request);
    fresh.params = std::move(portal->params);
    fresh.result_formats = std::move(portal->result_formats);
    *portal = std::move(fresh);
  }
  // Describe starts the statement and fetches its first rows in one pool step (libpq sends
  // Describe before every Execute); an error of that fetch waits for Execute, as in PostgreSQL.
  co_await OnPool([&] {
    status = StartPortalNow(portal);
    if (status.ok()) FetchPortal(portal, kFetchRows);
  });
  co_return status;
}

asio::awaitable<bool> PgConnection::HandleDescribe(const std::string& body) {
  auto describe = DecodeDescribe(body);
  if (!describe.ok()) {
    co_await Fatal(describe.status());
    co_return false;
  }
  std::string name(describe->name);
  if (describe->kind == 'S') {
    const std::optional<PreparedStatementInfo> found = FindStatement(name);
    if (!found) {
      ExtendedError(Status::Error(sqlstate::kInvalidSqlStatementName,
                                  "prepared statement \"" + name + "\" does not exist"));
      co_return true;
    }
    // Described at Parse: formats are not known yet, so the columns are described as text.
    const PreparedStatementInfo& prepared = *found;
    std::vector<uint32_t> oids;
    for (const Type& t : prepared.param_types) oids.push_back(t.PgOid());
    WriteParameterDescription(&out_, oids);
    if (prepared.columns.empty()) {
      WriteNoData(&out_);
    } else {
      WriteRowDescription(&out_, prepared.columns);
    }
    co_return true;
  }
  auto it = portals_.find(name);
  if (it == portals_.end()) {
    ExtendedError(
        Status::Error(sqlstate::kInvalidCursorName, "portal \"" + name + "\" does not exist"));
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
    WriteRowDescription(&out_, it->second->columns, it->second->formats);
  }
  co_return true;
}

asio::awaitable<bool> PgConnection::HandleExecute(const std::string& body) {
  auto execute = DecodeExecute(body);
  if (!execute.ok()) {
    co_await Fatal(execute.status());
    co_return false;
  }
  std::string name(execute->portal);
  int32_t max_rows = execute->max_rows;
  auto it = portals_.find(name);
  if (it == portals_.end()) {
    ExtendedError(
        Status::Error(sqlstate::kInvalidCursorName, "portal \"" + name + "\" does not exist"));
    co_return true;
  }
  Portal* portal = it->second.get();
  if (Status st = BeginExtendedRequest(); !st.ok()) {
    ExtendedError(st);
    co_return true;
  }
  if (portal->empty) {
    portal->started = true;
    WriteEmptyQueryResponse(&out_);
    co_return true;
  }
  if (portal->done) {
    // A finished portal executes to nothing, like PostgreSQL's.
    WriteCommandComplete(&out_, portal->tag);
    co_return true;
  }
  const size_t limit = max_rows > 0 ? static_cast<size_t>(max_rows) : SIZE_MAX;
  size_t sent = 0;
  Status status;
  while (sent < limit) {
    if (portal->buffered_next < portal->buffered.size()) {
      const size_t n = std::min(limit - sent, portal->buffered.size() - portal->buffered_next);
      {
        datetime::ScopedTimeZone in_zone(session_->engine()->time_zone());  // not across co_await
        for (size_t i = 0; i < n; ++i) {
          WriteDataRow(&out_, portal->buffered[portal->buffered_next + i], portal->columns,
                       portal->formats);
        }
      }
      portal->buffered_next += n;
      sent += n;
      if (out_.size() > kFlushBytes) co_await Flush();
      continue;
    }
    if (!portal->error.ok() || portal->finished) break;
    if (!portal->started) {
      // No Describe before (pgx with a cached description sends Bind/Execute only): start as
      // Describe does, a quick statement on this thread, else in one pool step with its first
      // rows, which the loop then sends up to the limit.
      status = co_await StartPortal(portal);
      if (!status.ok()) break;
      continue;
    }
    const size_t want = std::min(kFetchRows, limit - sent);
    co_await OnPool([&] { FetchPortal(portal, want); });
  }
  if (status.ok() && !portal->error.ok()) {
    status = portal->error;
    portal->error = Status::Ok();
  }
  if (!status.ok()) {
    ExtendedError(status);
    co_return true;
  }
  if (!portal->finished || portal->buffered_next < portal->buffered.size()) {
    WritePortalSuspended(&out_);
    co_return true;
  }
  portal->done = true;
  portal->buffered.clear();
  if (!portal->notice.empty()) WriteNoticeResponse(&out_, portal->notice, portal->notice_state);
  WriteCommandComplete(&out_, portal->tag);
  AppendParameterChanges();
  co_return true;
}

asio::awaitable<void> PgConnection::HandleClose(const TargetMessage& target) {
  if (target.kind == 'S') {
    // Named: the session's namespace (a SQL-prepared statement too, as in PostgreSQL). On the
    // pool: the statement's parse may be freed here.
    std::string name(target.name);
    co_await OnPool([&] {
      if (name.empty()) {
        unnamed_.reset();
      } else {
        session_->engine()->ClosePrepared(name);
      }
    });
  } else if (auto it = portals_.find(std::string(target.name)); it != portals_.end()) {
    // A portal's cursor is destroyed on the pool (it may release locks); keep it till Sync.
    closed_portals_.push_back(std::move(it->second));
    portals_.erase(it);
  }
  WriteCloseComplete(&out_);
}

}  // namespace meridian::server::pgwire
