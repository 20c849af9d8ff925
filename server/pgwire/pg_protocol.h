// PostgreSQL frontend/backend protocol v3: message codes, a bounds-checked reader for message
// bodies and a writer that builds backend messages into an output buffer. Pure byte handling, no
// I/O and no engine calls, so the decoder can be fuzzed and unit-tested on its own.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "meridian/database.h"
#include "meridian/status.h"

namespace meridian::server::pgwire {

// Startup-phase request codes (the int32 after the length of an untyped first message).
inline constexpr uint32_t kProtocolVersion3 = 196608;  // 3.0
inline constexpr uint32_t kCancelRequestCode = 80877102;
inline constexpr uint32_t kSslRequestCode = 80877103;
inline constexpr uint32_t kGssEncRequestCode = 80877104;

// Sane limits: PostgreSQL caps the startup packet at 10000 bytes; we cap other messages at
// 64 MiB (the gRPC front end's request limit), far below the protocol's 1 GiB.
inline constexpr uint32_t kMaxStartupLength = 10000;
inline constexpr uint32_t kMaxMessageLength = 64u << 20;

// SQLSTATE for protocol violations.
inline constexpr const char* kProtocolViolation = "08P01";

// Reads the fields of one message body; every read checks the remaining length, and a failed
// read sets ok() to false (later reads return empty values).
class MessageReader {
 public:
  explicit MessageReader(std::string_view body) : body_(body) {}
  bool ok() const { return ok_; }
  bool AtEnd() const { return pos_ == body_.size(); }
  size_t remaining() const { return body_.size() - pos_; }

  uint8_t Byte();
  int16_t Int16();
  int32_t Int32();
  // A NUL-terminated string; fails when no NUL follows.
  std::string_view CString();
  std::string_view Bytes(size_t n);

 private:
  std::string_view body_;
  size_t pos_ = 0;
  bool ok_ = true;
};

// Appends backend messages to an output string: Begin(type), field appends, End() patches the
// length. Messages may be appended back to back and flushed together.
class MessageWriter {
 public:
  explicit MessageWriter(std::string* out) : out_(out) {}
  MessageWriter& Begin(char type);
  MessageWriter& Byte(uint8_t b);
  MessageWriter& Int16(int16_t v);
  MessageWriter& Int32(int32_t v);
  MessageWriter& CString(std::string_view s);  // appends s and a NUL
  MessageWriter& Bytes(std::string_view s);
  void End();

 private:
  std::string* out_;
  size_t start_ = 0;
};

// Whole backend messages.
void WriteAuthenticationOk(std::string* out);
void WriteParameterStatus(std::string* out, std::string_view name, std::string_view value);
void WriteBackendKeyData(std::string* out, int32_t pid, int32_t secret);
void WriteReadyForQuery(std::string* out, char status);
void WriteRowDescription(std::string* out, const std::vector<ColumnInfo>& columns);
void WriteDataRow(std::string* out, const Row& row);
void WriteCommandComplete(std::string* out, std::string_view tag);
void WriteEmptyQueryResponse(std::string* out);
void WriteNoData(std::string* out);
void WriteParseComplete(std::string* out);
void WriteBindComplete(std::string* out);
void WriteCloseComplete(std::string* out);
void WritePortalSuspended(std::string* out);
void WriteParameterDescription(std::string* out, const std::vector<uint32_t>& oids);
// ErrorResponse ('E') from an error Status: S and V = severity ("ERROR" or "FATAL"), C, M, and
// D, H, P when present.
void WriteErrorResponse(std::string* out, const Status& status, const char* severity = "ERROR");
// NoticeResponse ('N') with SQLSTATE 00000.
void WriteNoticeResponse(std::string* out, std::string_view message);

// pg_attribute.attlen and atttypmod of a column type, as PostgreSQL reports them.
int16_t PgTypeLength(const Type& type);
int32_t PgTypeModifier(const Type& type);

// Startup parameters: name/value pairs up to an empty name. nullopt if malformed.
std::optional<std::vector<std::pair<std::string, std::string>>> ParseStartupParameters(
    MessageReader& reader);

}  // namespace meridian::server::pgwire
