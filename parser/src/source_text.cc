// UTF-8 validation and the code-point-to-byte map behind SourceText (see source_text.h).

#include "source_text.h"

#include <cstdio>

#include "meridian/parser/utf8.h"

namespace meridian::parser {

Result<SourceText> SourceText::Make(std::string_view text) {
  SourceText src(text);
  src.byte_offset_.reserve(text.size() + 1);
  for (size_t i = 0; i < text.size();) {
    size_t len = text[i] == '\0' ? 0 : Utf8SequenceLength(text, i);
    if (len == 0) {
      char buf[8];
      std::snprintf(buf, sizeof(buf), "0x%02x", static_cast<unsigned char>(text[i]));
      return Status::Error("22021",
                           std::string("invalid byte sequence for encoding \"UTF8\": ") + buf)
          .WithPosition(static_cast<uint32_t>(src.byte_offset_.size() + 1));
    }
    src.byte_offset_.push_back(static_cast<uint32_t>(i));
    i += len;
  }
  src.byte_offset_.push_back(static_cast<uint32_t>(text.size()));
  MERIDIAN_RETURN_IF_ERROR(src.BlankComments());
  return src;
}

namespace {

bool DollarTagChar(unsigned char c, bool first) {
  return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80 ||
         (!first && c >= '0' && c <= '9');
}

}  // namespace

// A dollar-quoted string ($$...$$, $tag$...$tag$) starting at t[i]: the index just past its
// closing delimiter (t.size() when it has none); 0 when none starts there (a '$' inside an
// identifier or a $n parameter starts none).
size_t SourceText::DollarQuoteEnd(std::string_view t, size_t i) {
  if (t[i] != '$') return 0;
  if (i > 0) {
    const unsigned char prev = static_cast<unsigned char>(t[i - 1]);
    if (DollarTagChar(prev, false) || prev == '$') return 0;
  }
  size_t j = i + 1;
  while (j < t.size() && DollarTagChar(static_cast<unsigned char>(t[j]), j == i + 1)) ++j;
  if (j >= t.size() || t[j] != '$') return 0;
  const std::string_view delimiter = t.substr(i, j + 1 - i);
  const size_t close = t.find(delimiter, j + 1);
  return close == std::string_view::npos ? t.size() : close + delimiter.size();
}

// Scans like the SQL lexer does for quotes and comments: '...' and "..." (with doubled quotes)
// are skipped, -- runs to the end of the line, /* */ nests as in PostgreSQL. An unterminated
// quote is left for the ANTLR lexer to report.
Status SourceText::BlankComments() {
  const std::string_view t = text_;
  lexer_text_.clear();
  lexer_text_.reserve(t.size());
  // Appends t[begin, end) with each code point but newlines replaced by one space.
  const auto blank = [&](size_t begin, size_t end) {
    for (size_t k = begin; k < end; ++k) {
      unsigned char c = static_cast<unsigned char>(t[k]);
      if (c == '\n' || c == '\r') {
        lexer_text_ += static_cast<char>(c);
      } else if ((c & 0xC0) != 0x80) {
        lexer_text_ += ' ';
      }
    }
  };
  size_t i = 0;
  while (i < t.size()) {
    char c = t[i];
    if (c == '\'' || c == '"') {
      size_t j = i + 1;
      while (j < t.size()) {
        if (t[j] == c) {
          if (j + 1 < t.size() && t[j + 1] == c) {
            j += 2;
            continue;
          }
          ++j;
          break;
        }
        ++j;
      }
      lexer_text_.append(t.substr(i, j - i));
      i = j;
    } else if (size_t end = DollarQuoteEnd(t, i); end != 0) {
      lexer_text_.append(t.substr(i, end - i));
      i = end;
    } else if (c == '-' && i + 1 < t.size() && t[i + 1] == '-') {
      size_t j = t.find('\n', i);
      if (j == std::string_view::npos) j = t.size();
      blank(i, j);
      i = j;
    } else if (c == '/' && i + 1 < t.size() && t[i + 1] == '*') {
      size_t j = i + 2;
      int depth = 1;
      while (j < t.size() && depth > 0) {
        if (t[j] == '/' && j + 1 < t.size() && t[j + 1] == '*') {
          ++depth;
          j += 2;
        } else if (t[j] == '*' && j + 1 < t.size() && t[j + 1] == '/') {
          --depth;
          j += 2;
        } else {
          ++j;
        }
      }
      if (depth > 0) return UnterminatedComment(i);
      blank(i, j);
      i = j;
    } else {
      lexer_text_ += c;
      ++i;
    }
  }
  return Status::Ok();
}

void SourceText::BlankLexerBytes(size_t begin, size_t end) {
  std::string out;
  out.reserve(lexer_text_.size());
  out.append(lexer_text_, 0, begin);
  for (size_t k = begin; k < end && k < lexer_text_.size(); ++k) {
    const char c = lexer_text_[k];
    if (c == '\n' || c == '\r') {
      out += c;
    } else if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) {
      out += ' ';
    }
  }
  if (end < lexer_text_.size()) out.append(lexer_text_, end);
  lexer_text_ = std::move(out);
}

Status SourceText::UnterminatedComment(size_t byte_index) const {
  // Code-point index, line and column of the comment's first byte.
  size_t cp = 0;
  while (byte_offset_[cp] < byte_index) ++cp;
  uint32_t line = 1;
  uint32_t column = 1;
  for (size_t k = 0; k < cp; ++k) {
    if (text_[byte_offset_[k]] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return Status::Error(sqlstate::kSyntaxError, "unterminated /* comment at or near \"" +
                                                   std::string(text_.substr(byte_index)) + "\"")
      .WithPosition(static_cast<uint32_t>(cp + 1))
      .WithDetail("line " + std::to_string(line) + ", column " + std::to_string(column));
}

std::string_view SourceText::Slice(size_t begin, size_t end) const {
  size_t n = size();
  if (begin > n) begin = n;
  if (end > n) end = n;
  if (end < begin) end = begin;
  return text_.substr(byte_offset_[begin], byte_offset_[end] - byte_offset_[begin]);
}

}  // namespace meridian::parser
