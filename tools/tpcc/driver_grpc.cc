// The gRPC driver: a Session over Meridian's C++ client library (client/include). Statements are
// prepared with the Prepare RPC and run with ExecutePrepared; parameters travel as text values
// that the server converts to the parameter types it inferred.
#include <memory>

#include "meridian/client/connection.h"
#include "session.h"

namespace tpcc {
namespace {

namespace mc = meridian::client;

DbError ToDbError(const mc::ClientError& e) {
  return DbError(e.sqlstate, e.message, e.connection_lost);
}

void AppendResult(const mc::StatementResult& result, Rows* out) {
  for (const mc::Row& row : result.rows) {
    std::vector<Rows::Cell> cells;
    cells.reserve(row.size());
    for (const mc::Value& v : row) {
      if (v.is_null()) cells.emplace_back(std::nullopt);
      else cells.emplace_back(v.ToText());
    }
    out->rows.push_back(std::move(cells));
  }
  out->affected += static_cast<int64_t>(result.row_count);
}

class GrpcSession : public Session {
 public:
  explicit GrpcSession(std::unique_ptr<mc::Connection> conn) : conn_(std::move(conn)) {}
  ~GrpcSession() override { conn_->Close(); }

  Rows Exec(std::string_view sql) override {
    auto results = conn_->Execute(sql);
    if (!results.ok()) throw ToDbError(results.error());
    Rows out;
    for (const mc::StatementResult& r : *results) AppendResult(r, &out);
    return out;
  }

  void Prepare(const std::string& name, const std::string& sql, int nparams) override {
    (void)nparams;
    mc::PrepareOptions options;
    options.id = name;
    auto prepared = conn_->Prepare(sql, options);
    if (!prepared.ok()) throw ToDbError(prepared.error());
  }

  Rows Run(const std::string& name, const std::vector<std::string>& params) override {
    std::vector<mc::Value> values;
    values.reserve(params.size());
    for (const std::string& p : params) values.push_back(mc::Value::Text(p));
    auto result = conn_->ExecutePrepared(name, values);
    if (!result.ok()) throw ToDbError(result.error());
    Rows out;
    AppendResult(*result, &out);
    return out;
  }

  bool connection_lost() const override { return conn_->connection_lost(); }

 private:
  std::unique_ptr<mc::Connection> conn_;
};

}  // namespace

std::unique_ptr<Session> ConnectGrpc(const ConnectParams& params) {
  mc::ConnectOptions options;
  options.user = params.user;
  options.password = params.password;
  if (!params.sslmode.empty()) (void)mc::ApplySslMode(params.sslmode, &options.tls);
  options.tls.ca_file = params.sslrootcert;
  options.tls.server_name = params.ssl_server_name;
  options.database = params.dbname;
  options.application_name = "meridian-tpcc";
  auto conn = mc::Connection::Connect(params.host, params.port != 0 ? params.port : 7432, options);
  if (!conn.ok()) {
    const mc::ClientError& e = conn.error();
    throw DbError(e.sqlstate.empty() ? "08001" : e.sqlstate, e.message, true);
  }
  return std::make_unique<GrpcSession>(std::move(*conn));
}

}  // namespace tpcc
