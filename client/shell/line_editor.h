// LineEditor: the shell's only seam to line editing. The libedit implementation gives editing and
// a history file (interactive use); the plain one reads lines from a stream (files, pipes).
#pragma once

#include <istream>
#include <memory>
#include <optional>
#include <string>

namespace meridian::shell {

class LineEditor {
 public:
  virtual ~LineEditor() = default;
  // Reads one line (without '\n') after showing prompt; nullopt at end of input.
  virtual std::optional<std::string> ReadLine(const std::string& prompt) = 0;
  // Records a finished entry (a whole statement or command) in the history.
  virtual void AddHistory(const std::string& entry) = 0;

  // libedit with history at history_path (loaded now, saved on destruction); empty = no file.
  static std::unique_ptr<LineEditor> CreateLibedit(const std::string& history_path);
  // Plain reads from in; no prompt, no history.
  static std::unique_ptr<LineEditor> CreatePlain(std::istream& in);
};

// ~/.meridian_history, or "" when HOME is unset.
std::string DefaultHistoryPath();

}  // namespace meridian::shell
