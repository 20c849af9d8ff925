// Shell: the `meridian` program's logic — connect, run -c/-f actions or read statements from
// stdin (interactively through a LineEditor on a terminal), print results, errors and timing,
// and run backslash commands. Exit codes: 0 ok, 1 a statement failed, 2 connection failed/lost.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>

#include "meridian/client/connection.h"
#include "shell/line_editor.h"
#include "shell/shell_options.h"

namespace meridian::shell {

inline constexpr int kExitOk = 0;
inline constexpr int kExitStatementFailed = 1;
inline constexpr int kExitConnectionFailed = 2;

class Shell {
 public:
  Shell(ShellOptions options, std::istream& in, std::ostream& out, std::ostream& err);
  ~Shell();

  // Runs everything and returns the exit code. interactive: stdin is a terminal (then, without
  // -c/-f, lines come from libedit with history).
  int Run(bool interactive);

  // Source of a Ctrl-C counter (SigintCount); the interactive loop compares it around each
  // line read to tell an interrupted read from end of input.
  void set_interrupt_counter(std::function<uint64_t()> counter) {
    interrupt_counter_ = std::move(counter);
  }

  // Ctrl-C (called from the signal-watching thread): cancels the running statement; at the
  // interactive prompt it drops the pending input. Returns false when nothing was running and
  // the shell is not interactive (the caller then exits, as an uncaught SIGINT would).
  bool Interrupt();

 private:
  enum class Outcome { kOk, kError, kLost, kQuit };

  Outcome RunSql(const std::string& sql);
  Outcome RunMeta(const std::string& command);
  Outcome RunInput(LineEditor& editor, bool interactive);
  Outcome DescribeTables();
  Outcome DescribeIndexes();
  Outcome DescribeTable(const std::string& name);
  Outcome CatalogError(const client::ClientError& error);
  static int ExitCode(Outcome outcome);

  ShellOptions options_;
  std::istream& in_;
  std::ostream& out_;
  std::ostream& err_;
  std::unique_ptr<client::Connection> connection_;
  std::atomic<client::Connection*> live_connection_{nullptr};  // for Interrupt()
  std::atomic<bool> running_{false};                           // a statement is executing
  std::atomic<bool> interactive_{false};
  bool timing_ = false;
  std::function<uint64_t()> interrupt_counter_ = [] { return uint64_t{0}; };
};

}  // namespace meridian::shell
