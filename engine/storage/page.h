// Page layout: the 32-byte header every 8 KiB page starts with (checksum, type, LSN, slot
// count, free-space bounds) and SlottedPage, a non-owning view that stores variable-length
// tuples: slot array growing forward after the header, tuple bytes growing back from the end.
// Byte tables: docs/storage.md. All integers are little-endian.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string_view>

#include "storage/heap_file.h"  // kPageSize

namespace meridian::storage {

static_assert(std::endian::native == std::endian::little, "on-disk formats assume little-endian");

// Bumped whenever the page header, slot entry or tuple layout changes.
inline constexpr uint8_t kPageFormatVersion = 1;

enum class PageType : uint8_t {
  kFree = 0,  // never written (all zeros): valid and empty
  kHeap = 1,
  kBTreeMeta = 2,  // btree_page.h
  kBTreeInternal = 3,
  kBTreeLeaf = 4,
  kBTreeFree = 5,  // on a B+tree's free list
  kRTreeMeta = 6,  // rtree_page.h
  kRTreeInternal = 7,
  kRTreeLeaf = 8,
  kRTreeFree = 9,  // on an R*-tree's free list
};

// Header byte offsets (see README.md "Page header").
// Unaligned little-endian-host loads and stores of page fields (every page class uses these).
inline uint16_t LoadU16(const char* p) {
  uint16_t v;
  std::memcpy(&v, p, 2);
  return v;
}
inline uint32_t LoadU32(const char* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}
inline void StoreU16(char* p, uint16_t v) { std::memcpy(p, &v, 2); }
inline void StoreU32(char* p, uint32_t v) { std::memcpy(p, &v, 4); }

inline constexpr size_t kPageChecksumOffset = 0;     // u32 CRC32C of bytes [4, kPageSize)
inline constexpr size_t kPageTypeOffset = 4;         // u8 PageType
inline constexpr size_t kPageVersionOffset = 5;      // u8 kPageFormatVersion
inline constexpr size_t kPageSlotCountOffset = 6;    // u16
inline constexpr size_t kPageLsnOffset = 8;          // u64, reserved for write-behind logging
inline constexpr size_t kPageFreeStartOffset = 16;   // u16 end of the slot array
inline constexpr size_t kPageFreeEndOffset = 18;     // u16 start of the tuple area
inline constexpr size_t kPageFragmentedOffset = 20;  // u16 dead bytes inside the tuple area
inline constexpr size_t kPageFlagsOffset = 22;       // u16 kPageFlag* bits
inline constexpr size_t kPageNumberOffset = 24;      // u32 the page's own number
inline constexpr size_t kPageReservedOffset = 28;    // u32, 0
inline constexpr size_t kPageHeaderSize = 32;
// Heap pages: every slot below slot_count is live. A hint (0 = unknown, so pages written
// before the bit existed stay valid): lets an insert skip the search for an empty slot.
inline constexpr uint16_t kPageFlagNoEmptySlot = 1;
inline constexpr size_t kSlotSize = 4;  // u16 offset (0 = empty slot), u16 length
// Largest tuple a page holds: the page minus its header and one slot.
inline constexpr size_t kMaxTupleSize = kPageSize - kPageHeaderSize - kSlotSize;

// Checksums of raw page images (the bytes as they sit on disk).
uint32_t ComputePageChecksum(const char* page);
void SetPageChecksum(char* page);
bool IsAllZeroPage(const char* page);
// True when the stored checksum matches, or the page is all zeros (preallocated, never written).
bool VerifyPageChecksum(const char* page);

// Reads and writes the header and slots of a page image in place. Holds no latch itself:
// callers reach page bytes only through a page guard of the matching mode.
class SlottedPage {
 public:
  explicit SlottedPage(char* data) : data_(data) {}

  // Formats an empty page of the given type (any previous content is discarded).
  void Init(PageType type, uint32_t page_no);
  // A kFree page (all zeros) is formatted lazily by its first writer.
  bool IsInitialized() const { return type() != PageType::kFree; }

  PageType type() const { return static_cast<PageType>(static_cast<uint8_t>(data_[4])); }
  uint16_t slot_count() const { return Get16(kPageSlotCountOffset); }
  uint64_t lsn() const;
  void set_lsn(uint64_t lsn);
  uint32_t page_no() const { return Get32(kPageNumberOffset); }

  // Bytes an insert of len bytes can use, counting a new slot and dead bytes that compaction
  // would reclaim; 0 when a new slot does not fit.
  size_t FreeSpaceForInsert() const;
  // Live tuple bytes in slot, or nullopt when the slot is empty or out of range. The view is
  // valid until the page changes.
  std::optional<std::string_view> Get(uint16_t slot) const;
  // Stores tuple, reusing an empty slot when there is one; nullopt when it does not fit.
  std::optional<uint16_t> Insert(std::string_view tuple);
  // Replaces the live tuple in slot; false (page unchanged) when it does not fit.
  bool Update(uint16_t slot, std::string_view tuple);
  // Empties a live slot; false when it is not live. Trailing empty slots are trimmed.
  bool Delete(uint16_t slot);
  // Moves live tuples together at the end of the page; slot numbers are kept.
  void Compact();
  // Checks the header bounds and every slot (for tests and for corruption reports).
  bool IsConsistent() const;

 private:
  uint16_t Get16(size_t off) const;
  uint32_t Get32(size_t off) const;
  void Put16(size_t off, uint16_t v);
  void Put32(size_t off, uint32_t v);
  uint16_t SlotOffset(uint16_t slot) const { return Get16(kPageHeaderSize + slot * kSlotSize); }
  uint16_t SlotLength(uint16_t slot) const { return Get16(kPageHeaderSize + slot * kSlotSize + 2); }
  void SetSlot(uint16_t slot, uint16_t offset, uint16_t length);
  uint16_t free_start() const { return Get16(kPageFreeStartOffset); }
  uint16_t free_end() const { return Get16(kPageFreeEndOffset); }
  uint16_t fragmented() const { return Get16(kPageFragmentedOffset); }
  // First empty slot below slot_count, or slot_count; sets kPageFlagNoEmptySlot when none.
  uint16_t FindEmptySlot();
  // Same without recording the answer (const views).
  bool HasEmptySlot() const;
  // Bytes between the slot array and the tuple area.
  size_t ContiguousFree() const { return free_end() - free_start(); }

  char* data_;
};

}  // namespace meridian::storage
