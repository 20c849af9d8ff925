// Implementation of the end-to-end harness; see daemon_harness.h.
#include "daemon_harness.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <grpcpp/generic/generic_stub.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <thread>

extern char** environ;

namespace meridian::e2e {
namespace {

std::vector<char*> Argv(const std::string& path, const std::vector<std::string>& args) {
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(path.c_str()));
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  return argv;
}

int WaitExit(pid_t pid, std::chrono::milliseconds timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (true) {
    int status = 0;
    pid_t r = waitpid(pid, &status, WNOHANG);
    if (r == pid) return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    if (r < 0) return -2;
    if (std::chrono::steady_clock::now() > deadline) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      return -3;  // timed out
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

bool HealthServing(const std::string& address,
                   const std::shared_ptr<grpc::ChannelCredentials>& credentials) {
  auto channel = grpc::CreateCustomChannel(address, credentials, LocalhostTlsArgs());
  grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::milliseconds(500));
  // grpc.health.v1.HealthCheckRequest{service: ""} encodes as an empty message.
  grpc::Slice empty;
  grpc::ByteBuffer request(&empty, 1), response;
  grpc::GenericStub stub(channel);
  grpc::Status status;
  std::mutex mu;
  std::condition_variable cv;
  bool done = false;
  stub.UnaryCall(&ctx, "/grpc.health.v1.Health/Check", grpc::StubOptions(), &request, &response,
                 [&](grpc::Status s) {
                   std::lock_guard lock(mu);
                   status = s;
                   done = true;
                   cv.notify_all();
                 });
  std::unique_lock lock(mu);
  cv.wait(lock, [&] { return done; });
  if (!status.ok()) return false;
  // HealthCheckResponse{status: SERVING(1)} is the two bytes 0x08 0x01.
  std::vector<grpc::Slice> slices;
  (void)response.Dump(&slices);
  std::string bytes;
  for (auto& s : slices) bytes.append(reinterpret_cast<const char*>(s.begin()), s.size());
  return bytes == std::string("\x08\x01", 2);
}

}  // namespace

std::string BinDir() { return MERIDIAN_BIN_DIR; }

int FreePort() {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr));
  socklen_t len = sizeof(addr);
  getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  int port = ntohs(addr.sin_port);
  close(fd);
  return port;
}

ProcessResult RunBinary(const std::string& name, const std::vector<std::string>& args,
                        const std::string& stdin_text, std::chrono::seconds timeout) {
  ProcessResult result;
  TempDir io;
  std::string in_path = io.path() + "/in", out_path = io.path() + "/out",
              err_path = io.path() + "/err";
  { std::ofstream(in_path) << stdin_text; }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, in_path.c_str(), O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0644);
  posix_spawn_file_actions_addopen(&actions, 2, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0644);
  std::string path = BinDir() + "/" + name;
  auto argv = Argv(path, args);
  pid_t pid;
  if (posix_spawn(&pid, path.c_str(), &actions, nullptr, argv.data(), environ) != 0) {
    posix_spawn_file_actions_destroy(&actions);
    result.err = "could not spawn " + path;
    return result;
  }
  posix_spawn_file_actions_destroy(&actions);
  result.exit_code = WaitExit(pid, timeout);
  std::stringstream out, err;
  out << std::ifstream(out_path).rdbuf();
  err << std::ifstream(err_path).rdbuf();
  result.out = out.str();
  result.err = err.str();
  return result;
}

Daemon::Daemon(std::string data_dir, std::vector<std::string> extra_args, const std::string& binary)
    : data_dir_(std::move(data_dir)) {
  port_ = FreePort();
  log_path_ = data_dir_ + ".log";
  std::vector<std::string> args = {"--data-dir", data_dir_,     "--grpc-listen",
                                   address(),    "--log-level", "info"};
  // Daemons of parallel tests must not compete for the default PostgreSQL port.
  if (std::find(extra_args.begin(), extra_args.end(), "--pg-listen") == extra_args.end()) {
    args.insert(args.end(), {"--pg-listen", "127.0.0.1:0"});
  }
  args.insert(args.end(), extra_args.begin(), extra_args.end());
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, log_path_.c_str(), O_WRONLY | O_CREAT | O_APPEND,
                                   0644);
  posix_spawn_file_actions_addopen(&actions, 2, log_path_.c_str(), O_WRONLY | O_CREAT | O_APPEND,
                                   0644);
  std::string path = binary.empty() ? BinDir() + "/meridiand" : binary;
  auto argv = Argv(path, args);
  if (posix_spawn(&pid_, path.c_str(), &actions, nullptr, argv.data(), environ) != 0) pid_ = -1;
  posix_spawn_file_actions_destroy(&actions);
  if (pid_ <= 0) return;
  // A daemon with --tls-cert speaks only TLS on its gRPC port; its certificate is its own CA.
  std::shared_ptr<grpc::ChannelCredentials> credentials = grpc::InsecureChannelCredentials();
  auto tls_cert = std::find(extra_args.begin(), extra_args.end(), "--tls-cert");
  if (tls_cert != extra_args.end() && tls_cert + 1 != extra_args.end()) {
    auto tls_ca = std::find(extra_args.begin(), extra_args.end(), "--tls-ca");
    if (tls_ca != extra_args.end()) {
      // Client certificates required: the harness uses the server's own pair as its certificate
      // (the tests sign nothing else with the CA they pass).
      auto key = std::find(extra_args.begin(), extra_args.end(), "--tls-key");
      credentials = TlsCredentials(*(tls_cert + 1), *(tls_cert + 1), *(key + 1));
    } else {
      credentials = TlsCredentials(*(tls_cert + 1));
    }
  }
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (std::chrono::steady_clock::now() < deadline && credentials != nullptr) {
    if (!Alive()) return;
    if (HealthServing(address(), credentials)) {
      ready_ = true;
      return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

Daemon::~Daemon() {
  if (pid_ > 0 && !Alive() && exit_code_ != 0) {
    // The daemon died without being asked to: show why (sanitizer report, crash, fatal log).
    std::string log = Log();
    if (log.size() > 20000) log = log.substr(log.size() - 20000);
    std::fprintf(stderr, "meridiand exited by itself (code %d); its log:\n%s\n", exit_code_,
                 log.c_str());
  }
  if (pid_ > 0 && Alive()) Stop(SIGKILL);
  std::error_code ec;
  std::filesystem::remove(log_path_, ec);
}

std::string Daemon::Log() const {
  std::stringstream s;
  s << std::ifstream(log_path_).rdbuf();
  return s.str();
}

bool Daemon::Alive() const {
  if (pid_ <= 0 || exit_code_ != -2) return false;
  int status;
  if (waitpid(pid_, &status, WNOHANG) == 0) return true;
  exit_code_ = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return false;
}

int Daemon::Stop(int sig, std::chrono::seconds timeout) {
  if (pid_ <= 0) return -2;
  if (Alive()) {
    kill(pid_, sig);
    exit_code_ = WaitExit(pid_, timeout);
  }
  pid_ = -1;
  return exit_code_;
}

RawSession::RawSession(const std::string& address, const std::string& user,
                       const std::string& password,
                       std::shared_ptr<grpc::ChannelCredentials> credentials) {
  if (credentials == nullptr) credentials = grpc::InsecureChannelCredentials();
  channel_ = grpc::CreateCustomChannel(address, credentials, LocalhostTlsArgs());
  stub_ = v1::Sql::NewStub(channel_);
  grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
  v1::OpenSessionRequest req;
  req.set_application_name("e2e");
  req.set_user(user);
  req.set_password(password);
  v1::OpenSessionResponse resp;
  open_status_ = stub_->OpenSession(&ctx, req, &resp);
  if (!open_status_.ok()) return;
  secret_ = resp.session_secret();
  v1::AttachRequest attach;
  attach.set_session_id(resp.session_id());
  Authorize(&attach_ctx_);
  attach_ = stub_->Attach(&attach_ctx_, attach);
  v1::SessionEvent event;
  if (!attach_->Read(&event) || event.kind() != v1::SessionEvent::ATTACHED) return;
  id_ = resp.session_id();
}

void RawSession::Authorize(grpc::ClientContext* ctx) const {
  ctx->AddMetadata("x-meridian-session-secret", secret_);
}

RawSession::~RawSession() {
  if (attach_) {
    attach_ctx_.TryCancel();
    v1::SessionEvent event;
    while (attach_->Read(&event)) {
    }
    (void)attach_->Finish();
  }
}

RawSession::Outcome RawSession::Execute(const std::string& sql, std::chrono::milliseconds timeout,
                                        const std::string& query_id) {
  Outcome out;
  grpc::ClientContext ctx;
  Authorize(&ctx);
  ctx.set_deadline(std::chrono::system_clock::now() + timeout);
  v1::ExecuteRequest req;
  req.set_session_id(id_);
  req.set_sql(sql);
  req.set_query_id(query_id);
  auto reader = stub_->ExecuteStream(&ctx, req);
  v1::ResultChunk chunk;
  while (reader->Read(&chunk)) {
    out.row_count += chunk.rows_size();
    out.chunks.push_back(chunk);
  }
  out.status = reader->Finish();
  out.error = DecodeError(out.status);
  return out;
}

v1::SqlError DecodeError(const grpc::Status& status) {
  v1::SqlError err;
  v1::ErrorStatus details;
  if (!status.ok() && details.ParseFromString(status.error_details()) &&
      details.details_size() > 0) {
    (void)details.details(0).UnpackTo(&err);
  }
  return err;
}

std::shared_ptr<grpc::ChannelCredentials> TlsCredentials(const std::string& ca_file,
                                                        const std::string& cert_file,
                                                        const std::string& key_file) {
  auto read = [](const std::string& path, std::string* out) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    *out = text.str();
    return in.good() || !out->empty();
  };
  grpc::SslCredentialsOptions ssl;
  if (!read(ca_file, &ssl.pem_root_certs)) return nullptr;
  if (!cert_file.empty() && !read(cert_file, &ssl.pem_cert_chain)) return nullptr;
  if (!key_file.empty() && !read(key_file, &ssl.pem_private_key)) return nullptr;
  return grpc::SslCredentials(ssl);
}

grpc::ChannelArguments LocalhostTlsArgs() {
  grpc::ChannelArguments args;
  args.SetSslTargetNameOverride("localhost");
  return args;
}

bool MakeSelfSignedCert(const std::string& dir, const std::string& name) {
  const std::string prefix = dir + "/" + name;
  std::string cmd = "openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=localhost "
                    "-addext subjectAltName=DNS:localhost,IP:127.0.0.1 -keyout " +
                    prefix + "key.pem -out " + prefix + "cert.pem >/dev/null 2>&1";
  return std::system(cmd.c_str()) == 0;
}

}  // namespace meridian::e2e
