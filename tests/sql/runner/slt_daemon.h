// A meridiand that meridian-slt starts itself (--daemon): on free loopback ports with a data
// directory of the runner's, so a test file can stop and start it again (`restart`). POSIX only.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

namespace meridian::slt {

class Daemon {
 public:
  // binary: meridiand; data_dir: its --data-dir (created by the daemon when missing); log: file
  // that receives its stdout and stderr; extra_args: more meridiand options.
  Daemon(std::string binary, std::string data_dir, std::string log,
         std::vector<std::string> extra_args);
  ~Daemon();  // Stop()
  Daemon(const Daemon&) = delete;
  Daemon& operator=(const Daemon&) = delete;

  // Starts it and returns once its gRPC port accepts connections (false, with *error set,
  // when it exited or did not listen within 30 s; tried on three pairs of free ports).
  bool Start(std::string* error);
  // SIGTERM and wait for the exit (SIGKILL after 30 s); kill: SIGKILL at once. Returns the
  // exit status as waitpid gives it, -1 when it was not running.
  int Stop(bool kill = false);

  int grpc_port() const { return grpc_port_; }
  // The last lines of the log (for messages when it failed).
  std::string LogTail() const;

 private:
  bool StartOn(int grpc_port, int pg_port, std::string* error);

  std::string binary_;
  std::string data_dir_;
  std::string log_;
  std::vector<std::string> extra_args_;
  pid_t pid_ = -1;
  int grpc_port_ = 0;
  int pg_port_ = 0;
};

// A loopback TCP port nothing listens on now (bind to port 0, read it back, close).
int FreePort();

}  // namespace meridian::slt
