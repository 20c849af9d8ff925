// Tuple codec: a Row of typed Values to the bytes a HeapFile stores, and back.
// CONTRACT shared by engine/storage (implements) and the query layers (use).
// The layout (a byte table lives in docs/storage.md) begins with a fixed header that
// reserves room for MVCC (creating and deleting transaction timestamps) so the transaction
// issue can fill it without a format change.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "meridian/status.h"
#include "meridian/value.h"

namespace meridian::storage {

// The MVCC part of a tuple's header (docs/txn.md section 1): who created the version
// (begin) and who deleted or replaced it (end), each a commit timestamp or a transaction id
// (top bit set); 0 = "before time began" / "not deleted". With kTupleFlagLockOnly, end names a
// transaction that locked the row (SELECT ... FOR UPDATE) without deleting it.
struct TupleHeader {
  uint64_t begin = 0;
  uint64_t end = 0;
  uint8_t flags = 0;
};
inline constexpr uint8_t kTupleFlagLockOnly = 1;
// Bytes every encoded tuple has at least (its fixed header).
inline constexpr size_t kTupleFixedHeaderSize = 20;

// The end field as a deleter: 0 when it only names a FOR UPDATE locker.
inline uint64_t DeletingEnd(const TupleHeader& h) {
  return (h.flags & kTupleFlagLockOnly) != 0 ? 0 : h.end;
}

// REQUIRES bytes.size() >= kTupleFixedHeaderSize (every stored tuple).
TupleHeader ReadTupleHeader(std::string_view bytes);
void WriteTupleHeader(char* tuple, const TupleHeader& header);

// Encodes row (row.size() == types.size()); values must already match their column types
// (integers as Int, doubles as Double, strings as String, booleans as Bool, arrays as Array of
// values of the element type, or NULL).
std::string EncodeTuple(const Row& row, const std::vector<Type>& types);
// Decodes bytes written by EncodeTuple with the same types; XX001 on malformed input.
// Decodes in place: *row is resized, its storage reused; after an error its contents are
// unspecified.
Status DecodeTuple(std::string_view bytes, const std::vector<Type>& types, Row* row);
// Like DecodeTuple, but a tuple may hold fewer columns than types: one written before ALTER
// TABLE ADD COLUMN widened its table (the u16 column count in its header says how many).
// row then holds only the stored columns; the caller supplies the rest (catalog::Table).
// needed (null: all): a column i with !(*needed)[i] (or beyond needed's size) is skipped and
// comes out NULL; scans use it to decode only the columns a query reads. The checks then stop
// at the last needed column (the skipped ones before it have their lengths checked).
Status DecodeStoredTuple(std::string_view bytes, const std::vector<Type>& types, Row* row,
                         const std::vector<bool>* needed = nullptr);

}  // namespace meridian::storage
