// UUID and BYTEA text forms and encode()/decode() formats (meridian/binary.h).
#include "meridian/binary.h"

namespace meridian::binary {
namespace {

constexpr char kHexDigits[] = "0123456789abcdef";
constexpr char kBase64Digits[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

int Base64Value(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

bool IsHexSpace(char c) { return c == ' ' || c == '\n' || c == '\t' || c == '\r'; }

// The whole (UTF-8) character starting at text[i], as the error messages quote it.
std::string CharAt(std::string_view text, size_t i) {
  const auto lead = static_cast<unsigned char>(text[i]);
  size_t n = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
  return std::string(text.substr(i, n));
}

Status BadHexDigit(std::string_view text, size_t i) {
  return Status::Error(sqlstate::kInvalidParameterValue,
                       "invalid hexadecimal digit: \"" + CharAt(text, i) + "\"");
}

Status BadBytea() {
  return Status::Error(sqlstate::kInvalidTextRepresentation, "invalid input syntax for type bytea");
}

bool IsOctal(char c) { return c >= '0' && c <= '7'; }

}  // namespace

Result<Uuid> ParseUuid(std::string_view text) {
  auto bad = [&] {
    return Status::Error(sqlstate::kInvalidTextRepresentation,
                         "invalid input syntax for type uuid: \"" + std::string(text) + "\"");
  };
  Uuid u;
  size_t pos = 0;
  const bool braces = !text.empty() && text[0] == '{';
  if (braces) ++pos;
  for (size_t i = 0; i < u.bytes.size(); ++i) {
    if (text.size() - pos < 2) return bad();
    const int hi = HexValue(text[pos]), lo = HexValue(text[pos + 1]);
    if (hi < 0 || lo < 0) return bad();
    u.bytes[i] = static_cast<uint8_t>(hi * 16 + lo);
    pos += 2;
    // A hyphen may follow each group of four digits except the last.
    if (pos < text.size() && text[pos] == '-' && i % 2 == 1 && i + 1 < u.bytes.size()) ++pos;
  }
  if (braces) {
    if (pos >= text.size() || text[pos] != '}') return bad();
    ++pos;
  }
  if (pos != text.size()) return bad();
  return u;
}

std::string UuidToString(const Uuid& u) {
  std::string out;
  out.reserve(36);
  for (size_t i = 0; i < u.bytes.size(); ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out.push_back('-');
    out.push_back(kHexDigits[u.bytes[i] >> 4]);
    out.push_back(kHexDigits[u.bytes[i] & 0xF]);
  }
  return out;
}

Result<std::string> ParseBytea(std::string_view text) {
  if (text.size() >= 2 && text[0] == '\\' && text[1] == 'x') return DecodeHex(text.substr(2));
  return DecodeEscape(text);
}

std::string ByteaToText(std::string_view bytes) { return "\\x" + EncodeHex(bytes); }

std::string EncodeHex(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size() * 2);
  for (char c : bytes) {
    const auto b = static_cast<unsigned char>(c);
    out.push_back(kHexDigits[b >> 4]);
    out.push_back(kHexDigits[b & 0xF]);
  }
  return out;
}

Result<std::string> DecodeHex(std::string_view text) {
  std::string out;
  out.reserve(text.size() / 2);
  size_t i = 0;
  while (i < text.size()) {
    if (IsHexSpace(text[i])) {
      ++i;
      continue;
    }
    const int hi = HexValue(text[i]);
    if (hi < 0) return BadHexDigit(text, i);
    if (++i >= text.size()) {
      return Status::Error(sqlstate::kInvalidParameterValue,
                           "invalid hexadecimal data: odd number of digits");
    }
    const int lo = HexValue(text[i]);
    if (lo < 0) return BadHexDigit(text, i);
    ++i;
    out.push_back(static_cast<char>(hi * 16 + lo));
  }
  return out;
}

std::string EncodeBase64(std::string_view bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4 + bytes.size() / 57);
  size_t line = 0;
  for (size_t i = 0; i < bytes.size(); i += 3) {
    uint32_t group = static_cast<uint32_t>(static_cast<unsigned char>(bytes[i])) << 16;
    if (i + 1 < bytes.size()) group |= static_cast<uint32_t>(static_cast<unsigned char>(bytes[i + 1])) << 8;
    if (i + 2 < bytes.size()) group |= static_cast<unsigned char>(bytes[i + 2]);
    out.push_back(kBase64Digits[(group >> 18) & 63]);
    out.push_back(kBase64Digits[(group >> 12) & 63]);
    out.push_back(i + 1 < bytes.size() ? kBase64Digits[(group >> 6) & 63] : '=');
    out.push_back(i + 2 < bytes.size() ? kBase64Digits[group & 63] : '=');
    // A full line ends after its last whole group, also at the end of the data (PostgreSQL).
    line += 4;
    if (line >= 76 && i + 2 < bytes.size()) {
      out.push_back('\n');
      line = 0;
    }
  }
  return out;
}

Result<std::string> DecodeBase64(std::string_view text) {
  std::string out;
  out.reserve(text.size() / 4 * 3);
  uint32_t group = 0;
  int count = 0;    // symbols in the current group of four
  int padding = 0;  // 0, or the group position of its first '=' (then 1 or 2 bytes are kept)
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (IsHexSpace(c)) continue;
    int v = 0;
    if (c == '=') {
      if (padding == 0) {
        if (count == 2) {
          padding = 1;
        } else if (count == 3) {
          padding = 2;
        } else {
          return Status::Error(sqlstate::kInvalidParameterValue,
                               "unexpected \"=\" while decoding base64 sequence");
        }
      }
    } else {
      v = Base64Value(c);
      if (v < 0) {
        return Status::Error(sqlstate::kInvalidParameterValue,
                             "invalid symbol \"" + CharAt(text, i) +
                                 "\" found while decoding base64 sequence");
      }
    }
    group = (group << 6) | static_cast<uint32_t>(v);
    if (++count == 4) {
      out.push_back(static_cast<char>((group >> 16) & 0xFF));
      if (padding == 0 || padding > 1) out.push_back(static_cast<char>((group >> 8) & 0xFF));
      if (padding == 0 || padding > 2) out.push_back(static_cast<char>(group & 0xFF));
      group = 0;
      count = 0;
    }
  }
  if (count != 0) {
    return Status::Error(sqlstate::kInvalidParameterValue, "invalid base64 end sequence")
        .WithHint("Input data is missing padding, is truncated, or is otherwise corrupted.");
  }
  return out;
}

std::string EncodeEscape(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size());
  for (char c : bytes) {
    const auto b = static_cast<unsigned char>(c);
    if (b == 0 || b >= 0x80) {
      out.push_back('\\');
      out.push_back(static_cast<char>('0' + (b >> 6)));
      out.push_back(static_cast<char>('0' + ((b >> 3) & 7)));
      out.push_back(static_cast<char>('0' + (b & 7)));
    } else if (c == '\\') {
      out += "\\\\";
    } else {
      out.push_back(c);
    }
  }
  return out;
}

Result<std::string> DecodeEscape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    if (text[i] != '\\') {
      out.push_back(text[i++]);
    } else if (i + 3 < text.size() && text[i + 1] >= '0' && text[i + 1] <= '3' &&
               IsOctal(text[i + 2]) && IsOctal(text[i + 3])) {
      out.push_back(static_cast<char>(((text[i + 1] - '0') << 6) | ((text[i + 2] - '0') << 3) |
                                      (text[i + 3] - '0')));
      i += 4;
    } else if (i + 1 < text.size() && text[i + 1] == '\\') {
      out.push_back('\\');
      i += 2;
    } else {
      return BadBytea();
    }
  }
  return out;
}

}  // namespace meridian::binary
