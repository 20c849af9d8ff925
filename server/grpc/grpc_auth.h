// Security of the gRPC front end: the transport (TLS from --tls-cert/--tls-key, client
// certificates from --tls-ca), the rule for where a password may travel, and the metadata key
// that carries a session's secret. OpenSession checks passwords against the same accounts as the
// PostgreSQL listener (pgwire::AuthConfig); SqlService applies the rules (sql_service.cc).
#pragma once

#include <grpcpp/security/server_credentials.h>

#include <memory>
#include <string_view>

#include "meridian/status.h"
#include "server_options.h"

namespace meridian::server {

// The call metadata that carries OpenSessionResponse.session_secret on every later call.
inline constexpr const char* kSessionSecretMetadata = "x-meridian-session-secret";

// True when a gRPC peer string ("ipv4:127.0.0.1:5000", "ipv6:%5B::1%5D:5000", "unix:/path")
// names this host: 127.0.0.0/8, ::1, ::ffff:127.x.y.z, or a Unix socket.
bool IsLoopbackPeer(std::string_view peer);

// Whether a password may be accepted from this connection: over TLS from anywhere, without TLS
// only from a loopback peer (the password is in OpenSession in clear; on loopback it never
// leaves the host).
bool PasswordAllowed(bool tls, std::string_view peer);

// The listener's credentials: insecure without --tls-cert; else TLS 1.2+ with the certificate
// chain and key, and with --tls-ca client certificates that chain to it are required. The PEM
// files are read and checked (the key matches the certificate) here, so a bad file stops the
// start with a message instead of a failed listen.
Result<std::shared_ptr<grpc::ServerCredentials>> GrpcServerCredentials(
    const ServerOptions& options);

}  // namespace meridian::server
