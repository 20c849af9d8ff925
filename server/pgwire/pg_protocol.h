// PostgreSQL frontend/backend protocol v3: message codes, a bounds-checked reader for message
// bodies and a writer that builds backend messages into an output buffer. Pure byte handling, no
// I/O and no engine calls, so the decoder can be fuzzed and unit-tested on its own.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
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
// formats: one code per column (kTextFormat/kBinaryFormat, see ResolveFormats); empty = text.
void WriteRowDescription(std::string* out, const std::vector<ColumnInfo>& columns,
                         const std::vector<int16_t>& formats = {});
// A DataRow with per-column formats (as WriteRowDescription; empty = text); binary values are
// encoded by the column's type (AppendBinaryValue), int2vector/oidvector text space-separated.
void WriteDataRow(std::string* out, const Row& row, const std::vector<ColumnInfo>& columns,
                  const std::vector<int16_t>& formats);
void WriteCommandComplete(std::string* out, std::string_view tag);
void WriteEmptyQueryResponse(std::string* out);
// COPY: CopyInResponse ('G') / CopyOutResponse ('H') in text format for n columns, CopyData
// ('d') and CopyDone ('c').
void WriteCopyInResponse(std::string* out, size_t columns);
void WriteCopyOutResponse(std::string* out, size_t columns);
void WriteCopyData(std::string* out, std::string_view data);
void WriteCopyDone(std::string* out);
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
void WriteNoticeResponse(std::string* out, std::string_view message,
                         std::string_view sqlstate = {});

// pg_attribute.attlen and atttypmod of a column type, as PostgreSQL reports them.
int16_t PgTypeLength(const Type& type);
int32_t PgTypeModifier(const Type& type);

// ---- Value formats (Bind parameters, result columns) ------------------------------------
inline constexpr int16_t kTextFormat = 0;
inline constexpr int16_t kBinaryFormat = 1;

// The format of each of n values from a message's format codes: none → all text, one → all
// that one, else one per value. Errors: a count other than 0, 1 or n (08P01 "bind message has
// 2 result formats but query has 3 columns"; what = "parameter formats"/"result formats"), a
// code other than 0 or 1 (22023 "unsupported format code: 7").
Result<std::vector<int16_t>> ResolveFormats(const std::vector<int16_t>& codes, size_t n,
                                            const char* what, const char* items);
// The type of a parameter declared in Parse by its OID (Type::FromParamOid: 0 = infer);
// other OIDs: 0A000.
Result<Type> ParamTypeFromOid(uint32_t oid);
// A parameter value sent in binary format for a parameter of type t, in PostgreSQL's send
// format: bool 1 byte; integers 2, 4 or 8 bytes (int2/int4/int8); double 4 or 8 bytes
// (float4/float8); text, varchar: the bytes; arrays array_recv's form (one dimension, lower
// bound 1). Other lengths: 22P03 "incorrect binary data format in bind parameter n" (index
// is 0-based).
Result<Value> DecodeBinaryValue(std::string_view bytes, const Type& t, size_t index);
// Appends the binary send format of a non-NULL value of column type t (inverse of the above:
// integer 4 bytes, bigint 8, double 8, bool 1, strings their bytes).
void AppendBinaryValue(std::string* out, const Value& v, const Type& t);

// Authentication requests ('R'): cleartext password, SASL mechanism list, SASL continue
// (server-first-message) and SASL final (server-final-message).
void WriteAuthenticationCleartextPassword(std::string* out);
void WriteAuthenticationSasl(std::string* out, const std::vector<std::string>& mechanisms);
void WriteAuthenticationSaslContinue(std::string* out, std::string_view data);
void WriteAuthenticationSaslFinal(std::string* out, std::string_view data);

// ---- Decoding: pure functions over bytes, no I/O ------------------------------------------
// Every decoder either returns a message whose views point into its input, or an error Status
// (08P01 for malformed input unless noted). None of them trusts a length it has not checked.

// The first frame of a byte stream. In the startup phase a frame is an int32 length (counting
// itself) and a body; afterwards a type byte, an int32 length and a body.
struct Frame {
  bool complete = false;  // false: more bytes are needed
  char type = 0;          // 0 in the startup phase
  std::string_view body;  // complete frames only
  // complete: bytes the frame takes in the input; otherwise: bytes needed in all (a header's
  // worth until the header is there).
  size_t size = 0;
};
Result<Frame> DecodeFrame(std::string_view input, bool startup);

// The body of a startup-phase packet (after its length).
struct StartupPacket {
  enum class Kind { kSslRequest, kGssEncRequest, kCancelRequest, kStartup };
  Kind kind = Kind::kStartup;
  int32_t cancel_pid = 0;  // kCancelRequest
  int32_t cancel_secret = 0;
  std::vector<std::pair<std::string, std::string>> parameters;  // kStartup, in order
  std::string user, database, application_name;  // kStartup; database defaults to user
};
// Errors: 08P01 malformed, 0A000 unsupported protocol version, 28000 no user name.
Result<StartupPacket> DecodeStartupPacket(std::string_view body);

// Startup parameters: name/value pairs up to an empty name. nullopt if malformed.
std::optional<std::vector<std::pair<std::string, std::string>>> ParseStartupParameters(
    MessageReader& reader);

// Query ('Q'): the SQL text.
Result<std::string_view> DecodeQuery(std::string_view body);

// CopyFail ('f'): the client's reason.
Result<std::string_view> DecodeCopyFail(std::string_view body);

// Parse ('P').
struct ParseMessage {
  std::string_view statement;
  std::string_view sql;
  std::vector<uint32_t> parameter_types;
};
Result<ParseMessage> DecodeParse(std::string_view body);

// Bind ('B'). A null parameter is nullopt.
struct BindMessage {
  std::string_view portal;
  std::string_view statement;
  std::vector<int16_t> parameter_formats;
  std::vector<std::optional<std::string_view>> parameters;
  std::vector<int16_t> result_formats;
};
Result<BindMessage> DecodeBind(std::string_view body);

// Describe ('D') and Close ('C'): 'S' (statement) or 'P' (portal) and a name.
struct TargetMessage {
  char kind = 0;
  std::string_view name;
};
Result<TargetMessage> DecodeDescribe(std::string_view body);
Result<TargetMessage> DecodeClose(std::string_view body);

// Execute ('E'): portal and row limit (0 or less: no limit).
struct ExecuteMessage {
  std::string_view portal;
  int32_t max_rows = 0;
};
Result<ExecuteMessage> DecodeExecute(std::string_view body);

// PasswordMessage ('p') answering AuthenticationCleartextPassword: the password.
Result<std::string_view> DecodePasswordMessage(std::string_view body);

// SASLInitialResponse ('p'): the chosen mechanism and its initial data (nullopt: none sent).
// A SASLResponse ('p') is its raw body and needs no decoding.
struct SaslInitialResponse {
  std::string_view mechanism;
  std::optional<std::string_view> data;
};
Result<SaslInitialResponse> DecodeSaslInitialResponse(std::string_view body);

}  // namespace meridian::server::pgwire
