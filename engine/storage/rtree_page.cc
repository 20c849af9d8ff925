// RTreePage: entry access, append/remove and whole-node load/store over the per-dimension
// coordinate arrays of an R*-tree node page (layout in rtree_page.h and README "R*-tree").
#include "storage/rtree_page.h"

#include <cstring>

namespace meridian::storage {

Box RNode::Mbr(size_t dims) const {
  Box b = Box::Empty();
  for (const REntry& e : entries) b.Extend(e.box, dims);
  return b;
}

void RTreePage::Init(uint8_t type, uint16_t level, uint32_t page_no) {
  std::memset(data_, 0, kPageSize);
  data_[kPageTypeOffset] = static_cast<char>(type);
  data_[kPageVersionOffset] = static_cast<char>(kRTreeFormatVersion);
  StoreU32(data_ + kPageNumberOffset, page_no);
  StoreU16(data_ + kRNodeLevelOffset, level);
  StoreU16(data_ + kRNodeDimsOffset, static_cast<uint16_t>(dims_));
  StoreU16(data_ + kRNodeCapacityOffset, static_cast<uint16_t>(cap_));
  if (type == kRTreeLeafPageType) StoreU16(data_ + kPageFlagsOffset, kRFlagPoints);
}

bool RTreePage::IsConsistent() const {
  if (!IsNode()) return false;
  if (static_cast<uint8_t>(data_[kPageVersionOffset]) != kRTreeFormatVersion) return false;
  if (LoadU16(data_ + kRNodeDimsOffset) != dims_) return false;
  if (LoadU16(data_ + kRNodeCapacityOffset) != cap_) return false;
  if (count() > cap_) return false;
  if (points() && !leaf()) return false;
  return leaf() == (level() == 0);
}

Box RTreePage::GetBox(size_t i) const {
  Box b;
  for (size_t d = 0; d < dims_; ++d) {
    b.lo[d] = lo(d)[i];
    b.hi[d] = hi(d)[i];
  }
  return b;
}

Box RTreePage::Mbr() const {
  Box b = Box::Empty();
  const size_t n = count();
  for (size_t d = 0; d < dims_; ++d) {
    const double* l = lo(d);
    const double* h = hi(d);
    double mn = b.lo[d], mx = b.hi[d];
    for (size_t i = 0; i < n; ++i) {
      mn = std::min(mn, l[i]);
      mx = std::max(mx, h[i]);
    }
    b.lo[d] = mn;
    b.hi[d] = mx;
  }
  return b;
}

void RTreePage::SetBox(size_t i, const Box& box) {
  for (size_t d = 0; d < dims_; ++d) {
    Coords(2 * d)[i] = box.lo[d];
    Coords(2 * d + 1)[i] = box.hi[d];
  }
}

void RTreePage::SetEntry(size_t i, const Box& box, uint64_t id) {
  if (points() && std::memcmp(box.lo, box.hi, dims_ * sizeof(double)) != 0) {
    StoreU16(data_ + kPageFlagsOffset, LoadU16(data_ + kPageFlagsOffset) & ~kRFlagPoints);
  }
  SetBox(i, box);
  std::memcpy(data_ + IdsOffset() + 8 * i, &id, 8);
}

void RTreePage::Append(const Box& box, uint64_t id) {
  size_t n = count();
  SetEntry(n, box, id);
  SetCount(n + 1);
}

void RTreePage::Remove(size_t i) {
  size_t last = count() - 1;
  if (i != last) SetEntry(i, GetBox(last), this->id(last));
  SetCount(last);
}

void RTreePage::Load(RNode* node) const {
  node->level = level();
  const size_t n = count();
  node->entries.resize(n);
  for (size_t i = 0; i < n; ++i) GetEntry(i, &node->entries[i]);
}

void RTreePage::Store(const RNode& node, uint32_t page_no) {
  Init(node.level == 0 ? kRTreeLeafPageType : kRTreeInternalPageType, node.level, page_no);
  for (size_t i = 0; i < node.entries.size(); ++i) {
    SetEntry(i, node.entries[i].box, node.entries[i].id);
  }
  SetCount(node.entries.size());
}

}  // namespace meridian::storage
