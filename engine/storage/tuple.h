// Tuple codec: a Row of typed Values to the bytes a HeapFile stores, and back.
// CONTRACT shared by engine/storage (implements) and engine/exec (uses).
// The layout (a byte table lives in engine/storage/README.md) begins with a fixed header that
// reserves room for MVCC (creating and deleting transaction timestamps) so the transaction
// issue can fill it without a format change.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "meridian/status.h"
#include "meridian/value.h"

namespace meridian::storage {

// Encodes row (row.size() == types.size()); values must already match their column types
// (integers as Int, doubles as Double, strings as String, booleans as Bool, or NULL).
std::string EncodeTuple(const Row& row, const std::vector<Type>& types);
// Decodes bytes written by EncodeTuple with the same types; XX001 on malformed input.
Status DecodeTuple(std::string_view bytes, const std::vector<Type>& types, Row* row);

}  // namespace meridian::storage
