// Command-line parsing for meridian-tpcc (options.h).
#include "options.h"

#include <chrono>
#include <cstdlib>
#include <functional>
#include <map>

namespace tpcc {

std::string Usage() {
  return R"(usage: meridian-tpcc COMMAND [options]

commands:
  load    create the nine TPC-C tables and load --warehouses W (clause 4.3)
  run     run the five transactions for --duration seconds and report tpmC
  check   the twelve consistency conditions of clause 3.3.2
  all     load (when the database does not hold W warehouses), run, check, summary
  statements  latency of every TPC-C kit's statement shapes, one at a time, prepared, each
          execution in BEGIN ... ROLLBACK; median, p95 and EXPLAIN (statement_bench.h)

connection:
  --driver grpc|pg      Meridian's gRPC client library (default) or libpq
  --host H --port P     default 127.0.0.1, port 7432 (grpc) or 5433 (pg)
  --user U --password X --dbname D     default meridian / none / meridian
  --conn STRING         pg: a libpq connection string (host=... port=... ...)
  --sslmode MODE        disable, require, verify-ca, verify-full (gRPC: TLS with the
                        server's certificate always verified; default off, pg: libpq's)
  --sslrootcert FILE    CA certificates for the server's certificate
  --ssl-server-name N   gRPC: name expected in the server's certificate (default: --host)

workload:
  --warehouses W        default 1
  --threads N           load: parallel sessions (default 4)
  --batch-rows N        load: rows per INSERT statement (default 1000)
  --terminals T         run: default 10 per warehouse, each bound to a (warehouse, district)
  --duration S          run: measured seconds (default 60)
  --warmup S            run: seconds run but not measured first (default 0)
  --ramp S              run: start the terminals spread over S seconds (default 0)
  --spec-timing         keying and think times of clause 5.2.5 (and efficiency vs 12.86 tpmC/W)
  --isolation LEVEL     read-committed | repeatable-read | serializable (default: server's)
  --one-district        bind every terminal to warehouse 1, district 1 (forces conflicts)
  --seed N              random seed (default: from the clock)

statements:
  --executions N        timed executions per statement (default 200)
  --statement-seconds S stop a statement's executions after S seconds (default 5)
  --statement-timeout S the server's statement_timeout (default 60)
  --only TEXT           only the statements whose name contains TEXT

output:
  --report-interval S   one progress line every S seconds (default 10)
  --json FILE           write the final figures as JSON
  --compare FILE.json   print ratios against an earlier --json run
  --progress | --no-progress   force or suppress the load progress bar
)";
}

namespace {

bool ToInt(const std::string& s, int* out) {
  char* end = nullptr;
  long v = std::strtol(s.c_str(), &end, 10);
  if (end == s.c_str() || *end != '\0') return false;
  *out = static_cast<int>(v);
  return true;
}

bool ToDouble(const std::string& s, double* out) {
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (end == s.c_str() || *end != '\0') return false;
  *out = v;
  return true;
}

}  // namespace

bool ParseOptions(int argc, char** argv, Options* o, std::string* error) {
  if (argc < 2) {
    *error = "missing COMMAND";
    return false;
  }
  o->command = argv[1];
  if (o->command == "-h" || o->command == "--help" || o->command == "help") {
    o->command = "help";
    return true;
  }
  if (o->command != "load" && o->command != "run" && o->command != "check" &&
      o->command != "all" && o->command != "statements") {
    *error = "unknown command '" + o->command + "'";
    return false;
  }
  std::string isolation;
  using Setter = std::function<bool(const std::string&)>;
  const std::map<std::string, Setter> with_value = {
      {"--driver", [&](const std::string& v) { o->conn.driver = v; return v == "grpc" || v == "pg"; }},
      {"--host", [&](const std::string& v) { o->conn.host = v; return true; }},
      {"--port", [&](const std::string& v) { return ToInt(v, &o->conn.port); }},
      {"--user", [&](const std::string& v) { o->conn.user = v; return true; }},
      {"--password", [&](const std::string& v) { o->conn.password = v; return true; }},
      {"--dbname", [&](const std::string& v) { o->conn.dbname = v; return true; }},
      {"--conn", [&](const std::string& v) { o->conn.conninfo = v; return true; }},
      {"--sslmode", [&](const std::string& v) {
         o->conn.sslmode = v;
         return v == "disable" || v == "require" || v == "verify-ca" || v == "verify-full";
       }},
      {"--sslrootcert", [&](const std::string& v) { o->conn.sslrootcert = v; return true; }},
      {"--ssl-server-name", [&](const std::string& v) { o->conn.ssl_server_name = v; return true; }},
      {"--warehouses", [&](const std::string& v) { return ToInt(v, &o->warehouses) && o->warehouses > 0; }},
      {"--threads", [&](const std::string& v) { return ToInt(v, &o->threads) && o->threads > 0; }},
      {"--batch-rows", [&](const std::string& v) { return ToInt(v, &o->batch_rows) && o->batch_rows > 0; }},
      {"--terminals", [&](const std::string& v) { return ToInt(v, &o->terminals) && o->terminals > 0; }},
      {"--duration", [&](const std::string& v) { return ToDouble(v, &o->duration) && o->duration > 0; }},
      {"--warmup", [&](const std::string& v) { return ToDouble(v, &o->warmup) && o->warmup >= 0; }},
      {"--ramp", [&](const std::string& v) { return ToDouble(v, &o->ramp) && o->ramp >= 0; }},
      {"--report-interval", [&](const std::string& v) { return ToDouble(v, &o->report_interval) && o->report_interval > 0; }},
      {"--isolation", [&](const std::string& v) { isolation = v; return true; }},
      {"--seed", [&](const std::string& v) { o->seed = std::strtoull(v.c_str(), nullptr, 10); return true; }},
      {"--json", [&](const std::string& v) { o->json_path = v; return true; }},
      {"--executions", [&](const std::string& v) { return ToInt(v, &o->executions) && o->executions > 0; }},
      {"--statement-seconds", [&](const std::string& v) { return ToDouble(v, &o->statement_seconds) && o->statement_seconds > 0; }},
      {"--statement-timeout", [&](const std::string& v) { return ToDouble(v, &o->statement_timeout) && o->statement_timeout > 0; }},
      {"--only", [&](const std::string& v) { o->statement_filter = v; return true; }},
      {"--compare", [&](const std::string& v) { o->compare_path = v; return true; }},
  };
  for (int i = 2; i < argc; ++i) {
    std::string arg = argv[i];
    std::string value;
    bool has_inline = false;
    if (size_t eq = arg.find('='); arg.rfind("--", 0) == 0 && eq != std::string::npos) {
      value = arg.substr(eq + 1);
      arg = arg.substr(0, eq);
      has_inline = true;
    }
    if (arg == "--spec-timing") { o->spec_timing = true; continue; }
    if (arg == "--one-district") { o->one_district = true; continue; }
    if (arg == "--progress") { o->progress = 1; continue; }
    if (arg == "--no-progress") { o->progress = 0; continue; }
    auto it = with_value.find(arg);
    if (it == with_value.end()) {
      *error = "unknown option '" + arg + "'";
      return false;
    }
    if (!has_inline) {
      if (i + 1 >= argc) {
        *error = arg + " needs a value";
        return false;
      }
      value = argv[++i];
    }
    if (!it->second(value)) {
      *error = "bad value for " + arg + ": '" + value + "'";
      return false;
    }
  }
  if (isolation == "read-committed" || isolation == "rc") o->isolation = "READ COMMITTED";
  else if (isolation == "repeatable-read" || isolation == "rr") o->isolation = "REPEATABLE READ";
  else if (isolation == "serializable") o->isolation = "SERIALIZABLE";
  else if (!isolation.empty()) {
    *error = "bad value for --isolation: '" + isolation + "'";
    return false;
  }
  if (o->terminals == 0) o->terminals = o->one_district ? 2 : 10 * o->warehouses;
  if (o->seed == 0)
    o->seed = static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
  return true;
}

}  // namespace tpcc
