// A canonical byte string for a list of values, used as a hash key by the operators: hash
// aggregation groups, DISTINCT, hash joins, set operations, hashed subqueries and foreign-key
// batches. (Index keys are storage/key_codec.h's order-preserving encoding.) Two lists encode equal
// iff their values are equal as SQL values of the same static types (NULLs compare equal here;
// callers that need SQL NULL semantics check for NULL first).
#pragma once

#include <string>
#include <vector>

#include "meridian/value.h"

namespace meridian::exec {

void AppendKeyValue(const Value& v, std::string* out);
std::string EncodeKey(const std::vector<Value>& values);

}  // namespace meridian::exec
