// BTree: descent, in-place leaf changes under the shared tree latch, and structure changes
// (split, merge, redistribute, root growth and collapse) on in-memory NodeImages under the
// exclusive tree latch. Scans are in btree_cursor.cc, bulk build and Verify in btree_build.cc.
#include "storage/btree.h"

#include <algorithm>
#include <cstdint>
#include <mutex>

#include "storage/btree_page.h"
#include "storage/key_codec.h"

namespace meridian::storage {

ScanRange ScanRange::Prefix(std::string_view prefix, bool reverse) {
  ScanRange r;
  r.lower = ScanBound::Inclusive(std::string(prefix));
  std::string succ = PrefixSuccessor(prefix);
  r.upper = succ.empty() ? ScanBound::Unbounded() : ScanBound::Exclusive(std::move(succ));
  r.reverse = reverse;
  return r;
}

Status BTreeCorruption(const std::string& path, uint32_t page, std::string_view what) {
  return IndexCorruption(path, page, what);
}

Result<std::unique_ptr<BTree>> BTree::Open(BufferPool* pool, const std::string& path,
                                           const BTreeOptions& options) {
  return OpenIndex<BTree>(pool, path, options);
}

Status BTree::Init(const BTreeOptions& options) {
  fill_factor_ = std::clamp(options.fill_factor, 0.5, 1.0);
  if (pool_->PageCount(file_) == 0) {
    unique_ = options.unique;
    { MERIDIAN_ASSIGN_OR_RETURN(WritePageGuard meta, pool_->NewPage(file_)); }
    MERIDIAN_ASSIGN_OR_RETURN(WritePageGuard root, pool_->NewPage(file_));
    BTreePage(root.data()).Init(kBTreeLeafPageType, 0, root.page_no());
    root_ = root.page_no();
    height_ = 1;
    free_head_ = kNoPage;
    root.Release();
    return WriteMeta();
  }
  MERIDIAN_ASSIGN_OR_RETURN(ReadPageGuard meta, pool_->FetchRead(file_, 0));
  BTreePage m(meta.data());
  if (m.type() != kBTreeMetaPageType || m.Get32(kMetaMagicOffset) != kBTreeMagic) {
    return BTreeCorruption(path_, 0, "not a B+tree meta page");
  }
  if (static_cast<uint8_t>(meta.data()[kPageVersionOffset]) != kBTreeFormatVersion) {
    return BTreeCorruption(path_, 0, "unsupported B+tree format version");
  }
  root_ = m.Get32(kMetaRootOffset);
  height_ = m.Get32(kMetaHeightOffset);
  unique_ = meta.data()[kMetaUniqueOffset] != 0;
  free_head_ = m.Get32(kMetaFreeHeadOffset);
  if (root_ == kNoPage || root_ >= pool_->PageCount(file_) || height_ == 0) {
    return BTreeCorruption(path_, 0, "bad root page or height");
  }
  return Status::Ok();
}

Status BTree::CheckSizes(std::string_view key, std::string_view value) const {
  if (key.size() > kMaxKeySize) {
    std::string msg = "index row size ";
    msg.append(std::to_string(key.size()))
        .append(" exceeds maximum ")
        .append(std::to_string(kMaxKeySize))
        .append(" for index \"")
        .append(path_)
        .append("\"");
    return Status::Error(sqlstate::kProgramLimitExceeded, std::move(msg));
  }
  if (value.size() > kMaxValueSize) {
    std::string msg = "index value size ";
    msg.append(std::to_string(value.size())).append(" exceeds maximum ");
    msg.append(std::to_string(kMaxValueSize));
    return Status::Error(sqlstate::kProgramLimitExceeded, std::move(msg));
  }
  return Status::Ok();
}

std::string BTree::SeparatorValue(std::string_view value) const {
  return unique_ ? std::string() : std::string(value);
}

SearchTarget BTree::RouteTo(std::string_view key, std::string_view value) const {
  // A separator is the least entry its right subtree may hold, so an entry equal to it lives
  // on its right: route past every separator <= the target.
  return {.key = key, .value = value, .with_value = !unique_, .or_equal = true};
}

SearchTarget BTree::EntryBefore(std::string_view key, std::string_view value) const {
  return {.key = key, .value = value, .with_value = !unique_, .or_equal = false};
}

Status BTree::WriteMeta() {
  MERIDIAN_ASSIGN_OR_RETURN(WritePageGuard g, pool_->FetchWrite(file_, 0));
  BTreePage m(g.data());
  m.Init(kBTreeMetaPageType, 0, 0);
  m.Put32(kMetaMagicOffset, kBTreeMagic);
  m.Put32(kMetaRootOffset, root_);
  m.Put32(kMetaHeightOffset, height_);
  g.data()[kMetaUniqueOffset] = unique_ ? 1 : 0;
  m.Put32(kMetaFreeHeadOffset, free_head_);
  return Status::Ok();
}

Result<ReadPageGuard> BTree::DescendRead(const SearchTarget& route) {
  MERIDIAN_ASSIGN_OR_RETURN(ReadPageGuard g, pool_->FetchRead(file_, root_));
  while (true) {
    BTreePage p(g.data());
    if (!p.IsNode()) return BTreeCorruption(path_, g.page_no(), "not a B+tree node");
    if (p.leaf()) return g;
    uint32_t child = p.Child(p.Search(route));
    MERIDIAN_ASSIGN_OR_RETURN(ReadPageGuard c, pool_->FetchRead(file_, child));
    g = std::move(c);  // latch coupling: the parent is released once the child is latched
  }
}

Result<WritePageGuard> BTree::DescendWrite(const SearchTarget& route) {
  if (height_ == 1) return pool_->FetchWrite(file_, root_);
  MERIDIAN_ASSIGN_OR_RETURN(ReadPageGuard g, pool_->FetchRead(file_, root_));
  while (true) {
    BTreePage p(g.data());
    if (!p.IsNode() || p.leaf()) return BTreeCorruption(path_, g.page_no(), "bad internal node");
    uint32_t child = p.Child(p.Search(route));
    if (p.level() == 1) {
      MERIDIAN_ASSIGN_OR_RETURN(WritePageGuard leaf, pool_->FetchWrite(file_, child));
      if (!BTreePage(leaf.data()).leaf()) {
        return BTreeCorruption(path_, child, "expected a leaf");
      }
      return leaf;  // g (the parent) is released on return, after the leaf is latched
    }
    MERIDIAN_ASSIGN_OR_RETURN(ReadPageGuard c, pool_->FetchRead(file_, child));
    g = std::move(c);
  }
}

Status BTree::DescendPath(const SearchTarget& route, std::vector<PathStep>* path) {
  path->clear();
  uint32_t page = root_;
  while (true) {
    MERIDIAN_ASSIGN_OR_RETURN(ReadPageGuard g, pool_->FetchRead(file_, page));
    BTreePage p(g.data());
    if (!p.IsNode()) return BTreeCorruption(path_, page, "not a B+tree node");
    if (p.leaf()) {
      path->push_back({page, 0});
      return Status::Ok();
    }
    size_t i = p.Search(route);
    path->push_back({page, i});
    page = p.Child(i);
  }
}

Status BTree::LoadNode(uint32_t page, NodeImage* node) {
  MERIDIAN_ASSIGN_OR_RETURN(ReadPageGuard g, pool_->FetchRead(file_, page));
  BTreePage p(g.data());
  if (!p.IsNode()) return BTreeCorruption(path_, page, "not a B+tree node");
  p.Load(node);
  return Status::Ok();
}

Status BTree::StoreNode(uint32_t page, const NodeImage& node) {
  MERIDIAN_ASSIGN_OR_RETURN(WritePageGuard g, pool_->FetchWrite(file_, page));
  BTreePage(g.data()).Store(node, page);
  return Status::Ok();
}

Status BTree::SetLeftLink(uint32_t page, uint32_t left) {
  MERIDIAN_ASSIGN_OR_RETURN(WritePageGuard g, pool_->FetchWrite(file_, page));
  BTreePage(g.data()).set_left(left);
  return Status::Ok();
}

Result<uint32_t> BTree::AllocatePage() {
  if (free_head_ != kNoPage) {
    uint32_t page = free_head_;
    MERIDIAN_ASSIGN_OR_RETURN(ReadPageGuard g, pool_->FetchRead(file_, page));
    BTreePage p(g.data());
    if (p.type() != kBTreeFreePageType) return BTreeCorruption(path_, page, "free list");
    free_head_ = p.Get32(kFreeNextOffset);
    g.Release();
    MERIDIAN_RETURN_IF_ERROR(WriteMeta());
    return page;
  }
  MERIDIAN_ASSIGN_OR_RETURN(WritePageGuard g, pool_->NewPage(file_));
  return g.page_no();
}

Status BTree::FreePage(uint32_t page) {
  {
    MERIDIAN_ASSIGN_OR_RETURN(WritePageGuard g, pool_->FetchWrite(file_, page));
    BTreePage p(g.data());
    p.Init(kBTreeFreePageType, 0, page);
    p.Put32(kFreeNextOffset, free_head_);
  }
  free_head_ = page;
  return WriteMeta();
}

// ---- Point operations ----

Status BTree::Insert(std::string_view key, std::string_view value) {
  MERIDIAN_RETURN_IF_ERROR(CheckSizes(key, value));
  {
    ReaderLock tl(tree_latch_);
    MERIDIAN_RETURN_IF_ERROR(CheckOpen());
    MERIDIAN_ASSIGN_OR_RETURN(WritePageGuard leaf, DescendWrite(RouteTo(key, value)));
    BTreePage p(leaf.data());
    size_t pos = p.Search(EntryBefore(key, value));
    if (pos < p.count() && p.Key(pos) == key) {
      if (unique_) return DuplicateKey();
      if (p.Val(pos) == value) return Status::Ok();
    }
    if (p.InsertLeafEntry(pos, key, value)) return Status::Ok();
  }
  WriterLock tl(tree_latch_);  // the leaf is full: split under the exclusive latch
  MERIDIAN_RETURN_IF_ERROR(CheckOpen());
  return InsertPessimistic(key, value);
}

Status BTree::DuplicateKey() const {
  return Status::Error(sqlstate::kUniqueViolation, "duplicate key value violates unique index");
}

Status BTree::InsertPessimistic(std::string_view key, std::string_view value) {
  std::vector<PathStep> path;
  MERIDIAN_RETURN_IF_ERROR(DescendPath(RouteTo(key, value), &path));
  NodeImage leaf;
  MERIDIAN_RETURN_IF_ERROR(LoadNode(path.back().page, &leaf));
  size_t pos = leaf.Search(EntryBefore(key, value));
  if (pos < leaf.cells.size() && leaf.Key(pos) == key) {
    if (unique_) return DuplicateKey();
    if (leaf.Val(pos) == value) return Status::Ok();
  }
  leaf.cells.insert(leaf.cells.begin() + static_cast<ptrdiff_t>(pos),
                    MakeCell(true, key, value, 0));
  return Rebalance(&path, path.size() - 1, std::move(leaf), pos);
}

Result<bool> BTree::Delete(std::string_view key, std::string_view value) {
  {
    ReaderLock tl(tree_latch_);
    MERIDIAN_RETURN_IF_ERROR(CheckOpen());
    MERIDIAN_ASSIGN_OR_RETURN(WritePageGuard leaf, DescendWrite(RouteTo(key, value)));
    BTreePage p(leaf.data());
    size_t pos = p.Search(EntryBefore(key, value));
    if (pos >= p.count() || p.Key(pos) != key || p.Val(pos) != value) return false;
    size_t after = p.UsedBytes() - p.Cell(pos).size() - kNodeSlotSize;
    if (height_ == 1 || (after >= kMinFillBytes && p.count() > 1)) {
      p.EraseCell(pos);
      return true;
    }
  }
  WriterLock tl(tree_latch_);  // the leaf would underflow: merge under the exclusive latch
  MERIDIAN_RETURN_IF_ERROR(CheckOpen());
  return DeletePessimistic(key, value);
}

Result<bool> BTree::DeletePessimistic(std::string_view key, std::string_view value) {
  std::vector<PathStep> path;
  MERIDIAN_RETURN_IF_ERROR(DescendPath(RouteTo(key, value), &path));
  NodeImage leaf;
  MERIDIAN_RETURN_IF_ERROR(LoadNode(path.back().page, &leaf));
  size_t pos = leaf.Search(EntryBefore(key, value));
  if (pos >= leaf.cells.size() || leaf.Key(pos) != key || leaf.Val(pos) != value) return false;
  leaf.cells.erase(leaf.cells.begin() + static_cast<ptrdiff_t>(pos));
  MERIDIAN_RETURN_IF_ERROR(Rebalance(&path, path.size() - 1, std::move(leaf), SIZE_MAX));
  return true;
}

template <typename Fn>
Status BTree::LookupEach(std::string_view key, Fn fn) {
  ReaderLock tl(tree_latch_);
  MERIDIAN_RETURN_IF_ERROR(CheckOpen());
  const SearchTarget before{.key = key};  // entries with a smaller key
  // Unique: the one entry is in the leaf RouteTo finds. Non-unique: entries of key may start
  // in the leaf left of a separator equal to (key, v), so route strictly and walk right.
  MERIDIAN_ASSIGN_OR_RETURN(ReadPageGuard g, DescendRead(unique_ ? RouteTo(key, "") : before));
  while (true) {
    BTreePage p(g.data());
    size_t i = p.Search(before);
    for (; i < p.count(); ++i) {
      if (p.Key(i) != key || !fn(p.Val(i))) return Status::Ok();
    }
    uint32_t right = p.right();
    if (right == kNoPage || unique_) return Status::Ok();
    // The structure is frozen while the tree latch is held shared, so the right link stays
    // valid after releasing this leaf; latching one leaf at a time cannot deadlock.
    g.Release();
    MERIDIAN_ASSIGN_OR_RETURN(g, pool_->FetchRead(file_, right));
  }
}

Result<std::vector<std::string>> BTree::Lookup(std::string_view key) {
  std::vector<std::string> values;
  MERIDIAN_RETURN_IF_ERROR(LookupEach(key, [&values](std::string_view v) {
    values.emplace_back(v);
    return true;
  }));
  return values;
}

Result<bool> BTree::LookupFirst(std::string_view key, std::string* value) {
  bool found = false;
  MERIDIAN_RETURN_IF_ERROR(LookupEach(key, [&](std::string_view v) {
    value->assign(v.data(), v.size());
    found = true;
    return false;
  }));
  return found;
}

// ---- Structure modifications (exclusive tree latch held) ----

Status BTree::Rebalance(std::vector<PathStep>* path, size_t depth, NodeImage node,
                        size_t inserted) {
  while (true) {
    uint32_t page = (*path)[depth].page;
    bool is_root = depth == 0;
    if (!node.Fits() && !is_root && node.leaf() && !IsRightmostAppend(node, inserted)) {
      // An overflowing leaf first shares its cells with a sibling that has room (B*-tree
      // style), so random inserts leave leaves fuller than 50/50 splits do.
      MERIDIAN_ASSIGN_OR_RETURN(bool shared, ShareWithSibling(path, depth, &node));
      if (shared) {  // node is now the parent, with one separator replaced
        inserted = SIZE_MAX;
        --depth;
        continue;
      }
    }
    if (!node.Fits()) {
      // Split: the left part stays in page, the right part moves to a new right sibling.
      size_t m = ChooseSplitAfterInsert(node, inserted);
      NodeImage right;
      right.level = node.level;
      std::string sep_key, sep_val;
      if (node.leaf()) {
        sep_key = node.Key(m);
        sep_val = SeparatorValue(node.Val(m));
        right.cells.assign(node.cells.begin() + static_cast<ptrdiff_t>(m), node.cells.end());
      } else {
        sep_key = node.Key(m);
        sep_val = node.Val(m);
        right.child0 = node.Child(m + 1);
        right.cells.assign(node.cells.begin() + static_cast<ptrdiff_t>(m + 1), node.cells.end());
      }
      node.cells.resize(m);
      MERIDIAN_ASSIGN_OR_RETURN(uint32_t rpage, AllocatePage());
      right.left = page;
      right.right = node.right;
      node.right = rpage;
      if (right.right != kNoPage) MERIDIAN_RETURN_IF_ERROR(SetLeftLink(right.right, rpage));
      MERIDIAN_RETURN_IF_ERROR(StoreNode(page, node));
      MERIDIAN_RETURN_IF_ERROR(StoreNode(rpage, right));
      NodeCell sep_cell = MakeCell(false, sep_key, sep_val, rpage);
      if (is_root) {
        NodeImage root;
        root.level = static_cast<uint16_t>(node.level + 1);
        root.child0 = page;
        root.cells.push_back(std::move(sep_cell));
        MERIDIAN_ASSIGN_OR_RETURN(uint32_t new_root, AllocatePage());
        MERIDIAN_RETURN_IF_ERROR(StoreNode(new_root, root));
        root_ = new_root;
        ++height_;
        return WriteMeta();
      }
      NodeImage parent;
      MERIDIAN_RETURN_IF_ERROR(LoadNode((*path)[depth - 1].page, &parent));
      inserted = (*path)[depth - 1].child;  // the separator of the new right sibling
      parent.cells.insert(parent.cells.begin() + static_cast<ptrdiff_t>(inserted),
                          std::move(sep_cell));
      node = std::move(parent);
      --depth;
      continue;
    }
    if (is_root) {
      if (!node.leaf() && node.cells.empty()) {  // one child left: it becomes the root
        uint32_t child = node.child0;
        MERIDIAN_RETURN_IF_ERROR(FreePage(page));
        root_ = child;
        --height_;
        return WriteMeta();
      }
      return StoreNode(page, node);
    }
    if (!node.cells.empty() && node.UsedBytes() >= kMinFillBytes) return StoreNode(page, node);

    // Underflow: merge with a sibling under the same parent, or redistribute when both do not
    // fit in one page. The pair is (left, right) = (child li, child li + 1).
    NodeImage parent;
    uint32_t parent_page = (*path)[depth - 1].page;
    MERIDIAN_RETURN_IF_ERROR(LoadNode(parent_page, &parent));
    size_t idx = (*path)[depth - 1].child;
    size_t li = idx > 0 ? idx - 1 : 0;
    uint32_t lpage = parent.Child(li), rpage = parent.Child(li + 1);
    NodeImage left, right;
    if (idx > 0) {
      MERIDIAN_RETURN_IF_ERROR(LoadNode(lpage, &left));
      right = std::move(node);
    } else {
      left = std::move(node);
      MERIDIAN_RETURN_IF_ERROR(LoadNode(rpage, &right));
    }
    MERIDIAN_RETURN_IF_ERROR(
        RebuildPair(&parent, li, std::move(left), std::move(right), /*allow_merge=*/true));
    node = std::move(parent);
    inserted = SIZE_MAX;  // a replaced separator may overflow the parent: split it evenly
    --depth;
  }
}

Status BTree::RebuildPair(NodeImage* parent, size_t li, NodeImage left, NodeImage right,
                          bool allow_merge) {
  const uint32_t lpage = parent->Child(li), rpage = parent->Child(li + 1);
  std::vector<NodeCell> all = std::move(left.cells);
  if (!left.leaf()) {
    all.push_back(MakeCell(false, parent->Key(li), parent->Val(li), right.child0));
  }
  for (auto& c : right.cells) all.push_back(std::move(c));
  size_t total = 0;
  for (const auto& c : all) total += c.size() + kNodeSlotSize;
  if (allow_merge && total <= kNodeCapacity) {  // merge right into left
    left.cells = std::move(all);
    left.right = right.right;
    if (right.right != kNoPage) MERIDIAN_RETURN_IF_ERROR(SetLeftLink(right.right, lpage));
    MERIDIAN_RETURN_IF_ERROR(StoreNode(lpage, left));
    MERIDIAN_RETURN_IF_ERROR(FreePage(rpage));
    parent->cells.erase(parent->cells.begin() + static_cast<ptrdiff_t>(li));
    return Status::Ok();
  }
  // Redistribute evenly by bytes.
  size_t m = ChooseSplit(all, left.leaf());
  std::string sep_key, sep_val;
  NodeImage probe;  // reads key/value (and child) of cell m
  probe.level = left.level;
  probe.cells.push_back(all[m]);
  if (left.leaf()) {
    sep_key = probe.Key(0);
    sep_val = SeparatorValue(probe.Val(0));
    right.cells.assign(all.begin() + static_cast<ptrdiff_t>(m), all.end());
  } else {
    sep_key = probe.Key(0);
    sep_val = probe.Val(0);
    right.child0 = probe.Child(1);
    right.cells.assign(all.begin() + static_cast<ptrdiff_t>(m + 1), all.end());
  }
  all.resize(m);
  left.cells = std::move(all);
  MERIDIAN_RETURN_IF_ERROR(StoreNode(lpage, left));
  MERIDIAN_RETURN_IF_ERROR(StoreNode(rpage, right));
  parent->cells[li] = MakeCell(false, sep_key, sep_val, rpage);
  return Status::Ok();
}

Result<bool> BTree::ShareWithSibling(std::vector<PathStep>* path, size_t depth, NodeImage* node) {
  const uint32_t parent_page = (*path)[depth - 1].page;
  const size_t idx = (*path)[depth - 1].child;
  // Read the parent and the siblings' fill in place; build node images only to share.
  size_t li = SIZE_MAX;
  {
    MERIDIAN_ASSIGN_OR_RETURN(ReadPageGuard pg, pool_->FetchRead(file_, parent_page));
    BTreePage parent(pg.data());
    for (bool use_left : {true, false}) {
      if (use_left ? idx == 0 : idx >= parent.count()) continue;
      MERIDIAN_ASSIGN_OR_RETURN(
          ReadPageGuard sg, pool_->FetchRead(file_, parent.Child(use_left ? idx - 1 : idx + 1)));
      if (BTreePage(sg.data()).UsedBytes() + node->UsedBytes() <= kShareLimitBytes) {
        li = use_left ? idx - 1 : idx;
        break;
      }
    }
  }
  if (li == SIZE_MAX) return false;
  NodeImage parent, sibling;
  MERIDIAN_RETURN_IF_ERROR(LoadNode(parent_page, &parent));
  const bool sibling_left = li + 1 == idx;
  MERIDIAN_RETURN_IF_ERROR(LoadNode(parent.Child(sibling_left ? li : li + 1), &sibling));
  if (sibling_left) {
    MERIDIAN_RETURN_IF_ERROR(
        RebuildPair(&parent, li, std::move(sibling), std::move(*node), /*allow_merge=*/false));
  } else {
    MERIDIAN_RETURN_IF_ERROR(
        RebuildPair(&parent, li, std::move(*node), std::move(sibling), /*allow_merge=*/false));
  }
  *node = std::move(parent);
  return true;
}

bool IsRightmostAppend(const NodeImage& node, size_t inserted) {
  return node.right == kNoPage && inserted != SIZE_MAX && inserted + 1 == node.cells.size();
}

size_t ChooseSplitAfterInsert(const NodeImage& node, size_t inserted) {
  const size_t n = node.cells.size();
  // Rightmost node, new cell last: the left node keeps all the others (a leaf's right node
  // gets the new entry; an internal node's cell n - 2 moves up and its right node gets cell
  // n - 1, two children). Only when the rest fits, which it does after a one-cell overflow.
  if (IsRightmostAppend(node, inserted) && n >= (node.leaf() ? 2u : 3u)) {
    const size_t m = node.leaf() ? n - 1 : n - 2;
    size_t left = 0;
    for (size_t i = 0; i < m; ++i) left += node.cells[i].size() + kNodeSlotSize;
    if (left <= kNodeCapacity) return m;
  }
  return ChooseSplit(node.cells, node.leaf());
}

size_t ChooseSplit(const std::vector<NodeCell>& cells, bool leaf) {
  // Left gets cells [0, m); a leaf's right gets [m, n), an internal node's right [m + 1, n)
  // (cell m moves up). Pick m minimizing the byte difference of the two halves.
  size_t n = cells.size();
  size_t total = 0;
  for (const auto& c : cells) total += c.size() + kNodeSlotSize;
  size_t lo = 1, hi = leaf ? n - 1 : n - 2;
  size_t best = lo, best_diff = SIZE_MAX, left = 0;
  for (size_t m = 0; m <= hi; ++m) {
    if (m >= lo) {
      size_t middle = leaf ? 0 : cells[m].size() + kNodeSlotSize;
      size_t right = total - left - middle;
      size_t diff = left > right ? left - right : right - left;
      if (diff < best_diff) {
        best_diff = diff;
        best = m;
      }
    }
    left += cells[m].size() + kNodeSlotSize;
  }
  return best;
}

}  // namespace meridian::storage
