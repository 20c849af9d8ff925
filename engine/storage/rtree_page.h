// R*-tree page format: RTreePage, a non-owning view over one 8 KiB node page that keeps its
// entries' coordinates contiguous per dimension (all low ends of dimension 0, then all high
// ends, then dimension 1, ...) so a node search is a few vectorizable loops; RNode, an
// in-memory copy used by splits and reinsertion. Byte tables: docs/storage.md
// "R*-tree". Holds no latch itself: callers reach page bytes only through page guards.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "meridian/status.h"
#include "storage/page.h"
#include "storage/rtree_box.h"

namespace meridian::storage {

// Bumped whenever the meta page or node layout changes.
inline constexpr uint8_t kRTreeFormatVersion = 1;

inline constexpr uint8_t kRTreeMetaPageType = static_cast<uint8_t>(PageType::kRTreeMeta);
inline constexpr uint8_t kRTreeInternalPageType = static_cast<uint8_t>(PageType::kRTreeInternal);
inline constexpr uint8_t kRTreeLeafPageType = static_cast<uint8_t>(PageType::kRTreeLeaf);
inline constexpr uint8_t kRTreeFreePageType = static_cast<uint8_t>(PageType::kRTreeFree);

// Node header fields after the common 32-byte header (entry count = the header's slot count).
inline constexpr size_t kRNodeLevelOffset = 32;     // u16: 0 = leaf
inline constexpr size_t kRNodeDimsOffset = 34;      // u16: dimensions (copy of the meta page's)
inline constexpr size_t kRNodeCapacityOffset = 36;  // u16: entries a node holds
inline constexpr size_t kRNodeCoordsOffset = 64;    // float64 arrays start here (8-aligned)
inline constexpr uint32_t kRNoPage = 0;             // page 0 is the meta page, never a node
// Node flags (u16 at kPageFlagsOffset). kRFlagPoints: a leaf whose entries all have lo == hi,
// so searches read only the low-end arrays (half the cache lines). Cleared, never set again,
// by the first non-point entry written; set again only when the node is re-formatted.
inline constexpr uint16_t kRFlagPoints = 1;

// Meta page (page 0) fields after the common header.
inline constexpr size_t kRMetaMagicOffset = 32;      // u32 kRTreeMagic
inline constexpr size_t kRMetaRootOffset = 36;       // u32 root page
inline constexpr size_t kRMetaHeightOffset = 40;     // u32 levels, 1 = the root is a leaf
inline constexpr size_t kRMetaDimsOffset = 44;       // u16 dimensions
inline constexpr size_t kRMetaCapacityOffset = 46;   // u16 entries per node
inline constexpr size_t kRMetaMinFillOffset = 48;    // u16 least entries of a non-root node
inline constexpr size_t kRMetaFreeHeadOffset = 52;   // u32 first free page, 0 = none
inline constexpr uint32_t kRTreeMagic = 0x3154524d;  // "MRT1"
inline constexpr size_t kRFreeNextOffset = 32;       // free page: u32 next free page

// Entries per node for dims dimensions: 16·dims coordinate bytes + an 8-byte id each.
inline constexpr size_t RNodeCapacity(size_t dims) {
  return (kPageSize - kRNodeCoordsOffset) / (16 * dims + 8);
}
inline constexpr size_t kRMaxCapacity = RNodeCapacity(1);  // 338

// Leaf ids are heap Rids packed as page << 16 | slot; internal ids are child page numbers.
inline uint64_t PackRid(Rid rid) { return (uint64_t{rid.page} << 16) | rid.slot; }
inline Rid UnpackRid(uint64_t id) {
  return Rid{static_cast<uint32_t>(id >> 16), static_cast<uint16_t>(id & 0xFFFF)};
}

struct REntry {
  Box box;
  uint64_t id = 0;
};

// In-memory node: level and entries in page order.
struct RNode {
  uint16_t level = 0;
  std::vector<REntry> entries;
  Box Mbr(size_t dims) const;
};

class RTreePage {
 public:
  RTreePage(const char* data, size_t dims, size_t capacity)
      : data_(const_cast<char*>(data)), dims_(dims), cap_(capacity) {}

  void Init(uint8_t type, uint16_t level, uint32_t page_no);
  uint8_t type() const { return static_cast<uint8_t>(data_[kPageTypeOffset]); }
  bool IsNode() const { return type() == kRTreeLeafPageType || type() == kRTreeInternalPageType; }
  bool leaf() const { return type() == kRTreeLeafPageType; }
  uint16_t level() const { return LoadU16(data_ + kRNodeLevelOffset); }
  size_t count() const { return LoadU16(data_ + kPageSlotCountOffset); }
  bool points() const { return (LoadU16(data_ + kPageFlagsOffset) & kRFlagPoints) != 0; }
  // The high-end array searches may read for dimension d: the low ends on a points leaf.
  const double* search_hi(size_t d) const { return points() ? lo(d) : hi(d); }
  // Node header matches the tree (type, dims, capacity, count <= capacity).
  bool IsConsistent() const;

  const double* lo(size_t d) const { return Coords(2 * d); }
  const double* hi(size_t d) const { return Coords(2 * d + 1); }
  uint64_t id(size_t i) const {
    uint64_t v;
    std::memcpy(&v, data_ + IdsOffset() + 8 * i, 8);
    return v;
  }
  Box GetBox(size_t i) const;
  void GetEntry(size_t i, REntry* e) const {
    e->box = GetBox(i);
    e->id = id(i);
  }
  // Minimum bounding box of every entry (an empty node gives an inverted box).
  Box Mbr() const;

  void SetEntry(size_t i, const Box& box, uint64_t id);
  void SetBox(size_t i, const Box& box);
  // REQUIRES count() < capacity.
  void Append(const Box& box, uint64_t id);
  // Moves the last entry into slot i (entry order carries no meaning).
  void Remove(size_t i);

  void Load(RNode* node) const;
  // Formats the page from node (REQUIRES node.entries.size() <= capacity).
  void Store(const RNode& node, uint32_t page_no);

  uint32_t Get32(size_t off) const { return LoadU32(data_ + off); }
  void Put32(size_t off, uint32_t v) { StoreU32(data_ + off, v); }

 private:
  double* Coords(size_t array) const {
    return reinterpret_cast<double*>(data_ + kRNodeCoordsOffset + array * cap_ * 8);
  }
  size_t IdsOffset() const { return kRNodeCoordsOffset + 2 * dims_ * cap_ * 8; }
  void SetCount(size_t n) { StoreU16(data_ + kPageSlotCountOffset, static_cast<uint16_t>(n)); }

  char* data_;
  size_t dims_;
  size_t cap_;
};

}  // namespace meridian::storage
