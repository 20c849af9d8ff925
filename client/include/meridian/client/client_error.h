// Client-side error type and the small Result wrappers used by the Meridian client library.
// A ClientError carries the PostgreSQL-style fields of the server's SqlError plus the gRPC code,
// or a locally made error (connection lost, timeout) with a SQLSTATE chosen by the client.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace meridian::client {

// SQLSTATEs the client produces itself (the server's own codes pass through unchanged).
inline constexpr const char* kSqlStateConnectionFailure = "08006";
inline constexpr const char* kSqlStateConnectionNotOpen = "08003";
inline constexpr const char* kSqlStateCannotConnect = "08001";
inline constexpr const char* kSqlStateQueryCanceled = "57014";
inline constexpr const char* kSqlStateFeatureNotSupported = "0A000";
inline constexpr const char* kSqlStateInternalError = "XX000";
inline constexpr const char* kSqlStateProtocolViolation = "08P01";
inline constexpr const char* kSqlStateInFailedTransaction = "25P02";
inline constexpr const char* kSqlStateInvalidAuthorization = "28000";

struct ClientError {
  std::string sqlstate;  // 5 characters, e.g. "42601"
  std::string message;
  std::string detail;
  std::string hint;
  uint32_t position = 0;  // 1-based character offset into the request's SQL; 0 when none
  uint32_t line = 0;      // 1-based line of position; 0 when none
  uint32_t column = 0;    // 1-based column of position; 0 when none
  std::string severity = "ERROR";
  uint32_t statement_index = 0;  // which statement of a multi-statement request failed
  int grpc_code = 0;             // grpc::StatusCode of the call (0 = OK: local errors, and
                                 // SQL errors on the session stream, which goes on)
  bool connection_lost = false;  // the session is gone; further calls on it will fail

  // "ERROR:  42601: message" (no position, detail or hint); for logs and tests.
  std::string ToString() const;
  // A serialization failure (40001) or deadlock (40P01): roll back and run the transaction
  // again.
  bool retryable() const { return sqlstate == "40001" || sqlstate == "40P01"; }
};

// Either a T or a ClientError.
template <typename T>
class [[nodiscard]] ClientResult {
 public:
  ClientResult(T value) : v_(std::move(value)) {}            // NOLINT(google-explicit-constructor)
  ClientResult(ClientError error) : v_(std::move(error)) {}  // NOLINT(google-explicit-constructor)

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T& value() { return std::get<0>(v_); }
  const T& value() const { return std::get<0>(v_); }
  T& operator*() { return value(); }
  T* operator->() { return &value(); }
  const ClientError& error() const { return std::get<1>(v_); }

 private:
  std::variant<T, ClientError> v_;
};

// Success or a ClientError.
class [[nodiscard]] ClientStatus {
 public:
  ClientStatus() = default;
  ClientStatus(ClientError error)
      : error_(std::move(error)) {}  // NOLINT(google-explicit-constructor)

  bool ok() const { return !error_.has_value(); }
  explicit operator bool() const { return ok(); }
  const ClientError& error() const { return *error_; }

 private:
  std::optional<ClientError> error_;
};

// A ClientError made on the client (no server details).
ClientError MakeLocalError(std::string sqlstate, std::string message, int grpc_code = 0,
                           bool connection_lost = false);

}  // namespace meridian::client
