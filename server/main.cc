// meridiand: parses options, sets up logging, starts the Daemon and stops it gracefully on
// SIGINT or SIGTERM (exit 0). Exit 1 when start-up fails, 2 on bad options.
#include <signal.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>
#include <sys/resource.h>

#include <cstdio>

#include "daemon.h"
#include "grpc/sql_service.h"
#include "server_options.h"

namespace {

// Every PostgreSQL or gRPC connection holds a descriptor, and the usual soft limit of 1024 would
// stop the daemon near a thousand sessions: take the soft open-file limit up to the hard one,
// as `ulimit -n $(ulimit -Hn)` before starting it would. Logs the limit in force.
void RaiseOpenFileLimit() {
  rlimit lim{};
  if (getrlimit(RLIMIT_NOFILE, &lim) != 0) return;
  if (lim.rlim_cur != RLIM_INFINITY && lim.rlim_cur < lim.rlim_max) {
    rlimit want = lim;
    want.rlim_cur = lim.rlim_max;
    if (setrlimit(RLIMIT_NOFILE, &want) == 0) lim = want;
  }
  if (lim.rlim_cur == RLIM_INFINITY) return;
  // About 64 descriptors go to data files, the commit log and the listeners.
  if (lim.rlim_cur < 4096) {
    spdlog::warn(
        "open file limit {} allows about {} client connections; raise the hard limit "
        "(ulimit -Hn, systemd LimitNOFILE=) for more",
        lim.rlim_cur, lim.rlim_cur > 64 ? lim.rlim_cur - 64 : 0);
  } else {
    spdlog::info("open file limit {}", lim.rlim_cur);
  }
}

}  // namespace

int main(int argc, char** argv) {
  using namespace meridian::server;
  ParsedOptions parsed = ParseServerOptions(argc, argv);
  if (!parsed.error.empty()) {
    std::fprintf(stderr, "meridiand: %s\n\n%s", parsed.error.c_str(), ServerUsage().c_str());
    return 2;
  }
  if (parsed.show_help) {
    std::fputs(ServerUsage().c_str(), stdout);
    return 0;
  }
  if (parsed.show_version) {
    std::printf("%s\n", kServerVersion);
    return 0;
  }
  const ServerOptions& options = parsed.options;

  auto logger = spdlog::stderr_color_mt("meridiand");
  spdlog::set_default_logger(logger);
  spdlog::set_pattern("%Y-%m-%d %H:%M:%S.%e %^%l%$ [%t] %v");
  spdlog::set_level(spdlog::level::from_str(options.log_level));
  spdlog::flush_on(spdlog::level::info);

  // Signals are taken synchronously by this thread only: block them before any thread starts,
  // so every thread inherits the mask.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  signal(SIGPIPE, SIG_IGN);
  RaiseOpenFileLimit();

  spdlog::info("{} starting: data dir {}, buffer pool {} MiB", kServerVersion, options.data_dir,
               options.buffer_pool_mb);
  auto daemon = Daemon::Start(options);
  if (!daemon.ok()) {
    spdlog::critical("could not start: {}", daemon.status().message());
    if (!daemon.status().error().hint.empty()) {
      spdlog::critical("hint: {}", daemon.status().error().hint);
    }
    return 1;
  }
  std::string host = options.grpc_listen.substr(0, options.grpc_listen.rfind(':'));
  spdlog::info("listening for gRPC on {}:{}; ready to accept sessions", host,
               (*daemon)->grpc_port());

  int sig = 0;
  sigwait(&signals, &sig);
  spdlog::info("received {}, shutting down", sig == SIGINT ? "SIGINT" : "SIGTERM");
  meridian::Status st = (*daemon)->Shutdown();
  if (!st.ok()) return 1;
  spdlog::info("shutdown complete");
  return 0;
}
