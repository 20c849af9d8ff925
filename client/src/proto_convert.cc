// Protobuf and gRPC status conversions for the client library.
#include "proto_convert.h"

namespace meridian::client {

Value ValueFromProto(const meridian::v1::Value& v) {
  using K = meridian::v1::Value::KindCase;
  switch (v.kind_case()) {
    case K::kBoolValue:
      return Value::Bool(v.bool_value());
    case K::kIntValue:
      return Value::Int(v.int_value());
    case K::kDoubleValue:
      return Value::Double(v.double_value());
    case K::kTextValue:
      return Value::Text(v.text_value());
    case K::kBytesValue:
      return Value::Bytes(v.bytes_value());
    case K::kNullValue:
    case K::KIND_NOT_SET:
      break;
  }
  return Value::Null();
}

void ValueToProto(const Value& v, meridian::v1::Value* out) {
  switch (v.kind()) {
    case Value::Kind::kNull:
      out->set_null_value(true);
      break;
    case Value::Kind::kBool:
      out->set_bool_value(v.as_bool());
      break;
    case Value::Kind::kInt:
      out->set_int_value(v.as_int());
      break;
    case Value::Kind::kDouble:
      out->set_double_value(v.as_double());
      break;
    case Value::Kind::kText:
      out->set_text_value(v.as_string());
      break;
    case Value::Kind::kBytes:
      out->set_bytes_value(v.as_string());
      break;
  }
}

static ColumnInfo ColumnTypeFromProto(const std::string& name, const meridian::v1::ColumnType& t) {
  ColumnInfo c;
  c.name = name;
  c.type_name = t.name();
  c.type_mod = t.type_mod();
  c.pg_oid = t.pg_oid();
  // proto3 defaults type_mod to 0 when the server leaves it unset; 0 is no valid modifier of
  // the types we show with one, except that VARCHAR(0) does not exist either.
  if (c.type_mod == 0) c.type_mod = -1;
  return c;
}

ColumnInfo ColumnFromProto(const meridian::v1::ColumnMetadata& c) {
  ColumnInfo info = ColumnTypeFromProto(c.name(), c.type());
  info.nullable = c.nullable();
  return info;
}

TableDescription TableFromProto(const meridian::v1::TableDescription& t) {
  TableDescription out;
  out.name = t.name();
  for (const auto& c : t.columns()) {
    ColumnDescription d;
    d.name = c.name();
    d.type = ColumnTypeFromProto(c.name(), c.type());
    d.type.nullable = !c.not_null();
    d.not_null = c.not_null();
    d.default_expr = c.default_expr();
    d.primary_key = c.primary_key();
    out.columns.push_back(std::move(d));
  }
  for (const auto& k : t.primary_key()) out.primary_key.push_back(k);
  for (const auto& x : t.indexes()) {
    IndexDescription d;
    d.name = x.name();
    d.columns.assign(x.columns().begin(), x.columns().end());
    d.descending.assign(x.descending().begin(), x.descending().end());
    d.descending.resize(d.columns.size(), false);
    d.unique = x.unique();
    d.primary_key = x.primary_key();
    d.constraint = x.constraint();
    out.indexes.push_back(std::move(d));
  }
  if (out.primary_key.empty()) {
    for (const auto& c : out.columns) {
      if (c.primary_key) out.primary_key.push_back(c.name);
    }
  }
  return out;
}

ClientError ErrorFromSqlError(const meridian::v1::SqlError& sql_error) {
  ClientError e;
  e.sqlstate = sql_error.sqlstate();
  e.message = sql_error.message();
  e.detail = sql_error.detail();
  e.hint = sql_error.hint();
  e.position = sql_error.position();
  e.line = sql_error.line();
  e.column = sql_error.column();
  if (!sql_error.severity().empty()) e.severity = sql_error.severity();
  e.statement_index = sql_error.statement_index();
  if (e.sqlstate.empty()) e.sqlstate = kSqlStateInternalError;
  // Class 08 (connection exception) ends the session.
  e.connection_lost = e.sqlstate.rfind("08", 0) == 0;
  return e;
}

ClientError ErrorFromStatus(const grpc::Status& status) {
  ClientError e;
  e.grpc_code = static_cast<int>(status.error_code());
  meridian::v1::ErrorStatus details;
  meridian::v1::SqlError sql_error;
  if (!status.error_details().empty() && details.ParseFromString(status.error_details()) &&
      details.details_size() > 0 && details.details(0).UnpackTo(&sql_error)) {
    if (sql_error.message().empty()) sql_error.set_message(status.error_message());
    e = ErrorFromSqlError(sql_error);
    e.grpc_code = static_cast<int>(status.error_code());
    return e;
  }
  switch (status.error_code()) {
    case grpc::StatusCode::UNAVAILABLE:
      e.sqlstate = kSqlStateConnectionFailure;
      e.message = "connection lost";
      if (!status.error_message().empty()) e.detail = status.error_message();
      e.connection_lost = true;
      break;
    case grpc::StatusCode::DEADLINE_EXCEEDED:
      e.sqlstate = kSqlStateQueryCanceled;
      e.message = "canceling statement due to statement timeout";
      break;
    case grpc::StatusCode::CANCELLED:
      e.sqlstate = kSqlStateQueryCanceled;
      e.message = "canceling statement due to user request";
      break;
    case grpc::StatusCode::UNIMPLEMENTED:
      e.sqlstate = kSqlStateFeatureNotSupported;
      e.message =
          status.error_message().empty() ? "not implemented by the server" : status.error_message();
      break;
    case grpc::StatusCode::UNAUTHENTICATED:
      e.sqlstate = kSqlStateInvalidAuthorization;
      e.message = status.error_message().empty() ? "authentication failed" : status.error_message();
      break;
    default:
      e.sqlstate = kSqlStateInternalError;
      e.message = status.error_message().empty()
                      ? "request failed (gRPC code " + std::to_string(e.grpc_code) + ")"
                      : status.error_message();
      break;
  }
  return e;
}

grpc::Status StatusFromError(grpc::StatusCode code, const ClientError& error) {
  meridian::v1::SqlError sql_error;
  sql_error.set_sqlstate(error.sqlstate);
  sql_error.set_message(error.message);
  sql_error.set_detail(error.detail);
  sql_error.set_hint(error.hint);
  sql_error.set_position(error.position);
  sql_error.set_line(error.line);
  sql_error.set_column(error.column);
  sql_error.set_severity(error.severity);
  sql_error.set_statement_index(error.statement_index);
  meridian::v1::ErrorStatus details;
  details.set_code(static_cast<int>(code));
  details.set_message(error.message);
  details.add_details()->PackFrom(sql_error);
  return grpc::Status(code, error.message, details.SerializeAsString());
}

}  // namespace meridian::client
