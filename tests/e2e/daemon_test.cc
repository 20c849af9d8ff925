// End-to-end tests of meridiand as a process: start-up, health, the data-dir lock, graceful
// shutdown, restart persistence, bad flags, and garbage on the gRPC port.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <random>
#include <thread>

#include "daemon_harness.h"

namespace meridian::e2e {
namespace {

TEST(Daemon, StartsServesHealthAndStopsCleanlyOnSigterm) {
  TempDir dir;
  Daemon d(dir.path() + "/data");
  ASSERT_TRUE(d.started()) << d.Log();
  // The daemon serves before it logs that it listens: give the line a moment to appear.
  const std::string listening = "listening for gRPC on 127.0.0.1:" + std::to_string(d.port());
  std::string log = d.Log();
  for (int i = 0; i < 200 && log.find(listening) == std::string::npos; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    log = d.Log();
  }
  EXPECT_NE(log.find("Meridian 0.1.0 starting"), std::string::npos) << log;
  EXPECT_NE(log.find(dir.path() + "/data"), std::string::npos) << log;
  EXPECT_NE(log.find(listening), std::string::npos) << log;
  EXPECT_EQ(d.Stop(SIGTERM), 0);
  EXPECT_NE(d.Log().find("shutdown complete"), std::string::npos);
}

TEST(Daemon, StopsCleanlyOnSigintWithOpenSessions) {
  TempDir dir;
  Daemon d(dir.path() + "/data");
  ASSERT_TRUE(d.started()) << d.Log();
  RawSession a(d.address()), b(d.address());
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(d.Stop(SIGINT), 0) << d.Log();
}

TEST(Daemon, SecondDaemonOnSameDataDirIsRefused) {
  TempDir dir;
  Daemon first(dir.path() + "/data");
  ASSERT_TRUE(first.started()) << first.Log();
  Daemon second(dir.path() + "/data");
  EXPECT_FALSE(second.started());
  EXPECT_EQ(second.Stop(SIGTERM), 1);
  std::string log = second.Log();
  EXPECT_NE(log.find("in use by another meridiand"), std::string::npos) << log;
  EXPECT_TRUE(first.Alive());
}

TEST(Daemon, TakenPostgresPortFailsStartupWithAHint) {
  TempDir dir;
  std::string pg = "127.0.0.1:" + std::to_string(FreePort());
  Daemon first(dir.path() + "/a", {"--pg-listen", pg});
  ASSERT_TRUE(first.started()) << first.Log();
  Daemon second(dir.path() + "/b", {"--pg-listen", pg});
  EXPECT_FALSE(second.started());
  EXPECT_EQ(second.Stop(SIGTERM), 1);
  std::string log = second.Log();
  EXPECT_NE(log.find("could not listen for PostgreSQL clients on " + pg), std::string::npos) << log;
  EXPECT_NE(log.find("--pg-listen"), std::string::npos) << log;
}

TEST(Daemon, BadFlagExitsWithUsage) {
  auto r = RunBinary("meridiand", {"--no-such-flag"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("unknown option \"--no-such-flag\""), std::string::npos) << r.err;
  r = RunBinary("meridiand", {"--buffer-pool-mb", "lots"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("invalid value \"lots\""), std::string::npos) << r.err;
}

TEST(Daemon, DataSurvivesCleanRestart) {
  TempDir dir;
  std::string data = dir.path() + "/data";
  {
    Daemon d(data);
    ASSERT_TRUE(d.started()) << d.Log();
    RawSession s(d.address());
    ASSERT_TRUE(s.ok());
    auto r = s.Execute(
        "CREATE TABLE kv (k INTEGER PRIMARY KEY, v TEXT NOT NULL DEFAULT 'none');"
        "INSERT INTO kv VALUES (1, 'one'), (2, 'two');"
        "INSERT INTO kv (k) VALUES (3)");
    ASSERT_TRUE(r.status.ok()) << r.status.error_message();
    EXPECT_EQ(d.Stop(SIGTERM), 0);
  }
  Daemon d(data);
  ASSERT_TRUE(d.started()) << d.Log();
  RawSession s(d.address());
  auto r = s.Execute("SELECT k, v FROM kv ORDER BY k");
  ASSERT_TRUE(r.status.ok()) << r.status.error_message();
  ASSERT_EQ(r.row_count, 3u);
  std::vector<std::string> got;
  for (const auto& c : r.chunks) {
    for (const auto& row : c.rows()) {
      got.push_back(std::to_string(row.values(0).int_value()) + "=" + row.values(1).text_value());
    }
  }
  EXPECT_EQ(got, (std::vector<std::string>{"1=one", "2=two", "3=none"}));
  // The primary key still holds after the restart.
  r = s.Execute("INSERT INTO kv VALUES (2, 'again')");
  EXPECT_EQ(r.error.sqlstate(), "23505");
}

// The rows of sql's result as "v1|v2|..." lines (integers, text, NULL).
std::vector<std::string> Rows(RawSession& s, const std::string& sql) {
  auto r = s.Execute(sql);
  EXPECT_TRUE(r.status.ok()) << sql << ": " << r.status.error_message();
  std::vector<std::string> got;
  for (const auto& c : r.chunks) {
    for (const auto& row : c.rows()) {
      std::string line;
      for (int i = 0; i < row.values_size(); ++i) {
        const auto& v = row.values(i);
        line += (i ? "|" : "") + (v.has_int_value()    ? std::to_string(v.int_value())
                                  : v.has_text_value() ? v.text_value()
                                                       : std::string("NULL"));
      }
      got.push_back(line);
    }
  }
  return got;
}

// ALTER TABLE ADD/DROP/RENAME COLUMN and CHECK constraints are in the catalog file before the
// statement returns: they survive a clean restart and a SIGKILL, with rows written before and
// after each change decoding with the right columns.
TEST(Daemon, AlterTableSurvivesRestartAndKill) {
  TempDir dir;
  std::string data = dir.path() + "/data";
  using Strings = std::vector<std::string>;
  {
    Daemon d(data);
    ASSERT_TRUE(d.started()) << d.Log();
    RawSession s(d.address());
    auto r = s.Execute(
        "CREATE TABLE t (id INTEGER PRIMARY KEY, old TEXT, n INTEGER);"
        "INSERT INTO t VALUES (1, 'o1', 10), (2, 'o2', 20);"
        "ALTER TABLE t ADD COLUMN added TEXT DEFAULT 'dflt';"
        "INSERT INTO t VALUES (3, 'o3', 30, 'mine');"
        "ALTER TABLE t DROP COLUMN old;"
        "ALTER TABLE t ADD CONSTRAINT n_small CHECK (n < 100)");
    ASSERT_TRUE(r.status.ok()) << r.status.error_message();
    EXPECT_EQ(d.Stop(SIGTERM), 0);
  }
  {
    Daemon d(data);
    ASSERT_TRUE(d.started()) << d.Log();
    RawSession s(d.address());
    EXPECT_EQ(Rows(s, "SELECT * FROM t ORDER BY id"),
              (Strings{"1|10|dflt", "2|20|dflt", "3|30|mine"}));
    EXPECT_EQ(s.Execute("INSERT INTO t VALUES (4, 100, 'x')").error.sqlstate(), "23514");
    auto r = s.Execute(
        "ALTER TABLE t RENAME COLUMN n TO num;"
        "ALTER TABLE t ADD COLUMN later INTEGER DEFAULT 7;"
        "INSERT INTO t VALUES (4, 40, 'four', 8)");
    ASSERT_TRUE(r.status.ok()) << r.status.error_message();
    d.Stop(SIGKILL);  // no clean shutdown: recovery reads the catalog as the ALTERs left it
  }
  Daemon d(data);
  ASSERT_TRUE(d.started()) << d.Log();
  RawSession s(d.address());
  EXPECT_EQ(Rows(s, "SELECT * FROM t ORDER BY id"),
            (Strings{"1|10|dflt|7", "2|20|dflt|7", "3|30|mine|7", "4|40|four|8"}));
  EXPECT_EQ(s.Execute("INSERT INTO t VALUES (5, 500, 'x', 1)").error.sqlstate(), "23514");
  EXPECT_EQ(s.Execute("INSERT INTO t VALUES (1, 1, 'x', 1)").error.sqlstate(), "23505");
  EXPECT_EQ(s.Execute("SELECT old FROM t").error.sqlstate(), "42703");
}

// Raw bytes that are not HTTP/2, and an HTTP/2 preface followed by junk frames: the daemon
// drops those connections and goes on serving.
TEST(Daemon, GarbageOnTheGrpcPortDoesNotHurt) {
  TempDir dir;
  Daemon d(dir.path() + "/data");
  ASSERT_TRUE(d.started()) << d.Log();
  std::mt19937 rng(42);
  for (int i = 0; i < 40; ++i) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons(d.port());
    ASSERT_EQ(connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
    std::string junk;
    if (i % 2 == 1) junk = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";
    size_t n = 1 + rng() % 4096;
    for (size_t j = 0; j < n; ++j) junk.push_back(static_cast<char>(rng()));
    (void)!send(fd, junk.data(), junk.size(), MSG_NOSIGNAL);
    close(fd);
  }
  ASSERT_TRUE(d.Alive());
  RawSession s(d.address());
  ASSERT_TRUE(s.ok());
  auto r = s.Execute("SELECT 1 + 1");
  ASSERT_TRUE(r.status.ok()) << r.status.error_message();
  EXPECT_EQ(r.chunks.at(0).rows(0).values(0).int_value(), 2);
}

// Views are in the catalog file when CREATE VIEW returns: they survive a clean restart and a
// SIGKILL (views over views, the column list, dependencies still enforced); a TEMP view is
// visible to its own session only and goes with it.
TEST(Daemon, ViewsSurviveRestartAndKill) {
  TempDir dir;
  std::string data = dir.path() + "/data";
  using Strings = std::vector<std::string>;
  {
    Daemon d(data);
    ASSERT_TRUE(d.started()) << d.Log();
    RawSession s(d.address());
    auto r = s.Execute(
        "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, n INTEGER);"
        "INSERT INTO t VALUES (1, 'a', 10), (2, NULL, 20), (3, 'c', NULL);"
        "CREATE VIEW v (ident, label) AS SELECT id, name FROM t WHERE n IS NOT NULL;"
        "CREATE VIEW vv AS SELECT count(*) AS c FROM v");
    ASSERT_TRUE(r.status.ok()) << r.status.error_message();
    // A TEMP view: this session sees it, another one does not.
    r = s.Execute("CREATE TEMP VIEW tv AS SELECT id FROM t WHERE id > 1");
    ASSERT_TRUE(r.status.ok()) << r.status.error_message();
    EXPECT_EQ(Rows(s, "SELECT id FROM tv ORDER BY id"), (Strings{"2", "3"}));
    RawSession other(d.address());
    EXPECT_EQ(other.Execute("SELECT * FROM tv").error.sqlstate(), "42P01");
    EXPECT_EQ(other.Execute("CREATE VIEW tv_user AS SELECT * FROM tv").error.sqlstate(), "42P01");
    EXPECT_EQ(d.Stop(SIGTERM), 0);
  }
  {
    Daemon d(data);
    ASSERT_TRUE(d.started()) << d.Log();
    RawSession s(d.address());
    EXPECT_EQ(Rows(s, "SELECT ident, label FROM v ORDER BY ident"), (Strings{"1|a", "2|NULL"}));
    EXPECT_EQ(Rows(s, "SELECT c FROM vv"), (Strings{"2"}));
    EXPECT_EQ(s.Execute("SELECT * FROM tv").error.sqlstate(), "42P01");  // TEMP: gone
    EXPECT_EQ(s.Execute("DROP TABLE t").error.sqlstate(), "2BP01");
    EXPECT_EQ(s.Execute("ALTER TABLE t DROP COLUMN name").error.sqlstate(), "2BP01");
    auto r = s.Execute(
        "CREATE OR REPLACE VIEW v (ident, label) AS SELECT id, name, n FROM t;"
        "CREATE VIEW w AS SELECT label FROM v WHERE ident = 3");
    ASSERT_TRUE(r.status.ok()) << r.status.error_message();
    d.Stop(SIGKILL);  // no clean shutdown: the catalog file already holds the views
  }
  Daemon d(data);
  ASSERT_TRUE(d.started()) << d.Log();
  RawSession s(d.address());
  EXPECT_EQ(Rows(s, "SELECT * FROM v ORDER BY ident"),
            (Strings{"1|a|10", "2|NULL|20", "3|c|NULL"}));
  EXPECT_EQ(Rows(s, "SELECT c FROM vv"), (Strings{"3"}));
  EXPECT_EQ(Rows(s, "SELECT label FROM w"), (Strings{"c"}));
  EXPECT_EQ(Rows(s, "SELECT viewname FROM pg_views WHERE schemaname = 'public' ORDER BY 1"),
            (Strings{"v", "vv", "w"}));
  auto r = s.Execute("DROP VIEW v CASCADE");
  ASSERT_TRUE(r.status.ok()) << r.status.error_message();
  EXPECT_EQ(s.Execute("SELECT * FROM vv").error.sqlstate(), "42P01");
  r = s.Execute("DROP TABLE t");
  ASSERT_TRUE(r.status.ok()) << r.status.error_message();
}

// Schemas (CREATE SCHEMA, tables, indexes, sequences and views in them) are in the catalog file
// when the statement returns: they survive a clean restart and a SIGKILL.
TEST(Daemon, SchemasSurviveRestartAndKill) {
  TempDir dir;
  std::string data = dir.path() + "/data";
  using Strings = std::vector<std::string>;
  {
    Daemon d(data);
    ASSERT_TRUE(d.started()) << d.Log();
    RawSession s(d.address());
    auto r = s.Execute(
        "CREATE SCHEMA app;"
        "CREATE TABLE app.t (id INTEGER PRIMARY KEY, name TEXT);"
        "CREATE TABLE t (pub INTEGER);"
        "INSERT INTO app.t VALUES (1, 'a'), (2, 'b');"
        "INSERT INTO t VALUES (7);"
        "CREATE INDEX t_name ON app.t (name);"
        "CREATE SEQUENCE app.s;"
        "CREATE VIEW app.v AS SELECT name FROM app.t WHERE id > 1");
    ASSERT_TRUE(r.status.ok()) << r.status.error_message();
    EXPECT_EQ(d.Stop(SIGTERM), 0);
  }
  {
    Daemon d(data);
    ASSERT_TRUE(d.started()) << d.Log();
    RawSession s(d.address());
    EXPECT_EQ(Rows(s, "SELECT id, name FROM app.t ORDER BY id"), (Strings{"1|a", "2|b"}));
    EXPECT_EQ(Rows(s, "SELECT pub FROM t"), (Strings{"7"}));
    EXPECT_EQ(Rows(s, "SELECT name FROM app.v"), (Strings{"b"}));
    EXPECT_EQ(Rows(s, "SELECT nextval('app.s')"), (Strings{"1"}));
    EXPECT_EQ(Rows(s,
                   "SELECT n.nspname FROM pg_class c JOIN pg_namespace n ON n.oid = "
                   "c.relnamespace WHERE c.relname = 't_name'"),
              (Strings{"app"}));
    EXPECT_EQ(s.Execute("INSERT INTO app.t VALUES (1, 'again')").error.sqlstate(), "23505");
    auto r = s.Execute(
        "SET search_path = app;"
        "CREATE SCHEMA more;"
        "CREATE TABLE more.m (x INTEGER);"
        "INSERT INTO more.m VALUES (3);"
        "INSERT INTO t VALUES (4, 'd')");  // app.t through the search path
    ASSERT_TRUE(r.status.ok()) << r.status.error_message();
    d.Stop(SIGKILL);  // no clean shutdown: the catalog file already holds the schemas
  }
  Daemon d(data);
  ASSERT_TRUE(d.started()) << d.Log();
  RawSession s(d.address());
  EXPECT_EQ(Rows(s, "SELECT x FROM more.m"), (Strings{"3"}));
  EXPECT_EQ(Rows(s, "SELECT id FROM app.t ORDER BY id"), (Strings{"1", "2", "4"}));
  EXPECT_EQ(Rows(s,
                 "SELECT schema_name FROM information_schema.schemata WHERE schema_name IN "
                 "('app', 'more') ORDER BY 1"),
            (Strings{"app", "more"}));
  EXPECT_EQ(s.Execute("DROP SCHEMA app").error.sqlstate(), "2BP01");
  auto r = s.Execute("DROP SCHEMA app, more CASCADE");
  ASSERT_TRUE(r.status.ok()) << r.status.error_message();
  EXPECT_EQ(s.Execute("SELECT * FROM app.t").error.sqlstate(), "42P01");
}

// Files under data/tables (heaps, index trees, sequences).
size_t TableFiles(const std::string& data) {
  size_t n = 0;
  for (const auto& e : std::filesystem::directory_iterator(data + "/tables")) {
    (void)e;
    ++n;
  }
  return n;
}

// A TEMP table is seen by its own session only (another session may have its own of the same
// name), goes when its session ends (the client vanishing included) and never survives a
// restart: a SIGKILL leaves its files, which the next start removes. So does a TEMP sequence.
TEST(Daemon, TempTablesArePrivateAndEndWithTheirSession) {
  TempDir dir;
  std::string data = dir.path() + "/data";
  using Strings = std::vector<std::string>;
  {
    Daemon d(data);
    ASSERT_TRUE(d.started()) << d.Log();
    RawSession keep(d.address());
    auto r = keep.Execute("CREATE TABLE perm (a INTEGER); INSERT INTO perm VALUES (1)");
    ASSERT_TRUE(r.status.ok()) << r.status.error_message();
    const size_t before = TableFiles(data);
    {
      RawSession a(d.address());
      r = a.Execute(
          "CREATE TEMP TABLE tt (id INTEGER PRIMARY KEY, v TEXT);"
          "INSERT INTO tt VALUES (1, 'mine');"
          "CREATE INDEX tt_v ON tt (v)");
      ASSERT_TRUE(r.status.ok()) << r.status.error_message();
      EXPECT_EQ(Rows(a, "SELECT v FROM tt WHERE v = 'mine'"), (Strings{"mine"}));
      EXPECT_GT(TableFiles(data), before);
      r = a.Execute("CREATE TEMP SEQUENCE ts START 7");
      ASSERT_TRUE(r.status.ok()) << r.status.error_message();
      EXPECT_EQ(Rows(a, "SELECT nextval('ts')"), (Strings{"7"}));
      EXPECT_EQ(keep.Execute("SELECT nextval('ts')").error.sqlstate(), "42P01");
      // Another session: not visible, not in its catalog views, and its own tt is allowed.
      EXPECT_EQ(keep.Execute("SELECT * FROM tt").error.sqlstate(), "42P01");
      EXPECT_EQ(Rows(keep, "SELECT count(*) FROM pg_class WHERE relname = 'tt'"), (Strings{"0"}));
      r = keep.Execute("CREATE TEMP TABLE tt (other TEXT); INSERT INTO tt VALUES ('theirs')");
      ASSERT_TRUE(r.status.ok()) << r.status.error_message();
      EXPECT_EQ(Rows(keep, "SELECT other FROM tt"), (Strings{"theirs"}));
      EXPECT_EQ(Rows(a, "SELECT v FROM tt"), (Strings{"mine"}));
      r = keep.Execute("DROP TABLE tt");
      ASSERT_TRUE(r.status.ok()) << r.status.error_message();
    }  // a's client goes away: its TEMP table, index and sequence go with the session
    bool gone = false;
    for (int i = 0; i < 100 && !gone; ++i) {
      gone = TableFiles(data) == before;
      if (!gone) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    EXPECT_TRUE(gone) << TableFiles(data) << " files, " << before << " before";
    // A TEMP table alive at a SIGKILL: not in the catalog file, its files removed at start-up.
    r = keep.Execute(
        "CREATE TEMP TABLE tk (a INTEGER); INSERT INTO tk VALUES (5); CREATE TEMP SEQUENCE tks");
    ASSERT_TRUE(r.status.ok()) << r.status.error_message();
    EXPECT_GT(TableFiles(data), before);
    d.Stop(SIGKILL);
  }
  Daemon d(data);
  ASSERT_TRUE(d.started()) << d.Log();
  RawSession s(d.address());
  EXPECT_EQ(s.Execute("SELECT * FROM tk").error.sqlstate(), "42P01");
  EXPECT_EQ(s.Execute("SELECT nextval('tks')").error.sqlstate(), "42P01");
  EXPECT_EQ(Rows(s, "SELECT a FROM perm"), (Strings{"1"}));
  EXPECT_EQ(TableFiles(data), 1u);  // perm's heap only
}

}  // namespace
}  // namespace meridian::e2e
