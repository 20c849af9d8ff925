// StatementSplitter: cuts shell input into SQL statements at ';' outside quotes ('...', E'...',
// "...") and comments (--, nested /* */), and recognizes backslash commands, which end at end of
// line. Fed line by line, so the interactive shell knows when to show the continuation prompt.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace meridian::shell {

struct InputItem {
  enum class Kind { kSql, kMeta };
  Kind kind = Kind::kSql;
  std::string text;    // SQL including its ';' (leading blank lines dropped), or "\cmd args"
  int start_line = 0;  // 1-based input line where the item starts
};

class StatementSplitter {
 public:
  // Feeds one input line (without its '\n'); returns the items it completed, in order.
  std::vector<InputItem> FeedLine(std::string_view line);
  // At end of input: the unterminated statement, if it has more than blanks and comments.
  std::optional<InputItem> Finish();
  // True when part of a statement is pending (the shell shows "meridian-> ").
  bool HasPending() const { return has_content_ || state_ != State::kNormal; }
  // Drops any pending text (Ctrl-C at the prompt).
  void Reset();

 private:
  enum class State { kNormal, kSingleQuote, kEscapeQuote, kDoubleQuote, kBlockComment };

  InputItem TakeStatement();

  std::string buffer_;
  State state_ = State::kNormal;
  int comment_depth_ = 0;
  bool has_content_ = false;  // a character outside comments and whitespace is pending
  int line_number_ = 0;
  int start_line_ = 0;
};

// Splits a whole text (a file, or stdin) into items.
std::vector<InputItem> SplitInput(std::string_view text);

}  // namespace meridian::shell
