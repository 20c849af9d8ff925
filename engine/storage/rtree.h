// RTree: an R*-tree index (Beckmann et al., SIGMOD 1990) of (box, Rid) entries in one file
// cached by the shared BufferPool; 1 to 8 float64 dimensions, points are boxes with lo == hi.
// Concurrency: every method is thread-safe. A tree latch (a SharedMutex) is held shared by
// searches and nearest-neighbour scans, exclusively by Insert, Delete, BulkLoad, Verify and
// Close; pages are latched one at a time under it. Protocol: docs/storage.md
// "R*-tree".
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <shared_mutex>
#include <span>
#include <string>
#include <vector>

#include "meridian/status.h"
#include "storage/buffer_pool.h"
#include "storage/index_file.h"
#include "storage/rtree_box.h"

namespace meridian::storage {

class RTreePage;
struct REntry;
struct RNode;

struct RTreeOptions {
  // Dimensions of a new file (1..8); an existing file keeps the count in its meta page.
  uint32_t dims = 2;
  // Fraction of a node BulkLoad fills (0.8 .. 1.0: below 0.8 the last two nodes of a level,
  // which share their entries evenly, could fall below the 40% minimum fill).
  double fill_factor = 0.9;
};

// Search predicates: entry OP query.
enum class RTreeOp : uint8_t {
  kOverlaps,     // entry && query (they share a point, boundaries included)
  kContains,     // entry @> query; with a point query: point-in-box
  kContainedBy,  // entry <@ query
  kEquals,       // entry ~= query (same coordinates)
};

class RTree : public IndexFile {
 public:
  // Opens the index at path, creating an empty one (meta page + empty root leaf) when the file
  // is absent or empty. pool must outlive the tree. Errors: 22023 for dims outside 1..8.
  static Result<std::unique_ptr<RTree>> Open(BufferPool* pool, const std::string& path,
                                             const RTreeOptions& options = {});

  // Adds (box, rid). The same pair inserted twice is stored twice (the caller inserts one
  // entry per row version). Errors: 22023 when a coordinate is NaN or lo > hi.
  Status Insert(const Box& box, Rid rid);
  // Removes one entry equal to (box, rid); false when absent. Underfull nodes are dissolved
  // and their entries reinserted (condense-tree).
  Result<bool> Delete(const Box& box, Rid rid);

  // Calls fn(box, rid) for every entry e with "e op query" until fn returns false. fn runs under
  // the shared tree latch (no page latch): it must not change this tree.
  Status Search(RTreeOp op, const Box& query, const std::function<bool(const Box&, Rid)>& fn);
  // Number of entries matching (the same walk without a callback per entry).
  Result<uint64_t> Count(RTreeOp op, const Box& query);
  // Best-first nearest neighbours (Hjaltason & Samet 1999): fn(box, rid, distance) in order of
  // increasing Euclidean distance from point (dims coordinates) to the entry's box, for at
  // most k entries (0 = no limit) or until fn returns false. Same latch rule as Search.
  Status Nearest(std::span<const double> point, size_t k,
                 const std::function<bool(const Box&, Rid, double)>& fn);

  // Fills an empty tree with n entries (entry(i, &box, &rid) gives entry i, and may be called
  // several times per i) by Sort-Tile-Recursive packing (Leutenegger et al. 1997), nodes filled
  // to fill_factor. Errors: XX000 when the tree is not empty, 22023 on a bad box.
  Status BulkLoad(size_t n, const std::function<void(size_t, Box*, Rid*)>& entry);

  // Checks, under the exclusive tree latch (README "R*-tree" invariants): node headers, every
  // entry inside its parent entry's box and each internal box exactly its child's bounding box,
  // fill bounds, uniform leaf depth, every page reachable once or on the free list, the meta
  // page; with check_pins, that the pool holds no pins afterwards. XX001 naming the page.
  struct Stats {
    uint64_t entries = 0;
    uint32_t height = 0;
    uint32_t leaf_pages = 0;
    uint32_t internal_pages = 0;
    uint32_t free_pages = 0;
    size_t min_fill = 0;  // fewest entries in a non-root node
  };
  Result<Stats> Verify(bool check_pins = false);

  uint32_t dims() const { return dims_; }
  size_t capacity() const { return cap_; }
  size_t min_fill() const { return min_fill_; }
  // path(), pool(), file_id(), Flush(), SnapshotDirty(), Close(): IndexFile.

 private:
  friend class IndexFile;  // OpenIndex
  RTree() = default;
  struct PathStep {
    uint32_t page;
    size_t child;  // entry taken in this node (unused for the last step)
  };
  struct InsertState;

  Status Init(const RTreeOptions& options);
  Status CheckBox(const Box& box) const;
  RTreePage View(const char* data) const;
  Result<ReadPageGuard> ReadNode(uint32_t page);
  Result<WritePageGuard> WriteNode(uint32_t page);
  Status LoadNode(uint32_t page, RNode* node);
  Status StoreNode(uint32_t page, const RNode& node);
  Result<uint32_t> AllocatePage();
  Status FreePage(uint32_t page);
  Status WriteMeta();

  // REQUIRES exclusive tree latch. The whole insertion of one entry at a level: forced
  // reinsertions it causes are queued in *state and inserted before it returns.
  Status InsertAtLevel(const REntry& e, uint16_t level, InsertState* state);
  // Index of the child of p (an internal node) that e goes to (ChooseSubtree).
  size_t ChooseSubtree(const RTreePage& p, const Box& e) const;
  // Node at path[depth] holds capacity + 1 entries: reinsert or split, walking up.
  Status OverflowTreatment(std::vector<PathStep>* path, size_t depth, RNode node,
                           InsertState* state);
  // Splits node (capacity + 1 entries) by the R* axis / distribution choice into *a and *b.
  void Split(RNode node, RNode* a, RNode* b) const;
  // Updates the parent entries along path[0..depth) after the node at path[depth] changed to
  // bounding box box: exact (set and recompute upwards while anything changes) or, after an
  // append, enlarge-only (stop at the first ancestor entry that already contains box).
  Status FixParents(const std::vector<PathStep>& path, size_t depth, Box box, bool exact);
  // REQUIRES tree latch. Path from the root to the leaf holding (box, id), leaf step last
  // with child = the entry's index; false when absent.
  Result<bool> FindLeaf(uint32_t page, const Box& box, uint64_t id, std::vector<PathStep>* path);
  Status Condense(std::vector<PathStep>* path);
  // Depth-first search walk (rtree_search.cc).
  template <typename Visit, typename AfterLeaf>
  Status Walk(RTreeOp op, const Box& query, Visit visit, AfterLeaf after_leaf);

  struct VerifyState;
  Status VerifyNode(uint32_t page, uint32_t level, const Box* parent_box, VerifyState* vs);
  // REQUIRES exclusive tree latch. Packs the entries get(order[0]), get(order[1]), ... into
  // new nodes of `level`, per_node each (the last two share evenly); appends each node's
  // (box, page) to *parents and each page to *allocated.
  Status PackLevel(const std::function<void(size_t, REntry*)>& get,
                   const std::vector<uint32_t>& order, uint16_t level, size_t per_node,
                   std::vector<REntry>* parents, std::vector<uint32_t>* allocated);

  uint32_t dims_ = 2;
  size_t cap_ = 0;
  size_t min_fill_ = 0;
  size_t reinsert_count_ = 0;
  double fill_factor_ = 0.9;

  // Tree latch (IndexFile::tree_latch_). Shared: Search, Count, Nearest. Exclusive: Insert,
  // Delete, BulkLoad, Verify, SnapshotDirty, Close. Guards root_, height_, free_head_ and
  // every page's contents.
  uint32_t root_ = 0;
  uint32_t height_ = 1;
  uint32_t free_head_ = 0;
};

}  // namespace meridian::storage
