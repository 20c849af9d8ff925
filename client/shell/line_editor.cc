// LineEditor implementations: libedit (readline-compatible API) and plain stream reads.
#include "shell/line_editor.h"

#include <editline/readline.h>

#include <cstdlib>

namespace meridian::shell {

namespace {

constexpr int kHistorySize = 1000;

class LibeditLineEditor : public LineEditor {
 public:
  explicit LibeditLineEditor(std::string history_path) : history_path_(std::move(history_path)) {
    using_history();
    stifle_history(kHistorySize);
    if (!history_path_.empty()) read_history(history_path_.c_str());
  }
  ~LibeditLineEditor() override {
    if (!history_path_.empty()) write_history(history_path_.c_str());
  }

  std::optional<std::string> ReadLine(const std::string& prompt) override {
    char* line = readline(prompt.c_str());
    if (line == nullptr) return std::nullopt;
    std::string out(line);
    std::free(line);
    return out;
  }

  void AddHistory(const std::string& entry) override {
    if (entry.empty() || entry == last_entry_) return;
    add_history(entry.c_str());
    last_entry_ = entry;
  }

 private:
  std::string history_path_;
  std::string last_entry_;
};

class PlainLineEditor : public LineEditor {
 public:
  explicit PlainLineEditor(std::istream& in) : in_(in) {}

  std::optional<std::string> ReadLine(const std::string&) override {
    std::string line;
    if (!std::getline(in_, line)) return std::nullopt;
    return line;
  }
  void AddHistory(const std::string&) override {}

 private:
  std::istream& in_;
};

}  // namespace

std::unique_ptr<LineEditor> LineEditor::CreateLibedit(const std::string& history_path) {
  return std::make_unique<LibeditLineEditor>(history_path);
}

std::unique_ptr<LineEditor> LineEditor::CreatePlain(std::istream& in) {
  return std::make_unique<PlainLineEditor>(in);
}

std::string DefaultHistoryPath() {
  const char* home = std::getenv("HOME");
  if (home == nullptr || *home == '\0') return "";
  return std::string(home) + "/.meridian_history";
}

}  // namespace meridian::shell
