// Statement splitting for the shell (see statement_splitter.h).
#include "shell/statement_splitter.h"

#include <cctype>

namespace meridian::shell {

namespace {

bool IsBlank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f'; }

bool IsIdentChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' ||
         static_cast<unsigned char>(c) >= 0x80;
}

std::string Trim(std::string_view s) {
  size_t b = 0;
  size_t e = s.size();
  while (b < e && IsBlank(s[b])) ++b;
  while (e > b && IsBlank(s[e - 1])) --e;
  return std::string(s.substr(b, e - b));
}

}  // namespace

void StatementSplitter::Reset() {
  buffer_.clear();
  state_ = State::kNormal;
  comment_depth_ = 0;
  has_content_ = false;
}

InputItem StatementSplitter::TakeStatement() {
  InputItem item;
  item.kind = InputItem::Kind::kSql;
  // Drop leading blank lines (and blanks), keep everything else, comments included.
  size_t b = 0;
  while (b < buffer_.size() && IsBlank(buffer_[b])) ++b;
  size_t e = buffer_.size();
  while (e > b && IsBlank(buffer_[e - 1])) --e;
  item.text = buffer_.substr(b, e - b);
  item.start_line = start_line_;
  buffer_.clear();
  has_content_ = false;
  return item;
}

std::vector<InputItem> StatementSplitter::FeedLine(std::string_view line) {
  ++line_number_;
  std::vector<InputItem> items;
  size_t i = 0;
  // A line whose first non-blank character is '\' (outside quotes and comments) is a command.
  if (state_ == State::kNormal) {
    size_t first = 0;
    while (first < line.size() && IsBlank(line[first])) ++first;
    if (first < line.size() && line[first] == '\\') {
      std::string command = Trim(line.substr(first));
      if ((command == "\\g" || command == "\\;") && has_content_) {
        buffer_ += '\n';
        items.push_back(TakeStatement());
      } else {
        if (!has_content_) buffer_.clear();
        items.push_back(InputItem{InputItem::Kind::kMeta, command, line_number_});
      }
      return items;
    }
  }
  for (; i < line.size(); ++i) {
    char c = line[i];
    char next = i + 1 < line.size() ? line[i + 1] : '\0';
    if (!has_content_ && buffer_.find_first_not_of(" \t\r\n\f") == std::string::npos &&
        state_ == State::kNormal && !IsBlank(c)) {
      start_line_ = line_number_;
    }
    switch (state_) {
      case State::kNormal:
        if (c == '-' && next == '-') {
          buffer_.append(line.substr(i));  // comment to end of line
          i = line.size();
          continue;
        }
        if (c == '/' && next == '*') {
          state_ = State::kBlockComment;
          comment_depth_ = 1;
          buffer_ += "/*";
          ++i;
          continue;
        }
        buffer_ += c;
        if (c == ';') {
          if (has_content_) {
            items.push_back(TakeStatement());
          } else {
            buffer_.clear();  // an empty statement
          }
          continue;
        }
        if (IsBlank(c)) continue;
        if (c == '\'') {
          bool escape = false;
          if (buffer_.size() >= 2 &&
              (buffer_[buffer_.size() - 2] == 'E' || buffer_[buffer_.size() - 2] == 'e')) {
            escape = buffer_.size() < 3 || !IsIdentChar(buffer_[buffer_.size() - 3]);
          }
          state_ = escape ? State::kEscapeQuote : State::kSingleQuote;
        } else if (c == '"') {
          state_ = State::kDoubleQuote;
        }
        has_content_ = true;
        break;
      case State::kSingleQuote:
      case State::kEscapeQuote:
      case State::kDoubleQuote: {
        buffer_ += c;
        const char quote = state_ == State::kDoubleQuote ? '"' : '\'';
        if (state_ == State::kEscapeQuote && c == '\\' && i + 1 < line.size()) {
          buffer_ += next;  // E'...': a backslash escapes the next character
          ++i;
        } else if (c == quote) {
          if (next == quote) {  // a doubled quote stands for itself
            buffer_ += next;
            ++i;
          } else {
            state_ = State::kNormal;
          }
        }
        break;
      }
      case State::kBlockComment:
        if (c == '/' && next == '*') {
          ++comment_depth_;
          buffer_ += "/*";
          ++i;
        } else if (c == '*' && next == '/') {
          buffer_ += "*/";
          ++i;
          if (--comment_depth_ == 0) state_ = State::kNormal;
        } else {
          buffer_ += c;
        }
        break;
    }
  }
  if (has_content_ || state_ != State::kNormal) {
    buffer_ += '\n';
  } else {
    buffer_.clear();  // only blanks and comments so far: nothing to keep
  }
  return items;
}

std::optional<InputItem> StatementSplitter::Finish() {
  if (!has_content_) {
    Reset();
    return std::nullopt;
  }
  InputItem item = TakeStatement();
  Reset();
  return item;
}

std::vector<InputItem> SplitInput(std::string_view text) {
  StatementSplitter splitter;
  std::vector<InputItem> items;
  size_t start = 0;
  while (start <= text.size()) {
    size_t nl = text.find('\n', start);
    std::string_view line =
        text.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start);
    for (auto& item : splitter.FeedLine(line)) items.push_back(std::move(item));
    if (nl == std::string_view::npos) break;
    start = nl + 1;
  }
  if (auto last = splitter.Finish()) items.push_back(std::move(*last));
  return items;
}

}  // namespace meridian::shell
