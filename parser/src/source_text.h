// SourceText: the request as ANTLR sees it (a sequence of code points) plus the map back to its
// UTF-8 bytes, so that token code-point indexes become 1-based positions and exact substrings.
// Validates UTF-8 strictly first (ANTLR's own decoder throws on malformed input), and blanks out
// comments itself, because nested /* */ comments are beyond what an ANTLR lexer rule does exactly.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "meridian/status.h"

namespace meridian::parser {

class SourceText {
 public:
  // Fails with 22021 (as PostgreSQL) when text is not valid UTF-8 or contains a NUL byte, and
  // with 42601 on an unterminated /* comment.
  static Result<SourceText> Make(std::string_view text);

  std::string_view text() const { return text_; }
  // What the lexer reads: text with every comment character replaced by a space (newlines
  // kept), so code-point indexes, lines and columns are the same as in text.
  const std::string& lexer_text() const { return lexer_text_; }
  size_t size() const { return byte_offset_.size() - 1; }  // in code points

  // Replaces bytes [begin, end) of lexer_text() by one space per code point (newlines kept), so
  // the lexer skips them and every other index stays put.
  void BlankLexerBytes(size_t begin, size_t end);
  // Drops lexer_text() from byte begin on (what follows is known not to matter to the parse).
  void TruncateLexerText(size_t begin) { lexer_text_.resize(begin); }

  // Source bytes of code points [begin, end), clamped to the text.
  std::string_view Slice(size_t begin, size_t end) const;

 private:
  explicit SourceText(std::string_view text) : text_(text) {}
  Status BlankComments();
  Status UnterminatedComment(size_t byte_index) const;
  static size_t DollarQuoteEnd(std::string_view t, size_t i);

  std::string_view text_;
  std::string lexer_text_;
  std::vector<uint32_t> byte_offset_;  // byte offset of each code point, plus one past the end
};

}  // namespace meridian::parser
