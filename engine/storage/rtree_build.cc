// RTree bulk load by Sort-Tile-Recursive packing (Leutenegger, Lopez, Edgington 1997): cut the
// entries into slabs by the first dimension's centres, each slab into slabs by the next
// dimension, ..., and the last into runs of per-node entries packed into leaves; then the same
// over each level's node boxes up to one root. The cuts are placed by selection (nth_element),
// not full sorts. And Verify, the invariant checker of the randomized tests.
#include <algorithm>
#include <cmath>
#include <mutex>
#include <numeric>

#include "storage/rtree.h"
#include "storage/rtree_page.h"

namespace meridian::storage {

namespace {

// Reorders a[0, n) so that every position k that is a multiple of step holds the element a
// full sort would put there, with no greater element before it and no smaller one after it:
// the runs [k, k + step) are those of the sorted order, each in any order. Recursive
// nth_element at the middle cut: O(n log(n / step)) instead of a sort's O(n log n).
void SelectRuns(std::pair<double, uint32_t>* a, size_t n, size_t step) {
  while (n > step) {
    const size_t runs = (n + step - 1) / step;
    const size_t mid = runs / 2 * step;
    std::nth_element(a, a + mid, a + n);
    SelectRuns(a, mid, step);
    a += mid;
    n -= mid;
  }
}

// Orders order[0, n) by STR for nodes of per entries: slabs by the first dimension's centres,
// each cut into slabs by the next dimension, ..., and runs of per entries by the last, every
// slab a multiple of per entries except the last, so node boundaries fall on tile boundaries.
// Only the cuts are placed (SelectRuns); a node's entries may come in any order. centers
// holds dims centres per entry, entry i at centers[i * dims].
void StrSort(uint32_t* order, size_t n, size_t dims, size_t d, size_t per,
             const std::vector<double>& centers, std::vector<std::pair<double, uint32_t>>* tmp) {
  if (n <= per) return;
  const size_t pages = (n + per - 1) / per;
  const auto slabs = static_cast<size_t>(
      std::ceil(std::pow(static_cast<double>(pages), 1.0 / static_cast<double>(dims - d))));
  const size_t slab = d + 1 == dims ? per : per * ((pages + slabs - 1) / slabs);
  tmp->resize(n);
  for (size_t i = 0; i < n; ++i) (*tmp)[i] = {centers[order[i] * dims + d], order[i]};
  SelectRuns(tmp->data(), n, slab);
  for (size_t i = 0; i < n; ++i) order[i] = (*tmp)[i].second;
  if (d + 1 == dims) return;
  for (size_t b = 0; b < n; b += slab) {
    StrSort(order + b, std::min(slab, n - b), dims, d + 1, per, centers, tmp);
  }
}

}  // namespace

Status RTree::BulkLoad(size_t n, const std::function<void(size_t, Box*, Rid*)>& entry) {
  WriterLock tl(tree_latch_);
  MERIDIAN_RETURN_IF_ERROR(CheckOpen());
  {
    MERIDIAN_ASSIGN_OR_RETURN(ReadPageGuard g, ReadNode(root_));
    if (height_ != 1 || View(g.data()).count() != 0) {
      return Status::Internal("BulkLoad needs an empty index");
    }
  }
  if (n == 0) return Status::Ok();
  if (n > UINT32_MAX) return Status::Error(sqlstate::kProgramLimitExceeded, "too many entries");
  Box box;
  Rid rid;
  std::vector<double> centers(n * dims_);  // entry i's centre at [i * dims_]
  for (size_t i = 0; i < n; ++i) {
    entry(i, &box, &rid);
    MERIDIAN_RETURN_IF_ERROR(CheckBox(box));
    for (size_t d = 0; d < dims_; ++d) centers[i * dims_ + d] = box.Center(d);
  }
  const size_t per = std::clamp<size_t>(
      static_cast<size_t>(fill_factor_ * static_cast<double>(cap_)), 2 * min_fill_, cap_);
  std::vector<uint32_t> allocated;
  std::vector<std::pair<double, uint32_t>> tmp;
  auto fail = [&](Status st) {
    for (uint32_t page : allocated) {
      [[maybe_unused]] Status ignored = FreePage(page);  // best effort; st is what matters
    }
    return st;
  };

  std::vector<uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  StrSort(order.data(), n, dims_, 0, per, centers, &tmp);
  std::vector<REntry> level_entries;
  Status st = PackLevel(
      [&](size_t i, REntry* e) {
        entry(i, &e->box, &rid);
        for (size_t d = dims_; d < kRTreeMaxDims; ++d) e->box.lo[d] = e->box.hi[d] = 0;
        e->id = PackRid(rid);
      },
      order, 0, per, &level_entries, &allocated);
  if (!st.ok()) return fail(st);
  uint16_t level = 0;
  while (level_entries.size() > 1) {
    std::vector<REntry> items = std::move(level_entries);
    level_entries.clear();
    order.resize(items.size());
    std::iota(order.begin(), order.end(), 0u);
    centers.resize(items.size() * dims_);
    for (size_t i = 0; i < items.size(); ++i) {
      for (size_t d = 0; d < dims_; ++d) centers[i * dims_ + d] = items[i].box.Center(d);
    }
    StrSort(order.data(), items.size(), dims_, 0, per, centers, &tmp);
    ++level;
    st = PackLevel([&](size_t i, REntry* e) { *e = items[i]; }, order, level, per, &level_entries,
                   &allocated);
    if (!st.ok()) return fail(st);
  }
  const uint32_t old_root = root_;
  root_ = static_cast<uint32_t>(level_entries[0].id);
  height_ = level + 1;
  return FreePage(old_root);  // writes the meta page
}

Status RTree::PackLevel(const std::function<void(size_t, REntry*)>& get,
                        const std::vector<uint32_t>& order, uint16_t level, size_t per_node,
                        std::vector<REntry>* parents, std::vector<uint32_t>* allocated) {
  const size_t n = order.size();
  REntry e;
  for (size_t begin = 0; begin < n;) {
    size_t take = std::min(per_node, n - begin);
    const size_t rest = n - begin - take;
    // The last two nodes share evenly when the last alone would be underfull.
    if (rest > 0 && rest < min_fill_) take = (n - begin + 1) / 2;
    MERIDIAN_ASSIGN_OR_RETURN(uint32_t page, AllocatePage());
    allocated->push_back(page);
    MERIDIAN_ASSIGN_OR_RETURN(WritePageGuard g, pool_->FetchWrite(file_, page));
    RTreePage p = View(g.data());
    p.Init(level == 0 ? kRTreeLeafPageType : kRTreeInternalPageType, level, page);
    for (size_t i = begin; i < begin + take; ++i) {
      get(order[i], &e);
      p.Append(e.box, e.id);
    }
    parents->push_back({p.Mbr(), page});
    begin += take;
  }
  return Status::Ok();
}

// ---- Verify ----

struct RTree::VerifyState {
  std::vector<uint8_t> seen;  // by page number
  Stats stats;
};

Result<RTree::Stats> RTree::Verify(bool check_pins) {
  WriterLock tl(tree_latch_);
  MERIDIAN_RETURN_IF_ERROR(CheckOpen());
  VerifyState vs;
  const uint32_t pages = pool_->PageCount(file_);
  vs.seen.assign(pages, 0);
  vs.stats.height = height_;
  vs.stats.min_fill = cap_;
  {
    MERIDIAN_ASSIGN_OR_RETURN(ReadPageGuard g, pool_->FetchRead(file_, 0));
    const char* m = g.data();
    if (static_cast<uint8_t>(m[kPageTypeOffset]) != kRTreeMetaPageType ||
        LoadU32(m + kRMetaMagicOffset) != kRTreeMagic || LoadU32(m + kRMetaRootOffset) != root_ ||
        LoadU32(m + kRMetaHeightOffset) != height_ || LoadU16(m + kRMetaDimsOffset) != dims_ ||
        LoadU16(m + kRMetaCapacityOffset) != cap_ ||
        LoadU16(m + kRMetaMinFillOffset) != min_fill_ ||
        LoadU32(m + kRMetaFreeHeadOffset) != free_head_) {
      return IndexCorruption(path_, 0, "meta page does not match the tree");
    }
    vs.seen[0] = 1;
  }
  MERIDIAN_RETURN_IF_ERROR(VerifyNode(root_, height_ - 1, nullptr, &vs));
  for (uint32_t f = free_head_; f != kRNoPage;) {
    if (f >= pages || vs.seen[f]) return IndexCorruption(path_, f, "free list page reused");
    vs.seen[f] = 1;
    MERIDIAN_ASSIGN_OR_RETURN(ReadPageGuard g, pool_->FetchRead(file_, f));
    if (static_cast<uint8_t>(g.data()[kPageTypeOffset]) != kRTreeFreePageType) {
      return IndexCorruption(path_, f, "free list page is not free");
    }
    ++vs.stats.free_pages;
    f = LoadU32(g.data() + kRFreeNextOffset);
  }
  for (uint32_t p = 0; p < pages; ++p) {
    if (!vs.seen[p]) return IndexCorruption(path_, p, "page neither in the tree nor free");
  }
  if (vs.stats.leaf_pages + vs.stats.internal_pages == 1) vs.stats.min_fill = 0;
  if (check_pins && pool_->PinnedCount() != 0) {
    return Status::Internal("buffer pool pins left after R-tree Verify");
  }
  return vs.stats;
}

Status RTree::VerifyNode(uint32_t page, uint32_t level, const Box* parent_box, VerifyState* vs) {
  if (page == kRNoPage || page >= vs->seen.size()) {
    return IndexCorruption(path_, page, "child page out of range");
  }
  if (vs->seen[page]) return IndexCorruption(path_, page, "page reached twice");
  vs->seen[page] = 1;
  std::vector<REntry> children;
  {
    MERIDIAN_ASSIGN_OR_RETURN(ReadPageGuard g, ReadNode(page));
    RTreePage p = View(g.data());
    const size_t n = p.count();
    if (p.level() != level) return IndexCorruption(path_, page, "wrong level");
    if (parent_box != nullptr) {
      if (n < min_fill_) return IndexCorruption(path_, page, "node below the minimum fill");
      vs->stats.min_fill = std::min(vs->stats.min_fill, n);
    } else if (level > 0 && n < 2) {
      return IndexCorruption(path_, page, "internal root with fewer than 2 children");
    }
    for (size_t i = 0; i < n; ++i) {
      Box b = p.GetBox(i);
      if (!CheckBox(b).ok()) return IndexCorruption(path_, page, "invalid entry box");
      if (p.points() && !b.Equals(Box::Of(b.lo, b.lo), dims_)) {
        return IndexCorruption(path_, page, "points leaf holds a box");
      }
      if (parent_box != nullptr && !parent_box->Contains(b, dims_)) {
        return IndexCorruption(path_, page, "entry outside its parent's box");
      }
    }
    if (parent_box != nullptr && !p.Mbr().Equals(*parent_box, dims_)) {
      return IndexCorruption(path_, page, "parent entry is not the node's bounding box");
    }
    if (p.leaf()) {
      vs->stats.entries += n;
      ++vs->stats.leaf_pages;
      return Status::Ok();
    }
    ++vs->stats.internal_pages;
    children.resize(n);
    for (size_t i = 0; i < n; ++i) p.GetEntry(i, &children[i]);
  }
  for (const REntry& c : children) {
    MERIDIAN_RETURN_IF_ERROR(VerifyNode(static_cast<uint32_t>(c.id), level - 1, &c.box, vs));
  }
  return Status::Ok();
}

}  // namespace meridian::storage
