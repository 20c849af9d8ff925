// The PostgreSQL driver: a Session over libpq (Debian's libpq-dev). Statements are prepared
// with PQprepare (a named statement, extended protocol) and run with PQexecPrepared, text
// parameters and text results, so the same calls measure Meridian's PostgreSQL front end and a
// real PostgreSQL.
#include <libpq-fe.h>

#include <memory>

#include "session.h"

namespace tpcc {
namespace {

// Quotes a libpq conninfo value.
std::string Quote(const std::string& v) {
  std::string out = "'";
  for (char c : v) {
    if (c == '\'' || c == '\\') out += '\\';
    out += c;
  }
  return out + "'";
}

class PgSession : public Session {
 public:
  explicit PgSession(PGconn* conn) : conn_(conn) {}
  ~PgSession() override { PQfinish(conn_); }

  Rows Exec(std::string_view sql) override {
    return Take(PQexec(conn_, std::string(sql).c_str()));
  }

  void Prepare(const std::string& name, const std::string& sql, int nparams) override {
    Take(PQprepare(conn_, name.c_str(), sql.c_str(), nparams, nullptr));
  }

  Rows Run(const std::string& name, const std::vector<std::string>& params) override {
    std::vector<const char*> values;
    values.reserve(params.size());
    for (const std::string& p : params) values.push_back(p.c_str());
    return Take(PQexecPrepared(conn_, name.c_str(), static_cast<int>(values.size()),
                               values.data(), nullptr, nullptr, 0));
  }

  bool connection_lost() const override { return PQstatus(conn_) != CONNECTION_OK; }

 private:
  // Converts a PGresult into Rows (and frees it), or throws its error.
  Rows Take(PGresult* res) {
    std::unique_ptr<PGresult, void (*)(PGresult*)> guard(res, PQclear);
    ExecStatusType st = res != nullptr ? PQresultStatus(res) : PGRES_FATAL_ERROR;
    if (st != PGRES_TUPLES_OK && st != PGRES_COMMAND_OK && st != PGRES_EMPTY_QUERY) {
      const char* state = res != nullptr ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : nullptr;
      const char* msg = res != nullptr ? PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY) : nullptr;
      bool lost = PQstatus(conn_) != CONNECTION_OK;
      std::string text = msg != nullptr ? msg : PQerrorMessage(conn_);
      while (!text.empty() && text.back() == '\n') text.pop_back();
      throw DbError(state != nullptr ? state : (lost ? "08006" : "XX000"), text, lost);
    }
    Rows out;
    int n = PQntuples(res);
    int cols = PQnfields(res);
    out.rows.reserve(n);
    for (int r = 0; r < n; ++r) {
      std::vector<Rows::Cell> cells;
      cells.reserve(cols);
      for (int c = 0; c < cols; ++c) {
        if (PQgetisnull(res, r, c)) cells.emplace_back(std::nullopt);
        else cells.emplace_back(std::string(PQgetvalue(res, r, c), PQgetlength(res, r, c)));
      }
      out.rows.push_back(std::move(cells));
    }
    const char* tuples = PQcmdTuples(res);
    out.affected = (tuples != nullptr && *tuples != '\0') ? std::atoll(tuples) : n;
    return out;
  }

  PGconn* conn_;
};

}  // namespace

std::unique_ptr<Session> ConnectPg(const ConnectParams& params) {
  std::string conninfo = params.conninfo;
  if (conninfo.empty()) {
    conninfo = "host=" + Quote(params.host) +
               " port=" + std::to_string(params.port != 0 ? params.port : 5433) +
               " user=" + Quote(params.user) + " dbname=" + Quote(params.dbname) +
               " application_name=meridian-tpcc connect_timeout=10";
    if (!params.password.empty()) conninfo += " password=" + Quote(params.password);
    if (!params.sslmode.empty()) conninfo += " sslmode=" + Quote(params.sslmode);
    if (!params.sslrootcert.empty()) conninfo += " sslrootcert=" + Quote(params.sslrootcert);
  }
  PGconn* conn = PQconnectdb(conninfo.c_str());
  if (PQstatus(conn) != CONNECTION_OK) {
    std::string msg = PQerrorMessage(conn);
    while (!msg.empty() && msg.back() == '\n') msg.pop_back();
    PQfinish(conn);
    throw DbError("08001", msg, true);
  }
  // Notices (e.g. "table does not exist, skipping") are not the tool's output.
  PQsetNoticeProcessor(conn, [](void*, const char*) {}, nullptr);
  return std::make_unique<PgSession>(conn);
}

}  // namespace tpcc
