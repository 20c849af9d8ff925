// The one place where an engine Status becomes a gRPC status: SQLSTATE → gRPC code, and the
// SqlError (with line and column computed from the 1-based character position) packed into the
// status details as a google.rpc.Status-compatible ErrorStatus.
#pragma once

#include <grpcpp/support/status.h>

#include <string_view>

#include "meridian.pb.h"
#include "meridian/status.h"

namespace meridian::server {

grpc::StatusCode GrpcCodeForSqlstate(std::string_view sqlstate);

// Line and column (1-based) of a 1-based character position in UTF-8 text; {0, 0} if none.
struct LineColumn {
  uint32_t line = 0;
  uint32_t column = 0;
};
LineColumn LocatePosition(std::string_view text, uint32_t position);

// Builds the SqlError message for status (which must be an error) raised by the request sql.
// Message and detail are capped at 1 KiB and hint at 512 bytes (cut with "..."), so that the
// status always fits in the trailers that carry it.
v1::SqlError ToSqlError(const Status& status, std::string_view sql, uint32_t statement_index);

// The gRPC status for an error: code by SQLSTATE, message "SQLSTATE: message", details an
// ErrorStatus carrying the SqlError. deadline_passed: the call's deadline has passed, so a
// 57014 is that deadline: DEADLINE_EXCEEDED instead of CANCELLED.
grpc::Status ToGrpcStatus(const Status& status, std::string_view sql = {},
                          uint32_t statement_index = 0, bool deadline_passed = false);
// The same with the code given instead of the SQLSTATE's, in the status and in its details
// (an unknown session, 08003, is NOT_FOUND: SessionNotFound).
grpc::Status ToGrpcStatusWithCode(const Status& status, grpc::StatusCode code);

}  // namespace meridian::server
