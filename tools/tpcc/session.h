// Session: one database connection as meridian-tpcc sees it, the same for both drivers
// (driver_grpc.cc: Meridian's C++ client library; driver_pg.cc: libpq). Statements take and
// return text values; a failed statement throws DbError with its SQLSTATE.
//
// Concurrency: one thread per Session (a terminal or a loader thread owns it).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace tpcc {

// A failed statement. connection_lost: the session is gone (reconnect before the next call).
class DbError : public std::runtime_error {
 public:
  DbError(std::string sqlstate, const std::string& message, bool connection_lost)
      : std::runtime_error(message), sqlstate_(std::move(sqlstate)),
        connection_lost_(connection_lost) {}
  const std::string& sqlstate() const { return sqlstate_; }
  bool connection_lost() const { return connection_lost_; }
  // 40001 (serialization failure) and 40P01 (deadlock): run the transaction again.
  bool retryable() const { return sqlstate_ == "40001" || sqlstate_ == "40P01"; }

 private:
  std::string sqlstate_;
  bool connection_lost_;
};

// A statement's result: rows of text cells (NULL is std::nullopt) and the affected-row count.
class Rows {
 public:
  using Cell = std::optional<std::string>;
  std::vector<std::vector<Cell>> rows;
  int64_t affected = 0;

  size_t size() const { return rows.size(); }
  bool empty() const { return rows.empty(); }
  bool is_null(size_t r, size_t c) const { return !rows.at(r).at(c).has_value(); }
  // The cell's text; "" for NULL.
  const std::string& text(size_t r, size_t c) const;
  int64_t Int(size_t r, size_t c) const;      // NULL reads as 0
  double Num(size_t r, size_t c) const;       // NULL reads as 0
  int64_t Cents(size_t r, size_t c) const;    // a NUMERIC(x,2) money value in cents, exact
};

// Parses a decimal text ("-10.00", "5", "0.5") into hundredths, rounding half away from zero.
int64_t ParseCents(std::string_view text);

struct ConnectParams {
  std::string driver = "grpc";  // "grpc" or "pg"
  std::string host = "127.0.0.1";
  int port = 0;  // 0: the driver's default (7432 gRPC, 5433 pg)
  std::string user = "meridian";
  std::string password;
  std::string dbname = "meridian";
  // TLS, in libpq's words for both drivers: sslmode disable|require|verify-ca|verify-full
  // (gRPC always verifies the server's certificate), sslrootcert a CA file, ssl_server_name
  // the name expected in the certificate (gRPC only; default the host).
  std::string sslmode;  // empty: gRPC without TLS, libpq's default
  std::string sslrootcert;
  std::string ssl_server_name;
  std::string conninfo;  // pg: a libpq connection string overriding the fields above
  std::string Describe() const;  // "grpc 127.0.0.1:7432" for messages
};

class Session {
 public:
  virtual ~Session() = default;
  // Runs one statement text without parameters (DDL, BEGIN, COMMIT, a multi-row INSERT).
  virtual Rows Exec(std::string_view sql) = 0;
  // Prepares sql ($1..$n parameters, types inferred by the server) under name.
  virtual void Prepare(const std::string& name, const std::string& sql, int nparams) = 0;
  // Runs the statement prepared under name with text parameter values.
  virtual Rows Run(const std::string& name, const std::vector<std::string>& params) = 0;
  virtual bool connection_lost() const = 0;
};

// Connects with the chosen driver; throws DbError (08001) when it cannot.
std::unique_ptr<Session> Connect(const ConnectParams& params);
std::unique_ptr<Session> ConnectGrpc(const ConnectParams& params);
std::unique_ptr<Session> ConnectPg(const ConnectParams& params);

}  // namespace tpcc
