// Test harness for end-to-end tests: runs the real meridiand binary on a free loopback port with
// a temporary data directory, runs the real shell binary, and opens raw gRPC sessions.
// Every process it starts is stopped by the harness itself (destructors send SIGKILL).
#pragma once

#include <grpcpp/grpcpp.h>
#include <sys/types.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "meridian.grpc.pb.h"
#include "temp_dir.h"

namespace meridian::e2e {

// Directory of the built binaries (build/bin), set by CMake.
std::string BinDir();
using testutil::TempDir;

// A loopback TCP port that was free a moment ago.
int FreePort();

struct ProcessResult {
  int exit_code = -1;  // -1 when killed by a signal
  std::string out;
  std::string err;
};

// Runs a binary from BinDir() with args and the given stdin; waits up to timeout.
ProcessResult RunBinary(const std::string& name, const std::vector<std::string>& args,
                        const std::string& stdin_text = "",
                        std::chrono::seconds timeout = std::chrono::seconds(120));

class Daemon {
 public:
  // Starts meridiand on a free port with data_dir; waits until gRPC health says SERVING (over
  // TLS, trusting the certificate itself, when extra_args has --tls-cert).
  // binary: the meridiand to run; empty = BinDir() + "/meridiand".
  explicit Daemon(std::string data_dir, std::vector<std::string> extra_args = {},
                  const std::string& binary = "");
  ~Daemon();  // SIGKILL if still running

  bool started() const { return ready_; }
  int port() const { return port_; }
  pid_t pid() const { return pid_; }
  std::string address() const { return "127.0.0.1:" + std::to_string(port_); }
  // Everything the daemon logged so far.
  std::string Log() const;
  // Sends sig and waits for exit; returns the exit code (-1 if killed by a signal).
  int Stop(int sig, std::chrono::seconds timeout = std::chrono::seconds(30));
  bool Alive() const;

 private:
  std::string data_dir_;
  std::string log_path_;
  int port_ = 0;
  pid_t pid_ = -1;
  bool ready_ = false;
  mutable int exit_code_ = -2;  // set once the process was reaped (-1: killed by a signal)
};

// A raw gRPC session (no client library): OpenSession plus an Attach stream kept open. Every
// call it makes carries the session secret (metadata x-meridian-session-secret).
class RawSession {
 public:
  explicit RawSession(const std::string& address, const std::string& user = "",
                      const std::string& password = "",
                      std::shared_ptr<grpc::ChannelCredentials> credentials = nullptr);
  ~RawSession();
  bool ok() const { return !id_.empty(); }
  const std::string& id() const { return id_; }
  const std::string& secret() const { return secret_; }
  // OpenSession's status when it failed.
  const grpc::Status& open_status() const { return open_status_; }
  v1::Sql::Stub* stub() { return stub_.get(); }
  // Adds the session secret to a context for a call made through stub().
  void Authorize(grpc::ClientContext* ctx) const;

  struct Outcome {
    grpc::Status status;
    v1::SqlError error;  // decoded from the status details when present
    std::vector<v1::ResultChunk> chunks;
    size_t row_count = 0;
  };
  Outcome Execute(const std::string& sql,
                  std::chrono::milliseconds timeout = std::chrono::milliseconds(60'000),
                  const std::string& query_id = "");

 private:
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<v1::Sql::Stub> stub_;
  std::string id_;
  std::string secret_;
  grpc::Status open_status_;
  grpc::ClientContext attach_ctx_;
  std::unique_ptr<grpc::ClientReader<v1::SessionEvent>> attach_;
};

// Decodes the SqlError carried in a failed status' details (empty sqlstate if none).
v1::SqlError DecodeError(const grpc::Status& status);

// TLS channel credentials trusting the PEM certificate(s) in ca_file (optionally with a client
// certificate and key); null when a file cannot be read.
std::shared_ptr<grpc::ChannelCredentials> TlsCredentials(const std::string& ca_file,
                                                        const std::string& cert_file = "",
                                                        const std::string& key_file = "");
// Channel arguments that make a TLS client expect the name "localhost" (the tests'
// self-signed certificates) while dialling 127.0.0.1.
grpc::ChannelArguments LocalhostTlsArgs();

// Writes a self-signed certificate for CN=localhost (with subjectAltName localhost and
// 127.0.0.1) and its key into dir as cert.pem and key.pem with the openssl CLI; false when that
// failed.
bool MakeSelfSignedCert(const std::string& dir, const std::string& name = "");

}  // namespace meridian::e2e
