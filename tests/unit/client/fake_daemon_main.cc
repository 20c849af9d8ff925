// fake-meridiand: the unit tests' FakeSqlServer as a program, for trying the shell and
// run_slt.sh by hand without the real daemon. Accepts the daemon's --grpc-listen HOST:PORT
// (other flags are ignored) and runs until SIGTERM/SIGINT.
#include <signal.h>

#include <cstdio>
#include <string>

#include "fake_sql_server.h"

int main(int argc, char** argv) {
  std::string listen = "127.0.0.1:7432";
  if (argc > 1 && std::string(argv[1]) == "--help") {
    std::printf("usage: fake-meridiand [--grpc-listen HOST:PORT]\n");
    return 0;
  }
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::string(argv[i]) == "--grpc-listen") listen = argv[i + 1];
  }
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  meridian::testing::FakeSqlServer server(listen);
  std::printf("fake-meridiand listening on %s\n", listen.c_str());
  std::fflush(stdout);
  int sig = 0;
  sigwait(&signals, &sig);
  server.Shutdown();
  return 0;
}
