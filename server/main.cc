// meridiand: parses options, sets up logging, starts the Daemon and stops it gracefully on
// SIGINT or SIGTERM (exit 0). Exit 1 when start-up fails, 2 on bad options.
#include <signal.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <cstdio>

#include "daemon.h"
#include "server_options.h"
#include "grpc/sql_service.h"

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
