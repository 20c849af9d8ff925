// End-to-end tests of the PostgreSQL wire protocol listener: the real psql from Debian against a
// real meridiand (round trips, NULLs, errors with LINE/caret, several statements, empty queries,
// TLS with sslmode=require, SCRAM-SHA-256 and cleartext password authentication), and a raw
// protocol client for what psql cannot provoke: malformed and truncated messages, absurd
// lengths, unknown message types, garbage, CancelRequest, the extended protocol, SCRAM misuse.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>

#include "daemon_harness.h"
#include "pg_auth.h"

namespace meridian::e2e {
namespace {

constexpr const char* kPsql = "/usr/bin/psql";

std::string ShellQuote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') {
      out.append("'\\''");
    } else {
      out.push_back(c);
    }
  }
  out.push_back('\'');
  return out;
}

// A backend message as the raw client reads it.
struct PgMessage {
  char type = 0;
  std::string body;
};

// A minimal protocol v3 client over a blocking loopback socket with read timeouts.
class RawPg {
 public:
  explicit RawPg(int port) {
    fd_ = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<uint16_t>(port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) {
      close(fd_);
      fd_ = -1;
    }
  }
  ~RawPg() {
    if (fd_ >= 0) close(fd_);
  }
  bool ok() const { return fd_ >= 0; }
  void CloseWrite() { shutdown(fd_, SHUT_WR); }

  bool SendRaw(const std::string& bytes) {
    return ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL) ==
           static_cast<ssize_t>(bytes.size());
  }
  static std::string Int32(uint32_t v) {
    std::string s(4, '\0');
    for (int i = 0; i < 4; ++i) s[i] = static_cast<char>((v >> (24 - 8 * i)) & 0xFF);
    return s;
  }
  static std::string Int16(uint16_t v) {
    return std::string{static_cast<char>(v >> 8), static_cast<char>(v & 0xFF)};
  }
  bool Send(char type, const std::string& body) {
    std::string m(1, type);
    m.append(Int32(static_cast<uint32_t>(body.size() + 4))).append(body);
    return SendRaw(m);
  }
  static std::string StartupPacket(const std::string& user) {
    std::string body = Int32(196608);
    body.append("user").push_back('\0');
    body.append(user).push_back('\0');
    body.append("database").push_back('\0');
    body.append("meridian").push_back('\0');
    body.push_back('\0');
    return Int32(static_cast<uint32_t>(body.size() + 4)) + body;
  }
  bool Startup() {
    if (!SendRaw(StartupPacket("meridian"))) return false;
    auto msgs = ReadUntil('Z');
    for (const auto& m : msgs) {
      if (m.type == 'K' && m.body.size() == 8) {
        pid_ = ReadInt32(m.body, 0);
        secret_ = ReadInt32(m.body, 4);
      }
      if (m.type == 'S') parameters_.push_back(m.body);
    }
    return !msgs.empty() && msgs.back().type == 'Z';
  }
  bool Query(const std::string& sql) {
    std::string body = sql;
    body.push_back('\0');
    return Send('Q', body);
  }

  // Reads n bytes; false on EOF, error or timeout.
  bool ReadBytes(char* p, size_t n, int timeout_ms) {
    while (n > 0) {
      pollfd pfd{fd_, POLLIN, 0};
      if (poll(&pfd, 1, timeout_ms) <= 0) return false;
      ssize_t r = ::recv(fd_, p, n, 0);
      if (r <= 0) return false;
      p += r;
      n -= static_cast<size_t>(r);
    }
    return true;
  }
  std::optional<PgMessage> Read(int timeout_ms = 30'000) {
    char header[5];
    if (!ReadBytes(header, 5, timeout_ms)) return std::nullopt;
    PgMessage m;
    m.type = header[0];
    uint32_t len = static_cast<uint32_t>(ReadInt32(std::string(header + 1, 4), 0));
    if (len < 4 || len > (1u << 26)) return std::nullopt;
    m.body.resize(len - 4);
    if (!ReadBytes(m.body.data(), m.body.size(), timeout_ms)) return std::nullopt;
    return m;
  }
  // Messages up to and including the first of type `until` (or up to EOF/timeout).
  std::vector<PgMessage> ReadUntil(char until, int timeout_ms = 60'000) {
    std::vector<PgMessage> out;
    while (auto m = Read(timeout_ms)) {
      out.push_back(*m);
      if (m->type == until) break;
    }
    return out;
  }
  // True when the server closed the connection (EOF) within the timeout.
  bool ClosedByServer(int timeout_ms = 10'000) {
    char c;
    pollfd pfd{fd_, POLLIN, 0};
    if (poll(&pfd, 1, timeout_ms) <= 0) return false;
    while (::recv(fd_, &c, 1, 0) > 0) {
    }
    return true;
  }

  static int32_t ReadInt32(const std::string& s, size_t at) {
    uint32_t v = 0;
    for (size_t i = 0; i < 4; ++i) v = (v << 8) | static_cast<uint8_t>(s[at + i]);
    return static_cast<int32_t>(v);
  }
  // Field `code` of an ErrorResponse/NoticeResponse body.
  static std::string Field(const PgMessage& m, char code) {
    size_t i = 0;
    while (i < m.body.size() && m.body[i] != '\0') {
      char c = m.body[i++];
      size_t end = m.body.find('\0', i);
      if (end == std::string::npos) return "";
      if (c == code) return m.body.substr(i, end - i);
      i = end + 1;
    }
    return "";
  }

  int32_t pid() const { return pid_; }
  int32_t secret() const { return secret_; }
  const std::vector<std::string>& parameters() const { return parameters_; }

 private:
  int fd_ = -1;
  int32_t pid_ = 0, secret_ = 0;
  std::vector<std::string> parameters_;
};

std::string Types(const std::vector<PgMessage>& msgs) {
  std::string s;
  for (const auto& m : msgs) s.push_back(m.type);
  return s;
}

const PgMessage* Find(const std::vector<PgMessage>& msgs, char type) {
  for (const auto& m : msgs) {
    if (m.type == type) return &m;
  }
  return nullptr;
}

// Runs psql with a libpq connection string (and PGPASSWORD when password is set).
ProcessResult RunPsql(const std::string& conninfo, const std::vector<std::string>& args,
                      const std::string& password = "") {
  TempDir io;
  std::string cmd = "timeout 120 env PGCONNECT_TIMEOUT=20 ";
  if (!password.empty()) cmd.append("PGPASSWORD=").append(ShellQuote(password)).append(" ");
  cmd.append(kPsql).append(" ").append(ShellQuote(conninfo)).append(" -X -q -w");
  for (const auto& a : args) cmd.append(" ").append(ShellQuote(a));
  cmd.append(" </dev/null >").append(io.path()).append("/out 2>").append(io.path());
  cmd.append("/err");
  int rc = std::system(cmd.c_str());
  ProcessResult r;
  r.exit_code = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
  std::stringstream out, err;
  out << std::ifstream(io.path() + "/out").rdbuf();
  err << std::ifstream(io.path() + "/err").rdbuf();
  r.out = out.str();
  r.err = err.str();
  return r;
}

std::string ConnInfo(int port, const std::string& user, const std::string& extra = "") {
  std::string s =
      "host=127.0.0.1 port=" + std::to_string(port) + " user=" + user + " dbname=meridian";
  if (!extra.empty()) s.append(" ").append(extra);
  return s;
}

class PgWireTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    pg_port_ = FreePort();
    daemon_ = new Daemon(dir_->path() + "/data",
                         {"--pg-listen", "127.0.0.1:" + std::to_string(pg_port_)});
  }
  static void TearDownTestSuite() {
    EXPECT_EQ(daemon_->Stop(SIGTERM), 0) << daemon_->Log();
    delete daemon_;
    delete dir_;
  }
  void SetUp() override { ASSERT_TRUE(daemon_->started()) << daemon_->Log(); }

  // Runs psql against the daemon with args; stdout and stderr separately.
  static ProcessResult Psql(const std::vector<std::string>& args) {
    return RunPsql(ConnInfo(pg_port_, "meridian"), args);
  }
  static ProcessResult PsqlC(const std::string& sql) { return Psql({"-A", "-t", "-c", sql}); }

  static TempDir* dir_;
  static Daemon* daemon_;
  static int pg_port_;
};
TempDir* PgWireTest::dir_ = nullptr;
Daemon* PgWireTest::daemon_ = nullptr;
int PgWireTest::pg_port_ = 0;

TEST_F(PgWireTest, PsqlRoundTrip) {
  auto r = PsqlC(
      "CREATE TABLE rt (a INTEGER, b TEXT, c VARCHAR(10), d DOUBLE PRECISION, "
      "e BOOLEAN, f BIGINT)");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = PsqlC(
      "INSERT INTO rt VALUES (1, 'one', 'uno', 1.5, true, 9000000000), "
      "(2, 'two', 'dos', -0.25, false, -1)");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = PsqlC("SELECT a, b, c, d, e, f FROM rt ORDER BY a");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "1|one|uno|1.5|t|9000000000\n2|two|dos|-0.25|f|-1\n");
  // Aligned output with headers, as a person sees it.
  r = Psql({"-c", "SELECT a, b FROM rt ORDER BY a"});
  EXPECT_EQ(r.out, " a |  b  \n---+-----\n 1 | one\n 2 | two\n(2 rows)\n\n");
}

TEST_F(PgWireTest, NullsAreNulls) {
  ASSERT_EQ(PsqlC("CREATE TABLE nn (a INTEGER, b TEXT)").exit_code, 0);
  ASSERT_EQ(PsqlC("INSERT INTO nn VALUES (1, NULL), (NULL, ''), (3, 'x')").exit_code, 0);
  auto r = Psql({"-A", "-t", "-P", "null=<null>", "-c", "SELECT a, b FROM nn ORDER BY a"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "1|<null>\n3|x\n<null>|\n");
}

TEST_F(PgWireTest, SyntaxErrorShowsLineAndCaret) {
  auto r = Psql({"-v", "ON_ERROR_STOP=1", "-c", "SELEC 1"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("ERROR:  syntax error at or near \"SELEC\""), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("LINE 1: SELEC 1\n        ^"), std::string::npos) << r.err;
}

TEST_F(PgWireTest, SeveralStatementsInOneQuery) {
  auto r = PsqlC(
      "CREATE TABLE ms (a INTEGER); INSERT INTO ms VALUES (1), (2); "
      "SELECT count(*) FROM ms; SELECT 40 + 2");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "2\n42\n");
  // An error stops the rest; what ran before it stays done (autocommit).
  r = PsqlC("INSERT INTO ms VALUES (3); SELECT * FROM nope; INSERT INTO ms VALUES (4)");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("relation \"nope\" does not exist"), std::string::npos) << r.err;
  EXPECT_EQ(PsqlC("SELECT count(*) FROM ms").out, "3\n");
}

TEST_F(PgWireTest, ScriptWithOnErrorStop) {
  TempDir dir;
  std::string path = dir.path() + "/script.sql";
  std::ofstream(path) << "CREATE TABLE sc (a INTEGER);\nINSERT INTO sc VALUES (7);\n"
                         "SELECT a FROM sc;\nSELECT * FROM missing;\nSELECT 99;\n";
  auto r = Psql({"-A", "-t", "-v", "ON_ERROR_STOP=1", "-f", path});
  EXPECT_EQ(r.exit_code, 3) << r.err
                            << daemon_->Log();  // psql's code for a script stopped by an error
  EXPECT_EQ(r.out, "7\n");
  EXPECT_NE(r.err.find("relation \"missing\" does not exist"), std::string::npos) << r.err;
}

TEST_F(PgWireTest, StartupAndEmptyQuery) {
  RawPg c(pg_port_);
  ASSERT_TRUE(c.ok());
  // SSLRequest is refused with 'N' and the client continues in the clear.
  ASSERT_TRUE(c.SendRaw(RawPg::Int32(8) + RawPg::Int32(80877103)));
  char answer = 0;
  ASSERT_TRUE(c.ReadBytes(&answer, 1, 10'000));
  EXPECT_EQ(answer, 'N');
  ASSERT_TRUE(c.Startup());
  bool version = false;
  for (const auto& p : c.parameters()) version |= p.rfind("server_version", 0) == 0;
  EXPECT_TRUE(version);
  EXPECT_NE(c.pid(), 0);
  ASSERT_TRUE(c.Query(""));
  EXPECT_EQ(Types(c.ReadUntil('Z')), "IZ");
  ASSERT_TRUE(c.Query("SELECT 1; ; SELECT 2"));
  EXPECT_EQ(Types(c.ReadUntil('Z')), "TDCTDCZ");
  ASSERT_TRUE(c.Send('X', ""));
  EXPECT_TRUE(c.ClosedByServer());
}

TEST_F(PgWireTest, MalformedInputNeverCrashesTheDaemon) {
  {  // Not PostgreSQL at all: an HTTP request is an absurd startup length.
    RawPg c(pg_port_);
    ASSERT_TRUE(c.SendRaw("GET / HTTP/1.1\r\nHost: x\r\n\r\n"));
    auto m = c.Read(10'000);
    if (m) {
      EXPECT_EQ(m->type, 'E');
      EXPECT_EQ(RawPg::Field(*m, 'C'), "08P01");
    }
    EXPECT_TRUE(c.ClosedByServer());
  }
  {  // An unsupported protocol version.
    RawPg c(pg_port_);
    std::string body = RawPg::Int32(2u << 16);
    body.append(std::string(4, '\0'));
    ASSERT_TRUE(c.SendRaw(RawPg::Int32(static_cast<uint32_t>(body.size() + 4)) + body));
    auto m = c.Read(10'000);
    ASSERT_TRUE(m.has_value());
    EXPECT_EQ(RawPg::Field(*m, 'C'), "0A000");
    EXPECT_TRUE(c.ClosedByServer());
  }
  {  // A truncated startup packet, then the client goes away.
    RawPg c(pg_port_);
    ASSERT_TRUE(c.SendRaw(RawPg::Int32(100) + RawPg::Int32(196608) + "user"));
    c.CloseWrite();
    EXPECT_TRUE(c.ClosedByServer());
  }
  {  // A startup packet without the terminating NUL.
    RawPg c(pg_port_);
    std::string body = RawPg::Int32(196608) + "user";
    ASSERT_TRUE(c.SendRaw(RawPg::Int32(static_cast<uint32_t>(body.size() + 4)) + body));
    auto m = c.Read(10'000);
    ASSERT_TRUE(m.has_value());
    EXPECT_EQ(RawPg::Field(*m, 'C'), "08P01");
    EXPECT_TRUE(c.ClosedByServer());
  }
  {  // An absurd message length after startup.
    RawPg c(pg_port_);
    ASSERT_TRUE(c.Startup());
    ASSERT_TRUE(c.SendRaw(std::string("Q") + RawPg::Int32(0x7FFFFFF0u)));
    auto m = c.Read(10'000);
    ASSERT_TRUE(m.has_value());
    EXPECT_EQ(m->type, 'E');
    EXPECT_EQ(RawPg::Field(*m, 'C'), "08P01");
    EXPECT_TRUE(c.ClosedByServer());
  }
  {  // A length below the minimum.
    RawPg c(pg_port_);
    ASSERT_TRUE(c.Startup());
    ASSERT_TRUE(c.SendRaw(std::string("Q") + RawPg::Int32(2)));
    auto m = c.Read(10'000);
    ASSERT_TRUE(m.has_value());
    EXPECT_EQ(RawPg::Field(*m, 'C'), "08P01");
    EXPECT_TRUE(c.ClosedByServer());
  }
  {  // An unknown message type.
    RawPg c(pg_port_);
    ASSERT_TRUE(c.Startup());
    ASSERT_TRUE(c.Send('Y', "hello"));
    auto m = c.Read(10'000);
    ASSERT_TRUE(m.has_value());
    EXPECT_EQ(m->type, 'E');
    EXPECT_EQ(RawPg::Field(*m, 'C'), "08P01");
    EXPECT_TRUE(c.ClosedByServer());
  }
  {  // A Query whose text is not NUL-terminated.
    RawPg c(pg_port_);
    ASSERT_TRUE(c.Startup());
    ASSERT_TRUE(c.Send('Q', "SELECT 1"));
    auto m = c.Read(10'000);
    ASSERT_TRUE(m.has_value());
    EXPECT_EQ(RawPg::Field(*m, 'C'), "08P01");
    EXPECT_TRUE(c.ClosedByServer());
  }
  {  // A message cut off in the middle, then the client disconnects.
    RawPg c(pg_port_);
    ASSERT_TRUE(c.Startup());
    ASSERT_TRUE(c.SendRaw(std::string("Q") + RawPg::Int32(1000) + "SELECT"));
    c.CloseWrite();
    EXPECT_TRUE(c.ClosedByServer());
  }
  // Another client stays connected through all of the above and the garbage below.
  RawPg bystander(pg_port_);
  ASSERT_TRUE(bystander.Startup());
  for (uint32_t seed : {12345u, 777u, 4242u}) {  // Random bytes after startup.
    RawPg c(pg_port_);
    ASSERT_TRUE(c.Startup());
    std::string junk;
    uint32_t x = seed;
    for (int i = 0; i < 4096; ++i) {
      x = x * 1103515245u + 12345u;
      junk.push_back(static_cast<char>(x >> 16));
    }
    c.SendRaw(junk);
    // The answer, if any, is a FATAL 08P01; then the server closes.
    if (auto m = c.Read(2'000); m && m->type == 'E') {
      EXPECT_EQ(RawPg::Field(*m, 'C'), "08P01");
    }
    c.CloseWrite();
    EXPECT_TRUE(c.ClosedByServer());
  }
  ASSERT_TRUE(bystander.Query("SELECT 'bystander'"));
  EXPECT_EQ(Types(bystander.ReadUntil('Z')), "TDCZ");
  EXPECT_TRUE(daemon_->Alive());
  auto r = PsqlC("SELECT 'still serving'");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "still serving\n");
}

TEST_F(PgWireTest, SslmodeRequireFailsCleanlyWithoutTls) {
  // No certificate configured: SSLRequest gets 'N', and a client that insists gives up.
  auto r = RunPsql(ConnInfo(pg_port_, "meridian", "sslmode=require"), {"-c", "SELECT 1"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("server does not support SSL, but SSL was required"), std::string::npos)
      << r.err;
  // sslmode=prefer falls back to the clear.
  r = RunPsql(ConnInfo(pg_port_, "meridian", "sslmode=prefer"), {"-A", "-t", "-c", "SELECT 3"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "3\n");
  EXPECT_TRUE(daemon_->Alive());
}

TEST_F(PgWireTest, CancelRequestCancelsTheRunningStatement) {
  std::string fill = "CREATE TABLE big (id INTEGER, pad TEXT); INSERT INTO big VALUES (1, '" +
                     std::string(100, 'x') + "');";
  for (int i = 0; i < 13; ++i) {
    fill.append(" INSERT INTO big SELECT id + ")
        .append(std::to_string(1 << i))
        .append(", pad FROM big;");
  }
  auto r = PsqlC(fill);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  RawPg c(pg_port_);
  ASSERT_TRUE(c.Startup());
  // 2^13 x 2^13 rows through a nested loop: far longer than the test waits.
  ASSERT_TRUE(c.Query("SELECT count(*) FROM big a, big b WHERE a.id < b.id"));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  {
    RawPg wrong(pg_port_);  // a wrong secret is ignored
    ASSERT_TRUE(wrong.SendRaw(RawPg::Int32(16) + RawPg::Int32(80877102) +
                              RawPg::Int32(static_cast<uint32_t>(c.pid())) +
                              RawPg::Int32(static_cast<uint32_t>(c.secret()) ^ 1u)));
    EXPECT_TRUE(wrong.ClosedByServer());
  }
  EXPECT_FALSE(c.Read(500).has_value()) << "still running after a wrong cancel key";
  auto start = std::chrono::steady_clock::now();
  RawPg cancel(pg_port_);
  ASSERT_TRUE(cancel.SendRaw(RawPg::Int32(16) + RawPg::Int32(80877102) +
                             RawPg::Int32(static_cast<uint32_t>(c.pid())) +
                             RawPg::Int32(static_cast<uint32_t>(c.secret()))));
  EXPECT_TRUE(cancel.ClosedByServer());
  auto msgs = c.ReadUntil('Z', 20'000);
  const PgMessage* err = Find(msgs, 'E');
  ASSERT_NE(err, nullptr) << Types(msgs);
  EXPECT_EQ(RawPg::Field(*err, 'C'), "57014");
  EXPECT_EQ(RawPg::Field(*err, 'M'), "canceling statement due to user request");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
  // The connection goes on.
  ASSERT_TRUE(c.Query("SELECT 1"));
  EXPECT_EQ(Types(c.ReadUntil('Z')), "TDCZ");
}

TEST_F(PgWireTest, DisconnectMidStatementClosesTheSession) {
  auto r = PsqlC(
      "CREATE TABLE gone (id INTEGER); INSERT INTO gone VALUES (1), (2), (3), (4);"
      "INSERT INTO gone SELECT id + 4 FROM gone; INSERT INTO gone SELECT id + 8 FROM gone;"
      "INSERT INTO gone SELECT id + 16 FROM gone; INSERT INTO gone SELECT id + 32 FROM gone;"
      "INSERT INTO gone SELECT id + 64 FROM gone; INSERT INTO gone SELECT id + 128 FROM gone;"
      "INSERT INTO gone SELECT id + 256 FROM gone; INSERT INTO gone SELECT id + 512 FROM gone;"
      "INSERT INTO gone SELECT id + 1024 FROM gone; INSERT INTO gone SELECT id + 2048 FROM gone");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  {
    RawPg c(pg_port_);
    ASSERT_TRUE(c.Startup());
    ASSERT_TRUE(c.Query("SELECT count(*) FROM gone a, gone b, gone c"));
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
  }  // closes the socket mid-statement
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (daemon_->Log().find("closed: client disconnected") == std::string::npos &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_NE(daemon_->Log().find("closed: client disconnected"), std::string::npos)
      << daemon_->Log();
  EXPECT_EQ(PsqlC("SELECT count(*) FROM gone").out, "4096\n");
}

TEST_F(PgWireTest, ExtendedProtocolWithoutParameters) {
  ASSERT_EQ(PsqlC("CREATE TABLE ext (a INTEGER); INSERT INTO ext VALUES (1), (2), (3)").exit_code,
            0);
  RawPg c(pg_port_);
  ASSERT_TRUE(c.Startup());
  std::string parse("s1\0SELECT a FROM ext ORDER BY a\0", 32);
  parse.append(RawPg::Int16(0));
  std::string bind("p1\0s1\0", 6);
  bind.append(RawPg::Int16(0)).append(RawPg::Int16(0)).append(RawPg::Int16(0));
  std::string execute_two("p1\0", 3);
  execute_two.append(RawPg::Int32(2));
  std::string execute_rest("p1\0", 3);
  execute_rest.append(RawPg::Int32(0));
  ASSERT_TRUE(c.Send('P', parse));
  ASSERT_TRUE(c.Send('B', bind));
  ASSERT_TRUE(c.Send('D', std::string("Pp1\0", 4)));
  ASSERT_TRUE(c.Send('E', execute_two));
  ASSERT_TRUE(c.Send('E', execute_rest));
  ASSERT_TRUE(c.Send('S', ""));
  auto msgs = c.ReadUntil('Z');
  EXPECT_EQ(Types(msgs), "12TDDsDCZ");
  // Describe fetches ahead; an error met there reaches the client at Execute, after the rows
  // before it (a = 1; a = 2 divides by zero), as PostgreSQL streams them.
  std::string failing = std::string("s2") + '\0' + "SELECT 10 / (a - 2) FROM ext" + '\0';
  failing.append(RawPg::Int16(0));
  std::string bind_failing("p2\0s2\0", 6);
  bind_failing.append(RawPg::Int16(0)).append(RawPg::Int16(0)).append(RawPg::Int16(0));
  ASSERT_TRUE(c.Send('P', failing));
  ASSERT_TRUE(c.Send('B', bind_failing));
  ASSERT_TRUE(c.Send('D', std::string("Pp2\0", 4)));
  ASSERT_TRUE(c.Send('E', std::string("p2\0\0\0\0\0", 7)));
  ASSERT_TRUE(c.Send('S', ""));
  msgs = c.ReadUntil('Z');
  ASSERT_EQ(Types(msgs), "12TDEZ");
  EXPECT_EQ(RawPg::Field(msgs[4], 'C'), "22012");
  // Parameters: $1 declared int4, $2 inferred (bigint from the context); Describe statement
  // answers their OIDs; the values come in text and binary format; the result in binary.
  std::string with_param("\0SELECT $1 + 1, $2 * 2::bigint\0", 31);
  with_param.append(RawPg::Int16(1)).append(RawPg::Int32(23));
  std::string bind_params("\0\0", 2);
  bind_params.append(RawPg::Int16(2)).append(RawPg::Int16(0)).append(RawPg::Int16(1));
  bind_params.append(RawPg::Int16(2)).append(RawPg::Int32(2)).append("41");
  bind_params.append(RawPg::Int32(8)).append(std::string(7, '\0')).append("\x05", 1);
  bind_params.append(RawPg::Int16(1)).append(RawPg::Int16(1));  // binary results
  ASSERT_TRUE(c.Send('P', with_param));
  ASSERT_TRUE(c.Send('D', std::string("S\0", 2)));
  ASSERT_TRUE(c.Send('B', bind_params));
  ASSERT_TRUE(c.Send('D', std::string("P\0", 2)));
  ASSERT_TRUE(c.Send('E', std::string("\0\0\0\0\0", 5)));
  ASSERT_TRUE(c.Send('S', ""));
  msgs = c.ReadUntil('Z');
  ASSERT_EQ(Types(msgs), "1tT2TDCZ");
  EXPECT_EQ(msgs[1].body, RawPg::Int16(2) + RawPg::Int32(23) + RawPg::Int32(20));
  EXPECT_EQ(msgs[5].body, RawPg::Int16(2) + RawPg::Int32(4) + RawPg::Int32(42) + RawPg::Int32(8) +
                              RawPg::Int32(0) + RawPg::Int32(10));
  // A Bind with the wrong number of values: 08P01, the error skips to Sync.
  ASSERT_TRUE(c.Send('P', with_param));
  std::string bind_one("\0\0", 2);
  bind_one.append(RawPg::Int16(0)).append(RawPg::Int16(1)).append(RawPg::Int32(1)).append("1");
  bind_one.append(RawPg::Int16(0));
  ASSERT_TRUE(c.Send('B', bind_one));
  ASSERT_TRUE(c.Send('E', std::string("\0\0\0\0\0", 5)));
  ASSERT_TRUE(c.Send('S', ""));
  msgs = c.ReadUntil('Z');
  ASSERT_EQ(Types(msgs), "1EZ");
  EXPECT_EQ(RawPg::Field(msgs[1], 'C'), "08P01");
  EXPECT_EQ(RawPg::Field(msgs[1], 'M'),
            "bind message supplies 1 parameters, but prepared statement \"\" requires 2");
}

// A portal suspended by Execute's row limit keeps reading with its own statement's snapshot
// while its READ COMMITTED transaction runs later statements on newer ones, and garbage
// collection (VACUUM) keeps the versions it still needs: every row, each as it was (PostgreSQL
// answers the same). Before, it read through the transaction's newest snapshot: rows updated
// meanwhile came back changed, and some not at all.
// Parses sql as the unnamed statement, binds it to portal (no parameters, text results) and
// executes up to max_rows rows of it (0: all), then flushes.
bool RunPortal(RawPg& c, const std::string& portal, const std::string& sql, int32_t max_rows) {
  std::string bind = portal + '\0' + '\0';
  bind.append(RawPg::Int16(0)).append(RawPg::Int16(0)).append(RawPg::Int16(0));
  return c.Send('P', std::string(1, '\0') + sql + '\0' + RawPg::Int16(0)) && c.Send('B', bind) &&
         c.Send('E', portal + '\0' + RawPg::Int32(max_rows)) && c.Send('H', "");
}

// Adds the DataRows of msgs (two columns, the second text) to *rows; *all_zero stays true
// while each one's second column is "0".
void CountSecondColumnZero(const std::vector<PgMessage>& msgs, size_t* rows, bool* all_zero) {
  for (const PgMessage& m : msgs) {
    if (m.type != 'D') continue;
    ++*rows;
    // DataRow: int16 count, then (int32 length, bytes) per column.
    const size_t first_len =
        static_cast<size_t>(ntohl(*reinterpret_cast<const uint32_t*>(m.body.data() + 2)));
    const size_t second_at = 2 + 4 + first_len + 4;
    *all_zero = *all_zero && m.body.substr(second_at) == "0";
  }
}

TEST_F(PgWireTest, SuspendedPortalKeepsItsSnapshot) {
  ASSERT_EQ(PsqlC("CREATE TABLE held (id INT PRIMARY KEY, v INT); INSERT INTO held SELECT g, 0 "
                  "FROM generate_series(1, 3000) g")
                .exit_code,
            0);
  RawPg c(pg_port_);
  ASSERT_TRUE(c.Startup());
  ASSERT_TRUE(c.Send('Q', std::string("BEGIN ISOLATION LEVEL READ COMMITTED") + '\0'));
  ASSERT_EQ(Types(c.ReadUntil('Z')), "CZ");
  ASSERT_TRUE(RunPortal(c, "pa", "SELECT id, v FROM held ORDER BY id", 1));
  EXPECT_EQ(Types(c.ReadUntil('s')), "12Ds");
  // Another session changes every row, this one runs a statement on a newer snapshot, and
  // VACUUM collects what it can.
  ASSERT_EQ(PsqlC("UPDATE held SET v = v + 1").exit_code, 0);
  std::string bind_b("pb\0\0", 4);
  bind_b.append(RawPg::Int16(0)).append(RawPg::Int16(0)).append(RawPg::Int16(0));
  ASSERT_TRUE(c.Send('P', std::string(1, '\0') + "SELECT count(*) FROM held WHERE v = 1" + '\0' +
                              RawPg::Int16(0)));
  ASSERT_TRUE(c.Send('B', bind_b));
  ASSERT_TRUE(c.Send('E', std::string("pb\0\0\0\0\0", 7)));
  ASSERT_TRUE(c.Send('H', ""));
  auto counted = c.ReadUntil('C');
  ASSERT_EQ(Types(counted), "12DC");
  EXPECT_NE(counted[2].body.find("3000"), std::string::npos);
  ASSERT_EQ(PsqlC("VACUUM held").exit_code, 0);
  ASSERT_EQ(PsqlC("UPDATE held SET v = v + 1").exit_code, 0);
  ASSERT_EQ(PsqlC("VACUUM held").exit_code, 0);
  ASSERT_TRUE(c.Send('E', std::string("pa\0\0\0\0\0", 7)));
  ASSERT_TRUE(c.Send('S', ""));
  auto rest = c.ReadUntil('Z');
  ASSERT_GE(rest.size(), 2u);
  EXPECT_EQ(rest[rest.size() - 2].type, 'C');
  size_t rows = 1;
  bool all_zero = true;
  CountSecondColumnZero(rest, &rows, &all_zero);
  EXPECT_EQ(rows, 3000u);
  EXPECT_TRUE(all_zero);
  ASSERT_TRUE(c.Send('Q', std::string("COMMIT") + '\0'));
  EXPECT_EQ(Types(c.ReadUntil('Z')), "CZ");
}

// A portal suspended inside a transaction block keeps its command as well as its snapshot:
// the statements its transaction runs before the next fetch (an UPDATE of every row, an
// INSERT) are not seen by it, as in PostgreSQL, while a later statement sees them
// (docs/txn.md "Commands").
TEST_F(PgWireTest, SuspendedPortalDoesNotSeeLaterStatementsOfItsTransaction) {
  ASSERT_EQ(PsqlC("CREATE TABLE heldme (id INT PRIMARY KEY, v INT); INSERT INTO heldme "
                  "SELECT g, 0 FROM generate_series(1, 3000) g")
                .exit_code,
            0);
  RawPg c(pg_port_);
  ASSERT_TRUE(c.Startup());
  ASSERT_TRUE(c.Send('Q', std::string("BEGIN") + '\0'));
  ASSERT_EQ(Types(c.ReadUntil('Z')), "CZ");
  // Rows of this transaction's own, from a statement before the portal's.
  ASSERT_TRUE(c.Send(
      'Q',
      std::string("INSERT INTO heldme SELECT g, 0 FROM generate_series(3001, 4000) g") + '\0'));
  ASSERT_EQ(Types(c.ReadUntil('Z')), "CZ");
  auto run = [&](const std::string& portal, const std::string& sql) {
    return RunPortal(c, portal, sql, 0);
  };
  ASSERT_TRUE(RunPortal(c, "pa", "SELECT id, v FROM heldme ORDER BY id", 1));
  EXPECT_EQ(Types(c.ReadUntil('s')), "12Ds");
  ASSERT_TRUE(run("pb", "UPDATE heldme SET v = v + 1"));
  EXPECT_EQ(Types(c.ReadUntil('C')), "12C");
  ASSERT_TRUE(run("pc", "INSERT INTO heldme SELECT g, 0 FROM generate_series(4001, 4500) g"));
  EXPECT_EQ(Types(c.ReadUntil('C')), "12C");
  ASSERT_TRUE(c.Send('E', std::string("pa\0\0\0\0\0", 7)));
  ASSERT_TRUE(c.Send('H', ""));
  auto rest = c.ReadUntil('C');
  size_t rows = 1;
  bool all_zero = true;
  CountSecondColumnZero(rest, &rows, &all_zero);
  EXPECT_EQ(rows, 4000u);
  EXPECT_TRUE(all_zero);
  ASSERT_TRUE(run("pd", "SELECT count(*), sum(v) FROM heldme"));
  auto counted = c.ReadUntil('C');
  ASSERT_EQ(Types(counted), "12DC");
  EXPECT_NE(counted[2].body.find("4500"), std::string::npos);
  EXPECT_NE(counted[2].body.find("4000"), std::string::npos);
  ASSERT_TRUE(c.Send('S', ""));
  c.ReadUntil('Z');
  ASSERT_TRUE(c.Send('Q', std::string("COMMIT") + '\0'));
  EXPECT_EQ(Types(c.ReadUntil('Z')), "CZ");
}

// interval, timestamptz and time in binary: PostgreSQL's OIDs and send formats (interval: int64
// microseconds, int32 days, int32 months; the others int64 microseconds).
TEST_F(PgWireTest, DateTimeTypesInBinary) {
  RawPg c(pg_port_);
  ASSERT_TRUE(c.Startup());
  std::string parse = std::string("\0", 1) +
                      "SELECT interval '1 day 02:00:00.5' AS a, "
                      "timestamptz '2000-01-01 00:00:01+00' AS b, time '00:00:01' AS c" +
                      '\0';
  parse.append(RawPg::Int16(0));
  std::string bind("\0\0", 2);
  bind.append(RawPg::Int16(0)).append(RawPg::Int16(0));
  bind.append(RawPg::Int16(1)).append(RawPg::Int16(1));  // binary results
  ASSERT_TRUE(c.Send('P', parse));
  ASSERT_TRUE(c.Send('B', bind));
  ASSERT_TRUE(c.Send('D', std::string("P\0", 2)));
  ASSERT_TRUE(c.Send('E', std::string("\0\0\0\0\0", 5)));
  ASSERT_TRUE(c.Send('S', ""));
  auto msgs = c.ReadUntil('Z');
  ASSERT_EQ(Types(msgs), "12TDCZ");
  auto column = [](const char* name, uint32_t oid, uint16_t len) {
    return std::string(name) + '\0' + RawPg::Int32(0) + RawPg::Int16(0) + RawPg::Int32(oid) +
           RawPg::Int16(len) + RawPg::Int32(0xFFFFFFFFu) + RawPg::Int16(1);
  };
  EXPECT_EQ(msgs[2].body,
            RawPg::Int16(3) + column("a", 1186, 16) + column("b", 1184, 8) + column("c", 1083, 8));
  auto int64 = [](uint64_t v) {
    return RawPg::Int32(static_cast<uint32_t>(v >> 32)) + RawPg::Int32(static_cast<uint32_t>(v));
  };
  EXPECT_EQ(msgs[3].body, RawPg::Int16(3) + RawPg::Int32(16) + int64(7200500000ULL) +
                              RawPg::Int32(1) + RawPg::Int32(0) + RawPg::Int32(8) + int64(1000000) +
                              RawPg::Int32(8) + int64(1000000));
}

// uuid and bytea in binary, as pgx and psycopg send and read them: parameters declared uuid
// (2950, its 16 bytes) and bytea (17, the raw bytes, a zero byte among them), results in
// binary (the same bytes back) and in text (uuid_out, bytea's hex form), and a bytea
// parameter of an INSERT read back through the text protocol.
TEST_F(PgWireTest, UuidAndByteaInBinary) {
  ASSERT_EQ(PsqlC("CREATE TABLE bin_types (id uuid PRIMARY KEY, data bytea)").exit_code, 0);
  RawPg c(pg_port_);
  ASSERT_TRUE(c.Startup());
  const std::string uuid_bytes("\xa0\xee\xbc\x99\x9c\x0b\x4e\xf8\xbb\x6d\x6b\xb9\xbd\x38\x0a\x11",
                               16);
  const std::string data("\x00\x01\xff\\'x", 6);
  auto bind_values = [&](int16_t result_format) {
    std::string bind("\0\0", 2);
    bind.append(RawPg::Int16(1)).append(RawPg::Int16(1));  // every parameter in binary
    bind.append(RawPg::Int16(2));
    bind.append(RawPg::Int32(16)).append(uuid_bytes);
    bind.append(RawPg::Int32(static_cast<uint32_t>(data.size()))).append(data);
    bind.append(RawPg::Int16(1)).append(RawPg::Int16(result_format));
    return bind;
  };
  std::string parse = std::string("\0", 1) + "SELECT $1 AS u, $2 AS b, length($2) AS n" + '\0';
  parse.append(RawPg::Int16(2)).append(RawPg::Int32(2950)).append(RawPg::Int32(17));
  ASSERT_TRUE(c.Send('P', parse));
  ASSERT_TRUE(c.Send('B', bind_values(1)));
  ASSERT_TRUE(c.Send('D', std::string("P\0", 2)));
  ASSERT_TRUE(c.Send('E', std::string("\0\0\0\0\0", 5)));
  ASSERT_TRUE(c.Send('S', ""));
  auto msgs = c.ReadUntil('Z');
  ASSERT_EQ(Types(msgs), "12TDCZ");
  auto column = [](const char* name, uint32_t oid, uint16_t len, uint16_t format) {
    return std::string(name) + '\0' + RawPg::Int32(0) + RawPg::Int16(0) + RawPg::Int32(oid) +
           RawPg::Int16(len) + RawPg::Int32(0xFFFFFFFFu) + RawPg::Int16(format);
  };
  EXPECT_EQ(msgs[2].body, RawPg::Int16(3) + column("u", 2950, 16, 1) + column("b", 17, 0xFFFF, 1) +
                              column("n", 23, 4, 1));
  EXPECT_EQ(msgs[3].body, RawPg::Int16(3) + RawPg::Int32(16) + uuid_bytes + RawPg::Int32(6) + data +
                              RawPg::Int32(4) + RawPg::Int32(6));
  // Parse, Bind, Execute, Sync: the messages up to ReadyForQuery.
  auto run = [&](const std::string& parse_body, const std::string& bind_body) {
    EXPECT_TRUE(c.Send('P', parse_body));
    EXPECT_TRUE(c.Send('B', bind_body));
    EXPECT_TRUE(c.Send('E', std::string("\0\0\0\0\0", 5)));
    EXPECT_TRUE(c.Send('S', ""));
    return c.ReadUntil('Z');
  };
  // The same values as text results.
  msgs = run(parse, bind_values(0));
  ASSERT_EQ(Types(msgs), "12DCZ");
  const std::string uuid_text = "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11";
  const std::string data_text = "\\x0001ff5c2778";
  EXPECT_EQ(msgs[2].body, RawPg::Int16(3) + RawPg::Int32(36) + uuid_text + RawPg::Int32(14) +
                              data_text + RawPg::Int32(1) + "6");
  // A bad uuid length in binary is 22P03.
  std::string bad_bind("\0\0", 2);
  bad_bind.append(RawPg::Int16(1)).append(RawPg::Int16(1)).append(RawPg::Int16(2));
  bad_bind.append(RawPg::Int32(3)).append("abc").append(RawPg::Int32(0));
  bad_bind.append(RawPg::Int16(0));
  ASSERT_TRUE(c.Send('P', parse));
  ASSERT_TRUE(c.Send('B', bad_bind));
  ASSERT_TRUE(c.Send('S', ""));
  msgs = c.ReadUntil('Z');
  ASSERT_EQ(Types(msgs), "1EZ");
  EXPECT_EQ(RawPg::Field(msgs[1], 'C'), "22P03");
  // An INSERT with binary parameters, read back as text.
  std::string insert = std::string("\0", 1) + "INSERT INTO bin_types VALUES ($1, $2)" + '\0';
  insert.append(RawPg::Int16(2)).append(RawPg::Int32(2950)).append(RawPg::Int32(17));
  msgs = run(insert, bind_values(0));
  ASSERT_EQ(Types(msgs), "12CZ");
  auto r = PsqlC("SELECT id, data, octet_length(data) FROM bin_types");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, uuid_text + "|" + data_text + "|6\n");
  EXPECT_EQ(PsqlC("DROP TABLE bin_types").exit_code, 0);
}

// A named statement whose table was dropped and created again: if the result columns changed
// type, Bind/Execute is 0A000 "cached plan must not change result type" (PostgreSQL 15; pgx
// then drops its statement cache entry and prepares again) instead of rows the client would
// decode by the old RowDescription; if they did not, it runs against the new table.
TEST_F(PgWireTest, NamedStatementAfterDdlChangingItsResultType) {
  ASSERT_EQ(PsqlC("CREATE TABLE ddl_changed (a INTEGER); INSERT INTO ddl_changed VALUES (1); "
                  "CREATE TABLE ddl_same (a INTEGER); INSERT INTO ddl_same VALUES (1)")
                .exit_code,
            0);
  RawPg c(pg_port_);
  ASSERT_TRUE(c.Startup());
  std::string parse_changed = std::string("changed") + '\0' + "SELECT * FROM ddl_changed" + '\0';
  parse_changed.append(RawPg::Int16(0));
  std::string parse_same = std::string("same") + '\0' + "SELECT a FROM ddl_same" + '\0';
  parse_same.append(RawPg::Int16(0));
  ASSERT_TRUE(c.Send('P', parse_changed));
  ASSERT_TRUE(c.Send('P', parse_same));
  ASSERT_TRUE(c.Send('S', ""));
  ASSERT_EQ(Types(c.ReadUntil('Z')), "11Z");
  ASSERT_EQ(PsqlC("DROP TABLE ddl_changed; CREATE TABLE ddl_changed (a TEXT, b INTEGER); "
                  "INSERT INTO ddl_changed VALUES ('x', 2); DROP TABLE ddl_same; "
                  "CREATE TABLE ddl_same (z TEXT, a INTEGER); INSERT INTO ddl_same VALUES ('y', 7)")
                .exit_code,
            0);
  for (const std::string statement : {"changed", "same"}) {
    std::string bind = std::string("\0", 1) + statement + '\0';
    bind.append(RawPg::Int16(0)).append(RawPg::Int16(0));
    bind.append(RawPg::Int16(1)).append(RawPg::Int16(1));  // binary results, as pgx asks
    ASSERT_TRUE(c.Send('B', bind));
    ASSERT_TRUE(c.Send('E', std::string("\0\0\0\0\0", 5)));
    ASSERT_TRUE(c.Send('S', ""));
  }
  auto msgs = c.ReadUntil('Z');
  ASSERT_EQ(Types(msgs), "2EZ");
  EXPECT_EQ(RawPg::Field(msgs[1], 'C'), "0A000");
  EXPECT_EQ(RawPg::Field(msgs[1], 'M'), "cached plan must not change result type");
  msgs = c.ReadUntil('Z');
  ASSERT_EQ(Types(msgs), "2DCZ");
  EXPECT_EQ(msgs[1].body, RawPg::Int16(1) + RawPg::Int32(4) + RawPg::Int32(7));
  // psql's \dt output in PsqlDescribeCommands must not see these tables.
  EXPECT_EQ(PsqlC("DROP TABLE ddl_changed; DROP TABLE ddl_same").exit_code, 0);
}

// ---- What psql itself asks: SET/SHOW, version(), catalog queries of \dt, \di, \d, COPY ----

TEST_F(PgWireTest, SetShowAndVersion) {
  auto r = PsqlC("SHOW server_version; SELECT version(); SHOW DateStyle");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("15.0 (Meridian ", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("\nPostgreSQL 15.0 (Meridian "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\nISO, MDY\n"), std::string::npos) << r.out;
  r = PsqlC(
      "SET statement_timeout = 5000; SHOW statement_timeout; RESET statement_timeout; "
      "SHOW statement_timeout; SET TIME ZONE 'UTC'; SHOW TimeZone");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "5s\n0\nUTC\n");
  // SHOW's column is named after the parameter; psql prints it as the header.
  r = Psql({"-c", "SHOW datestyle"});
  EXPECT_EQ(r.out.rfind(" DateStyle \n", 0), 0u) << r.out;
  r = Psql({"-v", "ON_ERROR_STOP=1", "-c", "SET no_such = 1"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("ERROR:  unrecognized configuration parameter \"no_such\""),
            std::string::npos)
      << r.err;
  r = Psql({"-v", "ON_ERROR_STOP=1", "-c", "SET client_encoding = 'LATIN1'"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("client_encoding \"LATIN1\" is not supported"), std::string::npos) << r.err;
  // psql's \encoding and \set show what ParameterStatus told it.
  r = Psql({"-A", "-t", "-c", "\\encoding", "-c", "SET application_name = 'after'", "-c",
            "SELECT current_setting('application_name')"});
  EXPECT_EQ(r.out, "UTF8\nafter\n") << r.err;
}

TEST_F(PgWireTest, PsqlDescribeCommands) {
  ASSERT_EQ(PsqlC("CREATE TABLE dt_city (id INTEGER PRIMARY KEY, name VARCHAR(20) NOT NULL "
                  "DEFAULT 'x', pop BIGINT UNIQUE); CREATE INDEX dt_city_pop ON dt_city (pop "
                  "DESC)")
                .exit_code,
            0);
  auto r = Psql({"-c", "\\dt"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("List of relations"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(" public | dt_city | table | meridian"), std::string::npos) << r.out;
  r = Psql({"-c", "\\di"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find(" public | dt_city_pkey    | index | meridian | dt_city"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find(" public | dt_city_pop     | index | meridian | dt_city"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find(" public | dt_city_pop_key | index | meridian | dt_city"), std::string::npos)
      << r.out;
  r = Psql({"-c", "\\dt nosuch"});
  EXPECT_NE(r.out.find("(0 rows)"), std::string::npos) << r.out << r.err;
  r = Psql({"-c", "\\d nosuch"});  // psql -q keeps "Did not find any relation" to itself
  EXPECT_EQ(r.out, "");
  // \d t runs psql's catalog queries, arrays included (= ANY (array), ARRAY(subquery),
  // unnest and generate_series in FROM); tests/e2e/pg_clients/psql_describe compares the
  // whole output with PostgreSQL's.
  r = Psql({"-c", "\\d dt_city"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_NE(r.out.find("Table \"public.dt_city\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"dt_city_pkey\" PRIMARY KEY, btree (id)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"dt_city_pop\" btree (pop DESC)"), std::string::npos) << r.out;
  // Its column and index queries on their own.
  r = PsqlC(
      "SELECT a.attname, pg_catalog.format_type(a.atttypid, a.atttypmod), a.attnotnull, "
      "(SELECT pg_catalog.pg_get_expr(d.adbin, d.adrelid, true) FROM pg_catalog.pg_attrdef d "
      "WHERE d.adrelid = a.attrelid AND d.adnum = a.attnum AND a.atthasdef) "
      "FROM pg_catalog.pg_attribute a WHERE a.attrelid = 'dt_city'::pg_catalog.regclass "
      "AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "id|integer|t|\nname|character varying(20)|t|'x'::character varying\npop|bigint|f|\n");
  r = PsqlC(
      "SELECT c2.relname, i.indisprimary, i.indisunique, pg_catalog.pg_get_indexdef(i.indexrelid, "
      "0, true), pg_catalog.pg_get_constraintdef(con.oid, true) FROM pg_catalog.pg_class c, "
      "pg_catalog.pg_class c2, pg_catalog.pg_index i LEFT JOIN pg_catalog.pg_constraint con ON "
      "(conrelid = i.indrelid AND conindid = i.indexrelid AND contype IN ('p','u','x')) WHERE "
      "c.oid = 'dt_city'::regclass AND c.oid = i.indrelid AND i.indexrelid = c2.oid ORDER BY "
      "i.indisprimary DESC, c2.relname");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "dt_city_pkey|t|t|CREATE UNIQUE INDEX dt_city_pkey ON dt_city USING btree "
            "(id)|PRIMARY KEY (id)\n"
            "dt_city_pop|f|f|CREATE INDEX dt_city_pop ON dt_city USING btree (pop DESC)|\n"
            "dt_city_pop_key|f|t|CREATE UNIQUE INDEX dt_city_pop_key ON dt_city USING "
            "btree (pop)|UNIQUE (pop)\n");
  // System tables are read-only.
  r = PsqlC("DELETE FROM pg_class");
  EXPECT_NE(r.err.find("is a system catalog"), std::string::npos) << r.err;
}

TEST_F(PgWireTest, PsqlCopyRoundTrip) {
  ASSERT_EQ(PsqlC("CREATE TABLE cp_t (id INTEGER, txt TEXT)").exit_code, 0);
  TempDir io;
  const std::string in = io.path() + "/in.tsv", out = io.path() + "/out.tsv";
  std::ofstream(in) << "1\tone\n2\t\\N\n3\ttab\\there\n";
  auto r = Psql({"-c", "\\copy cp_t FROM '" + in + "'"});
  ASSERT_EQ(r.exit_code, 0) << r.err;  // psql -q does not print "COPY 3"
  r = Psql({"-P", "null=<null>", "-A", "-t", "-c", "SELECT id, txt FROM cp_t ORDER BY id"});
  EXPECT_EQ(r.out, "1|one\n2|<null>\n3|tab\there\n");
  r = Psql({"-c", "\\copy cp_t TO '" + out + "' WITH (FORMAT csv)"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::stringstream got;
  got << std::ifstream(out).rdbuf();
  EXPECT_EQ(got.str(), "1,one\n2,\n3,tab\there\n");
  // A bad line: the error names the line, nothing is inserted.
  std::ofstream(in) << "4\tfour\nfive\tfive\n";
  r = Psql({"-c", "\\copy cp_t FROM '" + in + "'"});
  EXPECT_NE(r.err.find("invalid input syntax for type integer: \"five\""), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("CONTEXT:  COPY cp_t, line 2, column id: \"five\""), std::string::npos)
      << r.err;
  EXPECT_EQ(PsqlC("SELECT count(*) FROM cp_t").out, "3\n");
}

// ---- TLS and password authentication --------------------------------------------------------

// A daemon with a self-signed certificate (made by the openssl CLI), a users file and
// SCRAM-SHA-256: "meridian" has a plaintext password, "alice" a SCRAM verifier.
class PgSecureTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    std::string cmd =
        "openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=localhost -keyout " +
        dir_->path() + "/key.pem -out " + dir_->path() + "/cert.pem >/dev/null 2>&1";
    cert_ok_ = std::system(cmd.c_str()) == 0;
    std::ofstream(dir_->path() + "/users")
        << "# test users\nmeridian:s3cret:x\nalice:"
        << server::pgwire::FormatScramVerifier(
               server::pgwire::MakeScramVerifier("wonderland", "0123456789abcdef", 4096))
        << "\n";
    pg_port_ = FreePort();
    daemon_ = new Daemon(dir_->path() + "/data",
                         {"--pg-listen", "127.0.0.1:" + std::to_string(pg_port_), "--tls-cert",
                          dir_->path() + "/cert.pem", "--tls-key", dir_->path() + "/key.pem",
                          "--users-file", dir_->path() + "/users"});
  }
  static void TearDownTestSuite() {
    EXPECT_EQ(daemon_->Stop(SIGTERM), 0) << daemon_->Log();
    delete daemon_;
    delete dir_;
  }
  void SetUp() override {
    ASSERT_TRUE(cert_ok_) << "openssl could not make a certificate";
    ASSERT_TRUE(daemon_->started()) << daemon_->Log();
  }

  static TempDir* dir_;
  static Daemon* daemon_;
  static int pg_port_;
  static bool cert_ok_;
};
TempDir* PgSecureTest::dir_ = nullptr;
Daemon* PgSecureTest::daemon_ = nullptr;
int PgSecureTest::pg_port_ = 0;
bool PgSecureTest::cert_ok_ = false;

TEST_F(PgSecureTest, SslmodeRequireRunsTheProtocolOverTls) {
  auto r = RunPsql(ConnInfo(pg_port_, "meridian", "sslmode=require"),
                   {"-c", "\\conninfo", "-A", "-t", "-c", "SELECT 40 + 2"}, "s3cret:x");
  ASSERT_EQ(r.exit_code, 0) << r.err << daemon_->Log();
  EXPECT_NE(r.out.find("SSL connection (protocol: TLSv1."), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("42\n"), std::string::npos) << r.out;
  // The certificate checks out against itself as the CA.
  r = RunPsql(
      ConnInfo(pg_port_, "alice", "sslmode=verify-ca sslrootcert=" + dir_->path() + "/cert.pem"),
      {"-A", "-t", "-c",
       "CREATE TABLE tls_t (a INTEGER, b TEXT); INSERT INTO tls_t "
       "VALUES (1, 'x'); SELECT b FROM tls_t"},
      "wonderland");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "x\n");
  // Clients that do not ask for TLS still get in.
  r = RunPsql(ConnInfo(pg_port_, "meridian", "sslmode=disable"), {"-A", "-t", "-c", "SELECT 7"},
              "s3cret:x");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "7\n");
}

TEST_F(PgSecureTest, ScramRejectsWrongPasswordsAndUnknownUsersAlike) {
  for (auto [user, password] : std::vector<std::pair<std::string, std::string>>{
           {"meridian", "s3cret"}, {"alice", "wonder"}, {"mallory", "s3cret:x"}}) {
    auto r = RunPsql(ConnInfo(pg_port_, user), {"-c", "SELECT 1"}, password);
    EXPECT_EQ(r.exit_code, 2) << user;
    EXPECT_NE(r.err.find("FATAL:  password authentication failed for user \"" + user + "\""),
              std::string::npos)
        << r.err;
  }
  auto r = RunPsql(ConnInfo(pg_port_, "meridian"), {"-c", "SELECT 1"});  // no password at all
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("no password supplied"), std::string::npos) << r.err;
  EXPECT_EQ(RunPsql(ConnInfo(pg_port_, "alice"), {"-c", "SELECT 1"}, "wonderland").exit_code, 0);
}

TEST_F(PgSecureTest, RawScramMisuseIsAProtocolViolation) {
  auto sasl_initial = [](const std::string& mechanism, const std::string& data) {
    std::string body = mechanism;
    body.push_back('\0');
    body.append(RawPg::Int32(static_cast<uint32_t>(data.size()))).append(data);
    return body;
  };
  struct Case {
    const char* what;
    std::string body;
    char type;
  };
  for (const Case& c :
       {Case{"channel binding", sasl_initial("SCRAM-SHA-256", "p=tls-server-end-point,,n=,r=abc"),
             'p'},
        Case{"mechanism", sasl_initial("SCRAM-SHA-256-PLUS", "n,,n=,r=abc"), 'p'},
        Case{"truncated", std::string("SCRAM-SHA-256\0\0\0", 16), 'p'},
        Case{"not a password message", std::string("SELECT 1\0", 9), 'Q'}}) {
    SCOPED_TRACE(c.what);
    RawPg raw(pg_port_);
    ASSERT_TRUE(raw.SendRaw(RawPg::StartupPacket("meridian")));
    auto request = raw.Read(10'000);
    ASSERT_TRUE(request.has_value());
    ASSERT_EQ(request->type, 'R');
    EXPECT_EQ(RawPg::ReadInt32(request->body, 0), 10);  // AuthenticationSASL
    EXPECT_EQ(request->body.substr(4), std::string("SCRAM-SHA-256\0\0", 15));
    ASSERT_TRUE(raw.Send(c.type, c.body));
    auto m = raw.Read(10'000);
    ASSERT_TRUE(m.has_value());
    EXPECT_EQ(m->type, 'E');
    EXPECT_EQ(RawPg::Field(*m, 'S'), "FATAL");
    EXPECT_EQ(RawPg::Field(*m, 'C'), "08P01") << RawPg::Field(*m, 'M');
    EXPECT_TRUE(raw.ClosedByServer());
  }
  EXPECT_TRUE(daemon_->Alive());
}

TEST_F(PgSecureTest, TlsUpgradeRefusesPipelinedCleartextAndSurvivesJunk) {
  {  // A startup packet sent in the clear right behind the SSLRequest is refused.
    RawPg raw(pg_port_);
    ASSERT_TRUE(
        raw.SendRaw(RawPg::Int32(8) + RawPg::Int32(80877103) + RawPg::StartupPacket("meridian")));
    auto m = raw.Read(10'000);
    ASSERT_TRUE(m.has_value());
    EXPECT_EQ(RawPg::Field(*m, 'C'), "08P01");
    EXPECT_EQ(RawPg::Field(*m, 'M'), "received unencrypted data after SSL request");
    EXPECT_TRUE(raw.ClosedByServer());
  }
  {  // 'S', then junk instead of a TLS ClientHello: the handshake fails, the server closes.
    RawPg raw(pg_port_);
    ASSERT_TRUE(raw.SendRaw(RawPg::Int32(8) + RawPg::Int32(80877103)));
    char answer = 0;
    ASSERT_TRUE(raw.ReadBytes(&answer, 1, 10'000));
    EXPECT_EQ(answer, 'S');
    ASSERT_TRUE(raw.SendRaw(std::string(300, '\x16')));
    EXPECT_TRUE(raw.ClosedByServer());
  }
  EXPECT_TRUE(daemon_->Alive());
  auto r = RunPsql(ConnInfo(pg_port_, "meridian", "sslmode=require"),
                   {"-A", "-t", "-c", "SELECT 1"}, "s3cret:x");
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

// --auth password: AuthenticationCleartextPassword, checked against plaintext and verifiers.
TEST(PgPasswordAuthTest, CleartextPasswordAgainstBothKindsOfSecret) {
  TempDir dir;
  std::ofstream(dir.path() + "/users")
      << "meridian:pw1\nalice:"
      << server::pgwire::FormatScramVerifier(
             server::pgwire::MakeScramVerifier("wonderland", "saltsaltsalt", 4096))
      << "\n";
  int port = FreePort();
  Daemon daemon(dir.path() + "/data", {"--pg-listen", "127.0.0.1:" + std::to_string(port), "--auth",
                                       "password", "--users-file", dir.path() + "/users"});
  ASSERT_TRUE(daemon.started()) << daemon.Log();
  auto r = RunPsql(ConnInfo(port, "meridian"), {"-A", "-t", "-c", "SELECT 1"}, "pw1");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "1\n");
  r = RunPsql(ConnInfo(port, "alice"), {"-A", "-t", "-c", "SELECT 2"}, "wonderland");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  for (auto [user, password] : std::vector<std::pair<std::string, std::string>>{
           {"meridian", "pw2"}, {"alice", "wonder"}, {"nobody", "pw1"}}) {
    r = RunPsql(ConnInfo(port, user), {"-c", "SELECT 1"}, password);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("password authentication failed for user \"" + user + "\""),
              std::string::npos)
        << r.err;
  }
  // Options that cannot work are refused at start-up.
  auto bad = RunBinary("meridiand", {"--auth", "scram-sha-256"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("needs --users-file"), std::string::npos) << bad.err;
  EXPECT_EQ(daemon.Stop(SIGTERM), 0) << daemon.Log();
}

}  // namespace
}  // namespace meridian::e2e
