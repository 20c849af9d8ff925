// Conversions between meridian.v1 protobuf messages / gRPC statuses and the client's own types.
// Private to the client library (and its unit tests): nothing here appears in the public headers.
#pragma once

#include <grpcpp/grpcpp.h>

#include "meridian.pb.h"
#include "meridian/client/catalog.h"
#include "meridian/client/client_error.h"
#include "meridian/client/value.h"

namespace meridian::client {

Value ValueFromProto(const meridian::v1::Value& v);
void ValueToProto(const Value& v, meridian::v1::Value* out);
ColumnInfo ColumnFromProto(const meridian::v1::ColumnMetadata& c);
TableDescription TableFromProto(const meridian::v1::TableDescription& t);

// Maps a failed call's status to a ClientError: the SqlError packed in error_details() when
// present; otherwise UNAVAILABLE -> 08006 (connection lost), DEADLINE_EXCEEDED / CANCELLED ->
// 57014, UNIMPLEMENTED -> 0A000, anything else -> XX000.
ClientError ErrorFromStatus(const grpc::Status& status);

// The ClientError of a request that failed on the ExecuteSession stream (ResultChunk.error): the
// call goes on, so grpc_code is 0; class 08 ends the session as in ErrorFromStatus.
ClientError ErrorFromSqlError(const meridian::v1::SqlError& sql_error);

// The status a server would send for error (used by tests and fakes): details packed as
// ErrorStatus{details[0] = SqlError}.
grpc::Status StatusFromError(grpc::StatusCode code, const ClientError& error);

}  // namespace meridian::client
