// BTreePage: sorted slot array of u16 cell offsets after a 48-byte node header; cells are packed
// from the end of the page. Inserts shift the slot array; erases leave dead bytes that
// compaction reclaims. NodeImage round-trips a page for structure modifications.
#include "storage/btree_page.h"

#include <algorithm>
#include <cstring>

namespace meridian::storage {

namespace {

// Writes a cell (layout: btree_page.h) into out, which has room for it.
void WriteCell(char* out, bool leaf, std::string_view key, std::string_view value, uint32_t child) {
  uint16_t klen = static_cast<uint16_t>(key.size());
  uint16_t vlen = static_cast<uint16_t>(value.size());
  std::memcpy(out, &klen, 2);
  std::memcpy(out + 2, &vlen, 2);
  size_t at = kLeafCellHeader;
  if (!leaf) {
    std::memcpy(out + 4, &child, 4);
    at = kInternalCellHeader;
  }
  if (!key.empty()) std::memcpy(out + at, key.data(), key.size());
  if (!value.empty()) std::memcpy(out + at + key.size(), value.data(), value.size());
}

size_t CellSize(bool leaf, std::string_view key, std::string_view value) {
  return (leaf ? kLeafCellHeader : kInternalCellHeader) + key.size() + value.size();
}

// Binary search shared by pages and node images: key(i) and value(i) read entry i;
// prefetch(i) may start loading entry i, called for both possible next probes before the
// current one is compared (on a page each probe's cell is usually a cache miss, and the
// comparison's branch is unpredictable, so this overlaps the next miss with the current one).
template <typename KeyFn, typename ValueFn, typename PrefetchFn>
size_t SearchCells(size_t n, const SearchTarget& t, KeyFn key, ValueFn value, PrefetchFn prefetch) {
  if (t.every) return n;
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (hi - lo > 2) {
      prefetch((lo + mid) / 2);
      prefetch((mid + 1 + hi) / 2);
    }
    if (t.Before(CompareBytes(key(mid), t.key), [&] { return value(mid); })) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

}  // namespace

NodeCell MakeCell(bool leaf, std::string_view key, std::string_view value, uint32_t child) {
  char small[512];
  const size_t size = CellSize(leaf, key, value);
  if (size <= sizeof(small)) {
    WriteCell(small, leaf, key, value, child);
    return NodeCell(std::string_view(small, size));
  }
  std::string cell(size, '\0');
  WriteCell(cell.data(), leaf, key, value, child);
  return NodeCell(cell);
}

namespace {

uint16_t CellKeyLen(std::string_view cell) {
  uint16_t v;
  std::memcpy(&v, cell.data(), 2);
  return v;
}
uint16_t CellValLen(std::string_view cell) {
  uint16_t v;
  std::memcpy(&v, cell.data() + 2, 2);
  return v;
}
size_t CellHeader(bool leaf) { return leaf ? kLeafCellHeader : kInternalCellHeader; }

std::string_view CellKey(std::string_view cell, bool leaf) {
  return cell.substr(CellHeader(leaf), CellKeyLen(cell));
}
std::string_view CellVal(std::string_view cell, bool leaf) {
  return cell.substr(CellHeader(leaf) + CellKeyLen(cell), CellValLen(cell));
}

}  // namespace

// ---- NodeImage ----

size_t NodeImage::UsedBytes() const {
  size_t n = 0;
  for (const auto& c : cells) n += c.size() + kNodeSlotSize;
  return n;
}
std::string_view NodeImage::Key(size_t i) const { return CellKey(cells[i], leaf()); }
std::string_view NodeImage::Val(size_t i) const { return CellVal(cells[i], leaf()); }
uint32_t NodeImage::Child(size_t i) const {
  if (i == 0) return child0;
  uint32_t c;
  std::memcpy(&c, cells[i - 1].data() + 4, 4);
  return c;
}
void NodeImage::SetCellChild(size_t i, uint32_t child) {
  std::memcpy(cells[i].data() + 4, &child, 4);
}
size_t NodeImage::Search(const SearchTarget& t) const {
  return SearchCells(
      cells.size(), t, [this](size_t i) { return Key(i); }, [this](size_t i) { return Val(i); },
      [](size_t) {});
}

// ---- BTreePage ----

uint16_t BTreePage::Get16(size_t off) const { return LoadU16(data_ + off); }
uint32_t BTreePage::Get32(size_t off) const { return LoadU32(data_ + off); }
void BTreePage::Put16(size_t off, uint16_t v) { StoreU16(data_ + off, v); }
void BTreePage::Put32(size_t off, uint32_t v) { StoreU32(data_ + off, v); }

void BTreePage::Init(uint8_t type, uint16_t level, uint32_t page_no) {
  std::memset(data_, 0, kPageSize);
  data_[kPageTypeOffset] = static_cast<char>(type);
  data_[kPageVersionOffset] = static_cast<char>(kBTreeFormatVersion);
  Put16(kPageFreeStartOffset, static_cast<uint16_t>(kNodeHeaderSize));
  Put16(kPageFreeEndOffset, static_cast<uint16_t>(kPageSize));
  Put32(kPageNumberOffset, page_no);
  Put16(kNodeLevelOffset, level);
}

std::string_view BTreePage::Cell(size_t i) const {
  const char* c = data_ + SlotOffset(i);
  uint16_t klen, vlen;
  std::memcpy(&klen, c, 2);
  std::memcpy(&vlen, c + 2, 2);
  return std::string_view(c, CellHeader(leaf()) + klen + vlen);
}
std::string_view BTreePage::Key(size_t i) const {
  const char* c = data_ + SlotOffset(i);
  return std::string_view(c + CellHeader(leaf()), LoadU16(c));
}
std::string_view BTreePage::Val(size_t i) const { return CellVal(Cell(i), leaf()); }
uint32_t BTreePage::Child(size_t i) const {
  if (i == 0) return child0();
  return Get32(SlotOffset(i - 1) + 4);
}

size_t BTreePage::UsedBytes() const {
  return (kPageSize - Get16(kPageFreeEndOffset)) - Get16(kPageFragmentedOffset) +
         count() * kNodeSlotSize;
}

void BTreePage::Compact() {
  NodeImage node;
  Load(&node);
  Store(node, Get32(kPageNumberOffset));
}

size_t BTreePage::Search(const SearchTarget& t) const {
  const size_t header = CellHeader(leaf());
  auto key = [this, header](size_t i) {
    const char* c = data_ + SlotOffset(i);
    return std::string_view(c + header, LoadU16(c));
  };
  auto value = [this, header](size_t i) {
    const char* c = data_ + SlotOffset(i);
    return std::string_view(c + header + LoadU16(c), LoadU16(c + 2));
  };
  auto prefetch = [this](size_t i) { __builtin_prefetch(data_ + SlotOffset(i)); };
  return SearchCells(count(), t, key, value, prefetch);
}

bool BTreePage::InsertCell(size_t i, std::string_view cell) {
  char* out = ReserveCell(i, cell.size());
  if (out == nullptr) return false;
  std::memcpy(out, cell.data(), cell.size());
  return true;
}

bool BTreePage::InsertLeafEntry(size_t i, std::string_view key, std::string_view value) {
  char* out = ReserveCell(i, CellSize(true, key, value));
  if (out == nullptr) return false;
  WriteCell(out, true, key, value, 0);
  return true;
}

char* BTreePage::ReserveCell(size_t i, size_t size) {
  if (UsedBytes() + size + kNodeSlotSize > kNodeCapacity) return nullptr;
  size_t free_start = Get16(kPageFreeStartOffset);
  if (Get16(kPageFreeEndOffset) - free_start < size + kNodeSlotSize) Compact();
  uint16_t n = count();
  size_t free_end = Get16(kPageFreeEndOffset) - size;
  char* slots = data_ + kNodeHeaderSize;
  std::memmove(slots + (i + 1) * kNodeSlotSize, slots + i * kNodeSlotSize, (n - i) * kNodeSlotSize);
  Put16(kNodeHeaderSize + i * kNodeSlotSize, static_cast<uint16_t>(free_end));
  Put16(kPageSlotCountOffset, static_cast<uint16_t>(n + 1));
  Put16(kPageFreeStartOffset, static_cast<uint16_t>(kNodeHeaderSize + (n + 1) * kNodeSlotSize));
  Put16(kPageFreeEndOffset, static_cast<uint16_t>(free_end));
  return data_ + free_end;
}

void BTreePage::EraseCell(size_t i) {
  uint16_t n = count();
  size_t size = Cell(i).size();
  char* slots = data_ + kNodeHeaderSize;
  std::memmove(slots + i * kNodeSlotSize, slots + (i + 1) * kNodeSlotSize,
               (n - i - 1) * kNodeSlotSize);
  Put16(kPageSlotCountOffset, static_cast<uint16_t>(n - 1));
  Put16(kPageFreeStartOffset, static_cast<uint16_t>(kNodeHeaderSize + (n - 1) * kNodeSlotSize));
  Put16(kPageFragmentedOffset, static_cast<uint16_t>(Get16(kPageFragmentedOffset) + size));
}

void BTreePage::Load(NodeImage* node) const {
  node->level = level();
  node->left = left();
  node->right = right();
  node->child0 = child0();
  node->cells.clear();
  node->cells.reserve(count());
  for (size_t i = 0; i < count(); ++i) node->cells.emplace_back(Cell(i));
}

void BTreePage::Store(const NodeImage& node, uint32_t page_no) {
  Init(node.leaf() ? kBTreeLeafPageType : kBTreeInternalPageType, node.level, page_no);
  set_left(node.left);
  set_right(node.right);
  Put32(kNodeChild0Offset, node.child0);
  size_t free_end = kPageSize;
  for (size_t i = 0; i < node.cells.size(); ++i) {
    free_end -= node.cells[i].size();
    std::memcpy(data_ + free_end, node.cells[i].data(), node.cells[i].size());
    Put16(kNodeHeaderSize + i * kNodeSlotSize, static_cast<uint16_t>(free_end));
  }
  Put16(kPageSlotCountOffset, static_cast<uint16_t>(node.cells.size()));
  Put16(kPageFreeStartOffset,
        static_cast<uint16_t>(kNodeHeaderSize + node.cells.size() * kNodeSlotSize));
  Put16(kPageFreeEndOffset, static_cast<uint16_t>(free_end));
}

bool BTreePage::IsConsistent() const {
  if (!IsNode()) return false;
  if (leaf() != (level() == 0)) return false;
  size_t n = count();
  size_t free_start = Get16(kPageFreeStartOffset);
  size_t free_end = Get16(kPageFreeEndOffset);
  if (free_start != kNodeHeaderSize + n * kNodeSlotSize || free_start > free_end ||
      free_end > kPageSize) {
    return false;
  }
  size_t live = 0;
  for (size_t i = 0; i < n; ++i) {
    size_t off = SlotOffset(i);
    size_t header = CellHeader(leaf());
    if (off < free_end || off + header > kPageSize) return false;
    uint16_t klen = Get16(off), vlen = Get16(off + 2);
    if (off + header + klen + vlen > kPageSize) return false;
    live += header + klen + vlen;
  }
  return live + Get16(kPageFragmentedOffset) == kPageSize - free_end;
}

}  // namespace meridian::storage
