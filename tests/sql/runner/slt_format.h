// sqllogictest value formatting, sorting and hashing: I integer, R "%.3f", T text with bytes
// outside 0x20-0x7e as '@', NULL as "NULL", the empty string as "(empty)"; rowsort/valuesort
// order by the formatted strings; results over the hash threshold compare as
// "N values hashing to <md5 of each value followed by '\n'>".
#pragma once

#include <string>
#include <vector>

#include "meridian/client/statement_result.h"
#include "runner/slt_parser.h"

namespace meridian::slt {

// One value in the form of column type letter type ('I', 'R' or 'T'). Booleans print as
// "true"/"false" under T and 1/0 under I and R.
std::string FormatSltValue(const client::Value& value, char type);

// All values of result in output order (row by row), formatted by types and sorted by sort.
// Columns beyond types format as T.
std::vector<std::string> FormatResult(const client::StatementResult& result,
                                      const std::string& types, SortMode sort);

// md5 hex of every value followed by '\n'.
std::string HashValues(const std::vector<std::string>& values);

// "N values hashing to H".
std::string HashLine(const std::vector<std::string>& values);

// Whether line has the form "N values hashing to <32 hex>".
bool IsHashLine(const std::string& line);

}  // namespace meridian::slt
