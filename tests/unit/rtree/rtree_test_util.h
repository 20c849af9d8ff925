// Helpers shared by the R*-tree tests: a brute-force model (rid -> box), random boxes on a
// coarse grid (so equal and touching coordinates occur) or anywhere, and checkers comparing
// every search predicate and nearest-neighbour order of an RTree with the model.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <random>
#include <vector>

#include "assert_ok.h"
#include "storage/rtree.h"
#include "storage/rtree_page.h"


namespace meridian::storage {

// Randomized operations per test configuration: MERIDIAN_RTREE_OPS or 15,000.
inline size_t RTreeOps() {
  const char* env = std::getenv("MERIDIAN_RTREE_OPS");
  if (env != nullptr && *env != '\0') return std::strtoull(env, nullptr, 10);
  return 15000;
}

inline uint64_t Key(Rid r) { return PackRid(r); }

class BoxGen {
 public:
  BoxGen(size_t dims, uint64_t seed) : dims_(dims), rng_(seed) {}
  // A point or a box; on a grid of 0..100 half the time (ties), else anywhere in [0, 1000).
  Box Entry() {
    bool grid = rng_() % 2 == 0;
    bool point = rng_() % 3 != 0;
    Box b;
    for (size_t d = 0; d < dims_; ++d) {
      double lo = grid ? static_cast<double>(rng_() % 101) * 10 : Uniform(0, 1000);
      double len = point ? 0 : (grid ? static_cast<double>(rng_() % 4) * 10 : Uniform(0, 60));
      b.lo[d] = lo;
      b.hi[d] = lo + len;
    }
    return b;
  }
  // A query box of varying size, sometimes degenerate (a point).
  Box Query() {
    Box b;
    const double scale = std::array<double, 4>{0, 50, 250, 800}[rng_() % 4];
    for (size_t d = 0; d < dims_; ++d) {
      double lo = rng_() % 2 ? static_cast<double>(rng_() % 101) * 10 : Uniform(-50, 1000);
      b.lo[d] = lo;
      b.hi[d] = lo + Uniform(0, scale);
    }
    return b;
  }
  std::vector<double> Point() {
    std::vector<double> p(dims_);
    for (double& x : p) x = Uniform(-100, 1100);
    return p;
  }
  double Uniform(double a, double b) { return std::uniform_real_distribution<double>(a, b)(rng_); }
  std::mt19937_64& rng() { return rng_; }

 private:
  size_t dims_;
  std::mt19937_64 rng_;
};

inline bool Holds(RTreeOp op, const Box& e, const Box& q, size_t dims) {
  switch (op) {
    case RTreeOp::kOverlaps:
      return e.Overlaps(q, dims);
    case RTreeOp::kContains:
      return e.Contains(q, dims);
    case RTreeOp::kContainedBy:
      return q.Contains(e, dims);
    case RTreeOp::kEquals:
      return e.Equals(q, dims);
  }
  return false;
}

// Compares Search and Count for op/query with the brute-force answer.
inline void CheckSearch(RTree& t, const std::map<uint64_t, Box>& model, RTreeOp op,
                        const Box& q) {
  const size_t dims = t.dims();
  std::vector<uint64_t> want, got;
  for (const auto& [k, b] : model) {
    if (Holds(op, b, q, dims)) want.push_back(k);
  }
  ASSERT_OK(t.Search(op, q, [&](const Box& b, Rid r) {
    got.push_back(Key(r));
    auto it = model.find(Key(r));
    EXPECT_TRUE(it != model.end() && it->second.Equals(b, dims)) << "box reported for a rid";
    return true;
  }));
  std::sort(got.begin(), got.end());
  ASSERT_EQ(want, got) << "op " << static_cast<int>(op);
  auto count = t.Count(op, q);
  ASSERT_TRUE(count.ok());
  ASSERT_EQ(*count, want.size());
}

// Nearest(point, k): distances non-decreasing and equal to the k smallest brute-force ones,
// each reported rid at the distance reported.
inline void CheckNearest(RTree& t, const std::map<uint64_t, Box>& model,
                         const std::vector<double>& p, size_t k) {
  const size_t dims = t.dims();
  std::vector<double> all;
  for (const auto& [key, b] : model) all.push_back(std::sqrt(b.MinDist2(p.data(), dims)));
  std::sort(all.begin(), all.end());
  const size_t want_n = k == 0 ? all.size() : std::min(k, all.size());
  std::vector<double> got;
  ASSERT_OK(t.Nearest(p, k, [&](const Box& b, Rid r, double dist) {
    auto it = model.find(Key(r));
    EXPECT_TRUE(it != model.end() && it->second.Equals(b, dims));
    EXPECT_DOUBLE_EQ(dist, std::sqrt(b.MinDist2(p.data(), dims)));
    got.push_back(dist);
    return true;
  }));
  ASSERT_EQ(got.size(), want_n);
  for (size_t i = 0; i < want_n; ++i) ASSERT_DOUBLE_EQ(got[i], all[i]) << "rank " << i;
}

inline void CheckAllPredicates(RTree& t, const std::map<uint64_t, Box>& model, BoxGen* gen) {
  for (RTreeOp op : {RTreeOp::kOverlaps, RTreeOp::kContains, RTreeOp::kContainedBy,
                     RTreeOp::kEquals}) {
    Box q = gen->Query();
    // Equality and containment queries are more telling on stored boxes.
    if ((op == RTreeOp::kEquals || op == RTreeOp::kContains) && !model.empty() &&
        gen->rng()() % 2 == 0) {
      auto it = model.lower_bound(gen->rng()() % (model.rbegin()->first + 1));
      if (it != model.end()) q = it->second;
    }
    CheckSearch(t, model, op, q);
  }
  // Point-in-box: contains with a degenerate query.
  std::vector<double> p = gen->Point();
  CheckSearch(t, model, RTreeOp::kContains, Box::Point(p));
}

}  // namespace meridian::storage
