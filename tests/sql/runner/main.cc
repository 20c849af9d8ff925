// meridian-slt: runs sqllogictest files against a Meridian daemon (a running one, or with
// --daemon one it starts itself), sessions per file as its `connection` records name them, and
// prints "<file>: N passed, M failed, K skipped" per file and "N passed, M failed" last.
// Exit: 0 ok; 1 a record failed (or, with --expect-min-pass N, fewer than N passed); 2 when the
// daemon could not be reached or started, or a file could not be read.
#include <stdlib.h>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>

#include "meridian/client/connection.h"
#include "runner/slt_daemon.h"
#include "runner/slt_parser.h"
#include "runner/slt_runner.h"

namespace {

namespace fs = std::filesystem;
using meridian::client::Connection;

constexpr const char* kUsage =
    "Usage: meridian-slt [OPTIONS] FILE|DIR...\n"
    "\n"
    "Runs sqllogictest files (a DIR means every *.test below it) against a Meridian daemon.\n"
    "\n"
    "Options:\n"
    "  --host HOST            daemon host (default 127.0.0.1, or $MERIDIAN_HOST)\n"
    "  --port PORT            daemon gRPC port (default 7432, or $MERIDIAN_PORT)\n"
    "  --engine NAME          engine name for skipif/onlyif (default postgresql)\n"
    "  --verbose              print every failure with its SQL, expected and actual result\n"
    "  --expect-min-pass N    succeed when at least N records pass (failures allowed)\n"
    "  --timeout SECONDS      per-statement deadline (default 60)\n"
    "  --connect-retries N    connection attempts per file, 200 ms apart (default 1)\n"
    "  --clean                drop every table before each file (for a throwaway daemon; the\n"
    "                         upstream files each expect an empty database)\n"
    "  --daemon PATH          start meridiand PATH on free loopback ports for the run (and\n"
    "                         again at each `restart` record); --host/--port are ignored\n"
    "  --data-dir DIR         its data directory (default: a new one under $TMPDIR, removed\n"
    "                         at the end); its log goes to DIR.log\n"
    "  --daemon-arg ARG       one more meridiand option (repeatable)\n";

bool ParseInt(const std::string& s, long* out) {
  auto res = std::from_chars(s.data(), s.data() + s.size(), *out);
  return res.ec == std::errc() && res.ptr == s.data() + s.size();
}

std::vector<std::string> ExpandPaths(const std::vector<std::string>& paths) {
  std::vector<std::string> files;
  for (const auto& p : paths) {
    std::error_code ec;
    if (fs::is_directory(p, ec)) {
      std::vector<std::string> found;
      for (const auto& entry : fs::recursive_directory_iterator(p, ec)) {
        if (entry.is_regular_file() && entry.path().extension() == ".test") {
          found.push_back(entry.path().string());
        }
      }
      std::sort(found.begin(), found.end());
      files.insert(files.end(), found.begin(), found.end());
    } else {
      files.push_back(p);
    }
  }
  return files;
}

// Drops every table the catalog lists (identifiers quoted, so any name works); CASCADE, so a
// foreign key or view left by the previous file does not stop it.
meridian::client::ClientStatus DropAllTables(Connection& conn) {
  auto tables = conn.DescribeCatalog();
  if (!tables.ok()) return tables.error();
  for (const auto& t : tables.value()) {
    std::string quoted = "\"";
    for (char c : t.name) {
      quoted += c;
      if (c == '"') quoted += '"';
    }
    quoted += '"';
    auto r = conn.Execute("DROP TABLE IF EXISTS " + quoted + " CASCADE");
    if (!r.ok()) return r.error();
  }
  return {};
}

}  // namespace

int main(int argc, char** argv) {
  std::string host = meridian::client::kDefaultHost;
  long port = meridian::client::kDefaultPort;
  if (const char* h = std::getenv("MERIDIAN_HOST"); h != nullptr && *h != '\0') host = h;
  if (const char* p = std::getenv("MERIDIAN_PORT"); p != nullptr && *p != '\0') {
    if (!ParseInt(p, &port)) {
      std::cerr << "meridian-slt: invalid MERIDIAN_PORT\n";
      return 2;
    }
  }
  meridian::slt::SltRunOptions options;
  long min_pass = -1;
  long timeout_seconds = 60;
  long connect_retries = 1;
  bool clean = false;
  std::string daemon_path;
  std::string data_dir;
  std::vector<std::string> daemon_args;
  std::vector<std::string> paths;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto next = [&](long* out) {
      if (i + 1 >= argc || !ParseInt(argv[i + 1], out)) {
        std::cerr << "meridian-slt: " << arg << " needs a number\n";
        std::exit(2);
      }
      ++i;
    };
    if (arg == "--help" || arg == "-h") {
      std::cout << kUsage;
      return 0;
    } else if (arg == "--host" && i + 1 < argc) {
      host = argv[++i];
    } else if (arg == "--port") {
      next(&port);
    } else if (arg == "--engine" && i + 1 < argc) {
      options.engine = argv[++i];
    } else if (arg == "--verbose" || arg == "-v") {
      options.verbose = true;
    } else if (arg == "--expect-min-pass") {
      next(&min_pass);
    } else if (arg == "--timeout") {
      next(&timeout_seconds);
    } else if (arg == "--connect-retries") {
      next(&connect_retries);
    } else if (arg == "--clean") {
      clean = true;
    } else if (arg == "--daemon" && i + 1 < argc) {
      daemon_path = argv[++i];
    } else if (arg == "--data-dir" && i + 1 < argc) {
      data_dir = argv[++i];
    } else if (arg == "--daemon-arg" && i + 1 < argc) {
      daemon_args.push_back(argv[++i]);
    } else if (!arg.empty() && arg[0] == '-') {
      std::cerr << "meridian-slt: unknown option " << arg << "\n" << kUsage;
      return 2;
    } else {
      paths.push_back(arg);
    }
  }
  std::vector<std::string> files = ExpandPaths(paths);
  if (files.empty()) {
    std::cerr << "meridian-slt: no test files given\n" << kUsage;
    return 2;
  }

  // --daemon: the runner's own meridiand, removed with its temporary directory at the end.
  std::unique_ptr<meridian::slt::Daemon> daemon;
  std::string temp_dir;
  if (!daemon_path.empty()) {
    if (data_dir.empty()) {
      const char* tmp = std::getenv("TMPDIR");
      std::string tmpl =
          std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/meridian-slt.XXXXXX";
      if (mkdtemp(tmpl.data()) == nullptr) {
        std::cerr << "meridian-slt: cannot create a temporary directory\n";
        return 2;
      }
      temp_dir = tmpl;
      data_dir = temp_dir + "/data";
    }
    daemon = std::make_unique<meridian::slt::Daemon>(
        daemon_path, data_dir, temp_dir.empty() ? data_dir + ".log" : temp_dir + "/daemon.log",
        daemon_args);
    std::string error;
    if (!daemon->Start(&error)) {
      std::cerr << "meridian-slt: " << error << "\n";
      if (!temp_dir.empty()) fs::remove_all(temp_dir);
      return 2;
    }
    host = "127.0.0.1";
  }
  auto port_now = [&] { return daemon != nullptr ? daemon->grpc_port() : static_cast<int>(port); };
  meridian::slt::SessionExecutor::Restarter restarter;
  if (daemon != nullptr) {
    restarter = [&daemon](bool kill) -> meridian::client::ClientStatus {
      daemon->Stop(kill);
      std::string error;
      if (daemon->Start(&error)) return {};
      meridian::client::ClientError e;
      e.sqlstate = "08001";
      e.message = error;
      return e;
    };
  }

  long total_passed = 0;
  long total_failed = 0;
  long total_skipped = 0;
  bool unreachable = false;
  for (const auto& file : files) {
    std::ifstream in(file, std::ios::binary);
    if (!in) {
      std::cerr << "meridian-slt: cannot read " << file << "\n";
      unreachable = true;
      continue;
    }
    std::stringstream text;
    text << in.rdbuf();
    auto records = meridian::slt::ParseSlt(text.str());

    meridian::client::ConnectOptions connect_options;
    connect_options.application_name = "meridian-slt";
    auto connect = [&]() {
      auto conn = Connection::Connect(host, port_now(), connect_options);
      for (long attempt = 1; !conn.ok() && attempt < connect_retries; ++attempt) {
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        conn = Connection::Connect(host, port_now(), connect_options);
      }
      return conn;
    };
    meridian::slt::SessionExecutor executor(connect, restarter,
                                            std::chrono::seconds(timeout_seconds));
    auto conn = executor.Current();
    if (!conn.ok()) {
      std::cerr << "meridian-slt: " << file << ": " << conn.error().message << "\n";
      unreachable = true;
      break;
    }
    if (clean) {
      if (auto status = DropAllTables(*conn.value()); !status.ok()) {
        std::cerr << "meridian-slt: " << file
                  << ": cannot clean the database: " << status.error().ToString() << "\n";
        unreachable = true;
        break;
      }
    }
    auto result = meridian::slt::RunSltRecords(records, executor, options, file, std::cout);
    executor.CloseAll();
    std::cout << file << ": " << result.passed << " passed, " << result.failed << " failed, "
              << result.skipped << " skipped"
              << (result.connection_lost ? " (connection lost)" : "") << "\n";
    std::cout.flush();
    total_passed += result.passed;
    total_failed += result.failed;
    total_skipped += result.skipped;
  }
  if (daemon != nullptr) {
    int status = daemon->Stop();
    if (status != 0) {
      std::cerr << "meridian-slt: meridiand ended with status " << status
                << " (it had exited or did not stop cleanly); its log ends:\n"
                << daemon->LogTail() << "\n";
      unreachable = true;
    }
    daemon.reset();
    if (!temp_dir.empty()) fs::remove_all(temp_dir);
  }
  std::cout << total_passed << " passed, " << total_failed << " failed\n";
  if (unreachable) return 2;
  if (min_pass >= 0) {
    if (total_passed < min_pass) {
      std::cerr << "meridian-slt: " << total_passed << " passed, fewer than the expected "
                << min_pass << "\n";
      return 1;
    }
    return 0;
  }
  return total_failed > 0 ? 1 : 0;
}
