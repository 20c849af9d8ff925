// The startup phase of a PostgreSQL connection: the startup packet (SSLRequest and the TLS
// upgrade, GSSENCRequest, CancelRequest, StartupMessage), authentication (trust, cleartext
// password, SCRAM-SHA-256), the session's opening and its ParameterStatus, BackendKeyData and
// first ReadyForQuery. docs/pgwire-protocol.md, "Message flow" 1 and "Authentication and TLS".
#include <spdlog/spdlog.h>

#include <asio/ssl/error.hpp>
#include <asio/use_awaitable.hpp>

#include "pg_auth.h"
#include "pg_connection.h"
#include "pg_protocol.h"
#include "pg_server.h"

namespace meridian::server::pgwire {

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

}  // namespace meridian::server::pgwire
