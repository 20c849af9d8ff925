// SQLSTATE → gRPC code mapping and SqlError packing; see error_mapping.h.
#include "grpc/error_mapping.h"

namespace meridian::server {

grpc::StatusCode GrpcCodeForSqlstate(std::string_view s) {
  using grpc::StatusCode;
  if (s.size() != 5) return StatusCode::UNKNOWN;
  // Codes whose meaning differs from the rest of their class.
  if (s == sqlstate::kQueryCanceled) return StatusCode::CANCELLED;
  if (s == sqlstate::kDataCorrupted || s == sqlstate::kIndexCorrupted) return StatusCode::DATA_LOSS;
  if (s == sqlstate::kInsufficientPrivilege) return StatusCode::PERMISSION_DENIED;
  // Then by class (PostgreSQL's Appendix A), every class it defines.
  static constexpr struct {
    const char* cls;
    StatusCode code;
  } kByClass[] = {
      {"00", StatusCode::OK},
      {"01", StatusCode::OK},
      {"02", StatusCode::NOT_FOUND},
      {"03", StatusCode::INVALID_ARGUMENT},
      {"08", StatusCode::UNAVAILABLE},
      {"09", StatusCode::FAILED_PRECONDITION},
      {"0A", StatusCode::UNIMPLEMENTED},
      {"0B", StatusCode::FAILED_PRECONDITION},
      {"0F", StatusCode::INVALID_ARGUMENT},
      {"0L", StatusCode::PERMISSION_DENIED},
      {"0P", StatusCode::PERMISSION_DENIED},
      {"0Z", StatusCode::FAILED_PRECONDITION},
      {"20", StatusCode::INVALID_ARGUMENT},
      {"21", StatusCode::INVALID_ARGUMENT},
      {"22", StatusCode::INVALID_ARGUMENT},
      {"23", StatusCode::FAILED_PRECONDITION},
      {"24", StatusCode::FAILED_PRECONDITION},
      {"25", StatusCode::FAILED_PRECONDITION},
      {"26", StatusCode::NOT_FOUND},
      {"27", StatusCode::FAILED_PRECONDITION},
      {"28", StatusCode::UNAUTHENTICATED},
      {"2B", StatusCode::FAILED_PRECONDITION},
      {"2D", StatusCode::FAILED_PRECONDITION},
      {"2F", StatusCode::INVALID_ARGUMENT},
      {"34", StatusCode::NOT_FOUND},
      {"38", StatusCode::INTERNAL},
      {"39", StatusCode::INTERNAL},
      {"3B", StatusCode::FAILED_PRECONDITION},
      {"3D", StatusCode::NOT_FOUND},
      {"3F", StatusCode::NOT_FOUND},
      {"40", StatusCode::ABORTED},
      {"42", StatusCode::INVALID_ARGUMENT},
      {"44", StatusCode::FAILED_PRECONDITION},
      {"53", StatusCode::RESOURCE_EXHAUSTED},
      {"54", StatusCode::RESOURCE_EXHAUSTED},
      {"55", StatusCode::FAILED_PRECONDITION},
      {"57", StatusCode::UNAVAILABLE},
      {"58", StatusCode::INTERNAL},
      {"72", StatusCode::ABORTED},
      {"F0", StatusCode::INTERNAL},
      {"HV", StatusCode::INTERNAL},
      {"P0", StatusCode::INTERNAL},
      {"XX", StatusCode::INTERNAL},
  };
  for (const auto& entry : kByClass) {
    if (s.substr(0, 2) == entry.cls) {
      // An error never maps to OK: a warning or success code in an error is a bug.
      return entry.code == StatusCode::OK ? StatusCode::INTERNAL : entry.code;
    }
  }
  return StatusCode::UNKNOWN;
}

namespace {

// gRPC carries the status message and details in HTTP/2 trailers, which peers limit (8-16 KiB
// by default); an error echoing a huge identifier or value must still arrive. Each text is cut
// at a character boundary, marked with "...".
constexpr size_t kMaxMessageBytes = 1024;
constexpr size_t kMaxDetailBytes = 1024;
constexpr size_t kMaxHintBytes = 512;

std::string Capped(const std::string& text, size_t max) {
  if (text.size() <= max) return text;
  size_t n = max - 3;
  while (n > 0 && (static_cast<unsigned char>(text[n]) & 0xC0) == 0x80) --n;
  return text.substr(0, n) + "...";
}

}  // namespace

LineColumn LocatePosition(std::string_view text, uint32_t position) {
  if (position == 0) return {};
  LineColumn lc{1, 1};
  uint32_t chars = 1;  // 1-based index of the character starting at byte i
  for (size_t i = 0; i < text.size() && chars < position; ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if ((c & 0xC0) == 0x80) continue;  // UTF-8 continuation byte: same character
    // Character `chars` starts here; step past it.
    if (c == '\n') {
      ++lc.line;
      lc.column = 1;
    } else {
      ++lc.column;
    }
    ++chars;
  }
  return lc;
}

v1::SqlError ToSqlError(const Status& status, std::string_view sql, uint32_t statement_index) {
  v1::SqlError e;
  const ErrorInfo& info = status.error();
  e.set_sqlstate(info.sqlstate);
  e.set_message(Capped(info.message, kMaxMessageBytes));
  e.set_detail(Capped(info.detail, kMaxDetailBytes));
  e.set_hint(Capped(info.hint, kMaxHintBytes));
  e.set_severity("ERROR");
  e.set_statement_index(statement_index);
  if (info.position != 0) {
    e.set_position(info.position);
    if (sql.empty()) return e;  // a prepared statement's: the client has its text
    LineColumn lc = LocatePosition(sql, info.position);
    e.set_line(lc.line);
    e.set_column(lc.column);
  }
  return e;
}

namespace {

// The status and its details carry the same code (google.rpc.Status's rule).
grpc::Status Packed(const v1::SqlError& err, grpc::StatusCode code) {
  v1::ErrorStatus details;
  details.set_code(static_cast<int32_t>(code));
  details.set_message(err.message());
  details.add_details()->PackFrom(err);
  return grpc::Status(code, err.sqlstate() + ": " + err.message(), details.SerializeAsString());
}

}  // namespace

grpc::Status ToGrpcStatus(const Status& status, std::string_view sql, uint32_t statement_index,
                          bool deadline_passed) {
  if (status.ok()) return grpc::Status::OK;
  v1::SqlError err = ToSqlError(status, sql, statement_index);
  grpc::StatusCode code = GrpcCodeForSqlstate(err.sqlstate());
  // The client's own timer says DEADLINE_EXCEEDED; the server's answer may arrive first.
  if (deadline_passed && err.sqlstate() == sqlstate::kQueryCanceled) {
    code = grpc::StatusCode::DEADLINE_EXCEEDED;
  }
  return Packed(err, code);
}

grpc::Status ToGrpcStatusWithCode(const Status& status, grpc::StatusCode code) {
  if (status.ok()) return grpc::Status::OK;
  return Packed(ToSqlError(status, {}, 0), code);
}

}  // namespace meridian::server
