// B+tree page format: a non-owning view (BTreePage) over one 8 KiB page holding sorted
// variable-length cells behind a sorted u16 slot array, plus NodeImage, an in-memory copy used
// while splitting, merging and redistributing. Byte tables: docs/storage.md "B+tree".
// Holds no latch itself: callers reach page bytes only through a page guard of the right mode.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "meridian/status.h"
#include "storage/page.h"

namespace meridian::storage {

// Bumped whenever the meta page, node header or cell layout changes.
inline constexpr uint8_t kBTreeFormatVersion = 1;

// Page types (byte 4 of the common page header), as page.h's PageType names them.
inline constexpr uint8_t kBTreeMetaPageType = static_cast<uint8_t>(PageType::kBTreeMeta);
inline constexpr uint8_t kBTreeInternalPageType = static_cast<uint8_t>(PageType::kBTreeInternal);
inline constexpr uint8_t kBTreeLeafPageType = static_cast<uint8_t>(PageType::kBTreeLeaf);
inline constexpr uint8_t kBTreeFreePageType = static_cast<uint8_t>(PageType::kBTreeFree);

// Node header fields after the common 32-byte header.
inline constexpr size_t kNodeLevelOffset = 32;   // u16: 0 = leaf
inline constexpr size_t kNodeLeftOffset = 36;    // u32 left sibling, 0 = none
inline constexpr size_t kNodeRightOffset = 40;   // u32 right sibling, 0 = none
inline constexpr size_t kNodeChild0Offset = 44;  // u32 leftmost child (internal), else 0
inline constexpr size_t kNodeHeaderSize = 48;    // slot array (u16 cell offsets) starts here
inline constexpr size_t kNodeSlotSize = 2;
inline constexpr size_t kNodeCapacity = kPageSize - kNodeHeaderSize;  // slot + cell bytes
inline constexpr uint32_t kNoPage = 0;  // page 0 is the meta page, never a node

// Cell layouts. Leaf: u16 key length, u16 value length, key, value. Internal: the same plus a
// u32 child page between the lengths and the key.
inline constexpr size_t kLeafCellHeader = 4;
inline constexpr size_t kInternalCellHeader = 8;

// Meta page (page 0) fields after the common header.
inline constexpr size_t kMetaMagicOffset = 32;       // u32 kBTreeMagic
inline constexpr size_t kMetaRootOffset = 36;        // u32 root page
inline constexpr size_t kMetaHeightOffset = 40;      // u32 levels, 1 = the root is a leaf
inline constexpr size_t kMetaUniqueOffset = 44;      // u8 1 = unique keys
inline constexpr size_t kMetaFreeHeadOffset = 48;    // u32 first free page, 0 = none
inline constexpr uint32_t kBTreeMagic = 0x3154424d;  // "MBT1"
inline constexpr size_t kFreeNextOffset = 32;        // free page: u32 next free page

// Total order of entries: key bytes (memcmp, shorter prefix first), then value bytes.
// Inline, 8 bytes per step (byte-swapped words compare like memcmp): keys are short, and a
// call to the library memcmp per binary-search probe cost more than the comparison itself.
inline int CompareBytes(std::string_view a, std::string_view b) {
  const size_t n = std::min(a.size(), b.size());
  const char* p = a.data();
  const char* q = b.data();
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t x, y;
    std::memcpy(&x, p + i, 8);
    std::memcpy(&y, q + i, 8);
    if (x != y) return __builtin_bswap64(x) < __builtin_bswap64(y) ? -1 : 1;
  }
  for (; i < n; ++i) {
    if (p[i] != q[i])
      return static_cast<unsigned char>(p[i]) < static_cast<unsigned char>(q[i]) ? -1 : 1;
  }
  return a.size() < b.size() ? -1 : (a.size() > b.size() ? 1 : 0);
}
inline int CompareEntry(std::string_view k1, std::string_view v1, std::string_view k2,
                        std::string_view v2) {
  int c = CompareBytes(k1, k2);
  return c != 0 ? c : CompareBytes(v1, v2);
}

// What a binary search in a node looks for: the entries "before" the target form a prefix of
// the node, and the search returns its length. An entry is before when it compares below the
// target, or equal with or_equal; keys only, unless with_value (then (key, value) pairs).
// every: all entries are before (an unbounded upper end). A plain value, no std::function:
// the search reads an entry's value only when keys tie and with_value is set.
struct SearchTarget {
  std::string_view key{};
  std::string_view value{};
  bool with_value = false;
  bool or_equal = false;
  bool every = false;

  // Decides from the key comparison c = CompareBytes(entry key, key) and, lazily, the value.
  template <typename ValueFn>
  bool Before(int c, ValueFn entry_value) const {
    if (every) return true;
    if (c == 0 && with_value) c = CompareBytes(entry_value(), value);
    return or_equal ? c <= 0 : c < 0;
  }
};

// XX001 "index \"path\" page N: what".
Status BTreeCorruption(const std::string& path, uint32_t page, std::string_view what);

// The bytes of one NodeImage cell: inline when short (fixed-size keys of a few columns with a
// Rid value, every bench record), else on the heap, so loading a node into a NodeImage costs
// one allocation (the vector) instead of one per cell.
class NodeCell {
 public:
  NodeCell() = default;
  NodeCell(std::string_view bytes) { Assign(bytes); }  // NOLINT(google-explicit-constructor)
  NodeCell(const NodeCell& o) { Assign(o); }
  NodeCell& operator=(const NodeCell& o) {
    if (this != &o) Assign(o);
    return *this;
  }
  NodeCell(NodeCell&& o) noexcept { *this = std::move(o); }
  NodeCell& operator=(NodeCell&& o) noexcept {
    if (this == &o) return *this;
    size_ = o.size_;
    heap_ = std::move(o.heap_);
    if (heap_ == nullptr) std::memcpy(inline_, o.inline_, size_);
    o.size_ = 0;
    return *this;
  }

  size_t size() const { return size_; }
  const char* data() const { return heap_ != nullptr ? heap_.get() : inline_; }
  char* data() { return heap_ != nullptr ? heap_.get() : inline_; }
  operator std::string_view() const {  // NOLINT(google-explicit-constructor)
    return std::string_view(data(), size_);
  }

 private:
  static constexpr size_t kInline = 48;
  void Assign(std::string_view bytes) {
    size_ = static_cast<uint32_t>(bytes.size());
    if (size_ <= kInline) {
      heap_.reset();
      if (size_ > 0) std::memcpy(inline_, bytes.data(), size_);
    } else {
      heap_ = std::make_unique<char[]>(size_);
      std::memcpy(heap_.get(), bytes.data(), size_);
    }
  }
  uint32_t size_ = 0;
  std::unique_ptr<char[]> heap_;
  char inline_[kInline];
};

// Builds a cell. child is ignored for leaf cells.
NodeCell MakeCell(bool leaf, std::string_view key, std::string_view value, uint32_t child);

// In-memory node used by structure modifications: raw cells in order.
struct NodeImage {
  uint16_t level = 0;
  uint32_t left = kNoPage;
  uint32_t right = kNoPage;
  uint32_t child0 = kNoPage;
  std::vector<NodeCell> cells;

  bool leaf() const { return level == 0; }
  size_t UsedBytes() const;  // cells + slots
  bool Fits() const { return UsedBytes() <= kNodeCapacity; }
  std::string_view Key(size_t i) const;
  std::string_view Val(size_t i) const;
  uint32_t Child(size_t i) const;  // child i of an internal node, 0 <= i <= cells.size()
  void SetCellChild(size_t i, uint32_t child);
  // Number of leading cells before t (see SearchTarget).
  size_t Search(const SearchTarget& t) const;
};

// A non-root node whose slot + cell bytes fall below this after a delete is merged with or
// refilled from a sibling (see README "Delete policy").
inline constexpr size_t kMinFillBytes = kNodeCapacity / 4;

// Split point m for cells that overflow one node (or are redistributed over two): the left
// node keeps [0, m); a leaf's right node gets [m, n), an internal node's [m + 1, n) with cell m
// moving up. Minimizes the byte difference of the halves. REQUIRES n >= 2 (leaf), 3 (internal).
size_t ChooseSplit(const std::vector<NodeCell>& cells, bool leaf);
// Split point for a node that overflowed because cell `inserted` was added. When that cell is
// the last one of the rightmost node of its level (ascending inserts), the left node keeps
// every other cell, so sequential loads leave full pages (PostgreSQL's rightmost-page split,
// SQLite's balance_quick); otherwise ChooseSplit.
size_t ChooseSplitAfterInsert(const NodeImage& node, size_t inserted);
// True when cell `inserted` is the last cell of the rightmost node of its level.
bool IsRightmostAppend(const NodeImage& node, size_t inserted);

// An overflowing leaf shares its cells with a sibling instead of splitting when the two hold at
// most this many slot + cell bytes, so each ends at most 7/8 full (room for a run of inserts
// before the next structure change).
inline constexpr size_t kShareLimitBytes = 2 * kNodeCapacity - kNodeCapacity / 4;

class BTreePage {
 public:
  explicit BTreePage(char* data) : data_(data) {}
  explicit BTreePage(const char* data) : data_(const_cast<char*>(data)) {}  // read-only use

  void Init(uint8_t type, uint16_t level, uint32_t page_no);
  uint8_t type() const { return static_cast<uint8_t>(data_[kPageTypeOffset]); }
  bool IsNode() const { return type() == kBTreeLeafPageType || type() == kBTreeInternalPageType; }
  bool leaf() const { return type() == kBTreeLeafPageType; }
  uint16_t level() const { return Get16(kNodeLevelOffset); }
  uint16_t count() const { return Get16(kPageSlotCountOffset); }
  uint32_t left() const { return Get32(kNodeLeftOffset); }
  uint32_t right() const { return Get32(kNodeRightOffset); }
  uint32_t child0() const { return Get32(kNodeChild0Offset); }
  void set_left(uint32_t p) { Put32(kNodeLeftOffset, p); }
  void set_right(uint32_t p) { Put32(kNodeRightOffset, p); }

  std::string_view Cell(size_t i) const;
  std::string_view Key(size_t i) const;
  std::string_view Val(size_t i) const;
  uint32_t Child(size_t i) const;  // 0 <= i <= count()

  size_t UsedBytes() const;  // live cells + slots
  // Inserts cell at position i (compacting when the gap is too small); false if it does not fit.
  bool InsertCell(size_t i, std::string_view cell);
  // InsertCell of the leaf cell (key, value), built in place.
  bool InsertLeafEntry(size_t i, std::string_view key, std::string_view value);
  void EraseCell(size_t i);

  // First index in [0, count()) whose entry is not before t; count() if all are.
  size_t Search(const SearchTarget& t) const;

  void Load(NodeImage* node) const;
  // Formats the page from node (which must fit).
  void Store(const NodeImage& node, uint32_t page_no);
  // Header bounds, slot offsets and cell lengths are in range (corruption check).
  bool IsConsistent() const;

  uint16_t Get16(size_t off) const;
  uint32_t Get32(size_t off) const;
  void Put16(size_t off, uint16_t v);
  void Put32(size_t off, uint32_t v);

 private:
  uint16_t SlotOffset(size_t i) const { return Get16(kNodeHeaderSize + i * kNodeSlotSize); }
  void Compact();
  // Makes room for a size-byte cell at slot i and returns where its bytes go, or nullptr when
  // it does not fit.
  char* ReserveCell(size_t i, size_t size);

  char* data_;
};

}  // namespace meridian::storage
