// inventory: a small application of Meridian's C++ client library, built from the installed
// package (find_package(meridian CONFIG), meridian::client). It connects with a user, a password
// and optionally TLS, loads rows through a prepared statement with typed parameters inside a
// transaction, shows a rollback, streams a result in chunks, handles a unique violation, and
// stops slow statements with a deadline and with Cancel from another thread.
//
//   inventory [--host H] [--port P] [--user U] [--sslrootcert CA.pem] [--ssl-server-name N]
//   (password from $MERIDIAN_PASSWORD; exit 0 when every step did what it should)
#include <meridian/client/connection.h>
#include <meridian/client/transaction.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

namespace mc = meridian::client;

namespace {

int failures = 0;

void Check(bool ok, const std::string& what) {
  std::printf("%s %s\n", ok ? "ok  " : "FAIL", what.c_str());
  if (!ok) ++failures;
}

// Prints each row's id and counts rows and chunks as they stream in.
class CountingHandler : public mc::ResultHandler {
 public:
  uint64_t rows = 0;
  std::string last_tag;
  void OnRow(uint32_t, const mc::Row& row) override {
    if (++rows <= 3) std::printf("     row: %s | %s\n", row[0].ToText().c_str(), row[1].ToText().c_str());
  }
  void OnStatementEnd(uint32_t, const mc::StatementResult& summary) override {
    last_tag = summary.command_tag;
  }
};

// A statement that runs for a long time: a count over a large cross product.
constexpr const char* kSlowQuery =
    "SELECT count(*) FROM example_items a, example_items b, example_items c";

}  // namespace

int main(int argc, char** argv) {
  std::string host = "127.0.0.1";
  int port = mc::kDefaultPort;
  mc::ConnectOptions options;
  options.application_name = "inventory-example";
  if (const char* pw = std::getenv("MERIDIAN_PASSWORD")) options.password = pw;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string flag = argv[i], value = argv[i + 1];
    if (flag == "--host") {
      host = value;
    } else if (flag == "--port") {
      port = std::atoi(value.c_str());
    } else if (flag == "--user") {
      options.user = value;
    } else if (flag == "--sslrootcert") {
      options.tls.enabled = true;
      options.tls.ca_file = value;
    } else if (flag == "--ssl-server-name") {
      options.tls.server_name = value;
    } else {
      std::fprintf(stderr, "inventory: unknown option %s\n", flag.c_str());
      return 2;
    }
  }

  // 1. Connect: OpenSession with user and password (over TLS when a CA is given).
  auto conn = mc::Connection::Connect(host, port, options);
  if (!conn.ok()) {
    std::fprintf(stderr, "inventory: %s\n", conn.error().ToString().c_str());
    return 2;
  }
  mc::Connection& db = **conn;
  std::printf("connected to %s (%s)%s\n", db.target().c_str(), db.server_version().c_str(),
              options.tls.enabled ? " over TLS" : "");

  auto setup = db.Execute(
      "DROP TABLE IF EXISTS example_items;"
      "CREATE TABLE example_items (id INTEGER PRIMARY KEY, name TEXT NOT NULL,"
      " price NUMERIC(10,2), added DATE)");
  Check(setup.ok(), "create table" + (setup.ok() ? "" : ": " + setup.error().ToString()));

  // 2. A prepared statement with declared parameter types, run 300 times in one transaction.
  mc::PrepareOptions prepare;
  prepare.param_types = {mc::kOidInt4, mc::kOidText, mc::kOidNumeric, mc::kOidDate};
  auto insert = db.Prepare("INSERT INTO example_items VALUES ($1, $2, $3, $4)", prepare);
  Check(insert.ok(), "prepare insert" + (insert.ok() ? "" : ": " + insert.error().ToString()));
  if (!insert.ok()) return 1;
  {
    auto tx = mc::Transaction::Begin(db);
    Check(tx.ok(), "begin");
    bool all = true;
    for (int id = 1; id <= 300 && all; ++id) {
      auto r = db.ExecutePrepared(insert->id, {mc::Value::Int(id),
                                               mc::Value::Text("item " + std::to_string(id)),
                                               mc::Value::Text(std::to_string(id) + ".25"),
                                               mc::Value::Text("2024-03-01")});
      all = r.ok() && r->command_tag == "INSERT 0 1";
    }
    Check(all, "300 prepared inserts");
    Check(tx->Commit().ok(), "commit");
  }

  // 3. A transaction that is dropped without Commit rolls back.
  {
    auto tx = mc::Transaction::Begin(db, {mc::IsolationLevel::kRepeatableRead, false});
    Check(tx.ok() && db.Execute("DELETE FROM example_items").ok(), "delete inside a transaction");
  }  // ~Transaction: ROLLBACK
  auto count = db.Execute("SELECT count(*) FROM example_items");
  Check(count.ok() && (*count)[0].rows[0][0].ToText() == "300", "the rollback kept all 300 rows");

  // 4. Streaming: rows arrive in chunks of at most 50, handed to the handler one by one.
  CountingHandler handler;
  mc::ExecuteOptions stream;
  stream.max_rows_per_chunk = 50;
  auto streamed = db.Execute("SELECT id, name, price FROM example_items ORDER BY id", handler, stream);
  Check(streamed.ok() && handler.rows == 300 && handler.last_tag == "SELECT 300",
        "streamed 300 rows");

  // 5. Errors carry the server's SQLSTATE.
  auto dup = db.ExecutePrepared(insert->id, {mc::Value::Int(1), mc::Value::Text("again"),
                                             mc::Value::Null(), mc::Value::Null()});
  Check(!dup.ok() && dup.error().sqlstate == "23505", "duplicate key is 23505");

  // 6. A deadline: the call's timeout stops the statement on the server (57014).
  mc::ExecuteOptions deadline;
  deadline.timeout = std::chrono::milliseconds(200);
  auto slow = db.Execute(kSlowQuery, deadline);
  Check(!slow.ok() && slow.error().sqlstate == "57014", "deadline cancels a slow statement");

  // 7. Cancel from another thread while the statement runs.
  std::thread canceller([&db] {
    for (int i = 0; i < 100 && !db.Cancel(); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  });
  auto cancelled = db.Execute(kSlowQuery);
  canceller.join();
  if (cancelled.ok()) {
    std::printf("     the statement was not cancelled\n");
  } else if (cancelled.error().sqlstate != "57014") {
    std::printf("     %s\n", cancelled.error().ToString().c_str());
  }
  Check(!cancelled.ok() && cancelled.error().sqlstate == "57014", "Cancel stops a slow statement");

  auto deallocated = db.Deallocate(insert->id);
  if (!deallocated.ok()) std::printf("     %s\n", deallocated.error().ToString().c_str());
  auto dropped = db.Execute("DROP TABLE example_items");
  if (!dropped.ok()) std::printf("     %s\n", dropped.error().ToString().c_str());
  Check(deallocated.ok() && dropped.ok(), "clean up");
  db.Close();
  std::printf("%s\n", failures == 0 ? "inventory: all steps ok" : "inventory: some steps failed");
  return failures == 0 ? 0 : 1;
}
