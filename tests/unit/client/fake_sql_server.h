// FakeSqlServer: an in-process meridian.v1.Sql service on a free localhost port with canned
// answers, so the client library and the shell can be tested without the daemon.
//   "select 1"      -> one int column "?column?", one row, "SELECT 1"
//   "select rows N" -> N rows of (i integer, s text, d double precision, b boolean) incl. NULLs
//   "two"           -> two statements: "CREATE TABLE" then a one-row select
//   "notice"        -> a notice, then "DROP TABLE"
//   "bad"           -> 42601 syntax error at position 1 with detail and hint
//   "sleep"         -> runs until cancelled (Cancel RPC or call cancellation) -> 57014
//   anything else   -> "OK"
#pragma once

#include <grpcpp/grpcpp.h>

#include <atomic>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "meridian.grpc.pb.h"

namespace meridian::testing {

class FakeSqlService final : public meridian::v1::Sql::Service {
 public:
  grpc::Status OpenSession(grpc::ServerContext*, const v1::OpenSessionRequest* request,
                           v1::OpenSessionResponse* response) override;
  grpc::Status Attach(grpc::ServerContext* context, const v1::AttachRequest* request,
                      grpc::ServerWriter<v1::SessionEvent>* writer) override;
  grpc::Status CloseSession(grpc::ServerContext*, const v1::CloseSessionRequest* request,
                            v1::CloseSessionResponse*) override;
  grpc::Status ExecuteStream(grpc::ServerContext* context, const v1::ExecuteRequest* request,
                             grpc::ServerWriter<v1::ResultChunk>* writer) override;
  grpc::Status Cancel(grpc::ServerContext*, const v1::CancelRequest* request,
                      v1::CancelResponse* response) override;
  grpc::Status DescribeCatalog(grpc::ServerContext*, const v1::DescribeCatalogRequest* request,
                               v1::DescribeCatalogResponse* response) override;

  // Ends every Attach stream (as a server losing the session would).
  void DropSessions();

  std::atomic<int> sessions_opened{0};
  std::atomic<int> sessions_closed{0};
  std::atomic<int> cancels{0};
  std::string last_user;  // of the last OpenSession

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  bool drop_ = false;
  std::map<std::string, bool> cancelled_;  // query_id -> cancel requested
  int next_session_ = 1;
};

class FakeSqlServer {
 public:
  // Listens on address ("127.0.0.1:0" picks a free port).
  explicit FakeSqlServer(const std::string& address = "127.0.0.1:0");
  ~FakeSqlServer();
  int port() const { return port_; }
  FakeSqlService& service() { return service_; }
  void Shutdown();

 private:
  FakeSqlService service_;
  std::unique_ptr<grpc::Server> server_;
  int port_ = 0;
};

}  // namespace meridian::testing
