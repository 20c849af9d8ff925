// UUID and BYTEA text forms and the byte encodings of encode()/decode(): PostgreSQL 15's
// uuid_in/uuid_out, byteain/byteaout (bytea_output = 'hex') and the hex, base64 and escape
// formats, with its SQLSTATEs and messages.
#pragma once

#include <string>
#include <string_view>

#include "meridian/status.h"
#include "meridian/value.h"

namespace meridian::binary {

// uuid_in: 32 hex digits (either case), optionally in braces, with a '-' allowed after any
// group of four digits but the last; 22P02 otherwise.
Result<Uuid> ParseUuid(std::string_view text);
// uuid_out: lowercase, hyphenated 8-4-4-4-12.
std::string UuidToString(const Uuid& u);

// byteain: "\x" then hex digit pairs (whitespace allowed between pairs), or the escape format
// (\ooo octal bytes with the first digit 0-3, \\ for a backslash, other bytes as they are).
Result<std::string> ParseBytea(std::string_view text);
// byteaout in hex form: "\x" and two lowercase hex digits per byte.
std::string ByteaToText(std::string_view bytes);

// The formats of encode(bytea, format) / decode(text, format).
std::string EncodeHex(std::string_view bytes);
// Whitespace between digit pairs is skipped; 22023 on a bad digit or an odd count.
Result<std::string> DecodeHex(std::string_view text);
// Each run of 76 characters (19 whole groups) ends with '\n', the last one too.
std::string EncodeBase64(std::string_view bytes);
// Whitespace is skipped; 22023 on a bad symbol or end sequence.
Result<std::string> DecodeBase64(std::string_view text);
// Zero bytes and bytes >= 0x80 as \ooo, a backslash doubled, other bytes as they are.
std::string EncodeEscape(std::string_view bytes);
// \ooo and \\; any other backslash is 22P02.
Result<std::string> DecodeEscape(std::string_view text);

}  // namespace meridian::binary
