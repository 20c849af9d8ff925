// Tests of meridian::client::Connection against the in-process fake server: sessions, streamed
// and materialized results, error details, cancel, timeout, catalog and connection loss.
#include "meridian/client/connection.h"

#include <gtest/gtest.h>

#include <thread>

#include "fake_sql_server.h"
#include "proto_convert.h"

namespace meridian::client {
namespace {

using meridian::testing::FakeSqlServer;

std::unique_ptr<Connection> MustConnect(int port) {
  ConnectOptions options;
  options.user = "alice";
  options.connect_timeout = std::chrono::seconds(5);
  auto conn = Connection::Connect("127.0.0.1", port, options);
  EXPECT_TRUE(conn.ok()) << (conn.ok() ? "" : conn.error().ToString());
  return conn.ok() ? std::move(conn.value()) : nullptr;
}

TEST(ConnectionTest, OpensAttachesAndClosesSession) {
  FakeSqlServer server;
  auto conn = MustConnect(server.port());
  ASSERT_NE(conn, nullptr);
  EXPECT_EQ(conn->session_id(), "s1");
  EXPECT_EQ(conn->server_version(), "fake-1");
  EXPECT_EQ(server.service().last_user, "alice");
  EXPECT_FALSE(conn->connection_lost());
  conn->Close();
  conn->Close();  // idempotent
  EXPECT_EQ(server.service().sessions_closed.load(), 1);
}

TEST(ConnectionTest, ConnectRefused) {
  int port;
  {
    FakeSqlServer server;  // learn a free port, then free it
    port = server.port();
  }
  auto conn = Connection::Connect("127.0.0.1", port);
  ASSERT_FALSE(conn.ok());
  EXPECT_EQ(conn.error().sqlstate, "08001");
  EXPECT_TRUE(conn.error().connection_lost);
  EXPECT_NE(conn.error().message.find("could not connect to server at 127.0.0.1:"),
            std::string::npos);
}

TEST(ConnectionTest, ExecuteMaterialized) {
  FakeSqlServer server;
  auto conn = MustConnect(server.port());
  auto r = conn->Execute("select 1");
  ASSERT_TRUE(r.ok()) << r.error().ToString();
  ASSERT_EQ(r->size(), 1u);
  const StatementResult& s = (*r)[0];
  ASSERT_EQ(s.columns.size(), 1u);
  EXPECT_EQ(s.columns[0].name, "?column?");
  EXPECT_EQ(s.columns[0].type_name, "integer");
  EXPECT_EQ(s.columns[0].pg_oid, kOidInt4);
  ASSERT_EQ(s.rows.size(), 1u);
  EXPECT_EQ(s.rows[0][0], Value::Int(1));
  EXPECT_EQ(s.command_tag, "SELECT 1");
  EXPECT_EQ(s.row_count, 1u);

  auto two = conn->Execute("two");
  ASSERT_TRUE(two.ok());
  ASSERT_EQ(two->size(), 2u);
  EXPECT_EQ((*two)[0].command_tag, "CREATE TABLE");
  EXPECT_FALSE((*two)[0].returns_rows());
  EXPECT_EQ((*two)[1].rows[0][0], Value::Text("a"));

  auto notice = conn->Execute("notice");
  ASSERT_TRUE(notice.ok());
  ASSERT_EQ(notice->size(), 1u);
  EXPECT_EQ((*notice)[0].command_tag, "DROP TABLE");
  EXPECT_EQ((*notice)[0].notices, std::vector<std::string>{"table \"t\" does not exist, skipping"});
}

class CountingHandler : public ResultHandler {
 public:
  void OnStatementStart(uint32_t, const std::vector<ColumnInfo>& columns) override {
    columns_ = columns.size();
  }
  void OnRow(uint32_t, const Row& row) override {
    ++rows;
    if (row[1].is_null()) ++nulls;
  }
  void OnStatementEnd(uint32_t, const StatementResult& summary) override {
    tag = summary.command_tag;
  }
  size_t columns_ = 0;
  int rows = 0;
  int nulls = 0;
  std::string tag;
};

TEST(ConnectionTest, ExecuteStreamsManyChunks) {
  FakeSqlServer server;
  auto conn = MustConnect(server.port());
  CountingHandler handler;
  ClientStatus status = conn->Execute("select rows 10000", handler);
  ASSERT_TRUE(status.ok()) << status.error().ToString();
  EXPECT_EQ(handler.columns_, 4u);
  EXPECT_EQ(handler.rows, 10000);
  EXPECT_EQ(handler.nulls, 3333);
  EXPECT_EQ(handler.tag, "SELECT 10000");
}

TEST(ConnectionTest, ErrorCarriesSqlErrorFields) {
  FakeSqlServer server;
  auto conn = MustConnect(server.port());
  auto r = conn->Execute("bad");
  ASSERT_FALSE(r.ok());
  const ClientError& e = r.error();
  EXPECT_EQ(e.sqlstate, "42601");
  EXPECT_EQ(e.message, "syntax error at or near \"bad\"");
  EXPECT_EQ(e.detail, "some detail");
  EXPECT_EQ(e.hint, "some hint");
  EXPECT_EQ(e.position, 1u);
  EXPECT_EQ(e.grpc_code, static_cast<int>(grpc::StatusCode::INVALID_ARGUMENT));
  EXPECT_FALSE(e.connection_lost);
  EXPECT_EQ(e.ToString(), "ERROR:  42601: syntax error at or near \"bad\"");
  // The session still works after an error.
  EXPECT_TRUE(conn->Execute("select 1").ok());
}

TEST(ConnectionTest, CancelFromAnotherThread) {
  FakeSqlServer server;
  auto conn = MustConnect(server.port());
  EXPECT_FALSE(conn->Cancel());  // nothing running
  std::thread canceller([&] {
    for (int i = 0; i < 500 && !conn->Cancel(); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  });
  auto r = conn->Execute("sleep");
  canceller.join();
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().sqlstate, "57014");
  EXPECT_GE(server.service().cancels.load(), 1);
  EXPECT_TRUE(conn->Execute("select 1").ok());
}

TEST(ConnectionTest, TimeoutIsDeadline) {
  FakeSqlServer server;
  auto conn = MustConnect(server.port());
  ExecuteOptions options;
  options.timeout = std::chrono::milliseconds(100);
  auto r = conn->Execute("sleep", options);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().sqlstate, "57014");
  EXPECT_EQ(r.error().grpc_code, static_cast<int>(grpc::StatusCode::DEADLINE_EXCEEDED));
  EXPECT_FALSE(r.error().connection_lost);
}

TEST(ConnectionTest, DescribeCatalog) {
  FakeSqlServer server;
  auto conn = MustConnect(server.port());
  auto tables = conn->DescribeCatalog();
  ASSERT_TRUE(tables.ok());
  ASSERT_EQ(tables->size(), 1u);
  const TableDescription& t = (*tables)[0];
  EXPECT_EQ(t.name, "t");
  ASSERT_EQ(t.columns.size(), 2u);
  EXPECT_TRUE(t.columns[0].not_null);
  EXPECT_EQ(t.columns[1].type.DisplayType(), "character varying(10)");
  EXPECT_EQ(t.columns[1].default_expr, "'x'");
  EXPECT_EQ(t.primary_key, std::vector<std::string>{"a"});
  auto missing = conn->DescribeCatalog("nope");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().sqlstate, "42P01");
}

TEST(ConnectionTest, DetectsLostSession) {
  FakeSqlServer server;
  auto conn = MustConnect(server.port());
  server.service().DropSessions();  // the server ends the Attach stream
  for (int i = 0; i < 200 && !conn->connection_lost(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_TRUE(conn->connection_lost());
  auto r = conn->Execute("select 1");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().sqlstate, "08006");
  EXPECT_TRUE(r.error().connection_lost);
}

TEST(ConnectionTest, ServerGoneDuringStatement) {
  auto server = std::make_unique<FakeSqlServer>();
  auto conn = MustConnect(server->port());
  std::thread killer([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    server->Shutdown();
  });
  auto r = conn->Execute("sleep");
  killer.join();
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.error().connection_lost || r.error().sqlstate == "57014") << r.error().ToString();
  auto again = conn->Execute("select 1");
  ASSERT_FALSE(again.ok());
  EXPECT_TRUE(again.error().connection_lost);
  EXPECT_EQ(again.error().sqlstate, "08006");
}

TEST(ProtoConvertTest, StatusWithoutDetails) {
  ClientError e = ErrorFromStatus(grpc::Status(grpc::StatusCode::UNAVAILABLE, "Socket closed"));
  EXPECT_EQ(e.sqlstate, "08006");
  EXPECT_EQ(e.message, "connection lost");
  EXPECT_TRUE(e.connection_lost);
  e = ErrorFromStatus(grpc::Status(grpc::StatusCode::INTERNAL, "boom"));
  EXPECT_EQ(e.sqlstate, "XX000");
  EXPECT_EQ(e.message, "boom");
  EXPECT_FALSE(e.connection_lost);
  e = ErrorFromStatus(grpc::Status(grpc::StatusCode::UNIMPLEMENTED, ""));
  EXPECT_EQ(e.sqlstate, "0A000");
}

TEST(ProtoConvertTest, RoundTripsSqlError) {
  ClientError in;
  in.sqlstate = "22012";
  in.message = "division by zero";
  in.position = 8;
  in.line = 1;
  in.column = 8;
  in.statement_index = 2;
  ClientError out = ErrorFromStatus(StatusFromError(grpc::StatusCode::INVALID_ARGUMENT, in));
  EXPECT_EQ(out.sqlstate, "22012");
  EXPECT_EQ(out.message, "division by zero");
  EXPECT_EQ(out.position, 8u);
  EXPECT_EQ(out.statement_index, 2u);
  EXPECT_EQ(out.grpc_code, static_cast<int>(grpc::StatusCode::INVALID_ARGUMENT));
}

TEST(ProtoConvertTest, Values) {
  v1::Value v;
  EXPECT_TRUE(ValueFromProto(v).is_null());
  v.set_null_value(true);
  EXPECT_TRUE(ValueFromProto(v).is_null());
  v.set_double_value(2.5);
  EXPECT_EQ(ValueFromProto(v), Value::Double(2.5));
  v.set_text_value("");
  EXPECT_EQ(ValueFromProto(v), Value::Text(""));
  v.set_bool_value(false);
  EXPECT_EQ(ValueFromProto(v), Value::Bool(false));
}

}  // namespace
}  // namespace meridian::client
