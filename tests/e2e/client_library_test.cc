// End-to-end tests of the C++ client library (client/) against a real daemon: typed results,
// streaming handler, errors with positions, Cancel from another thread, catalog description,
// statement parameters ($n: typed values, text cast by context, declared types, errors),
// prepared statements (Prepare / ExecutePrepared / Deallocate; a prepared write in a block that
// waits for a row lock), and detection of a server that
// went away.
#include <gtest/gtest.h>
#include <signal.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "daemon_harness.h"
#include "meridian/client/connection.h"

namespace meridian::e2e {
namespace {

using client::Connection;

TEST(ClientLibrary, TypedResultsAndCommandTags) {
  TempDir dir;
  Daemon d(dir.path() + "/data");
  ASSERT_TRUE(d.started()) << d.Log();
  auto conn = Connection::Connect("127.0.0.1", d.port());
  ASSERT_TRUE(conn.ok()) << conn.error().ToString();
  auto r = (*conn)->Execute(
      "CREATE TABLE v (i INTEGER, b BIGINT, d DOUBLE PRECISION, t TEXT, f BOOLEAN);"
      "INSERT INTO v VALUES (1, 9000000000, 0.25, 'hé', true), (NULL, NULL, NULL, NULL, NULL);"
      "SELECT i, b, d, t, f FROM v ORDER BY i NULLS LAST");
  ASSERT_TRUE(r.ok()) << r.error().ToString();
  ASSERT_EQ(r->size(), 3u);
  EXPECT_EQ((*r)[0].command_tag, "CREATE TABLE");
  EXPECT_EQ((*r)[1].command_tag, "INSERT 0 2");
  const auto& sel = (*r)[2];
  EXPECT_EQ(sel.command_tag, "SELECT 2");
  ASSERT_EQ(sel.columns.size(), 5u);
  EXPECT_EQ(sel.columns[1].type_name, "bigint");
  ASSERT_EQ(sel.rows.size(), 2u);
  EXPECT_EQ(sel.rows[0][1].ToText(), "9000000000");
  EXPECT_EQ(sel.rows[0][2].ToText(), "0.25");
  EXPECT_EQ(sel.rows[0][3].ToText(), "hé");
  EXPECT_EQ(sel.rows[0][4].ToText(), "t");
  EXPECT_TRUE(sel.rows[1][0].is_null());
}

TEST(ClientLibrary, ErrorsCarryPositionAndTheSessionContinues) {
  TempDir dir;
  Daemon d(dir.path() + "/data");
  ASSERT_TRUE(d.started()) << d.Log();
  auto conn = Connection::Connect("127.0.0.1", d.port());
  ASSERT_TRUE(conn.ok());
  auto r = (*conn)->Execute("SELECT 1,\n  nosuchcol");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().sqlstate, "42703");
  EXPECT_EQ(r.error().line, 2u);
  EXPECT_EQ(r.error().column, 3u);
  EXPECT_TRUE((*conn)->Execute("SELECT 2").ok());
}

// Requests without a timeout travel on the session stream (ExecuteSession), those with one as
// ExecuteStream calls: Cancel from another thread, a timeout, a statement error and a
// transaction block all behave the same on both, and the stream goes on after each.
TEST(ClientLibrary, CancelTimeoutAndBlocksOnTheSessionStream) {
  TempDir dir;
  Daemon d(dir.path() + "/data");
  ASSERT_TRUE(d.started()) << d.Log();
  auto conn = Connection::Connect("127.0.0.1", d.port());
  ASSERT_TRUE(conn.ok());
  Connection& c = **conn;
  ASSERT_TRUE(c.Execute("CREATE TABLE cs (id INTEGER PRIMARY KEY)").ok());

  std::atomic<bool> done{false};
  client::ClientResult<std::vector<client::StatementResult>> slow = c.Execute("SELECT 0");
  std::thread t([&] {
    slow = c.Execute("SELECT pg_sleep(30)");
    done = true;
  });
  bool cancelled = false;
  for (int i = 0; i < 1000 && !done && !cancelled; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    cancelled = c.Cancel();
  }
  t.join();
  ASSERT_TRUE(cancelled);
  ASSERT_FALSE(slow.ok());
  EXPECT_EQ(slow.error().sqlstate, "57014");
  EXPECT_FALSE(slow.error().connection_lost);

  client::ExecuteOptions timed;
  timed.timeout = std::chrono::milliseconds(300);
  auto timeout = c.Execute("SELECT pg_sleep(5)", timed);
  ASSERT_FALSE(timeout.ok());
  EXPECT_EQ(timeout.error().sqlstate, "57014");

  // A block across requests on the stream: a failed statement fails it until ROLLBACK.
  ASSERT_TRUE(c.Execute("BEGIN").ok());
  ASSERT_TRUE(c.Execute("INSERT INTO cs VALUES (1)").ok());
  auto dup = c.Execute("INSERT INTO cs VALUES (1)");
  ASSERT_FALSE(dup.ok());
  EXPECT_EQ(dup.error().sqlstate, "23505");
  EXPECT_EQ(dup.error().grpc_code, 0) << "an error on the stream ends no call";
  EXPECT_EQ(c.Execute("SELECT 1").error().sqlstate, "25P02");
  ASSERT_TRUE(c.Execute("ROLLBACK").ok());
  auto count = c.Execute("SELECT count(*) FROM cs");
  ASSERT_TRUE(count.ok()) << count.error().ToString();
  EXPECT_EQ((*count)[0].rows[0][0].ToText(), "0");
  EXPECT_FALSE(c.connection_lost());
}

TEST(ClientLibrary, ParametersAreTypedOrCastByContext) {
  using client::Value;
  TempDir dir;
  Daemon d(dir.path() + "/data");
  ASSERT_TRUE(d.started()) << d.Log();
  auto conn = Connection::Connect("127.0.0.1", d.port());
  ASSERT_TRUE(conn.ok());
  ASSERT_TRUE((*conn)
                  ->Execute("CREATE TABLE p (id INTEGER PRIMARY KEY, b BIGINT, "
                            "d DOUBLE PRECISION, t TEXT, f BOOLEAN)")
                  .ok());
  auto r = (*conn)->Execute("INSERT INTO p VALUES ($1, $2, $3, $4, $5)",
                            {Value::Int(1), Value::Int(9000000000), Value::Double(0.5),
                             Value::Text("it's"), Value::Bool(true)});
  ASSERT_TRUE(r.ok()) << r.error().ToString();
  EXPECT_EQ((*r)[0].command_tag, "INSERT 0 1");
  // Text values are cast with the input rules of the type the context gives.
  r = (*conn)->Execute(
      "INSERT INTO p VALUES ($1, $2, $3, $4, $5)",
      {Value::Text("2"), Value::Text("-3"), Value::Text("1e3"), Value::Null(), Value::Text("off")});
  ASSERT_TRUE(r.ok()) << r.error().ToString();
  r = (*conn)->Execute("SELECT id, b, d, t, f FROM p WHERE id >= $1 ORDER BY id LIMIT $2",
                       {Value::Int(1), Value::Text("10")});
  ASSERT_TRUE(r.ok()) << r.error().ToString();
  ASSERT_EQ((*r)[0].rows.size(), 2u);
  EXPECT_EQ((*r)[0].rows[0][1].as_int(), 9000000000);
  EXPECT_EQ((*r)[0].rows[0][3].as_string(), "it's");
  EXPECT_EQ((*r)[0].rows[1][2].as_double(), 1000.0);
  EXPECT_TRUE((*r)[0].rows[1][3].is_null());
  EXPECT_FALSE((*r)[0].rows[1][4].as_bool());
  // The primary key serves `id = $1` (once the table is big enough for an index to pay).
  ASSERT_TRUE((*conn)
                  ->Execute("INSERT INTO p (id) SELECT id + 10 FROM p; "
                            "INSERT INTO p (id) SELECT id + 20 FROM p; "
                            "INSERT INTO p (id) SELECT id + 40 FROM p; "
                            "INSERT INTO p (id) SELECT id + 80 FROM p; "
                            "INSERT INTO p (id) SELECT id + 160 FROM p; "
                            "INSERT INTO p (id) SELECT id + 320 FROM p; "
                            "INSERT INTO p (id) SELECT id + 640 FROM p; ANALYZE p")
                  .ok());
  r = (*conn)->Execute("EXPLAIN SELECT * FROM p WHERE id = $1", {Value::Int(2)});
  ASSERT_TRUE(r.ok()) << r.error().ToString();
  EXPECT_EQ((*r)[0].rows[0][0].as_string().rfind("Index Scan using p_pkey on p", 0), 0u);
  // Declared types (pg_oid) override inference: unknown would be text.
  client::ExecuteOptions typed;
  typed.param_types = {client::kOidInt8};
  r = (*conn)->Execute("SELECT $1", {Value::Text("42")}, typed);
  ASSERT_TRUE(r.ok()) << r.error().ToString();
  EXPECT_EQ((*r)[0].columns[0].type_name, "bigint");
  EXPECT_EQ((*r)[0].rows[0][0].as_int(), 42);
  // Errors: bad input, a missing value; the session goes on.
  r = (*conn)->Execute("SELECT * FROM p WHERE id = $1", {Value::Text("abc")});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().sqlstate, "22P02");
  EXPECT_EQ(r.error().message, "invalid input syntax for type integer: \"abc\"");
  r = (*conn)->Execute("SELECT * FROM p WHERE id = $1 AND t = $2", {Value::Int(1)});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().sqlstate, "42P02");
  EXPECT_EQ(r.error().message, "there is no parameter $2");
  typed.param_types = {1266};  // timetz: no such type yet
  r = (*conn)->Execute("SELECT $1", {Value::Text("2024-01-01")}, typed);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().sqlstate, "0A000");
  r = (*conn)->Execute("SELECT count(*) FROM p WHERE id < $1", {Value::Int(10)});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ((*r)[0].rows[0][0].as_int(), 2);
}

TEST(ClientLibrary, PreparedStatementsRunManyTimes) {
  using client::Value;
  TempDir dir;
  Daemon d(dir.path() + "/data");
  ASSERT_TRUE(d.started()) << d.Log();
  auto conn = Connection::Connect("127.0.0.1", d.port());
  ASSERT_TRUE(conn.ok());
  Connection& c = **conn;
  ASSERT_TRUE(c.Execute("CREATE TABLE kv (k INTEGER PRIMARY KEY, v TEXT)").ok());
  // Parameter types come from context; the server picks distinct names.
  auto insert = c.Prepare("INSERT INTO kv VALUES ($1, $2)");
  ASSERT_TRUE(insert.ok()) << insert.error().ToString();
  ASSERT_EQ(insert->param_types.size(), 2u);
  EXPECT_EQ(insert->param_types[0].type_name, "integer");
  EXPECT_EQ(insert->param_types[1].type_name, "text");
  EXPECT_TRUE(insert->columns.empty());
  for (int k = 1; k <= 50; ++k) {
    auto r = c.ExecutePrepared(insert->id, {Value::Int(k), Value::Text("v" + std::to_string(k))});
    ASSERT_TRUE(r.ok()) << r.error().ToString();
    EXPECT_EQ(r->command_tag, "INSERT 0 1");
  }
  client::PrepareOptions named;
  named.id = "get";
  auto get = c.Prepare("SELECT v, k * 2 AS twice FROM kv WHERE k = $1", named);
  ASSERT_TRUE(get.ok()) << get.error().ToString();
  EXPECT_EQ(get->id, "get");
  EXPECT_NE(insert->id, get->id);
  ASSERT_EQ(get->columns.size(), 2u);
  EXPECT_EQ(get->columns[1].name, "twice");
  for (int k : {7, 50, 1}) {
    auto r = c.ExecutePrepared("get", {Value::Int(k)});
    ASSERT_TRUE(r.ok()) << r.error().ToString();
    ASSERT_EQ(r->rows.size(), 1u);
    EXPECT_EQ(r->rows[0][0].as_string(), "v" + std::to_string(k));
    EXPECT_EQ(r->rows[0][1].as_int(), 2 * k);
  }
  // One namespace with SQL: EXECUTE reaches it; a taken name is 42P05.
  auto r = c.Execute("EXECUTE get(3)");
  ASSERT_TRUE(r.ok()) << r.error().ToString();
  EXPECT_EQ((*r)[0].rows[0][0].as_string(), "v3");
  auto again = c.Prepare("SELECT 1", named);
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.error().sqlstate, "42P05");
  // Errors while preparing (with the position in the prepared text) and while executing.
  auto bad = c.Prepare("SELECT nosuch FROM kv");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().sqlstate, "42703");
  EXPECT_EQ(bad.error().position, 8u);
  auto two = c.Prepare("SELECT 1; SELECT 2");
  ASSERT_FALSE(two.ok());
  EXPECT_EQ(two.error().sqlstate, "42601");
  auto dup = c.ExecutePrepared(insert->id, {Value::Int(1), Value::Text("x")});
  ASSERT_FALSE(dup.ok());
  EXPECT_EQ(dup.error().sqlstate, "23505");
  auto wrong = c.ExecutePrepared("get", {Value::Text("abc")});
  ASSERT_FALSE(wrong.ok());
  EXPECT_EQ(wrong.error().sqlstate, "22P02");
  // Deallocate: gone for both APIs; a second Deallocate is 26000.
  ASSERT_TRUE(c.Deallocate("get").ok());
  auto gone = c.ExecutePrepared("get", {Value::Int(1)});
  ASSERT_FALSE(gone.ok());
  EXPECT_EQ(gone.error().sqlstate, "26000");
  auto twice = c.Deallocate("get");
  ASSERT_FALSE(twice.ok());
  EXPECT_EQ(twice.error().sqlstate, "26000");
  r = c.Execute("SELECT count(*) FROM kv");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ((*r)[0].rows[0][0].as_int(), 50);
}

// A prepared UPDATE by primary key inside a transaction block is a quick write: it first runs
// on gRPC's thread without waiting; meeting another session's row lock, it is undone and runs
// again on the worker pool, where it waits. It must apply once, and the block must stay usable.
TEST(ClientLibrary, PreparedWriteInABlockWaitsForARowLock) {
  using client::Value;
  TempDir dir;
  Daemon d(dir.path() + "/data");
  ASSERT_TRUE(d.started()) << d.Log();
  auto a = Connection::Connect("127.0.0.1", d.port());
  auto b = Connection::Connect("127.0.0.1", d.port());
  ASSERT_TRUE(a.ok() && b.ok());
  ASSERT_TRUE((*a)->Execute("CREATE TABLE acct (id INTEGER PRIMARY KEY, bal INTEGER);"
                            "INSERT INTO acct SELECT g, 0 FROM generate_series(1, 2000) g;"
                            "ANALYZE acct")
                  .ok());
  auto update = (*b)->Prepare("UPDATE acct SET bal = bal + $1 WHERE id = $2");
  ASSERT_TRUE(update.ok()) << update.error().ToString();
  for (int i = 0; i < 3; ++i) {  // cached plan: later runs are quick writes
    ASSERT_TRUE((*b)->Execute("BEGIN").ok());
    ASSERT_TRUE((*b)->ExecutePrepared(update->id, {Value::Int(1), Value::Int(2)}).ok());
    ASSERT_TRUE((*b)->Execute("COMMIT").ok());
  }
  ASSERT_TRUE((*a)->Execute("BEGIN; UPDATE acct SET bal = bal + 10 WHERE id = 1").ok());
  ASSERT_TRUE((*b)->Execute("BEGIN; UPDATE acct SET bal = bal + 100 WHERE id = 3").ok());
  std::atomic<bool> finished{false};
  std::string error;
  std::thread waiter([&] {
    auto r = (*b)->ExecutePrepared(update->id, {Value::Int(5), Value::Int(1)});
    if (!r.ok()) error = r.error().ToString();
    finished = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  EXPECT_FALSE(finished) << "the UPDATE of a locked row did not wait";
  ASSERT_TRUE((*a)->Execute("COMMIT").ok());
  waiter.join();
  EXPECT_EQ(error, "");
  auto done = (*b)->Execute("COMMIT");
  ASSERT_TRUE(done.ok()) << done.error().ToString();
  EXPECT_EQ((*done)[0].command_tag, "COMMIT");
  auto r = (*a)->Execute("SELECT id, bal FROM acct WHERE id IN (1, 2, 3) ORDER BY id");
  ASSERT_TRUE(r.ok());
  ASSERT_EQ((*r)[0].rows.size(), 3u);
  EXPECT_EQ((*r)[0].rows[0][1].as_int(), 15);   // 10 from a, then 5 from b, once
  EXPECT_EQ((*r)[0].rows[1][1].as_int(), 3);    // the three warm-up runs
  EXPECT_EQ((*r)[0].rows[2][1].as_int(), 100);  // b's earlier statement in the same block
}

// A graceful stop ends the open (idle) session streams and the Attach streams: the daemon exits
// 0 and the client sees its connection lost. Well within gRPC's 5 s shutdown deadline: the
// server waits for each client to answer its GOAWAY, which an idle synchronous client reads
// only because its Attach thread keeps polling the channel (WatchWhileReady; without it gRPC's
// 5 s backup poller read it, and the stop took 0-5 s, typically 3).
TEST(ClientLibrary, GracefulStopWithOpenSessionStreams) {
  TempDir dir;
  auto d = std::make_unique<Daemon>(dir.path() + "/data");
  ASSERT_TRUE(d->started()) << d->Log();
  std::vector<std::unique_ptr<Connection>> conns;
  for (int i = 0; i < 3; ++i) {
    auto conn = Connection::Connect("127.0.0.1", d->port());
    ASSERT_TRUE(conn.ok());
    ASSERT_TRUE((*conn)->Execute("SELECT 1").ok());  // opens its session stream
    conns.push_back(std::move(*conn));
  }
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(d->Stop(SIGTERM), 0) << d->Log();
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2)) << d->Log();
  auto r = conns[0]->Execute("SELECT 1");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().sqlstate.substr(0, 2), "08") << r.error().ToString();
}

TEST(ClientLibrary, ServerGoneIsReportedAsConnectionLost) {
  TempDir dir;
  auto d = std::make_unique<Daemon>(dir.path() + "/data");
  ASSERT_TRUE(d->started()) << d->Log();
  auto conn = Connection::Connect("127.0.0.1", d->port());
  ASSERT_TRUE(conn.ok());
  d->Stop(SIGKILL);
  auto r = (*conn)->Execute("SELECT 1");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().sqlstate.substr(0, 2), "08") << r.error().ToString();
  EXPECT_TRUE(r.error().connection_lost);
}

}  // namespace
}  // namespace meridian::e2e
