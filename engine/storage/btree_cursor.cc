// BTree scans: a Cursor copies one leaf's worth of in-range entries per refill. Each refill
// takes the tree latch shared, descends to just past the last entry returned and walks sibling
// links (right forward, left backward) past leaves with nothing in range, one leaf at a time.
#include <mutex>

#include "storage/btree.h"
#include "storage/btree_page.h"

namespace meridian::storage {

BTree::Cursor BTree::Scan(ScanRange range) {
  Cursor c;
  c.tree_ = this;
  c.range_ = std::move(range);
  return c;
}

Result<bool> BTree::Cursor::Next(std::string* key, std::string* value) {
  while (pos_ >= buffer_.size()) {
    if (done_ || tree_ == nullptr) return false;
    MERIDIAN_RETURN_IF_ERROR(Refill());
  }
  auto& e = buffer_[pos_++];
  key->swap(e.first);
  value->swap(e.second);
  return true;
}

namespace {

// Compare a key with a bound's key: true when key is on the inside of a lower bound.
bool AboveLower(std::string_view key, const ScanBound& b) {
  switch (b.kind) {
    case ScanBound::Kind::kUnbounded:
      return true;
    case ScanBound::Kind::kInclusive:
      return CompareBytes(key, b.key) >= 0;
    case ScanBound::Kind::kExclusive:
      return CompareBytes(key, b.key) > 0;
  }
  return true;
}

bool BelowUpper(std::string_view key, const ScanBound& b) {
  switch (b.kind) {
    case ScanBound::Kind::kUnbounded:
      return true;
    case ScanBound::Kind::kInclusive:
      return CompareBytes(key, b.key) <= 0;
    case ScanBound::Kind::kExclusive:
      return CompareBytes(key, b.key) < 0;
  }
  return true;
}

}  // namespace

Status BTree::Cursor::Refill() {
  buffer_.clear();
  pos_ = 0;
  BTree* t = tree_;
  ReaderLock tl(t->tree_latch_);
  MERIDIAN_RETURN_IF_ERROR(t->CheckOpen());
  const ScanRange& r = range_;
  // "before" marks the entries already behind the cursor, in scan direction for forward scans
  // and in key order (entries not yet reached) for backward scans.
  SearchTarget before;
  if (started_) {  // forward: entries <= the last one returned; reverse: entries < it
    before = {.key = last_key_, .value = last_value_, .with_value = true, .or_equal = !r.reverse};
  } else if (!r.reverse) {  // entries below the lower bound
    before = {.key = r.lower.key, .or_equal = r.lower.kind == ScanBound::Kind::kExclusive};
    if (r.lower.kind == ScanBound::Kind::kUnbounded) before = {};  // "" is below every key
  } else {                                                         // entries within the upper bound
    before = {.key = r.upper.key,
              .or_equal = r.upper.kind == ScanBound::Kind::kInclusive,
              .every = r.upper.kind == ScanBound::Kind::kUnbounded};
  }
  MERIDIAN_ASSIGN_OR_RETURN(ReadPageGuard g, t->DescendRead(before));
  while (true) {
    BTreePage p(g.data());
    size_t i = p.Search(before);
    uint32_t next;
    if (!r.reverse) {
      for (; i < p.count(); ++i) {
        if (!BelowUpper(p.Key(i), r.upper)) {
          done_ = true;
          break;
        }
        buffer_.emplace_back(p.Key(i), p.Val(i));
      }
      next = p.right();
    } else {
      for (size_t j = i; j-- > 0;) {
        if (!AboveLower(p.Key(j), r.lower)) {
          done_ = true;
          break;
        }
        buffer_.emplace_back(p.Key(j), p.Val(j));
      }
      next = p.left();
    }
    if (!buffer_.empty() || done_) break;
    if (next == kNoPage) {
      done_ = true;
      break;
    }
    // The shared tree latch freezes the structure, so the sibling link stays valid after this
    // leaf is released; holding one leaf latch at a time keeps scans out of latch cycles.
    g.Release();
    MERIDIAN_ASSIGN_OR_RETURN(g, t->pool_->FetchRead(t->file_, next));
    if (!BTreePage(g.data()).leaf()) return BTreeCorruption(t->path_, next, "expected a leaf");
  }
  if (!buffer_.empty()) {
    started_ = true;
    last_key_ = buffer_.back().first;
    last_value_ = buffer_.back().second;
  }
  return Status::Ok();
}

}  // namespace meridian::storage
