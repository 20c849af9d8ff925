// Flag and environment parsing for meridiand. Each option is one table row: flag name, env name,
// and a setter that validates the text.
#include "server_options.h"

#include <charconv>
#include <cstdlib>
#include <functional>
#include <string_view>

namespace meridian::server {
namespace {

struct OptionSpec {
  const char* flag;  // without the leading "--"
  const char* env;
  const char* help;
  std::function<bool(ServerOptions&, std::string_view)> set;  // false: invalid value
};

bool ParseUnsigned(std::string_view text, unsigned long long min, unsigned long long max,
                   unsigned long long* out) {
  unsigned long long v = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || ptr != text.data() + text.size() || v < min || v > max) return false;
  *out = v;
  return true;
}

template <typename T>
std::function<bool(ServerOptions&, std::string_view)> UnsignedField(T ServerOptions::*field,
                                                                    unsigned long long min,
                                                                    unsigned long long max) {
  return [=](ServerOptions& o, std::string_view v) {
    unsigned long long n;
    if (!ParseUnsigned(v, min, max, &n)) return false;
    o.*field = static_cast<T>(n);
    return true;
  };
}

std::function<bool(ServerOptions&, std::string_view)> StringField(
    std::string ServerOptions::*field) {
  return [=](ServerOptions& o, std::string_view v) {
    if (v.empty()) return false;
    o.*field = std::string(v);
    return true;
  };
}

bool ValidListen(std::string_view v) {
  auto colon = v.rfind(':');
  unsigned long long port;
  return colon != std::string_view::npos && colon > 0 &&
         ParseUnsigned(v.substr(colon + 1), 0, 65535, &port);
}

const std::vector<OptionSpec>& Specs() {
  static const std::vector<OptionSpec> specs = {
      {"data-dir", "MERIDIAN_DATA_DIR", "data directory (default ./data)",
       StringField(&ServerOptions::data_dir)},
      {"grpc-listen", "MERIDIAN_GRPC_LISTEN", "gRPC address HOST:PORT (default 127.0.0.1:7432)",
       [](ServerOptions& o, std::string_view v) {
         if (!ValidListen(v)) return false;
         o.grpc_listen = std::string(v);
         return true;
       }},
      {"pg-listen", "MERIDIAN_PG_LISTEN",
       "PostgreSQL wire protocol address HOST:PORT (default 127.0.0.1:5433)",
       [](ServerOptions& o, std::string_view v) {
         if (!ValidListen(v)) return false;
         o.pg_listen = std::string(v);
         return true;
       }},
      {"log-level", "MERIDIAN_LOG_LEVEL",
       "trace, debug, info, warn, error, critical or off (default info)",
       [](ServerOptions& o, std::string_view v) {
         static const char* levels[] = {"trace", "debug",    "info", "warn",
                                        "error", "critical", "off"};
         for (const char* l : levels) {
           if (v == l) {
             o.log_level = std::string(v);
             return true;
           }
         }
         return false;
       }},
      {"buffer-pool-mb", "MERIDIAN_BUFFER_POOL_MB", "buffer pool size in MiB (default 128)",
       UnsignedField(&ServerOptions::buffer_pool_mb, 1, 1 << 20)},
      {"worker-threads", "MERIDIAN_WORKER_THREADS",
       "statement worker threads (default: 4 per core, at least 8)",
       UnsignedField(&ServerOptions::worker_threads, 0, 1024)},
      {"checkpoint-interval-s", "MERIDIAN_CHECKPOINT_INTERVAL_S",
       "seconds between background checkpoints (default 5)",
       UnsignedField(&ServerOptions::checkpoint_interval_s, 1, 86400)},
      {"session-idle-timeout-s", "MERIDIAN_SESSION_IDLE_TIMEOUT_S",
       "seconds an unattached session lives after its last call (default 60)",
       UnsignedField(&ServerOptions::session_idle_timeout_s, 1, 86400)},
      {"auth", "MERIDIAN_AUTH",
       "PostgreSQL client authentication: trust, password or scram-sha-256 (default "
       "scram-sha-256 with --users-file, trust without)",
       [](ServerOptions& o, std::string_view v) {
         if (v != "trust" && v != "password" && v != "scram-sha-256") return false;
         o.auth = std::string(v);
         return true;
       }},
      {"users-file", "MERIDIAN_USERS_FILE",
       "file of user:secret lines (plaintext password or SCRAM-SHA-256 verifier)",
       StringField(&ServerOptions::users_file)},
      {"tls-cert", "MERIDIAN_TLS_CERT",
       "PEM certificate for TLS: required on the gRPC listener, offered on the PostgreSQL one",
       StringField(&ServerOptions::tls_cert)},
      {"tls-key", "MERIDIAN_TLS_KEY", "PEM private key for --tls-cert",
       StringField(&ServerOptions::tls_key)},
      {"tls-ca", "MERIDIAN_TLS_CA",
       "PEM CA certificate(s): gRPC clients must present a certificate signed by one (needs "
       "--tls-cert)",
       StringField(&ServerOptions::tls_ca)},
      {"default-isolation", "MERIDIAN_DEFAULT_ISOLATION",
       "isolation of new transactions: read-committed (default) or repeatable-read "
       "(snapshot isolation; serializable is accepted and runs as repeatable-read)",
       [](ServerOptions& o, std::string_view v) {
         if (v == "read-committed" || v == "read committed") {
           o.default_isolation = "read committed";
         } else if (v == "repeatable-read" || v == "repeatable read" || v == "serializable") {
           o.default_isolation = "repeatable read";
         } else {
           return false;
         }
         return true;
       }},
      {"commit-mode", "MERIDIAN_COMMIT_MODE",
       "sync (default: COMMIT returns once durable; concurrent commits share one fsync) or "
       "async (COMMIT returns at once; durable within --async-window-ms; a crash may lose that "
       "window); per session: SET synchronous_commit = on | off",
       [](ServerOptions& o, std::string_view v) {
         if (v != "sync" && v != "async") return false;
         o.commit_mode = std::string(v);
         return true;
       }},
      {"group-window-us", "MERIDIAN_GROUP_WINDOW_US",
       "microseconds a commit group waits for more committers (default 0: none)",
       UnsignedField(&ServerOptions::group_window_us, 0, 100000)},
      {"async-window-ms", "MERIDIAN_ASYNC_WINDOW_MS",
       "longest delay before an asynchronous commit is durable (default 200)",
       UnsignedField(&ServerOptions::async_window_ms, 1, 10000)},
      {"memory-limit-mb", "MERIDIAN_MEMORY_LIMIT_MB",
       "resident memory above which statements fail with 53200 instead of the daemon being "
       "killed (default 0: 80% of the machine's memory)",
       UnsignedField(&ServerOptions::memory_limit_mb, 0, 1u << 30)},
      {"max-statement-bytes", "MERIDIAN_MAX_STATEMENT_BYTES",
       "longest SQL text of one request in bytes; longer ones fail with 54000 (default 16777216)",
       UnsignedField(&ServerOptions::max_statement_bytes, 1024, size_t{1} << 30)},
  };
  return specs;
}

}  // namespace

std::string ServerUsage() {
  std::string s =
      "Usage: meridiand [OPTIONS]\n"
      "Meridian database server. Each option may also come from its environment variable;\n"
      "a flag wins over the environment.\n\n";
  for (const auto& spec : Specs()) {
    s += "  --" + std::string(spec.flag) + "=VALUE";
    s += "\n      " + std::string(spec.help) + " [env " + spec.env + "]\n";
  }
  s += "  --help     show this help\n  --version  show the version\n";
  return s;
}

ParsedOptions ParseServerOptions(int argc, const char* const* argv) {
  ParsedOptions out;
  for (const auto& spec : Specs()) {
    if (const char* v = std::getenv(spec.env); v != nullptr && *v != '\0') {
      if (!spec.set(out.options, v)) {
        out.error = std::string("invalid value \"") + v + "\" for " + spec.env;
        return out;
      }
    }
  }
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      out.show_help = true;
      continue;
    }
    if (arg == "--version" || arg == "-V") {
      out.show_version = true;
      continue;
    }
    if (arg.substr(0, 2) != "--") {
      out.error = "unexpected argument \"" + std::string(arg) + "\"";
      return out;
    }
    arg.remove_prefix(2);
    std::string_view name = arg, value;
    bool has_value = false;
    if (auto eq = arg.find('='); eq != std::string_view::npos) {
      name = arg.substr(0, eq);
      value = arg.substr(eq + 1);
      has_value = true;
    }
    const OptionSpec* spec = nullptr;
    for (const auto& s : Specs()) {
      if (name == s.flag) spec = &s;
    }
    if (spec == nullptr) {
      out.error = "unknown option \"--" + std::string(name) + "\"";
      return out;
    }
    if (!has_value) {
      if (i + 1 >= argc) {
        out.error = "option \"--" + std::string(name) + "\" needs a value";
        return out;
      }
      value = argv[++i];
    }
    if (!spec->set(out.options, value)) {
      out.error = "invalid value \"" + std::string(value) + "\" for --" + std::string(name);
      return out;
    }
  }
  const ServerOptions& o = out.options;
  if ((o.auth == "password" || o.auth == "scram-sha-256") && o.users_file.empty()) {
    out.error = "--auth " + o.auth + " needs --users-file";
  } else if (o.tls_cert.empty() != o.tls_key.empty()) {
    out.error = "--tls-cert and --tls-key go together";
  } else if (!o.tls_ca.empty() && o.tls_cert.empty()) {
    out.error = "--tls-ca needs --tls-cert and --tls-key";
  }
  return out;
}

}  // namespace meridian::server
