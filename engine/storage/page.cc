// Slotted page operations and page checksums. Invariant kept by every mutator (checked by
// IsConsistent): sum of live tuple lengths + fragmented == kPageSize - free_end, and
// free_start == kPageHeaderSize + slot_count * kSlotSize <= free_end.
#include "storage/page.h"

#include <cstring>
#include <vector>

#include "storage/crc32c.h"

#if defined(__x86_64__)
#include <nmmintrin.h>
#endif

namespace meridian::storage {
namespace {

#if defined(__x86_64__)
// A page body is checksummed as three interleaved streams of kStream bytes (the crc32
// instruction has a 3-cycle latency but a 1-cycle throughput, so one serial stream leaves it
// two-thirds idle), then the tail. Streams are joined with the linear map "feed kStream zero
// bytes" (CRC(A || B) = Shift(CRC(A)) ^ CRC(B) for the raw register, B's run starting from 0),
// applied through four 256-entry tables built once from the map's 32 basis images.
constexpr size_t kStream = 2728;  // 3 * 2728 = 8184 of the 8188 body bytes; multiple of 8
static_assert(3 * kStream <= kPageSize - 4 && kStream % 8 == 0);

struct ShiftTables {
  uint32_t t[4][256];
};

__attribute__((target("sse4.2"))) ShiftTables MakeShiftTables() {
  ShiftTables s{};
  uint32_t basis[32];
  for (int bit = 0; bit < 32; ++bit) {
    uint64_t c = uint32_t{1} << bit;
    for (size_t i = 0; i < kStream / 8; ++i) c = _mm_crc32_u64(c, 0);
    basis[bit] = static_cast<uint32_t>(c);
  }
  for (int k = 0; k < 4; ++k) {
    for (uint32_t b = 0; b < 256; ++b) {
      uint32_t v = 0;
      for (int bit = 0; bit < 8; ++bit) {
        if (b & (1u << bit)) v ^= basis[8 * k + bit];
      }
      s.t[k][b] = v;
    }
  }
  return s;
}

uint32_t Shift(const ShiftTables& s, uint32_t c) {
  return s.t[0][c & 0xff] ^ s.t[1][(c >> 8) & 0xff] ^ s.t[2][(c >> 16) & 0xff] ^ s.t[3][c >> 24];
}

__attribute__((target("sse4.2"))) uint32_t PageCrc32cSse42(const char* body) {
  static const ShiftTables kTables = MakeShiftTables();
  uint64_t a = 0xFFFFFFFFu, b = 0, c = 0;
  const char* pa = body;
  const char* pb = body + kStream;
  const char* pc = body + 2 * kStream;
  for (size_t i = 0; i < kStream; i += 8) {
    uint64_t va, vb, vc;
    std::memcpy(&va, pa + i, 8);
    std::memcpy(&vb, pb + i, 8);
    std::memcpy(&vc, pc + i, 8);
    a = _mm_crc32_u64(a, va);
    b = _mm_crc32_u64(b, vb);
    c = _mm_crc32_u64(c, vc);
  }
  uint32_t r = Shift(kTables, static_cast<uint32_t>(a)) ^ static_cast<uint32_t>(b);
  r = Shift(kTables, r) ^ static_cast<uint32_t>(c);
  const size_t done = 3 * kStream;
  return Crc32cExtend(~r, body + done, kPageSize - 4 - done);  // the raw register r, continued
}
#endif

}  // namespace

uint32_t ComputePageChecksum(const char* page) {
  const char* body = page + kPageChecksumOffset + 4;
#if defined(__x86_64__)
  static const bool kHaveSse42 = __builtin_cpu_supports("sse4.2");
  if (kHaveSse42) return PageCrc32cSse42(body);
#endif
  return Crc32c(body, kPageSize - 4);
}

void SetPageChecksum(char* page) {
  uint32_t crc = ComputePageChecksum(page);
  std::memcpy(page + kPageChecksumOffset, &crc, 4);
}

bool IsAllZeroPage(const char* page) {
  static const char kZeros[kPageSize] = {};
  return std::memcmp(page, kZeros, kPageSize) == 0;
}

bool VerifyPageChecksum(const char* page) {
  uint32_t stored;
  std::memcpy(&stored, page + kPageChecksumOffset, 4);
  return stored == ComputePageChecksum(page) || IsAllZeroPage(page);
}

uint16_t SlottedPage::Get16(size_t off) const { return LoadU16(data_ + off); }
uint32_t SlottedPage::Get32(size_t off) const { return LoadU32(data_ + off); }
void SlottedPage::Put16(size_t off, uint16_t v) { StoreU16(data_ + off, v); }
void SlottedPage::Put32(size_t off, uint32_t v) { StoreU32(data_ + off, v); }

void SlottedPage::SetSlot(uint16_t slot, uint16_t offset, uint16_t length) {
  Put16(kPageHeaderSize + slot * kSlotSize, offset);
  Put16(kPageHeaderSize + slot * kSlotSize + 2, length);
}

void SlottedPage::Init(PageType type, uint32_t page_no) {
  std::memset(data_, 0, kPageSize);
  data_[kPageTypeOffset] = static_cast<char>(type);
  data_[kPageVersionOffset] = static_cast<char>(kPageFormatVersion);
  Put16(kPageSlotCountOffset, 0);
  Put16(kPageFreeStartOffset, kPageHeaderSize);
  Put16(kPageFreeEndOffset, kPageSize);
  Put16(kPageFragmentedOffset, 0);
  Put16(kPageFlagsOffset, kPageFlagNoEmptySlot);
  Put32(kPageNumberOffset, page_no);
}

uint64_t SlottedPage::lsn() const {
  uint64_t v;
  std::memcpy(&v, data_ + kPageLsnOffset, 8);
  return v;
}

void SlottedPage::set_lsn(uint64_t lsn) { std::memcpy(data_ + kPageLsnOffset, &lsn, 8); }

bool SlottedPage::HasEmptySlot() const {
  if ((Get16(kPageFlagsOffset) & kPageFlagNoEmptySlot) != 0) return false;
  for (uint16_t s = 0; s < slot_count(); ++s) {
    if (SlotOffset(s) == 0) return true;
  }
  return false;
}

uint16_t SlottedPage::FindEmptySlot() {
  const uint16_t flags = Get16(kPageFlagsOffset);
  const uint16_t count = slot_count();
  if ((flags & kPageFlagNoEmptySlot) != 0) return count;
  for (uint16_t s = 0; s < count; ++s) {
    if (SlotOffset(s) == 0) return s;
  }
  Put16(kPageFlagsOffset, flags | kPageFlagNoEmptySlot);
  return count;
}

size_t SlottedPage::FreeSpaceForInsert() const {
  if (!IsInitialized()) return kMaxTupleSize;
  size_t total = ContiguousFree() + fragmented();
  if (HasEmptySlot()) return total;
  return total >= kSlotSize ? total - kSlotSize : 0;
}

std::optional<std::string_view> SlottedPage::Get(uint16_t slot) const {
  if (!IsInitialized() || slot >= slot_count()) return std::nullopt;
  uint16_t off = SlotOffset(slot);
  if (off == 0) return std::nullopt;
  return std::string_view(data_ + off, SlotLength(slot));
}

std::optional<uint16_t> SlottedPage::Insert(std::string_view tuple) {
  if (tuple.size() > kMaxTupleSize) return std::nullopt;
  uint16_t count = slot_count();
  uint16_t slot = FindEmptySlot();
  size_t slot_bytes = slot == count ? kSlotSize : 0;
  size_t need = tuple.size() + slot_bytes;
  if (ContiguousFree() + fragmented() < need) return std::nullopt;
  if (ContiguousFree() < need) Compact();
  if (slot == count) {
    Put16(kPageSlotCountOffset, count + 1);
    Put16(kPageFreeStartOffset, free_start() + kSlotSize);
  }
  uint16_t off = static_cast<uint16_t>(free_end() - tuple.size());
  std::memcpy(data_ + off, tuple.data(), tuple.size());
  Put16(kPageFreeEndOffset, off);
  SetSlot(slot, off, static_cast<uint16_t>(tuple.size()));
  return slot;
}

bool SlottedPage::Update(uint16_t slot, std::string_view tuple) {
  if (!Get(slot).has_value()) return false;
  uint16_t off = SlotOffset(slot);
  uint16_t old_len = SlotLength(slot);
  if (tuple.size() <= old_len) {  // shrink in place; the tail becomes dead bytes
    std::memmove(data_ + off, tuple.data(), tuple.size());
    SetSlot(slot, off, static_cast<uint16_t>(tuple.size()));
    Put16(kPageFragmentedOffset, fragmented() + (old_len - tuple.size()));
    return true;
  }
  if (ContiguousFree() + fragmented() + old_len < tuple.size()) return false;
  // The old bytes become dead; tuple must not point into this page (Compact moves bytes).
  Put16(kPageFragmentedOffset, fragmented() + old_len);
  SetSlot(slot, 0, 0);
  if (ContiguousFree() < tuple.size()) Compact();
  uint16_t new_off = static_cast<uint16_t>(free_end() - tuple.size());
  std::memcpy(data_ + new_off, tuple.data(), tuple.size());
  Put16(kPageFreeEndOffset, new_off);
  SetSlot(slot, new_off, static_cast<uint16_t>(tuple.size()));
  return true;
}

bool SlottedPage::Delete(uint16_t slot) {
  if (!Get(slot).has_value()) return false;
  Put16(kPageFragmentedOffset, fragmented() + SlotLength(slot));
  SetSlot(slot, 0, 0);
  uint16_t count = slot_count();
  if (slot + 1 < count) {  // a hole below the last slot
    Put16(kPageFlagsOffset, Get16(kPageFlagsOffset) & ~kPageFlagNoEmptySlot);
  }
  while (count > 0 && SlotOffset(count - 1) == 0) --count;
  Put16(kPageSlotCountOffset, count);
  Put16(kPageFreeStartOffset, static_cast<uint16_t>(kPageHeaderSize + count * kSlotSize));
  if (count == 0) {  // nothing live: the whole tuple area is free again
    Put16(kPageFreeEndOffset, kPageSize);
    Put16(kPageFragmentedOffset, 0);
  }
  return true;
}

void SlottedPage::Compact() {
  char copy[kPageSize];
  std::memcpy(copy, data_, kPageSize);
  size_t end = kPageSize;
  for (uint16_t s = 0; s < slot_count(); ++s) {
    uint16_t off = SlotOffset(s);
    if (off == 0) continue;
    uint16_t len = SlotLength(s);
    end -= len;
    std::memcpy(data_ + end, copy + off, len);
    SetSlot(s, static_cast<uint16_t>(end), len);
  }
  std::memset(data_ + free_start(), 0, end - free_start());  // no stale bytes on disk
  Put16(kPageFreeEndOffset, static_cast<uint16_t>(end));
  Put16(kPageFragmentedOffset, 0);
}

bool SlottedPage::IsConsistent() const {
  if (!IsInitialized()) return IsAllZeroPage(data_);
  if (type() != PageType::kHeap) return false;
  if (static_cast<uint8_t>(data_[kPageVersionOffset]) != kPageFormatVersion) return false;
  size_t count = slot_count();
  if (free_start() != kPageHeaderSize + count * kSlotSize) return false;
  if (free_start() > free_end() || free_end() > kPageSize) return false;
  size_t live = 0;
  for (uint16_t s = 0; s < count; ++s) {
    uint16_t off = SlotOffset(s);
    if (off == 0) {
      if (SlotLength(s) != 0) return false;
      if ((Get16(kPageFlagsOffset) & kPageFlagNoEmptySlot) != 0) return false;  // a wrong hint
      continue;
    }
    if (off < free_end() || off + SlotLength(s) > kPageSize) return false;
    live += SlotLength(s);
  }
  if (count > 0 && SlotOffset(static_cast<uint16_t>(count - 1)) == 0) return false;
  return live + fragmented() == kPageSize - free_end();
}

}  // namespace meridian::storage
