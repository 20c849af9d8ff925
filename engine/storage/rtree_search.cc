// RTree searches under the shared tree latch: box predicates by a depth-first walk whose node
// test runs dimension by dimension over the node's contiguous coordinate arrays (prefetched
// first; SSE2 for the first dimension, then a shrinking list of survivors) and which takes a
// subtree lying inside an overlaps / contained-by query whole, and best-first nearest neighbours
// (Hjaltason & Samet 1999) with one priority queue of nodes and entries ordered by distance.
#include <cmath>
#include <mutex>
#include <numeric>
#include <queue>

#include "storage/rtree.h"
#include "storage/rtree_page.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace meridian::storage {

namespace {

// What one node test checks per dimension, for entry [l, h] against query [ql, qh].
enum class Test : uint8_t {
  kOverlap,  // l <= qh && h >= ql
  kCover,    // l <= ql && h >= qh   (entry contains query)
  kInside,   // l >= ql && h <= qh   (entry inside query)
  kSame,     // l == ql && h == qh
};

// The test for a node's entries: leaves test the predicate itself, internal nodes the
// condition a subtree must meet to hold an answer.
Test NodeTest(RTreeOp op, bool leaf) {
  switch (op) {
    case RTreeOp::kOverlaps:
      return Test::kOverlap;
    case RTreeOp::kContains:
      return Test::kCover;
    case RTreeOp::kContainedBy:
      return leaf ? Test::kInside : Test::kOverlap;
    case RTreeOp::kEquals:
      return leaf ? Test::kSame : Test::kCover;
  }
  return Test::kOverlap;
}

// Entry [l, h] against query bounds (ql, qh) in one dimension, for test T.
template <Test T>
inline bool Passes(double l, double h, double ql, double qh) {
  if constexpr (T == Test::kOverlap) return (l <= qh) & (h >= ql);
  if constexpr (T == Test::kCover) return (l <= ql) & (h >= qh);
  if constexpr (T == Test::kInside) return (l >= ql) & (h <= qh);
  return (l == ql) & (h == qh);
}

#if defined(__SSE2__)
// Bit i of the result: entries i and i + 1's test T in one dimension (two lanes).
template <Test T>
inline int Passes2(const double* lo, const double* hi, __m128d ql, __m128d qh) {
  const __m128d l = _mm_loadu_pd(lo);
  const __m128d h = _mm_loadu_pd(hi);
  __m128d m;
  if constexpr (T == Test::kOverlap) {
    m = _mm_and_pd(_mm_cmple_pd(l, qh), _mm_cmpge_pd(h, ql));
  } else if constexpr (T == Test::kCover) {
    m = _mm_and_pd(_mm_cmple_pd(l, ql), _mm_cmpge_pd(h, qh));
  } else if constexpr (T == Test::kInside) {
    m = _mm_and_pd(_mm_cmpge_pd(l, ql), _mm_cmple_pd(h, qh));
  } else {
    m = _mm_and_pd(_mm_cmpeq_pd(l, ql), _mm_cmpeq_pd(h, qh));
  }
  return _mm_movemask_pd(m);
}
#endif

// Requests the cache lines of a[0, n) (a hint: no fault, no effect on results).
inline void PrefetchArray(const double* a, size_t n) {
  const char* bytes = reinterpret_cast<const char*>(a);
  for (size_t off = 0; off < n * sizeof(double); off += 64) __builtin_prefetch(bytes + off);
}

// Writes the indexes of the entries of p passing test T in every dimension to out; returns
// how many. Dimension 0 is tested for all entries (two per SSE2 instruction), the survivors'
// indexes are listed, and each further dimension compacts that list branch-free, so the work
// shrinks with every dimension instead of testing every entry in every dimension.
template <Test T>
size_t MatchEntries(const RTreePage& p, size_t dims, const Box& q, uint16_t* out) {
  const size_t n = p.count();
  size_t k = 0;
  // A node of a large index is mostly not in the CPU caches, and the survivor passes below
  // read each later dimension at scattered indexes: one cache miss after another stalled
  // them (perf: most of the query time). Requesting every array the test reads first lets
  // the misses overlap each other and the first dimension's pass.
  const bool points = p.points();
  for (size_t d = 0; d < dims; ++d) {
    PrefetchArray(p.lo(d), n);
    if (!points) PrefetchArray(p.hi(d), n);
  }
  {
    const double* lo = p.lo(0);
    const double* hi = p.search_hi(0);
    size_t i = 0;
#if defined(__SSE2__)
    const __m128d ql = _mm_set1_pd(q.lo[0]), qh = _mm_set1_pd(q.hi[0]);
    for (; i + 2 <= n; i += 2) {
      const int bits = Passes2<T>(lo + i, hi + i, ql, qh);
      out[k] = static_cast<uint16_t>(i);
      k += bits & 1;
      out[k] = static_cast<uint16_t>(i + 1);
      k += bits >> 1;
    }
#endif
    for (; i < n; ++i) {
      out[k] = static_cast<uint16_t>(i);
      k += Passes<T>(lo[i], hi[i], q.lo[0], q.hi[0]);
    }
  }
  for (size_t d = 1; d < dims && k > 0; ++d) {
    const double* lo = p.lo(d);
    const double* hi = p.search_hi(d);
    const double ql = q.lo[d], qh = q.hi[d];
    size_t kept = 0;
    for (size_t j = 0; j < k; ++j) {
      const uint16_t i = out[j];
      out[kept] = i;
      kept += Passes<T>(lo[i], hi[i], ql, qh);
    }
    k = kept;
  }
  return k;
}

size_t Match(Test t, const RTreePage& p, size_t dims, const Box& q, uint16_t* out) {
  switch (t) {
    case Test::kOverlap:
      return MatchEntries<Test::kOverlap>(p, dims, q, out);
    case Test::kCover:
      return MatchEntries<Test::kCover>(p, dims, q, out);
    case Test::kInside:
      return MatchEntries<Test::kInside>(p, dims, q, out);
    case Test::kSame:
      return MatchEntries<Test::kSame>(p, dims, q, out);
  }
  return 0;
}

// True when entry i of internal node p lies inside q: then every entry below it overlaps q and
// is contained by q, so those subtrees need no more tests.
bool EntryInside(const RTreePage& p, size_t dims, size_t i, const Box& q) {
  for (size_t d = 0; d < dims; ++d) {
    if (p.lo(d)[i] < q.lo[d] || p.hi(d)[i] > q.hi[d]) return false;
  }
  return true;
}

}  // namespace

// Depth-first walk: visit(leaf page, matching indexes, count) runs under the leaf's read
// latch, then after_leaf() once the latch is released; either returning false ends the walk.
// For overlaps and contained-by, a subtree whose box lies inside the query is taken whole:
// its nodes' entries are not tested (a large range touches only their headers).
template <typename Visit, typename AfterLeaf>
Status RTree::Walk(RTreeOp op, const Box& query, Visit visit, AfterLeaf after_leaf) {
  ReaderLock tl(tree_latch_);
  MERIDIAN_RETURN_IF_ERROR(CheckOpen());
  MERIDIAN_RETURN_IF_ERROR(CheckBox(query));
  const Test leaf_test = NodeTest(op, true);
  const Test inner_test = NodeTest(op, false);
  const bool take_whole = op == RTreeOp::kOverlaps || op == RTreeOp::kContainedBy;
  struct Pending {
    uint32_t page;
    bool inside;  // the page's box lies inside the query (take_whole only)
  };
  std::vector<Pending> stack;
  stack.reserve(64);
  stack.push_back({root_, false});
  uint16_t idx[kRMaxCapacity];
  while (!stack.empty()) {
    const Pending top = stack.back();
    stack.pop_back();
    MERIDIAN_ASSIGN_OR_RETURN(ReadPageGuard g, ReadNode(top.page));
    RTreePage p = View(g.data());
    size_t k;
    if (top.inside) {
      k = p.count();
      std::iota(idx, idx + k, uint16_t{0});
    } else {
      k = Match(p.leaf() ? leaf_test : inner_test, p, dims_, query, idx);
    }
    if (p.leaf()) {
      if (k == 0) continue;
      bool more = visit(p, idx, k);
      g.Release();
      if (!more || !after_leaf()) return Status::Ok();
    } else {
      for (size_t j = 0; j < k; ++j) {
        const bool inside = top.inside || (take_whole && EntryInside(p, dims_, idx[j], query));
        stack.push_back({static_cast<uint32_t>(p.id(idx[j])), inside});
      }
    }
  }
  return Status::Ok();
}

Status RTree::Search(RTreeOp op, const Box& query, const std::function<bool(const Box&, Rid)>& fn) {
  std::vector<REntry> buffer;
  return Walk(
      op, query,
      [&](const RTreePage& p, const uint16_t* idx, size_t k) {
        buffer.resize(k);
        for (size_t j = 0; j < k; ++j) p.GetEntry(idx[j], &buffer[j]);
        return true;
      },
      [&]() {
        for (const REntry& e : buffer) {
          if (!fn(e.box, UnpackRid(e.id))) return false;
        }
        return true;
      });
}

Result<uint64_t> RTree::Count(RTreeOp op, const Box& query) {
  uint64_t n = 0;
  MERIDIAN_RETURN_IF_ERROR(Walk(
      op, query,
      [&](const RTreePage&, const uint16_t*, size_t k) {
        n += k;
        return true;
      },
      [] { return true; }));
  return n;
}

Status RTree::Nearest(std::span<const double> point, size_t k,
                      const std::function<bool(const Box&, Rid, double)>& fn) {
  if (point.size() != dims_) {
    return Status::Error(sqlstate::kInvalidParameterValue,
                         "nearest-neighbour query has " + std::to_string(point.size()) +
                             " coordinates, the index " + std::to_string(dims_));
  }
  for (double x : point) {
    if (std::isnan(x)) {
      return Status::Error(sqlstate::kInvalidParameterValue, "R-tree coordinates must not be NaN");
    }
  }
  ReaderLock tl(tree_latch_);
  MERIDIAN_RETURN_IF_ERROR(CheckOpen());
  struct Item {
    double dist2;
    uint64_t id;   // child page or packed Rid
    uint32_t box;  // entries: index into boxes; nodes: unused
    bool entry;
    // Min-heap on distance; at equal distance entries come out before nodes.
    bool operator<(const Item& o) const {
      return dist2 > o.dist2 || (dist2 == o.dist2 && !entry && o.entry);
    }
  };
  std::priority_queue<Item> queue;
  std::vector<Box> boxes;  // boxes of queued entries
  queue.push({0.0, root_, 0, false});
  size_t reported = 0;
  double dist2[kRMaxCapacity];
  while (!queue.empty()) {
    Item top = queue.top();
    queue.pop();
    if (top.entry) {
      if (!fn(boxes[top.box], UnpackRid(top.id), std::sqrt(top.dist2))) break;
      if (k != 0 && ++reported == k) break;
      continue;
    }
    MERIDIAN_ASSIGN_OR_RETURN(ReadPageGuard g, ReadNode(static_cast<uint32_t>(top.id)));
    RTreePage p = View(g.data());
    const size_t n = p.count();
    std::fill(dist2, dist2 + n, 0.0);
    for (size_t d = 0; d < dims_; ++d) {
      const double* lo = p.lo(d);
      const double* hi = p.search_hi(d);
      const double x = point[d];
      for (size_t i = 0; i < n; ++i) {
        double gap = std::max(lo[i] - x, 0.0) + std::max(x - hi[i], 0.0);
        dist2[i] += gap * gap;
      }
    }
    for (size_t i = 0; i < n; ++i) {
      if (p.leaf()) {
        boxes.push_back(p.GetBox(i));
        queue.push({dist2[i], p.id(i), static_cast<uint32_t>(boxes.size() - 1), true});
      } else {
        queue.push({dist2[i], p.id(i), 0, false});
      }
    }
  }
  return Status::Ok();
}

}  // namespace meridian::storage
