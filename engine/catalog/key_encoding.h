// A canonical byte string for a list of values, used as a hash key: the interim primary-key
// set, hash aggregation groups and DISTINCT. Two lists encode equal iff their values are
// equal as SQL values of the same static types (NULLs compare equal here; callers that need
// SQL NULL semantics check for NULL first).
#pragma once

#include <string>
#include <vector>

#include "meridian/value.h"

namespace meridian::catalog {

void AppendKeyValue(const Value& v, std::string* out);
std::string EncodeKey(const std::vector<Value>& values);
// Renders values as PostgreSQL's error detail does: "1, abc" (NULL as "null").
std::string KeyToText(const std::vector<Value>& values);

}  // namespace meridian::catalog
