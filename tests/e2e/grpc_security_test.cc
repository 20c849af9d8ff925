// End-to-end tests of gRPC security against a real daemon: the per-session secret on every call
// (a session id alone, from another connection, is refused), passwords checked by OpenSession
// against the users file the PostgreSQL listener uses (wrong password and unknown user: the same
// 28P01), TLS required on the gRPC port with --tls-cert (a plaintext client cannot connect),
// client certificates with --tls-ca, the shell and meridian-tpcc with a password and TLS, and
// bad TLS flags.
#include <gtest/gtest.h>
#include <signal.h>

#include <fstream>

#include "daemon_harness.h"
#include "meridian/client/connection.h"
#include "pg_auth.h"

namespace meridian::e2e {
namespace {

using client::Connection;
using client::ConnectOptions;

// The status of an ExecuteStream on session id, over a fresh channel, with secret as its
// x-meridian-session-secret metadata (null: no such metadata at all).
grpc::Status ExecuteWithSecret(const std::string& address, const std::string& id,
                               const std::string* secret,
                               std::shared_ptr<grpc::ChannelCredentials> credentials = nullptr) {
  if (credentials == nullptr) credentials = grpc::InsecureChannelCredentials();
  auto channel = grpc::CreateCustomChannel(address, credentials, LocalhostTlsArgs());
  auto stub = v1::Sql::NewStub(channel);
  grpc::ClientContext ctx;
  if (secret != nullptr) ctx.AddMetadata("x-meridian-session-secret", *secret);
  ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
  v1::ExecuteRequest req;
  req.set_session_id(id);
  req.set_sql("SELECT 1");
  auto reader = stub->ExecuteStream(&ctx, req);
  v1::ResultChunk chunk;
  while (reader->Read(&chunk)) {
  }
  return reader->Finish();
}

// The code of a unary call through stub whose context carries no session secret.
template <typename Request, typename Response>
grpc::StatusCode UnaryCode(v1::Sql::Stub* stub,
                           grpc::Status (v1::Sql::Stub::*rpc)(grpc::ClientContext*, const Request&,
                                                              Response*),
                           const Request& request) {
  grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
  Response response;
  return (stub->*rpc)(&ctx, request, &response).error_code();
}

class SessionSecretTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    daemon_ = new Daemon(dir_->path() + "/data");
  }
  static void TearDownTestSuite() {
    EXPECT_EQ(daemon_->Stop(SIGTERM), 0) << daemon_->Log();
    delete daemon_;
    delete dir_;
  }
  void SetUp() override { ASSERT_TRUE(daemon_->started()) << daemon_->Log(); }

  static TempDir* dir_;
  static Daemon* daemon_;
};
TempDir* SessionSecretTest::dir_ = nullptr;
Daemon* SessionSecretTest::daemon_ = nullptr;

TEST_F(SessionSecretTest, OpenSessionReturnsARandomSecretPerSession) {
  RawSession a(daemon_->address()), b(daemon_->address());
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a.secret().size(), 64u);
  EXPECT_NE(a.secret(), b.secret());
  EXPECT_NE(a.secret(), a.id());
}

TEST_F(SessionSecretTest, SessionIdFromAnotherConnectionWithoutItsSecretIsRefused) {
  RawSession owner(daemon_->address());
  ASSERT_TRUE(owner.ok());
  ASSERT_TRUE(owner.Execute("CREATE TABLE owned (v TEXT); INSERT INTO owned VALUES ('mine')")
                  .status.ok());
  RawSession other(daemon_->address());
  ASSERT_TRUE(other.ok());
  const std::string wrong = std::string(64, '0');
  const std::string short_secret = owner.secret().substr(0, 32);
  for (const std::string* secret : {static_cast<const std::string*>(nullptr), &wrong,
                                    &other.secret(), &short_secret}) {
    grpc::Status st = ExecuteWithSecret(daemon_->address(), owner.id(), secret);
    EXPECT_EQ(st.error_code(), grpc::StatusCode::UNAUTHENTICATED) << st.error_message();
    EXPECT_EQ(DecodeError(st).sqlstate(), "28000");
  }
  // Every other call on the session is checked too.
  auto channel = grpc::CreateChannel(daemon_->address(), grpc::InsecureChannelCredentials());
  auto stub = v1::Sql::NewStub(channel);
  v1::CancelRequest cancel;
  cancel.set_session_id(owner.id());
  EXPECT_EQ(UnaryCode(stub.get(), &v1::Sql::Stub::Cancel, cancel),
            grpc::StatusCode::UNAUTHENTICATED);
  v1::DescribeCatalogRequest describe;
  describe.set_session_id(owner.id());
  EXPECT_EQ(UnaryCode(stub.get(), &v1::Sql::Stub::DescribeCatalog, describe),
            grpc::StatusCode::UNAUTHENTICATED);
  v1::PrepareRequest prepare;
  prepare.set_session_id(owner.id());
  prepare.set_sql("SELECT v FROM owned");
  EXPECT_EQ(UnaryCode(stub.get(), &v1::Sql::Stub::Prepare, prepare),
            grpc::StatusCode::UNAUTHENTICATED);
  v1::DeallocateRequest deallocate;
  deallocate.set_session_id(owner.id());
  deallocate.set_statement_id("x");
  EXPECT_EQ(UnaryCode(stub.get(), &v1::Sql::Stub::Deallocate, deallocate),
            grpc::StatusCode::UNAUTHENTICATED);
  v1::CloseSessionRequest close;
  close.set_session_id(owner.id());
  EXPECT_EQ(UnaryCode(stub.get(), &v1::Sql::Stub::CloseSession, close),
            grpc::StatusCode::UNAUTHENTICATED);
  {
    // A second Attach (hijacking the session's lifetime) without the secret.
    grpc::ClientContext ctx;
    v1::AttachRequest req;
    req.set_session_id(owner.id());
    auto reader = stub->Attach(&ctx, req);
    v1::SessionEvent event;
    EXPECT_FALSE(reader->Read(&event));
    EXPECT_EQ(reader->Finish().error_code(), grpc::StatusCode::UNAUTHENTICATED);
  }
  // None of that touched the session.
  auto r = owner.Execute("SELECT v FROM owned");
  ASSERT_TRUE(r.status.ok()) << r.status.error_message();
  EXPECT_EQ(r.row_count, 1u);
  EXPECT_NE(daemon_->Log().find("refused: no session secret"), std::string::npos);
  // The secret, not the connection, is the proof: with it another channel may use the session.
  EXPECT_TRUE(ExecuteWithSecret(daemon_->address(), owner.id(), &owner.secret()).ok());
}

TEST_F(SessionSecretTest, UnknownSessionIsStillNotFound) {
  const std::string secret(64, 'a');
  grpc::Status st = ExecuteWithSecret(daemon_->address(), "no-such-session", &secret);
  EXPECT_EQ(st.error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(DecodeError(st).sqlstate(), "08003");
}

TEST_F(SessionSecretTest, TrustIgnoresPasswordsAndTheClientLibrarySendsTheSecret) {
  ConnectOptions options;
  options.user = "anyone";
  options.password = "whatever";
  auto conn = Connection::Connect("127.0.0.1", daemon_->port(), options);
  ASSERT_TRUE(conn.ok()) << conn.error().ToString();
  auto r = (*conn)->Execute("SELECT current_user");
  ASSERT_TRUE(r.ok()) << r.error().ToString();
  EXPECT_EQ((*r)[0].rows[0][0].ToText(), "anyone");
  auto prepared = (*conn)->Prepare("SELECT $1::integer + 1");
  ASSERT_TRUE(prepared.ok()) << prepared.error().ToString();
  auto two = (*conn)->ExecutePrepared(prepared->id, {client::Value::Int(1)});
  ASSERT_TRUE(two.ok()) << two.error().ToString();
  EXPECT_EQ(two->rows[0][0].ToText(), "2");
  EXPECT_TRUE((*conn)->Deallocate(prepared->id).ok());
  EXPECT_TRUE((*conn)->DescribeCatalog().ok());
  EXPECT_FALSE((*conn)->Cancel());
  (*conn)->Close();
  EXPECT_NE(daemon_->Log().find("session " + (*conn)->session_id() + " closed: closed by client"),
            std::string::npos);
}

// A daemon with a users file and SCRAM-SHA-256 (the default with a users file): "meridian" has
// a plaintext password, "alice" a SCRAM verifier copied as PostgreSQL stores it.
class PasswordTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    std::ofstream(dir_->path() + "/users")
        << "meridian:s3cret\nalice:"
        << server::pgwire::FormatScramVerifier(
               server::pgwire::MakeScramVerifier("wonderland", "0123456789abcdef", 4096))
        << "\n";
    daemon_ = new Daemon(dir_->path() + "/data", {"--users-file", dir_->path() + "/users"});
  }
  static void TearDownTestSuite() {
    EXPECT_EQ(daemon_->Stop(SIGTERM), 0) << daemon_->Log();
    delete daemon_;
    delete dir_;
  }
  void SetUp() override { ASSERT_TRUE(daemon_->started()) << daemon_->Log(); }

  static client::ClientResult<std::unique_ptr<Connection>> Login(const std::string& user,
                                                         const std::string& password) {
    ConnectOptions options;
    options.user = user;
    options.password = password;
    return Connection::Connect("127.0.0.1", daemon_->port(), options);
  }

  static TempDir* dir_;
  static Daemon* daemon_;
};
TempDir* PasswordTest::dir_ = nullptr;
Daemon* PasswordTest::daemon_ = nullptr;

TEST_F(PasswordTest, RightPasswordOpensASessionOnLoopback) {
  auto conn = Login("meridian", "s3cret");
  ASSERT_TRUE(conn.ok()) << conn.error().ToString();
  auto r = (*conn)->Execute("SELECT current_user");
  ASSERT_TRUE(r.ok()) << r.error().ToString();
  EXPECT_EQ((*r)[0].rows[0][0].ToText(), "meridian");
  auto alice = Login("alice", "wonderland");
  ASSERT_TRUE(alice.ok()) << alice.error().ToString();
}

TEST_F(PasswordTest, WrongPasswordAndUnknownUserGetTheSameAnswer) {
  auto wrong = Login("meridian", "S3cret");
  ASSERT_FALSE(wrong.ok());
  EXPECT_EQ(wrong.error().sqlstate, "28P01");
  EXPECT_EQ(wrong.error().grpc_code, static_cast<int>(grpc::StatusCode::UNAUTHENTICATED));
  EXPECT_EQ(wrong.error().message, "password authentication failed for user \"meridian\"");
  auto wrong_verifier = Login("alice", "Wonderland");
  ASSERT_FALSE(wrong_verifier.ok());
  EXPECT_EQ(wrong_verifier.error().sqlstate, "28P01");
  auto unknown = Login("mallory", "s3cret");
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.error().sqlstate, "28P01");
  EXPECT_EQ(unknown.error().grpc_code, static_cast<int>(grpc::StatusCode::UNAUTHENTICATED));
  EXPECT_EQ(unknown.error().message, "password authentication failed for user \"mallory\"");
  auto none = Login("meridian", "");
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.error().sqlstate, "28P01");
  // The raw API says the same, with the SqlError detail.
  RawSession raw(daemon_->address(), "meridian", "nope");
  EXPECT_FALSE(raw.ok());
  EXPECT_EQ(raw.open_status().error_code(), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(DecodeError(raw.open_status()).sqlstate(), "28P01");
}

TEST_F(PasswordTest, TheShellReadsThePasswordFromTheEnvironmentOrAFile) {
  const std::vector<std::string> args = {"--port", std::to_string(daemon_->port()), "-c",
                                         "SELECT 'in'"};
  ::setenv("MERIDIAN_PASSWORD", "s3cret", 1);
  ProcessResult ok = RunBinary("meridian", args);
  ::setenv("MERIDIAN_PASSWORD", "bad", 1);
  ProcessResult bad = RunBinary("meridian", args);
  ::unsetenv("MERIDIAN_PASSWORD");
  std::ofstream(dir_->path() + "/pw") << "s3cret\n";
  ::setenv("MERIDIAN_PASSWORD_FILE", (dir_->path() + "/pw").c_str(), 1);
  ProcessResult from_file = RunBinary("meridian", args);
  ::unsetenv("MERIDIAN_PASSWORD_FILE");
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_NE(ok.out.find(" in"), std::string::npos) << ok.out;
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("password authentication failed for user \"meridian\""),
            std::string::npos)
      << bad.err;
  EXPECT_EQ(from_file.exit_code, 0) << from_file.err;
}

// A daemon with TLS (a self-signed certificate made here by the openssl CLI) and a users file.
class TlsTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    cert_ok_ = MakeSelfSignedCert(dir_->path()) && MakeSelfSignedCert(dir_->path(), "other-");
    std::ofstream(dir_->path() + "/users") << "meridian:tls-pass\n";
    if (!cert_ok_) return;
    daemon_ = new Daemon(dir_->path() + "/data",
                         {"--users-file", dir_->path() + "/users", "--tls-cert", Cert(), "--tls-key",
                          dir_->path() + "/key.pem"});
  }
  static void TearDownTestSuite() {
    if (daemon_ != nullptr) {
      EXPECT_EQ(daemon_->Stop(SIGTERM), 0) << daemon_->Log();
      delete daemon_;
    }
    delete dir_;
  }
  void SetUp() override {
    ASSERT_TRUE(cert_ok_) << "openssl could not make a certificate";
    ASSERT_TRUE(daemon_->started()) << daemon_->Log();
  }
  static std::string Cert() { return dir_->path() + "/cert.pem"; }

  static ConnectOptions TlsOptions(const std::string& ca) {
    ConnectOptions options;
    options.password = "tls-pass";
    options.tls.enabled = true;
    options.tls.ca_file = ca;
    options.tls.server_name = "localhost";
    options.connect_timeout = std::chrono::milliseconds(5000);
    return options;
  }

  static TempDir* dir_;
  static Daemon* daemon_;
  static bool cert_ok_;
};
TempDir* TlsTest::dir_ = nullptr;
Daemon* TlsTest::daemon_ = nullptr;
bool TlsTest::cert_ok_ = false;

TEST_F(TlsTest, PasswordOverTlsWorks) {
  auto conn = Connection::Connect("127.0.0.1", daemon_->port(), TlsOptions(Cert()));
  ASSERT_TRUE(conn.ok()) << conn.error().ToString();
  auto r = (*conn)->Execute("CREATE TABLE tls_t (v TEXT); INSERT INTO tls_t VALUES ('sealed');"
                            "SELECT v FROM tls_t");
  ASSERT_TRUE(r.ok()) << r.error().ToString();
  EXPECT_EQ((*r)[2].rows[0][0].ToText(), "sealed");
  ConnectOptions wrong = TlsOptions(Cert());
  wrong.password = "nope";
  auto refused = Connection::Connect("127.0.0.1", daemon_->port(), wrong);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().sqlstate, "28P01");
}

TEST_F(TlsTest, PlaintextClientsCannotConnect) {
  ConnectOptions plain;
  plain.password = "tls-pass";
  plain.connect_timeout = std::chrono::milliseconds(5000);
  auto conn = Connection::Connect("127.0.0.1", daemon_->port(), plain);
  ASSERT_FALSE(conn.ok());
  EXPECT_EQ(conn.error().sqlstate, "08001") << conn.error().ToString();
  RawSession raw(daemon_->address(), "meridian", "tls-pass");
  EXPECT_FALSE(raw.ok());
  EXPECT_EQ(raw.open_status().error_code(), grpc::StatusCode::UNAVAILABLE);
}

TEST_F(TlsTest, AnUntrustedCertificateIsRefusedByTheClient) {
  auto conn = Connection::Connect("127.0.0.1", daemon_->port(),
                                  TlsOptions(dir_->path() + "/other-cert.pem"));
  ASSERT_FALSE(conn.ok());
  EXPECT_EQ(conn.error().sqlstate, "08001");
  EXPECT_NE(conn.error().message.find("TLS"), std::string::npos) << conn.error().message;
  auto missing = Connection::Connect("127.0.0.1", daemon_->port(),
                                     TlsOptions(dir_->path() + "/no-such-ca.pem"));
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("could not read the TLS CA file"), std::string::npos)
      << missing.error().message;
}

TEST_F(TlsTest, TheShellConnectsWithSslrootcert) {
  ::setenv("MERIDIAN_PASSWORD", "tls-pass", 1);
  ProcessResult r = RunBinary(
      "meridian", {"--port", std::to_string(daemon_->port()), "--sslrootcert", Cert(),
                   "--ssl-server-name", "localhost", "-c", "SELECT 'over tls'"});
  ProcessResult plain =
      RunBinary("meridian", {"--port", std::to_string(daemon_->port()), "-c", "SELECT 1"});
  ::unsetenv("MERIDIAN_PASSWORD");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("over tls"), std::string::npos) << r.out;
  EXPECT_EQ(plain.exit_code, 2) << plain.out;
}

TEST_F(TlsTest, TheTpccToolConnectsWithPasswordAndTls) {
  const std::vector<std::string> args = {
      "check",         "--port", std::to_string(daemon_->port()), "--sslmode", "verify-full",
      "--sslrootcert", Cert(),   "--ssl-server-name",              "localhost", "--password"};
  std::vector<std::string> right = args, wrong = args;
  right.push_back("tls-pass");
  wrong.push_back("nope");
  // Authenticated, the check reaches the server and finds no TPC-C tables.
  ProcessResult in = RunBinary("meridian-tpcc", right);
  EXPECT_NE((in.out + in.err).find("42P01"), std::string::npos) << in.out << in.err;
  ProcessResult out = RunBinary("meridian-tpcc", wrong);
  EXPECT_NE((out.out + out.err).find("28P01"), std::string::npos) << out.out << out.err;
}

TEST(GrpcClientCertificates, TlsCaRequiresACertificateSignedByIt) {
  TempDir dir;
  ASSERT_TRUE(MakeSelfSignedCert(dir.path()) && MakeSelfSignedCert(dir.path(), "client-"));
  // The CA file trusts the server's own certificate and the client's self-signed one.
  {
    std::ifstream a(dir.path() + "/cert.pem"), b(dir.path() + "/client-cert.pem");
    std::ofstream(dir.path() + "/ca.pem") << a.rdbuf() << b.rdbuf();
  }
  Daemon d(dir.path() + "/data", {"--tls-cert", dir.path() + "/cert.pem", "--tls-key",
                                  dir.path() + "/key.pem", "--tls-ca", dir.path() + "/ca.pem"});
  ASSERT_TRUE(d.started()) << d.Log();
  ConnectOptions options;
  options.tls.enabled = true;
  options.tls.ca_file = dir.path() + "/cert.pem";
  options.tls.server_name = "localhost";
  // Under TLS 1.3 the server checks the client's certificate after the client finished its
  // handshake: the refusal may only show when OpenSession gets no answer.
  options.connect_timeout = std::chrono::milliseconds(2000);
  auto without = Connection::Connect("127.0.0.1", d.port(), options);
  ASSERT_FALSE(without.ok());
  EXPECT_EQ(without.error().sqlstate, "08001");
  options.tls.cert_file = dir.path() + "/client-cert.pem";
  options.tls.key_file = dir.path() + "/client-key.pem";
  auto with = Connection::Connect("127.0.0.1", d.port(), options);
  ASSERT_TRUE(with.ok()) << with.error().ToString() << d.Log();
  EXPECT_TRUE((*with)->Execute("SELECT 1").ok());
  (*with)->Close();
  EXPECT_EQ(d.Stop(SIGTERM), 0);
}

TEST(GrpcTlsFlags, BadFilesAndCombinationsStopTheStart) {
  TempDir dir;
  std::ofstream(dir.path() + "/junk.pem") << "not a certificate\n";
  ProcessResult ca_alone =
      RunBinary("meridiand", {"--data-dir", dir.path() + "/d1", "--tls-ca", dir.path() + "/x"});
  EXPECT_EQ(ca_alone.exit_code, 2);
  EXPECT_NE(ca_alone.err.find("--tls-ca needs --tls-cert"), std::string::npos) << ca_alone.err;
  ProcessResult junk = RunBinary(
      "meridiand", {"--data-dir", dir.path() + "/d2", "--grpc-listen",
                    "127.0.0.1:" + std::to_string(FreePort()), "--pg-listen", "127.0.0.1:0",
                    "--tls-cert", dir.path() + "/junk.pem", "--tls-key", dir.path() + "/junk.pem"});
  EXPECT_EQ(junk.exit_code, 1);
  EXPECT_NE((junk.out + junk.err).find("is not valid PEM"), std::string::npos)
      << junk.out << junk.err;
}

}  // namespace
}  // namespace meridian::e2e
