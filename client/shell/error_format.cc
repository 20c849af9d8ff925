// psql-style error display (see error_format.h).
#include "shell/error_format.h"

#include <vector>

namespace meridian::shell {

namespace {

constexpr size_t kDisplaySize = 60;  // libpq's DISPLAY_SIZE
constexpr size_t kMinRightCut = 10;  // libpq's MIN_RIGHT_CUT

// Byte offsets of the code points of text (plus text.size() at the end).
std::vector<size_t> CodePointOffsets(std::string_view text) {
  std::vector<size_t> offsets;
  for (size_t i = 0; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) offsets.push_back(i);
  }
  offsets.push_back(text.size());
  return offsets;
}

}  // namespace

std::string FormatErrorPosition(std::string_view sql, uint32_t position) {
  if (position == 0 || sql.empty()) return "";
  std::vector<size_t> cps = CodePointOffsets(sql);
  size_t ncp = cps.size() - 1;
  size_t cp = position - 1;  // 0-based code point index of the error
  if (cp > ncp) return "";   // position == ncp + 1 (end of input) is allowed
  size_t byte = cps[cp];
  // The source line holding the error.
  size_t line_start = 0;
  if (byte > 0) {
    size_t nl = sql.rfind('\n', byte - 1);
    if (nl != std::string_view::npos) line_start = nl + 1;
  }
  size_t line_end = sql.find('\n', byte);
  if (line_end == std::string_view::npos) line_end = sql.size();
  size_t line_number = 1;
  for (size_t i = 0; i < line_start; ++i) {
    if (sql[i] == '\n') ++line_number;
  }
  // Work in code points of the line; tabs and CRs display as spaces.
  std::vector<std::string> chars;
  size_t caret = 0;
  for (size_t i = line_start; i < line_end;) {
    size_t j = i + 1;
    while (j < line_end && (static_cast<unsigned char>(sql[j]) & 0xC0) == 0x80) ++j;
    if (i < byte) ++caret;
    std::string ch(sql.substr(i, j - i));
    if (ch == "\t" || ch == "\r") ch = " ";
    chars.push_back(std::move(ch));
    i = j;
  }
  size_t begin = 0;
  size_t end = chars.size();
  bool begin_cut = false;
  bool end_cut = false;
  if (end - begin > kDisplaySize) {
    if (caret + kMinRightCut < kDisplaySize) {
      end = kDisplaySize;  // the error is near the start: cut the tail
      end_cut = true;
    } else {
      if (caret + kMinRightCut < end) {
        end = caret + kMinRightCut;
        end_cut = true;
      }
      if (end > kDisplaySize) {
        begin = end - kDisplaySize;
        begin_cut = true;
      }
    }
  }
  std::string prefix = "LINE " + std::to_string(line_number) + ": ";
  std::string out = prefix;
  if (begin_cut) out += "...";
  for (size_t i = begin; i < end; ++i) out += chars[i];
  if (end_cut) out += "...";
  out += '\n';
  size_t indent = prefix.size() + (begin_cut ? 3 : 0) + (caret - begin);
  out.append(indent, ' ');
  out += "^\n";
  return out;
}

std::string FormatError(const client::ClientError& error, std::string_view sql) {
  std::string out = (error.severity.empty() ? std::string("ERROR") : error.severity) + ":  ";
  if (!error.sqlstate.empty()) out += error.sqlstate + ": ";
  out += error.message;
  out += '\n';
  uint32_t position = error.position;
  if (position == 0 && error.line > 0 && error.column > 0) {
    // Only line and column given: turn them into a character position.
    size_t line = 1;
    uint32_t cp = 0;
    for (size_t i = 0; i < sql.size() && line < error.line; ++i) {
      if ((static_cast<unsigned char>(sql[i]) & 0xC0) != 0x80) ++cp;
      if (sql[i] == '\n') ++line;
    }
    if (line == error.line) position = cp + error.column;
  }
  out += FormatErrorPosition(sql, position);
  if (!error.detail.empty()) out += "DETAIL:  " + error.detail + "\n";
  if (!error.hint.empty()) out += "HINT:  " + error.hint + "\n";
  return out;
}

}  // namespace meridian::shell
