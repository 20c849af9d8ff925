// Command-line parsing of the shell (see shell_options.h).
#include "shell/shell_options.h"

#include <charconv>
#include <fstream>
#include <sstream>

namespace meridian::shell {

namespace {

bool ParsePort(const std::string& text, int* port) {
  int value = 0;
  auto res = std::from_chars(text.data(), text.data() + text.size(), value);
  if (res.ec != std::errc() || res.ptr != text.data() + text.size() || value <= 0 ||
      value > 65535) {
    return false;
  }
  *port = value;
  return true;
}

std::optional<std::string> ReadWholeFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

std::string ShellUsage() {
  return "Usage: meridian [OPTION]...\n"
         "\n"
         "Meridian interactive shell.\n"
         "\n"
         "Options:\n"
         "  -h, --host HOST       server host (default 127.0.0.1, or $MERIDIAN_HOST)\n"
         "  -p, --port PORT       server gRPC port (default 7432, or $MERIDIAN_PORT)\n"
         "  -U, --user USER       user name (default meridian, or $MERIDIAN_USER)\n"
         "  -d, --dbname DB       database (default meridian, or $MERIDIAN_DATABASE)\n"
         "      --sslmode MODE    disable (default), or require / verify-ca / verify-full: TLS,\n"
         "                        the server's certificate always verified ($MERIDIAN_SSLMODE)\n"
         "      --sslrootcert FILE  CA certificates to verify the server with (default: the\n"
         "                        system's; $MERIDIAN_SSLROOTCERT; implies TLS)\n"
         "      --sslcert FILE, --sslkey FILE   client certificate and key (meridiand --tls-ca)\n"
         "      --ssl-server-name NAME   name expected in the server's certificate (default: host)\n"
         "  -c, --command SQL     run SQL (or one backslash command) and exit; repeatable\n"
         "  -f, --file FILE       run the statements of FILE ('-' = stdin); repeatable\n"
         "      --format FORMAT   aligned (default), csv or json\n"
         "      --csv, --json     same as --format csv / --format json\n"
         "      --help            show this help and exit\n"
         "      --version         show the version and exit\n"
         "\n"
         "Without -c or -f, statements are read from stdin (interactively on a terminal).\n"
         "The password comes from $MERIDIAN_PASSWORD or the file named by\n"
         "$MERIDIAN_PASSWORD_FILE (its first line).\n"
         "Exit status: 0 all statements succeeded, 1 a statement failed, 2 connection failed or\n"
         "was lost.\n";
}

std::optional<std::string> ParseShellOptions(const std::vector<std::string>& args,
                                             const EnvLookup& env, ShellOptions* options,
                                             const FileReader& read_file) {
  if (auto v = env("MERIDIAN_HOST"); v && !v->empty()) options->host = *v;
  if (auto v = env("MERIDIAN_PORT"); v && !v->empty()) {
    if (!ParsePort(*v, &options->port)) return "invalid MERIDIAN_PORT \"" + *v + "\"";
  }
  if (auto v = env("MERIDIAN_USER"); v && !v->empty()) options->user = *v;
  if (auto v = env("MERIDIAN_DATABASE"); v && !v->empty()) options->dbname = *v;
  if (auto v = env("MERIDIAN_PASSWORD"); v && !v->empty()) {
    options->password = *v;
  } else if (auto f = env("MERIDIAN_PASSWORD_FILE"); f && !f->empty()) {
    std::optional<std::string> text = read_file ? read_file(*f) : ReadWholeFile(*f);
    if (!text) return "could not read MERIDIAN_PASSWORD_FILE \"" + *f + "\"";
    options->password = text->substr(0, text->find_first_of("\r\n"));
  }
  if (auto v = env("MERIDIAN_SSLROOTCERT"); v && !v->empty()) {
    options->tls.ca_file = *v;
    options->tls.enabled = true;
  }
  if (auto v = env("MERIDIAN_SSLMODE"); v && !v->empty()) {
    if (!client::ApplySslMode(*v, &options->tls)) return "invalid MERIDIAN_SSLMODE \"" + *v + "\"";
  }

  for (size_t i = 0; i < args.size(); ++i) {
    std::string arg = args[i];
    std::optional<std::string> inline_value;
    if (arg.rfind("--", 0) == 0) {
      size_t eq = arg.find('=');
      if (eq != std::string::npos) {
        inline_value = arg.substr(eq + 1);
        arg = arg.substr(0, eq);
      }
    } else if (arg.size() > 2 && arg[0] == '-' && arg[1] != '-') {
      inline_value = arg.substr(2);  // -p7432, -cSQL
      arg = arg.substr(0, 2);
    }
    auto value = [&](std::string* out) -> std::optional<std::string> {
      if (inline_value) {
        *out = *inline_value;
        return std::nullopt;
      }
      if (i + 1 >= args.size()) return "option " + arg + " needs a value";
      *out = args[++i];
      return std::nullopt;
    };
    std::string v;
    if (arg == "--help" || arg == "-?") {
      options->help = true;
    } else if (arg == "--version" || arg == "-V") {
      options->version = true;
    } else if (arg == "-h" || arg == "--host") {
      if (auto e = value(&options->host)) return e;
    } else if (arg == "-p" || arg == "--port") {
      if (auto e = value(&v)) return e;
      if (!ParsePort(v, &options->port)) return "invalid port \"" + v + "\"";
    } else if (arg == "-U" || arg == "--user" || arg == "--username") {
      if (auto e = value(&options->user)) return e;
    } else if (arg == "-d" || arg == "--dbname") {
      if (auto e = value(&options->dbname)) return e;
    } else if (arg == "--sslmode") {
      if (auto e = value(&v)) return e;
      if (!client::ApplySslMode(v, &options->tls)) {
        return "invalid sslmode \"" + v + "\" (disable, require, verify-ca or verify-full)";
      }
    } else if (arg == "--sslrootcert") {
      if (auto e = value(&options->tls.ca_file)) return e;
      options->tls.enabled = true;
    } else if (arg == "--sslcert") {
      if (auto e = value(&options->tls.cert_file)) return e;
    } else if (arg == "--sslkey") {
      if (auto e = value(&options->tls.key_file)) return e;
    } else if (arg == "--ssl-server-name") {
      if (auto e = value(&options->tls.server_name)) return e;
    } else if (arg == "-c" || arg == "--command") {
      if (auto e = value(&v)) return e;
      options->actions.push_back({ShellAction::Kind::kCommand, v});
    } else if (arg == "-f" || arg == "--file") {
      if (auto e = value(&v)) return e;
      options->actions.push_back({ShellAction::Kind::kFile, v});
    } else if (arg == "--format") {
      if (auto e = value(&v)) return e;
      if (!ParseOutputFormat(v, &options->format)) {
        return "invalid format \"" + v + "\" (aligned, csv or json)";
      }
    } else if (arg == "--csv") {
      options->format = OutputFormat::kCsv;
    } else if (arg == "--json") {
      options->format = OutputFormat::kJson;
    } else {
      return "unknown option \"" + args[i] + "\"";
    }
  }
  return std::nullopt;
}

}  // namespace meridian::shell
