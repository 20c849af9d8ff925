// Command-line options of the `meridian` shell and their parser (flags override the
// MERIDIAN_HOST / MERIDIAN_PORT / MERIDIAN_USER / MERIDIAN_DATABASE / MERIDIAN_SSLMODE /
// MERIDIAN_SSLROOTCERT environment variables; the password comes from MERIDIAN_PASSWORD or the
// file named by MERIDIAN_PASSWORD_FILE, never from the command line).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "meridian/client/connection.h"
#include "shell/result_printer.h"

namespace meridian::shell {

struct ShellAction {
  enum class Kind { kCommand, kFile };  // -c SQL, -f FILE (in command-line order)
  Kind kind;
  std::string text;
};

struct ShellOptions {
  std::string host = client::kDefaultHost;
  int port = client::kDefaultPort;
  std::string user = "meridian";
  std::string dbname = "meridian";
  std::string password;     // MERIDIAN_PASSWORD, or the first line of MERIDIAN_PASSWORD_FILE
  client::TlsOptions tls;   // --sslmode, --sslrootcert, --sslcert, --sslkey, --ssl-server-name
  OutputFormat format = OutputFormat::kAligned;
  std::vector<ShellAction> actions;
  bool help = false;
  bool version = false;
};

using EnvLookup = std::function<std::optional<std::string>(const std::string&)>;
// Reads a whole file; nullopt when it cannot be read (the password file).
using FileReader = std::function<std::optional<std::string>(const std::string&)>;

// Parses argv[1..]. Returns an error message for bad usage.
// read_file: for MERIDIAN_PASSWORD_FILE; null reads from the file system.
std::optional<std::string> ParseShellOptions(const std::vector<std::string>& args,
                                             const EnvLookup& env, ShellOptions* options,
                                             const FileReader& read_file = nullptr);

std::string ShellUsage();

}  // namespace meridian::shell
