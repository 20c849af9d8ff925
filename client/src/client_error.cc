// ClientError helpers that need no gRPC (the gRPC status mapping lives in proto_convert.cc).
#include "meridian/client/client_error.h"

namespace meridian::client {

std::string ClientError::ToString() const {
  std::string out = (severity.empty() ? std::string("ERROR") : severity) + ":  ";
  if (!sqlstate.empty()) out += sqlstate + ": ";
  out += message;
  return out;
}

ClientError MakeLocalError(std::string sqlstate, std::string message, int grpc_code,
                           bool connection_lost) {
  ClientError e;
  e.sqlstate = std::move(sqlstate);
  e.message = std::move(message);
  e.grpc_code = grpc_code;
  e.connection_lost = connection_lost;
  return e;
}

}  // namespace meridian::client
