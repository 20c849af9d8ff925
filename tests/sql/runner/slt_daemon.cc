// The runner-owned daemon (see slt_daemon.h).
#include "runner/slt_daemon.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <thread>

namespace meridian::slt {

namespace {

sockaddr_in Loopback(int port) {
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  return addr;
}

bool Accepts(int port) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return false;
  sockaddr_in addr = Loopback(port);
  bool ok = connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0;
  close(fd);
  return ok;
}

}  // namespace

int FreePort() {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return 0;
  sockaddr_in addr = Loopback(0);
  socklen_t len = sizeof(addr);
  int port = 0;
  if (bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0 &&
      getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0) {
    port = ntohs(addr.sin_port);
  }
  close(fd);
  return port;
}

Daemon::Daemon(std::string binary, std::string data_dir, std::string log,
               std::vector<std::string> extra_args)
    : binary_(std::move(binary)),
      data_dir_(std::move(data_dir)),
      log_(std::move(log)),
      extra_args_(std::move(extra_args)) {}

Daemon::~Daemon() { Stop(); }

bool Daemon::Start(std::string* error) {
  // A restart tries the ports it had first, so a session's target stays the same.
  if (grpc_port_ != 0 && StartOn(grpc_port_, pg_port_, error)) return true;
  for (int attempt = 0; attempt < 3; ++attempt) {
    if (StartOn(FreePort(), FreePort(), error)) return true;
  }
  return false;
}

bool Daemon::StartOn(int grpc_port, int pg_port, std::string* error) {
  std::vector<std::string> args = {binary_,
                                   "--data-dir",
                                   data_dir_,
                                   "--grpc-listen",
                                   "127.0.0.1:" + std::to_string(grpc_port),
                                   "--pg-listen",
                                   "127.0.0.1:" + std::to_string(pg_port)};
  args.insert(args.end(), extra_args_.begin(), extra_args_.end());
  pid_t pid = fork();
  if (pid < 0) {
    *error = "fork failed";
    return false;
  }
  if (pid == 0) {
    int fd = open(log_.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (fd >= 0) {
      dup2(fd, 1);
      dup2(fd, 2);
      close(fd);
    }
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(argv[0], argv.data());
    _exit(127);
  }
  pid_ = pid;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (std::chrono::steady_clock::now() < deadline) {
    int status = 0;
    if (waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      *error = "meridiand exited at start; its log ends:\n" + LogTail();
      return false;
    }
    if (Accepts(grpc_port)) {
      grpc_port_ = grpc_port;
      pg_port_ = pg_port;
      return true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  Stop(true);
  *error = "meridiand did not listen within 30 s; its log ends:\n" + LogTail();
  return false;
}

int Daemon::Stop(bool kill_it) {
  if (pid_ <= 0) return -1;
  ::kill(pid_, kill_it ? SIGKILL : SIGTERM);
  int status = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (waitpid(pid_, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(pid_, SIGKILL);
      waitpid(pid_, &status, 0);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  pid_ = -1;
  return status;
}

std::string Daemon::LogTail() const {
  std::ifstream in(log_);
  std::stringstream text;
  text << in.rdbuf();
  std::string all = text.str();
  return all.size() > 4000 ? all.substr(all.size() - 4000) : all;
}

}  // namespace meridian::slt
