// Tests of the shell: option parsing, and whole runs (-c, -f, stdin, backslash commands, exit
// codes) against the in-process fake server.
#include "shell/shell.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>

#include "fake_sql_server.h"

namespace meridian::shell {
namespace {

using meridian::testing::FakeSqlServer;

EnvLookup NoEnv() {
  return [](const std::string&) -> std::optional<std::string> { return std::nullopt; };
}

TEST(ShellOptionsTest, DefaultsFlagsAndEnv) {
  ShellOptions o;
  ASSERT_FALSE(ParseShellOptions({}, NoEnv(), &o));
  EXPECT_EQ(o.host, "127.0.0.1");
  EXPECT_EQ(o.port, 7432);
  EXPECT_EQ(o.format, OutputFormat::kAligned);

  ShellOptions e;
  EnvLookup env = [](const std::string& n) -> std::optional<std::string> {
    if (n == "MERIDIAN_HOST") return "db.example";
    if (n == "MERIDIAN_PORT") return "9000";
    return std::nullopt;
  };
  ASSERT_FALSE(ParseShellOptions({"-c", "select 1", "--port=9100", "-f", "x.sql", "-c", "select 2",
                                  "--format", "json", "--user", "bob", "-d", "db"},
                                 env, &e));
  EXPECT_EQ(e.host, "db.example");
  EXPECT_EQ(e.port, 9100);
  EXPECT_EQ(e.format, OutputFormat::kJson);
  EXPECT_EQ(e.user, "bob");
  EXPECT_EQ(e.dbname, "db");
  ASSERT_EQ(e.actions.size(), 3u);
  EXPECT_EQ(e.actions[0].text, "select 1");
  EXPECT_EQ(e.actions[1].kind, ShellAction::Kind::kFile);
  EXPECT_EQ(e.actions[2].text, "select 2");

  ShellOptions bad;
  EXPECT_TRUE(ParseShellOptions({"--port", "x"}, NoEnv(), &bad));
  EXPECT_TRUE(ParseShellOptions({"--format", "html"}, NoEnv(), &bad));
  EXPECT_TRUE(ParseShellOptions({"-c"}, NoEnv(), &bad));
  EXPECT_TRUE(ParseShellOptions({"--nope"}, NoEnv(), &bad));
}

TEST(ShellOptionsTest, PasswordAndTls) {
  std::map<std::string, std::string> vars = {{"MERIDIAN_PASSWORD_FILE", "/run/secrets/pw"},
                                             {"MERIDIAN_SSLROOTCERT", "/etc/ca.pem"}};
  EnvLookup env = [&vars](const std::string& n) -> std::optional<std::string> {
    auto it = vars.find(n);
    return it == vars.end() ? std::nullopt : std::optional<std::string>(it->second);
  };
  FileReader files = [](const std::string& path) -> std::optional<std::string> {
    if (path == "/run/secrets/pw") return "from file\nsecond line\n";
    return std::nullopt;
  };
  ShellOptions o;
  ASSERT_FALSE(ParseShellOptions({"--sslcert", "c.pem", "--sslkey=k.pem", "--ssl-server-name",
                                  "db.internal"},
                                 env, &o, files));
  EXPECT_EQ(o.password, "from file");  // the first line only
  EXPECT_TRUE(o.tls.enabled);          // a root certificate implies TLS
  EXPECT_EQ(o.tls.ca_file, "/etc/ca.pem");
  EXPECT_EQ(o.tls.cert_file, "c.pem");
  EXPECT_EQ(o.tls.key_file, "k.pem");
  EXPECT_EQ(o.tls.server_name, "db.internal");
  // MERIDIAN_PASSWORD wins over the file; --sslmode disable turns TLS off again.
  vars["MERIDIAN_PASSWORD"] = "direct";
  ShellOptions d;
  ASSERT_FALSE(ParseShellOptions({"--sslmode", "disable"}, env, &d, files));
  EXPECT_EQ(d.password, "direct");
  EXPECT_FALSE(d.tls.enabled);
  ShellOptions r;
  ASSERT_FALSE(ParseShellOptions({"--sslmode", "verify-full"}, NoEnv(), &r, files));
  EXPECT_TRUE(r.tls.enabled);
  EXPECT_TRUE(r.tls.ca_file.empty());  // the system's roots
  ShellOptions bad;
  EXPECT_TRUE(ParseShellOptions({"--sslmode", "prefer"}, NoEnv(), &bad, files));
  vars.erase("MERIDIAN_PASSWORD");
  vars["MERIDIAN_PASSWORD_FILE"] = "/nonexistent";
  auto error = ParseShellOptions({}, env, &bad, files);
  ASSERT_TRUE(error);
  EXPECT_NE(error->find("MERIDIAN_PASSWORD_FILE"), std::string::npos) << *error;
}

struct RunResult {
  int code;
  std::string out;
  std::string err;
};

RunResult RunShell(int port, std::vector<std::string> args, const std::string& input = "") {
  ShellOptions options;
  auto error = ParseShellOptions(args, NoEnv(), &options);
  EXPECT_FALSE(error) << *error;
  options.port = port;
  std::istringstream in(input);
  std::ostringstream out;
  std::ostringstream err;
  Shell shell(options, in, out, err);
  int code = shell.Run(false);
  return {code, out.str(), err.str()};
}

TEST(ShellTest, CommandsRunInOrder) {
  FakeSqlServer server;
  RunResult r = RunShell(server.port(), {"-c", "select 1", "-c", "notice"});
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.out, " ?column? \n----------\n        1\n(1 row)\n\nDROP TABLE\n");
  EXPECT_EQ(r.err, "NOTICE:  table \"t\" does not exist, skipping\n");
}

TEST(ShellTest, ErrorStopsAndExitsOne) {
  FakeSqlServer server;
  RunResult r = RunShell(server.port(), {"-c", "bad", "-c", "select 1"});
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err,
            "ERROR:  42601: syntax error at or near \"bad\"\n"
            "LINE 1: bad\n"
            "        ^\n"
            "DETAIL:  some detail\n"
            "HINT:  some hint\n");
}

TEST(ShellTest, StdinStatementsStopAtFirstError) {
  FakeSqlServer server;
  RunResult r = RunShell(server.port(), {"--format", "csv"}, "select 1;\nbad;\nselect 1;\n");
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.out, "?column?\n1\n");  // the third statement did not run
  EXPECT_EQ(r.err.substr(0, r.err.find("DETAIL")),
            "ERROR:  42601: syntax error at or near \"bad\"\nLINE 1: bad;\n        ^\n");
}

TEST(ShellTest, FileAndUnterminatedLastStatement) {
  FakeSqlServer server;
  std::string path = ::testing::TempDir() + "/meridian_shell_test.sql";
  {
    std::ofstream f(path);
    f << "-- a script\n\\timing off\nselect 1;\nselect 1";
  }
  RunResult r = RunShell(server.port(), {"--format", "json", "-f", path});
  std::remove(path.c_str());
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.out, "Timing is off.\n[{\"?column?\":1}]\n[{\"?column?\":1}]\n");
  RunResult missing = RunShell(server.port(), {"-f", "/nonexistent/x.sql"});
  EXPECT_EQ(missing.code, 1);
}

TEST(ShellTest, BackslashCommands) {
  FakeSqlServer server;
  RunResult r = RunShell(server.port(), {}, "\\dt\n\\d T\n\\?\n\\q\nselect 1;\n");
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find(" t    | table |       2\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Primary key: (a)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\\timing [on|off]"), std::string::npos);
  EXPECT_EQ(r.out.find("?column?"), std::string::npos);  // \q stopped before select 1

  RunResult missing = RunShell(server.port(), {"-c", "\\d nope"});
  EXPECT_EQ(missing.code, 1);
  EXPECT_EQ(missing.err, "Did not find any relation named \"nope\".\n");
  RunResult invalid = RunShell(server.port(), {"-c", "\\bogus"});
  EXPECT_EQ(invalid.code, 1);
  EXPECT_EQ(invalid.err, "invalid command \\bogus\nTry \\? for help.\n");
}

TEST(ShellTest, Timing) {
  FakeSqlServer server;
  RunResult r = RunShell(server.port(), {}, "\\timing on\nselect 1;\n");
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("Timing is on.\n"), std::string::npos);
  EXPECT_NE(r.out.find("(1 row)\n\nTime: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(" ms\n"), std::string::npos);
}

TEST(ShellTest, ConnectionFailureExitsTwo) {
  int port;
  {
    FakeSqlServer server;
    port = server.port();
  }
  RunResult r = RunShell(port, {"-c", "select 1"});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err.rfind("meridian: error: could not connect to server at 127.0.0.1:", 0), 0u)
      << r.err;
}

TEST(ShellTest, LostConnectionExitsTwo) {
  FakeSqlServer server;
  ShellOptions options;
  options.port = server.port();
  std::istringstream in("sleep;\nselect 1;\n");
  std::ostringstream out;
  std::ostringstream err;
  Shell shell(options, in, out, err);
  // Drop the session before the script runs: the first statement reports 08006.
  server.service().DropSessions();
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  int code = shell.Run(false);
  // "sleep" runs until the client notices the session is gone (or fails at once): exit 2.
  EXPECT_EQ(code, 2) << err.str();
}

}  // namespace
}  // namespace meridian::shell
