// SQLSTATE → gRPC code mapping and SqlError packing; see error_mapping.h.
#include "grpc/error_mapping.h"

namespace meridian::server {

grpc::StatusCode GrpcCodeForSqlstate(std::string_view s) {
  if (s.size() != 5) return grpc::StatusCode::UNKNOWN;
  std::string_view cls = s.substr(0, 2);
  if (s == "40001" || s == "40P01") return grpc::StatusCode::ABORTED;
  if (s == "57014") return grpc::StatusCode::CANCELLED;
  if (s == "57P01" || cls == "08") return grpc::StatusCode::UNAVAILABLE;
  if (s == "0A000") return grpc::StatusCode::UNIMPLEMENTED;
  if (s == "XX001") return grpc::StatusCode::DATA_LOSS;
  if (cls == "42" || cls == "22" || cls == "2F") return grpc::StatusCode::INVALID_ARGUMENT;
  if (cls == "23" || cls == "25" || cls == "55") return grpc::StatusCode::FAILED_PRECONDITION;
  if (cls == "53" || cls == "54") return grpc::StatusCode::RESOURCE_EXHAUSTED;
  if (cls == "28") return grpc::StatusCode::UNAUTHENTICATED;
  if (cls == "XX" || cls == "58") return grpc::StatusCode::INTERNAL;
  return grpc::StatusCode::UNKNOWN;
}

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
  e.set_message(info.message);
  e.set_detail(info.detail);
  e.set_hint(info.hint);
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

grpc::Status ToGrpcStatus(const Status& status, std::string_view sql, uint32_t statement_index) {
  if (status.ok()) return grpc::Status::OK;
  v1::SqlError err = ToSqlError(status, sql, statement_index);
  grpc::StatusCode code = GrpcCodeForSqlstate(err.sqlstate());
  v1::ErrorStatus details;
  details.set_code(static_cast<int32_t>(code));
  details.set_message(err.message());
  details.add_details()->PackFrom(err);
  return grpc::Status(code, err.sqlstate() + ": " + err.message(), details.SerializeAsString());
}

}  // namespace meridian::server
