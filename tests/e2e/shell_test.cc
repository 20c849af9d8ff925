// End-to-end tests of the `meridian` shell against a real daemon: -c, -f, stdin, output formats,
// error display with SQLSTATE, line and caret, exit codes 0/1/2, \dt and \d, and the issue's
// acceptance path: 100,000 rows loaded from a file survive a daemon restart.
#include <gtest/gtest.h>
#include <signal.h>

#include <fstream>

#include "daemon_harness.h"

namespace meridian::e2e {
namespace {

std::vector<std::string> Conn(const Daemon& d) {
  return {"--host", "127.0.0.1", "--port", std::to_string(d.port())};
}

std::vector<std::string> With(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

class ShellTest : public ::testing::Test {
 protected:
  void SetUp() override {
    daemon_ = std::make_unique<Daemon>(dir_.path() + "/data");
    ASSERT_TRUE(daemon_->started()) << daemon_->Log();
  }
  ProcessResult Shell(const std::vector<std::string>& args, const std::string& in = "") {
    return RunBinary("meridian", With(Conn(*daemon_), args), in);
  }
  TempDir dir_;
  std::unique_ptr<Daemon> daemon_;
};

TEST_F(ShellTest, CommandRoundTripAlignedOutput) {
  auto r =
      Shell({"-c", "CREATE TABLE t (a INTEGER, b TEXT)", "-c",
             "INSERT INTO t VALUES (1, 'x'), (22, NULL)", "-c", "SELECT a, b FROM t ORDER BY a"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("CREATE TABLE"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("INSERT 0 2"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(" a  | b"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("(2 rows)"), std::string::npos) << r.out;
}

TEST_F(ShellTest, SyntaxErrorExits1WithSqlstateLineAndCaret) {
  auto r = Shell({"-c", "SELEC 1"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("42601"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("syntax error at or near \"SELEC\""), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("LINE 1: SELEC 1"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("\n        ^"), std::string::npos) << r.err;
}

TEST_F(ShellTest, StdinStopsAtFirstErrorWithExit1) {
  auto r = Shell({},
                 "CREATE TABLE s (a INTEGER);\nINSERT INTO s VALUES (1);\n"
                 "INSERT INTO nope VALUES (2);\nINSERT INTO s VALUES (3);\n");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("42P01"), std::string::npos) << r.err;
  auto q = Shell({"--format", "csv", "-c", "SELECT a FROM s"});
  EXPECT_EQ(q.exit_code, 0) << q.err;
  EXPECT_EQ(q.out, "a\n1\n");
}

TEST_F(ShellTest, CsvAndJsonFormats) {
  ASSERT_EQ(Shell({"-c", "CREATE TABLE f (n INTEGER, s TEXT, d DOUBLE PRECISION, b BOOLEAN)", "-c",
                   "INSERT INTO f VALUES (1, 'a,b', 1.5, true), (2, NULL, NULL, false)"})
                .exit_code,
            0);
  auto csv = Shell({"--format", "csv", "-c", "SELECT * FROM f ORDER BY n"});
  EXPECT_EQ(csv.out, "n,s,d,b\n1,\"a,b\",1.5,t\n2,,,f\n");
  auto json = Shell({"--format", "json", "-c", "SELECT n, s FROM f ORDER BY n"});
  EXPECT_NE(json.out.find("\"n\":1"), std::string::npos) << json.out;
  EXPECT_NE(json.out.find("\"s\":null"), std::string::npos) << json.out;
}

TEST_F(ShellTest, DescribeCommands) {
  ASSERT_EQ(Shell({"-c",
                   "CREATE TABLE items (id BIGINT PRIMARY KEY, label VARCHAR(20) NOT NULL "
                   "DEFAULT 'none')"})
                .exit_code,
            0);
  auto dt = Shell({"-c", "\\dt"});
  EXPECT_EQ(dt.exit_code, 0) << dt.err;
  EXPECT_NE(dt.out.find("items"), std::string::npos) << dt.out;
  auto d = Shell({"-c", "\\d items"});
  EXPECT_EQ(d.exit_code, 0) << d.err;
  EXPECT_NE(d.out.find("character varying(20)"), std::string::npos) << d.out;
  EXPECT_NE(d.out.find("bigint"), std::string::npos) << d.out;
  EXPECT_NE(d.out.find("'none'"), std::string::npos) << d.out;
  // Indexes in \d (psql's footer) and \di.
  ASSERT_EQ(Shell({"-c", "CREATE UNIQUE INDEX items_label ON items (label DESC)"}).exit_code, 0);
  d = Shell({"-c", "\\d items"});
  EXPECT_NE(d.out.find("Indexes:\n    \"items_pkey\" PRIMARY KEY, btree (id)\n"
                       "    \"items_label\" UNIQUE, btree (label DESC)\n"),
            std::string::npos)
      << d.out;
  auto di = Shell({"-c", "\\di"});
  EXPECT_EQ(di.exit_code, 0) << di.err;
  EXPECT_NE(di.out.find(" items_label | index | items\n"), std::string::npos) << di.out;
  EXPECT_NE(di.out.find(" items_pkey  | index | items\n"), std::string::npos) << di.out;
}

TEST(ShellNoServer, ConnectionFailureExits2) {
  auto r = RunBinary(
      "meridian", {"--host", "127.0.0.1", "--port", std::to_string(FreePort()), "-c", "SELECT 1"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("could not connect"), std::string::npos) << r.err;
}

TEST(ShellRestart, HundredThousandRowsFromAFileSurviveARestart) {
  TempDir dir;
  std::string data = dir.path() + "/data", file = dir.path() + "/load.sql";
  {
    std::ofstream f(file);
    f << "CREATE TABLE load (id INTEGER PRIMARY KEY, name TEXT, score DOUBLE PRECISION);\n";
    for (int i = 1; i <= 100000; ++i) {
      f << "INSERT INTO load VALUES (" << i << ", 'name-" << i << "', " << i << ".5);\n";
    }
  }
  {
    // Asynchronous commit: the test is about the file's 100,000 statements reaching the table
    // and a clean stop keeping them, not about 100,000 fdatasyncs (which took most of its time).
    Daemon d(data, {"--commit-mode", "async"});
    ASSERT_TRUE(d.started()) << d.Log();
    auto r = RunBinary("meridian", With(Conn(d), {"-f", file}), "", std::chrono::seconds(600));
    ASSERT_EQ(r.exit_code, 0) << r.err.substr(0, 2000) << "\ndaemon log:\n" << d.Log();
    EXPECT_EQ(d.Stop(SIGTERM), 0);
  }
  Daemon d(data);
  ASSERT_TRUE(d.started()) << d.Log();
  auto r = RunBinary("meridian", With(Conn(d), {"--format", "csv", "-c",
                                                "SELECT id, name, score FROM load ORDER BY id"}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  size_t lines = std::count(r.out.begin(), r.out.end(), '\n');
  EXPECT_EQ(lines, 100001u);  // header + rows
  EXPECT_EQ(r.out.rfind("id,name,score\n1,name-1,1.5\n2,name-2,2.5\n", 0), 0u)
      << r.out.substr(0, 80);
  EXPECT_NE(r.out.find("\n100000,name-100000,100000.5\n"), std::string::npos);
}

}  // namespace
}  // namespace meridian::e2e
