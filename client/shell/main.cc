// Entry point of the `meridian` shell: parses options, wires Ctrl-C to statement cancellation
// and runs the Shell.
#include <unistd.h>

#include <cstdlib>
#include <iostream>

#include "shell/shell.h"
#include "shell/sigint_watcher.h"

int main(int argc, char** argv) {
  using meridian::shell::ShellOptions;
  std::vector<std::string> args(argv + 1, argv + argc);
  ShellOptions options;
  auto env = [](const std::string& name) -> std::optional<std::string> {
    const char* v = std::getenv(name.c_str());
    if (v == nullptr) return std::nullopt;
    return std::string(v);
  };
  if (auto error = meridian::shell::ParseShellOptions(args, env, &options)) {
    std::cerr << "meridian: error: " << *error
              << "\nTry \"meridian --help\" for more information.\n";
    return meridian::shell::kExitStatementFailed;
  }
  bool interactive = isatty(STDIN_FILENO) != 0 && options.actions.empty();
  meridian::shell::Shell shell(options, std::cin, std::cout, std::cerr);
  shell.set_interrupt_counter(meridian::shell::SigintCount);
  meridian::shell::SigintWatcher watcher([&shell] {
    if (!shell.Interrupt()) std::_Exit(130);  // idle and not interactive: die as SIGINT would
  });
  return shell.Run(interactive);
}
