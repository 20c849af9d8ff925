// RTree: open/create, page allocation, and the R* insertion (ChooseSubtree, forced reinsert
// once per level per insertion, split) and deletion (condense-tree with reinsertion of the
// orphaned entries), all under the exclusive tree latch. The split and ChooseSubtree
// computations are in rtree_split.cc, searches in rtree_search.cc, BulkLoad and Verify in
// rtree_build.cc.
#include "storage/rtree.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <mutex>

#include "storage/rtree_page.h"

namespace meridian::storage {

// Entries waiting to be (re)inserted during one insertion, and the levels that already had
// their forced reinsert (R* OverflowTreatment: once per level per inserted entry).
struct RTree::InsertState {
  std::deque<std::pair<REntry, uint16_t>> pending;
  uint64_t reinserted_levels = 0;  // bit L: level L reinserted
};

Result<std::unique_ptr<RTree>> RTree::Open(BufferPool* pool, const std::string& path,
                                           const RTreeOptions& options) {
  if (options.dims < 1 || options.dims > kRTreeMaxDims) {
    return Status::Error(
        sqlstate::kInvalidParameterValue,
        "an R-tree index has 1 to 8 dimensions, not " + std::to_string(options.dims));
  }
  return OpenIndex<RTree>(pool, path, options);
}

Status RTree::Init(const RTreeOptions& options) {
  fill_factor_ = std::clamp(options.fill_factor, 0.8, 1.0);
  const bool create = pool_->PageCount(file_) == 0;
  if (create) {
    dims_ = options.dims;
    cap_ = RNodeCapacity(dims_);
    // R* paper: m = 40% of M gave the best query performance.
    min_fill_ = std::max<size_t>(2, cap_ * 2 / 5);
    { MERIDIAN_ASSIGN_OR_RETURN(WritePageGuard meta, pool_->NewPage(file_)); }
    MERIDIAN_ASSIGN_OR_RETURN(WritePageGuard root, pool_->NewPage(file_));
    View(root.data()).Init(kRTreeLeafPageType, 0, root.page_no());
    root_ = root.page_no();
    height_ = 1;
    free_head_ = kRNoPage;
    root.Release();
  } else {
    MERIDIAN_ASSIGN_OR_RETURN(ReadPageGuard meta, pool_->FetchRead(file_, 0));
    const char* m = meta.data();
    if (static_cast<uint8_t>(m[kPageTypeOffset]) != kRTreeMetaPageType ||
        LoadU32(m + kRMetaMagicOffset) != kRTreeMagic) {
      return IndexCorruption(path_, 0, "not an R-tree meta page");
    }
    if (static_cast<uint8_t>(m[kPageVersionOffset]) != kRTreeFormatVersion) {
      return IndexCorruption(path_, 0, "unsupported R-tree format version");
    }
    root_ = LoadU32(m + kRMetaRootOffset);
    height_ = LoadU32(m + kRMetaHeightOffset);
    dims_ = LoadU16(m + kRMetaDimsOffset);
    cap_ = LoadU16(m + kRMetaCapacityOffset);
    min_fill_ = LoadU16(m + kRMetaMinFillOffset);
    free_head_ = LoadU32(m + kRMetaFreeHeadOffset);
    if (dims_ < 1 || dims_ > kRTreeMaxDims || cap_ != RNodeCapacity(dims_) || min_fill_ < 2 ||
        2 * min_fill_ > cap_ + 1) {
      return IndexCorruption(path_, 0, "bad dimensions or node capacity");
    }
    if (root_ == kRNoPage || root_ >= pool_->PageCount(file_) || height_ == 0 || height_ > 64) {
      return IndexCorruption(path_, 0, "bad root page or height");
    }
  }
  // R* paper: reinsert p = 30% of M entries on the first overflow of a level.
  reinsert_count_ = std::max<size_t>(1, cap_ * 3 / 10);
  return create ? WriteMeta() : Status::Ok();
}

Status RTree::CheckBox(const Box& box) const {
  for (size_t d = 0; d < dims_; ++d) {
    if (std::isnan(box.lo[d]) || std::isnan(box.hi[d])) {
      return Status::Error(sqlstate::kInvalidParameterValue, "R-tree coordinates must not be NaN");
    }
    if (box.lo[d] > box.hi[d]) {
      return Status::Error(sqlstate::kInvalidParameterValue,
                           "R-tree box has a lower bound above its upper bound in dimension " +
                               std::to_string(d + 1));
    }
  }
  return Status::Ok();
}

RTreePage RTree::View(const char* data) const { return RTreePage(data, dims_, cap_); }

Result<ReadPageGuard> RTree::ReadNode(uint32_t page) {
  MERIDIAN_ASSIGN_OR_RETURN(ReadPageGuard g, pool_->FetchRead(file_, page));
  if (!View(g.data()).IsConsistent()) return IndexCorruption(path_, page, "bad R-tree node");
  return g;
}

Result<WritePageGuard> RTree::WriteNode(uint32_t page) {
  MERIDIAN_ASSIGN_OR_RETURN(WritePageGuard g, pool_->FetchWrite(file_, page));
  if (!View(g.data()).IsConsistent()) return IndexCorruption(path_, page, "bad R-tree node");
  return g;
}

Status RTree::LoadNode(uint32_t page, RNode* node) {
  MERIDIAN_ASSIGN_OR_RETURN(ReadPageGuard g, ReadNode(page));
  View(g.data()).Load(node);
  return Status::Ok();
}

Status RTree::StoreNode(uint32_t page, const RNode& node) {
  MERIDIAN_ASSIGN_OR_RETURN(WritePageGuard g, pool_->FetchWrite(file_, page));
  View(g.data()).Store(node, page);
  return Status::Ok();
}

Status RTree::WriteMeta() {
  MERIDIAN_ASSIGN_OR_RETURN(WritePageGuard g, pool_->FetchWrite(file_, 0));
  char* m = g.data();
  std::memset(m, 0, kPageSize);
  m[kPageTypeOffset] = static_cast<char>(kRTreeMetaPageType);
  m[kPageVersionOffset] = static_cast<char>(kRTreeFormatVersion);
  StoreU32(m + kRMetaMagicOffset, kRTreeMagic);
  StoreU32(m + kRMetaRootOffset, root_);
  StoreU32(m + kRMetaHeightOffset, height_);
  StoreU16(m + kRMetaDimsOffset, static_cast<uint16_t>(dims_));
  StoreU16(m + kRMetaCapacityOffset, static_cast<uint16_t>(cap_));
  StoreU16(m + kRMetaMinFillOffset, static_cast<uint16_t>(min_fill_));
  StoreU32(m + kRMetaFreeHeadOffset, free_head_);
  return Status::Ok();
}

Result<uint32_t> RTree::AllocatePage() {
  if (free_head_ != kRNoPage) {
    uint32_t page = free_head_;
    MERIDIAN_ASSIGN_OR_RETURN(ReadPageGuard g, pool_->FetchRead(file_, page));
    if (static_cast<uint8_t>(g.data()[kPageTypeOffset]) != kRTreeFreePageType) {
      return IndexCorruption(path_, page, "free list");
    }
    free_head_ = LoadU32(g.data() + kRFreeNextOffset);
    g.Release();
    MERIDIAN_RETURN_IF_ERROR(WriteMeta());
    return page;
  }
  MERIDIAN_ASSIGN_OR_RETURN(WritePageGuard g, pool_->NewPage(file_));
  return g.page_no();
}

Status RTree::FreePage(uint32_t page) {
  {
    MERIDIAN_ASSIGN_OR_RETURN(WritePageGuard g, pool_->FetchWrite(file_, page));
    char* p = g.data();
    std::memset(p, 0, kPageSize);
    p[kPageTypeOffset] = static_cast<char>(kRTreeFreePageType);
    p[kPageVersionOffset] = static_cast<char>(kRTreeFormatVersion);
    StoreU32(p + kRFreeNextOffset, free_head_);
  }
  free_head_ = page;
  return WriteMeta();
}

// ---- Insert ----

Status RTree::Insert(const Box& box, Rid rid) {
  MERIDIAN_RETURN_IF_ERROR(CheckBox(box));
  WriterLock tl(tree_latch_);
  MERIDIAN_RETURN_IF_ERROR(CheckOpen());
  InsertState state;
  REntry e{box, PackRid(rid)};
  for (size_t d = dims_; d < kRTreeMaxDims; ++d) e.box.lo[d] = e.box.hi[d] = 0;
  MERIDIAN_RETURN_IF_ERROR(InsertAtLevel(e, 0, &state));
  while (!state.pending.empty()) {
    auto [entry, level] = state.pending.front();
    state.pending.pop_front();
    MERIDIAN_RETURN_IF_ERROR(InsertAtLevel(entry, level, &state));
  }
  return Status::Ok();
}

Status RTree::InsertAtLevel(const REntry& e, uint16_t level, InsertState* state) {
  std::vector<PathStep> path;
  uint32_t page = root_;
  while (true) {
    MERIDIAN_ASSIGN_OR_RETURN(ReadPageGuard g, ReadNode(page));
    RTreePage p = View(g.data());
    if (p.level() < level) return IndexCorruption(path_, page, "level below the insert level");
    if (p.level() == level) break;
    if (p.count() == 0) return IndexCorruption(path_, page, "empty internal node");
    size_t i = ChooseSubtree(p, e.box);
    path.push_back({page, i});
    page = static_cast<uint32_t>(p.id(i));
  }
  path.push_back({page, 0});
  {
    MERIDIAN_ASSIGN_OR_RETURN(WritePageGuard g, WriteNode(page));
    RTreePage p = View(g.data());
    if (p.count() < cap_) {
      p.Append(e.box, e.id);
      g.Release();
      return FixParents(path, path.size() - 1, e.box, /*exact=*/false);
    }
  }
  RNode node;
  MERIDIAN_RETURN_IF_ERROR(LoadNode(page, &node));
  node.entries.push_back(e);
  return OverflowTreatment(&path, path.size() - 1, std::move(node), state);
}

Status RTree::FixParents(const std::vector<PathStep>& path, size_t depth, Box box, bool exact) {
  while (depth > 0) {
    --depth;
    MERIDIAN_ASSIGN_OR_RETURN(WritePageGuard g, WriteNode(path[depth].page));
    RTreePage p = View(g.data());
    const size_t i = path[depth].child;
    if (i >= p.count()) return IndexCorruption(path_, path[depth].page, "path entry out of range");
    Box cur = p.GetBox(i);
    if (exact) {
      if (cur.Equals(box, dims_)) return Status::Ok();
      p.SetBox(i, box);
      box = p.Mbr();
    } else {
      if (cur.Contains(box, dims_)) return Status::Ok();
      cur.Extend(box, dims_);
      p.SetBox(i, cur);
    }
  }
  return Status::Ok();
}

Status RTree::OverflowTreatment(std::vector<PathStep>* path, size_t depth, RNode node,
                                InsertState* state) {
  while (true) {
    const uint16_t level = node.level;
    const uint64_t bit = uint64_t{1} << level;
    if (depth > 0 && (state->reinserted_levels & bit) == 0) {
      // Forced reinsert: remove the p entries whose centres lie farthest from the node's
      // centre and insert them again, nearest first ("close reinsert").
      state->reinserted_levels |= bit;
      const Box mbr = node.Mbr(dims_);
      std::vector<std::pair<double, size_t>> dist(node.entries.size());
      for (size_t i = 0; i < node.entries.size(); ++i) {
        double s = 0;
        for (size_t d = 0; d < dims_; ++d) {
          double x = node.entries[i].box.Center(d) - mbr.Center(d);
          s += x * x;
        }
        dist[i] = {s, i};
      }
      std::sort(dist.begin(), dist.end());
      const size_t keep = dist.size() - reinsert_count_;
      RNode kept;
      kept.level = level;
      kept.entries.reserve(keep);
      for (size_t j = 0; j < keep; ++j) kept.entries.push_back(node.entries[dist[j].second]);
      for (size_t j = keep; j < dist.size(); ++j) {
        state->pending.emplace_back(node.entries[dist[j].second], level);
      }
      const uint32_t page = (*path)[depth].page;
      MERIDIAN_RETURN_IF_ERROR(StoreNode(page, kept));
      return FixParents(*path, depth, kept.Mbr(dims_), /*exact=*/true);
    }
    RNode a, b;
    Split(std::move(node), &a, &b);
    const uint32_t page = (*path)[depth].page;
    MERIDIAN_RETURN_IF_ERROR(StoreNode(page, a));
    MERIDIAN_ASSIGN_OR_RETURN(uint32_t right, AllocatePage());
    MERIDIAN_RETURN_IF_ERROR(StoreNode(right, b));
    if (depth == 0) {  // the root split: the tree grows by one level
      MERIDIAN_ASSIGN_OR_RETURN(uint32_t new_root, AllocatePage());
      RNode r;
      r.level = static_cast<uint16_t>(level + 1);
      r.entries.push_back({a.Mbr(dims_), page});
      r.entries.push_back({b.Mbr(dims_), right});
      MERIDIAN_RETURN_IF_ERROR(StoreNode(new_root, r));
      root_ = new_root;
      ++height_;
      return WriteMeta();
    }
    --depth;
    RNode parent;
    MERIDIAN_RETURN_IF_ERROR(LoadNode((*path)[depth].page, &parent));
    const size_t ci = (*path)[depth].child;
    if (ci >= parent.entries.size()) {
      return IndexCorruption(path_, (*path)[depth].page, "path entry out of range");
    }
    parent.entries[ci].box = a.Mbr(dims_);
    parent.entries.push_back({b.Mbr(dims_), right});
    if (parent.entries.size() <= cap_) {
      MERIDIAN_RETURN_IF_ERROR(StoreNode((*path)[depth].page, parent));
      return FixParents(*path, depth, parent.Mbr(dims_), /*exact=*/true);
    }
    node = std::move(parent);
  }
}

// ---- Delete ----

Result<bool> RTree::Delete(const Box& box, Rid rid) {
  MERIDIAN_RETURN_IF_ERROR(CheckBox(box));
  WriterLock tl(tree_latch_);
  MERIDIAN_RETURN_IF_ERROR(CheckOpen());
  Box key = box;
  for (size_t d = dims_; d < kRTreeMaxDims; ++d) key.lo[d] = key.hi[d] = 0;
  std::vector<PathStep> path;
  MERIDIAN_ASSIGN_OR_RETURN(bool found, FindLeaf(root_, key, PackRid(rid), &path));
  if (!found) return false;
  {
    MERIDIAN_ASSIGN_OR_RETURN(WritePageGuard g, WriteNode(path.back().page));
    View(g.data()).Remove(path.back().child);
  }
  MERIDIAN_RETURN_IF_ERROR(Condense(&path));
  return true;
}

Result<bool> RTree::FindLeaf(uint32_t page, const Box& box, uint64_t id,
                             std::vector<PathStep>* path) {
  std::vector<std::pair<uint32_t, uint32_t>> children;  // (entry index, child page)
  {
    MERIDIAN_ASSIGN_OR_RETURN(ReadPageGuard g, ReadNode(page));
    RTreePage p = View(g.data());
    const size_t n = p.count();
    for (size_t i = 0; i < n; ++i) {
      if (p.leaf()) {
        if (p.id(i) == id && p.GetBox(i).Equals(box, dims_)) {
          path->push_back({page, i});
          return true;
        }
      } else if (p.GetBox(i).Contains(box, dims_)) {
        children.emplace_back(static_cast<uint32_t>(i), static_cast<uint32_t>(p.id(i)));
      }
    }
  }
  path->push_back({page, 0});
  for (auto [i, child] : children) {
    path->back().child = i;
    MERIDIAN_ASSIGN_OR_RETURN(bool found, FindLeaf(child, box, id, path));
    if (found) return true;
  }
  path->pop_back();
  return false;
}

Status RTree::Condense(std::vector<PathStep>* path) {
  std::vector<std::pair<REntry, uint16_t>> orphans;
  for (size_t depth = path->size() - 1; depth > 0; --depth) {
    const uint32_t page = (*path)[depth].page;
    const PathStep& up = (*path)[depth - 1];
    RNode node;
    MERIDIAN_RETURN_IF_ERROR(LoadNode(page, &node));
    MERIDIAN_ASSIGN_OR_RETURN(WritePageGuard pg, WriteNode(up.page));
    RTreePage parent = View(pg.data());
    if (up.child >= parent.count()) return IndexCorruption(path_, up.page, "path out of range");
    if (node.entries.size() < min_fill_) {
      for (REntry& e : node.entries) orphans.emplace_back(e, node.level);
      parent.Remove(up.child);
      pg.Release();
      MERIDIAN_RETURN_IF_ERROR(FreePage(page));
    } else {
      parent.SetBox(up.child, node.Mbr(dims_));
    }
  }
  // Higher levels first, so subtrees go back before the entries that may land under them.
  std::stable_sort(orphans.begin(), orphans.end(),
                   [](const auto& x, const auto& y) { return x.second > y.second; });
  for (auto& [entry, level] : orphans) {
    InsertState state;
    MERIDIAN_RETURN_IF_ERROR(InsertAtLevel(entry, level, &state));
    while (!state.pending.empty()) {
      auto [e, l] = state.pending.front();
      state.pending.pop_front();
      MERIDIAN_RETURN_IF_ERROR(InsertAtLevel(e, l, &state));
    }
  }
  // A root left with one child is freed and its child becomes the root.
  while (height_ > 1) {
    uint32_t child;
    {
      MERIDIAN_ASSIGN_OR_RETURN(ReadPageGuard g, ReadNode(root_));
      RTreePage p = View(g.data());
      if (p.count() != 1) break;
      child = static_cast<uint32_t>(p.id(0));
    }
    MERIDIAN_RETURN_IF_ERROR(FreePage(root_));
    root_ = child;
    --height_;
    MERIDIAN_RETURN_IF_ERROR(WriteMeta());
  }
  return Status::Ok();
}

}  // namespace meridian::storage
