// BTree: a B+tree index in one file cached by the shared BufferPool. Keys are byte strings
// (memcmp order; key_codec.h makes SQL tuples such strings), values are small byte strings (a
// heap Rid). Concurrency: every method is thread-safe. A tree latch (a SharedMutex) is
// held shared by lookups, scans and in-place leaf changes, exclusively by splits, merges and
// bulk builds; pages are latched top-down under it. Protocol: docs/storage.md "B+tree".
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <vector>

#include "meridian/status.h"
#include "storage/buffer_pool.h"
#include "storage/index_file.h"

namespace meridian::storage {

struct NodeImage;
struct SearchTarget;

struct BTreeOptions {
  // Unique keys: Insert of a present key fails with 23505. Non-unique: (key, value) pairs are
  // the real keys, so the same key may appear with different values. A file created unique
  // stays unique: on reopen the flag stored in the meta page wins.
  bool unique = false;
  // Fraction of a leaf BulkBuild fills before starting the next (0.5 .. 1.0).
  double fill_factor = 0.9;
};

// One end of a scan range; the key is compared by memcmp against whole keys.
struct ScanBound {
  enum class Kind : uint8_t { kUnbounded, kInclusive, kExclusive };
  Kind kind = Kind::kUnbounded;
  std::string key;

  static ScanBound Unbounded() { return {}; }
  static ScanBound Inclusive(std::string k) { return {Kind::kInclusive, std::move(k)}; }
  static ScanBound Exclusive(std::string k) { return {Kind::kExclusive, std::move(k)}; }
};

struct ScanRange {
  ScanBound lower;
  ScanBound upper;
  bool reverse = false;  // descending key order

  // Every key starting with prefix (an encoded leading-column prefix; see key_codec.h).
  static ScanRange Prefix(std::string_view prefix, bool reverse = false);
};

class BTree : public IndexFile {
 public:
  static constexpr size_t kMaxKeySize = 1536;   // longer keys fail with 54000
  static constexpr size_t kMaxValueSize = 256;  // longer values fail with 54000

  // Opens the index at path, creating an empty one (meta page + empty root leaf) when the file
  // is absent or empty. pool must outlive the tree.
  static Result<std::unique_ptr<BTree>> Open(BufferPool* pool, const std::string& path,
                                             const BTreeOptions& options = {});

  // Errors: 23505 "duplicate key value" (unique tree, key present), 54000 (too long).
  // Non-unique: inserting an existing (key, value) pair is a no-op.
  Status Insert(std::string_view key, std::string_view value);
  // Removes (key, value); false when absent. On a unique tree the value must match too.
  Result<bool> Delete(std::string_view key, std::string_view value);
  // Values stored under key, in value order.
  Result<std::vector<std::string>> Lookup(std::string_view key);
  // The first value stored under key (the only one on a unique tree) into *value; false when
  // key is absent. The point-query path: no allocation beyond *value's own buffer.
  Result<bool> LookupFirst(std::string_view key, std::string* value);

  // Fills an empty tree from entries in strictly increasing (key, value) order (keys strictly
  // increasing on a unique tree): next returns false at the end. Leaves are filled left to
  // right to fill_factor, then each upper level is built from the one below. Errors: XX000
  // when the tree is not empty, 23505 / XX000 on unsorted input, 54000 on long keys.
  Status BulkBuild(const std::function<Result<bool>(std::string* key, std::string* value)>& next);

  // Iterates a range without holding pins or latches between calls: each refill re-descends
  // from the root to just past the last entry returned and copies one leaf's entries, so the
  // caller may modify the tree while scanning (later changes may or may not be seen). A cursor
  // must not outlive its tree.
  class Cursor {
   public:
    Cursor() = default;
    // Next entry in range and direction; false at the end.
    Result<bool> Next(std::string* key, std::string* value);

   private:
    friend class BTree;
    Status Refill();
    BTree* tree_ = nullptr;
    ScanRange range_;
    bool started_ = false;  // last_key_/last_value_ are valid
    bool done_ = false;
    std::string last_key_, last_value_;
    std::vector<std::pair<std::string, std::string>> buffer_;
    size_t pos_ = 0;
  };
  Cursor Scan(ScanRange range);

  // Checks, under the exclusive tree latch (README "B+tree" invariants 1-7): node layout, key
  // order within and across pages, separator bounds, sibling links in both directions at every
  // level, uniform leaf depth, no empty non-root node, unique keys on a unique tree, meta page,
  // free list and no leaked pages, and (check_pins) that the pool holds no pins afterwards
  // (only meaningful when nothing else uses the pool). Pages read from disk are checksum-
  // verified by the pool. XX001 naming the page; returns what it saw.
  struct Stats {
    uint64_t entries = 0;
    uint32_t height = 0;
    uint32_t leaf_pages = 0;
    uint32_t internal_pages = 0;
    uint32_t free_pages = 0;
    size_t min_fill_bytes = 0;  // least-filled non-root node (slot + cell bytes)
  };
  Result<Stats> Verify(bool check_pins = false);

  bool unique() const { return unique_; }
  // path(), pool(), file_id(), Flush(), SnapshotDirty(), Close(): IndexFile.

 private:
  friend class IndexFile;  // OpenIndex
  BTree() = default;
  struct PathStep {
    uint32_t page;
    size_t child;  // index of the child taken in this (internal) node
  };
  Status Init(const BTreeOptions& options);
  Status DuplicateKey() const;
  // Entry order target "entry < (key, value)"; key only on a unique tree.
  SearchTarget EntryBefore(std::string_view key, std::string_view value) const;
  // Separator routing for point operations: "separator <= (key, value)".
  SearchTarget RouteTo(std::string_view key, std::string_view value) const;
  Status CheckSizes(std::string_view key, std::string_view value) const;
  // REQUIRES tree latch not held. Calls fn(value) for each value under key in value order
  // while it returns true (the one code path of Lookup and LookupFirst).
  template <typename Fn>
  Status LookupEach(std::string_view key, Fn fn);
  std::string SeparatorValue(std::string_view value) const;
  // REQUIRES tree latch held. Descends with latch coupling, in each node taking the child after
  // the last separator before route (Write: the leaf is write-latched). With
  // route = RouteTo(e) that is the leaf whose range holds e; with a strict "before" target
  // (scans) it is the leftmost leaf that may hold the first entry not before, and callers walk
  // right (or left) from there.
  Result<ReadPageGuard> DescendRead(const SearchTarget& route);
  Result<WritePageGuard> DescendWrite(const SearchTarget& route);
  // REQUIRES exclusive tree latch. Path of (page, child) from root down to the leaf, leaf last.
  Status DescendPath(const SearchTarget& route, std::vector<PathStep>* path);
  Status InsertPessimistic(std::string_view key, std::string_view value);
  Result<bool> DeletePessimistic(std::string_view key, std::string_view value);
  // REQUIRES exclusive tree latch. Pages it allocates are listed in *allocated until the new
  // root is installed (the caller frees them on error).
  Status BulkBuildLocked(
      const std::function<Result<bool>(std::string* key, std::string* value)>& next,
      std::vector<uint32_t>* allocated);
  // REQUIRES exclusive tree latch. Writes node (at path[depth]) back, splitting, merging or
  // redistributing and walking up the path as needed. inserted: index of the cell just added
  // to node (it picks the split point), SIZE_MAX after a delete.
  Status Rebalance(std::vector<PathStep>* path, size_t depth, NodeImage node, size_t inserted);
  // REQUIRES exclusive tree latch. Rewrites children li and li + 1 of *parent from their
  // combined cells: merged into the left one when they fit in one page and allow_merge, else
  // split evenly by bytes with separator li replaced (*parent is changed in memory only).
  Status RebuildPair(NodeImage* parent, size_t li, NodeImage left, NodeImage right,
                     bool allow_merge);
  // REQUIRES exclusive tree latch. For an overflowing non-root leaf at path[depth]: when a
  // sibling under the same parent has room (combined bytes <= kShareLimitBytes), spreads both
  // nodes' cells evenly over the two, sets *node to the updated parent and returns true.
  Result<bool> ShareWithSibling(std::vector<PathStep>* path, size_t depth, NodeImage* node);
  Status LoadNode(uint32_t page, NodeImage* node);
  Status StoreNode(uint32_t page, const NodeImage& node);
  Status SetLeftLink(uint32_t page, uint32_t left);
  Result<uint32_t> AllocatePage();
  Status FreePage(uint32_t page);
  Status WriteMeta();
  struct LevelPage {
    uint32_t page, left, right;
  };
  Status VerifyNode(uint32_t page, uint32_t level, const std::string* lo_key,
                    const std::string* lo_val, const std::string* hi_key, const std::string* hi_val,
                    std::vector<std::vector<LevelPage>>* levels, Stats* stats);

  bool unique_ = false;
  double fill_factor_ = 0.9;

  // Tree latch (IndexFile::tree_latch_). Shared: lookups, scans, in-place leaf inserts/deletes.
  // Exclusive: any change of structure (split, merge, redistribute, root change, page
  // allocation, bulk build). Guards root_, height_, free_head_ and every internal page and
  // sibling link.
  uint32_t root_ = 0;
  uint32_t height_ = 1;
  uint32_t free_head_ = 0;
};

}  // namespace meridian::storage
