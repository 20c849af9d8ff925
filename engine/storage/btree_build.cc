// BTree bulk build (leaves filled left to right to the fill factor, then each upper level built
// from the first keys of the level below) and Verify, the invariant checker used after every
// step of the randomized tests.
#include <algorithm>
#include <mutex>

#include "storage/btree.h"
#include "storage/btree_page.h"

namespace meridian::storage {

Status BTree::BulkBuild(
    const std::function<Result<bool>(std::string* key, std::string* value)>& next) {
  WriterLock tl(tree_latch_);
  MERIDIAN_RETURN_IF_ERROR(CheckOpen());
  {
    MERIDIAN_ASSIGN_OR_RETURN(ReadPageGuard g, pool_->FetchRead(file_, root_));
    BTreePage p(g.data());
    if (!p.leaf() || p.count() != 0) return Status::Internal("BulkBuild needs an empty index");
  }
  std::vector<uint32_t> allocated;
  Status st = BulkBuildLocked(next, &allocated);
  if (!st.ok()) {
    for (uint32_t page : allocated) {
      [[maybe_unused]] Status ignored = FreePage(page);  // best effort; st is what matters
    }
  }
  return st;
}

Status BTree::BulkBuildLocked(
    const std::function<Result<bool>(std::string* key, std::string* value)>& next,
    std::vector<uint32_t>* allocated) {
  struct Child {
    uint32_t page;
    std::string key, val;  // first entry of the child's subtree (separator form)
  };
  const size_t target = static_cast<size_t>(fill_factor_ * static_cast<double>(kNodeCapacity));
  std::vector<Child> level;
  NodeImage cur;
  uint32_t cur_page = kNoPage;
  std::string key, val, prev_key, prev_val;
  bool has_prev = false;
  while (true) {
    MERIDIAN_ASSIGN_OR_RETURN(bool more, next(&key, &val));
    if (!more) break;
    MERIDIAN_RETURN_IF_ERROR(CheckSizes(key, val));
    if (has_prev) {
      int c = unique_ ? CompareBytes(key, prev_key) : CompareEntry(key, val, prev_key, prev_val);
      if (c == 0 && unique_) return DuplicateKey();
      if (c <= 0) return Status::Internal("BulkBuild input is not in strictly increasing order");
    }
    NodeCell cell = MakeCell(true, key, val, 0);
    if (cur_page == kNoPage || cur.UsedBytes() + cell.size() + kNodeSlotSize > target) {
      MERIDIAN_ASSIGN_OR_RETURN(uint32_t page, AllocatePage());
      allocated->push_back(page);
      NodeImage fresh;
      if (cur_page != kNoPage) {
        cur.right = page;
        MERIDIAN_RETURN_IF_ERROR(StoreNode(cur_page, cur));
        fresh.left = cur_page;
      }
      cur = std::move(fresh);
      cur_page = page;
      level.push_back({page, key, SeparatorValue(val)});
    }
    cur.cells.push_back(std::move(cell));
    prev_key.swap(key);
    prev_val.swap(val);
    has_prev = true;
  }
  if (cur_page == kNoPage) return Status::Ok();  // no input: the tree stays empty
  MERIDIAN_RETURN_IF_ERROR(StoreNode(cur_page, cur));

  uint32_t height = 1;
  while (level.size() > 1) {
    // Group children into nodes: a group's first child is child0, the others become cells.
    std::vector<std::vector<size_t>> groups;
    size_t used = 0;
    for (size_t i = 0; i < level.size(); ++i) {
      size_t cost = kInternalCellHeader + level[i].key.size() + level[i].val.size() + kNodeSlotSize;
      if (groups.empty() || used + cost > target) {
        groups.push_back({i});
        used = 0;
        continue;
      }
      groups.back().push_back(i);
      used += cost;
    }
    if (groups.size() > 1 && groups.back().size() == 1) {  // an internal node needs 2 children
      auto& prev = groups[groups.size() - 2];
      groups.back().insert(groups.back().begin(), prev.back());
      prev.pop_back();
    }
    std::vector<uint32_t> pages;
    for (size_t g = 0; g < groups.size(); ++g) {
      MERIDIAN_ASSIGN_OR_RETURN(uint32_t page, AllocatePage());
      allocated->push_back(page);
      pages.push_back(page);
    }
    std::vector<Child> upper;
    for (size_t g = 0; g < groups.size(); ++g) {
      NodeImage node;
      node.level = static_cast<uint16_t>(height);
      node.left = g > 0 ? pages[g - 1] : kNoPage;
      node.right = g + 1 < pages.size() ? pages[g + 1] : kNoPage;
      node.child0 = level[groups[g][0]].page;
      for (size_t j = 1; j < groups[g].size(); ++j) {
        const Child& c = level[groups[g][j]];
        node.cells.push_back(MakeCell(false, c.key, c.val, c.page));
      }
      MERIDIAN_RETURN_IF_ERROR(StoreNode(pages[g], node));
      const Child& first = level[groups[g][0]];
      upper.push_back({pages[g], first.key, first.val});
    }
    level = std::move(upper);
    ++height;
  }
  uint32_t old_root = root_;
  root_ = level[0].page;
  height_ = height;
  MERIDIAN_RETURN_IF_ERROR(WriteMeta());
  allocated->clear();  // from here on the pages belong to the tree
  return FreePage(old_root);
}

// ---- Verify ----

Result<BTree::Stats> BTree::Verify(bool check_pins) {
  WriterLock tl(tree_latch_);
  MERIDIAN_RETURN_IF_ERROR(CheckOpen());
  {
    MERIDIAN_ASSIGN_OR_RETURN(ReadPageGuard g, pool_->FetchRead(file_, 0));
    BTreePage m(g.data());
    if (m.type() != kBTreeMetaPageType || m.Get32(kMetaRootOffset) != root_ ||
        m.Get32(kMetaHeightOffset) != height_ || m.Get32(kMetaFreeHeadOffset) != free_head_) {
      return BTreeCorruption(path_, 0, "meta page does not match the tree");
    }
  }
  Stats stats;
  stats.height = height_;
  stats.min_fill_bytes = kNodeCapacity;
  std::vector<std::vector<LevelPage>> levels(height_);
  MERIDIAN_RETURN_IF_ERROR(
      VerifyNode(root_, height_ - 1, nullptr, nullptr, nullptr, nullptr, &levels, &stats));
  size_t reachable = 0;
  for (const auto& pages : levels) {
    reachable += pages.size();
    for (size_t j = 0; j < pages.size(); ++j) {
      uint32_t want_left = j > 0 ? pages[j - 1].page : kNoPage;
      uint32_t want_right = j + 1 < pages.size() ? pages[j + 1].page : kNoPage;
      if (pages[j].left != want_left || pages[j].right != want_right) {
        return BTreeCorruption(path_, pages[j].page, "sibling links do not match the level");
      }
    }
  }
  uint32_t page_count = pool_->PageCount(file_);
  for (uint32_t f = free_head_; f != kNoPage;) {
    if (f >= page_count || ++stats.free_pages > page_count) {
      return BTreeCorruption(path_, f, "free list is broken");
    }
    MERIDIAN_ASSIGN_OR_RETURN(ReadPageGuard g, pool_->FetchRead(file_, f));
    BTreePage p(g.data());
    if (p.type() != kBTreeFreePageType) return BTreeCorruption(path_, f, "free page in use");
    f = p.Get32(kFreeNextOffset);
  }
  if (reachable + stats.free_pages + 1 != page_count) {
    std::string what = "pages leaked: ";
    what.append(std::to_string(page_count))
        .append(" in file, ")
        .append(std::to_string(reachable))
        .append(" in the tree, ")
        .append(std::to_string(stats.free_pages))
        .append(" free");
    return BTreeCorruption(path_, 0, what);
  }
  if (check_pins && pool_->PinnedCount() != 0) {
    return Status::Internal("buffer pool pins left after B+tree operations");
  }
  return stats;
}

Status BTree::VerifyNode(uint32_t page, uint32_t level, const std::string* lo_key,
                         const std::string* lo_val, const std::string* hi_key,
                         const std::string* hi_val, std::vector<std::vector<LevelPage>>* levels,
                         Stats* stats) {
  NodeImage node;
  {
    MERIDIAN_ASSIGN_OR_RETURN(ReadPageGuard g, pool_->FetchRead(file_, page));
    BTreePage p(g.data());
    if (!p.IsConsistent()) return BTreeCorruption(path_, page, "inconsistent node layout");
    if (p.level() != level) return BTreeCorruption(path_, page, "leaf depth is not uniform");
    p.Load(&node);
  }
  bool is_root = page == root_;
  if (!is_root && node.cells.empty()) return BTreeCorruption(path_, page, "empty non-root node");
  if (is_root && !node.leaf() && node.cells.empty()) {
    return BTreeCorruption(path_, page, "internal root with one child");
  }
  if (!is_root) stats->min_fill_bytes = std::min(stats->min_fill_bytes, node.UsedBytes());
  (*levels)[level].push_back({page, node.left, node.right});
  for (size_t i = 0; i < node.cells.size(); ++i) {
    std::string_view k = node.Key(i), v = node.Val(i);
    if (i > 0) {
      int c = unique_ ? CompareBytes(node.Key(i - 1), k)
                      : CompareEntry(node.Key(i - 1), node.Val(i - 1), k, v);
      if (c >= 0) return BTreeCorruption(path_, page, "keys out of order or duplicated");
    }
    if (lo_key != nullptr && CompareEntry(k, v, *lo_key, *lo_val) < 0) {
      return BTreeCorruption(path_, page, "key below its separator");
    }
    if (hi_key != nullptr && CompareEntry(k, v, *hi_key, *hi_val) >= 0) {
      return BTreeCorruption(path_, page, "key not below the next separator");
    }
  }
  if (node.leaf()) {
    stats->entries += node.cells.size();
    ++stats->leaf_pages;
    return Status::Ok();
  }
  ++stats->internal_pages;
  if (level == 0) return BTreeCorruption(path_, page, "internal node at leaf level");
  for (size_t i = 0; i <= node.cells.size(); ++i) {
    std::string ck_lo, cv_lo, ck_hi, cv_hi;
    const std::string *lk = lo_key, *lv = lo_val, *hk = hi_key, *hv = hi_val;
    if (i > 0) {
      ck_lo = node.Key(i - 1);
      cv_lo = node.Val(i - 1);
      lk = &ck_lo;
      lv = &cv_lo;
    }
    if (i < node.cells.size()) {
      ck_hi = node.Key(i);
      cv_hi = node.Val(i);
      hk = &ck_hi;
      hv = &cv_hi;
    }
    MERIDIAN_RETURN_IF_ERROR(VerifyNode(node.Child(i), level - 1, lk, lv, hk, hv, levels, stats));
  }
  return Status::Ok();
}

}  // namespace meridian::storage
