// Order-preserving key codec: a tuple of Values becomes a byte string whose memcmp order is the
// SQL order of the tuple (NULLS LAST ascending, NULLS FIRST descending, like PostgreSQL), so
// B+tree pages compare keys with memcmp only. Byte format: docs/storage.md "Key format".
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "meridian/status.h"
#include "meridian/value.h"

namespace meridian::storage {

// Tag bytes (ascending form; a DESC column stores every byte of its encoding inverted).
inline constexpr uint8_t kKeyTagBool = 0x10;         // BOOLEAN: tag, 0x00 or 0x01
inline constexpr uint8_t kKeyTagInt = 0x20;          // INTEGER/BIGINT: tag, 8 bytes big-endian
inline constexpr uint8_t kKeyTagDouble = 0x30;       // DOUBLE: tag, 8 bytes (sign-flip trick)
inline constexpr uint8_t kKeyTagReal = 0x31;         // REAL: tag, as DOUBLE of the float's value
inline constexpr uint8_t kKeyTagNumeric = 0x34;      // NUMERIC: tag, class, exponent, digit pairs
inline constexpr uint8_t kKeyTagDate = 0x38;         // DATE: tag, 4 bytes big-endian, sign flipped
inline constexpr uint8_t kKeyTagTimestamp = 0x3C;    // TIMESTAMP: tag, 8 bytes like INTEGER
inline constexpr uint8_t kKeyTagTimestampTz = 0x3D;  // TIMESTAMPTZ: tag, 8 bytes like INTEGER
inline constexpr uint8_t kKeyTagTime = 0x3E;         // TIME: tag, 8 bytes like INTEGER
// INTERVAL: tag, the 128-bit span (months as 30 days) sign-flipped big-endian, then micros,
// days and months like INTEGER (equal spans with different fields are different keys).
inline constexpr uint8_t kKeyTagInterval = 0x3F;
inline constexpr uint8_t kKeyTagString = 0x40;  // TEXT/VARCHAR: tag, escaped bytes, 00 00
inline constexpr uint8_t kKeyTagUuid = 0x48;    // UUID: tag, the 16 bytes
inline constexpr uint8_t kKeyTagBytea = 0x4C;   // BYTEA: tag, bytes escaped as TEXT's
// ARRAY: tag, then per element kKeyArrayElement and its key or kKeyArrayNull, then
// kKeyArrayEnd (self-delimiting: no array's key is a prefix of another's). Index keys on array
// columns and ANALYZE's histograms; DecodeKey gives the elements back as an array value.
inline constexpr uint8_t kKeyTagArray = 0x50;
inline constexpr uint8_t kKeyArrayEnd = 0x00;      // after the last element: shorter first
inline constexpr uint8_t kKeyArrayElement = 0x01;  // a non-NULL element's key follows
inline constexpr uint8_t kKeyArrayNull = 0x02;     // a NULL element: above every value
inline constexpr uint8_t kKeyTagNull = 0xF0;       // NULL: tag only; greatest (NULLS LAST)

// Appends the encoding of one value. descending inverts every byte it appends.
void AppendKeyValue(const Value& value, bool descending, std::string* out);

// Encodes values in order; descending[i] (missing = false) makes column i descending. The
// encoding of the first n columns is a byte prefix of the encoding of all of them.
std::string EncodeKey(const std::vector<Value>& values, const std::vector<bool>& descending = {});

// Decodes a whole key (as many columns as it holds). XX001 on malformed input. -0.0 decodes
// as 0.0 and every NaN as the canonical quiet NaN; a numeric decodes with its smallest scale
// (1.50 → 1.5: keys are normalized so that equal numerics are equal keys).
Result<std::vector<Value>> DecodeKey(std::string_view key,
                                     const std::vector<bool>& descending = {});

// Smallest byte string greater than every string starting with prefix: the prefix with its
// last non-0xFF byte incremented and the rest dropped; empty when there is none (all 0xFF).
// Used as the exclusive upper bound of a prefix scan.
std::string PrefixSuccessor(std::string_view prefix);

}  // namespace meridian::storage
