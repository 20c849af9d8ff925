// Command-line options of the `meridian` shell and their parser (flags override the
// MERIDIAN_HOST / MERIDIAN_PORT / MERIDIAN_USER / MERIDIAN_DATABASE environment variables).
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
  OutputFormat format = OutputFormat::kAligned;
  std::vector<ShellAction> actions;
  bool help = false;
  bool version = false;
};

using EnvLookup = std::function<std::optional<std::string>(const std::string&)>;

// Parses argv[1..]. Returns an error message for bad usage.
std::optional<std::string> ParseShellOptions(const std::vector<std::string>& args,
                                             const EnvLookup& env, ShellOptions* options);

std::string ShellUsage();

}  // namespace meridian::shell
