// RTree against a brute-force model: random inserts, deletes (present and absent), updates that
// move entries, every search predicate and nearest-neighbour order, reopen, and bulk loads, in
// 1 to 8 dimensions over a 64-frame pool (so pages are evicted and read back); Verify after
// steps. Also the errors bad input gets.
#include <gtest/gtest.h>

#include <map>
#include <memory>

#include "rtree_test_util.h"
#include "storage/rtree.h"
#include "temp_dir.h"

namespace meridian::storage {
namespace {

void ExpectVerified(RTree& t, const std::map<uint64_t, Box>& model) {
  auto st = t.Verify(/*check_pins=*/true);
  ASSERT_TRUE(st.ok()) << st.status().ToString();
  ASSERT_EQ(st->entries, model.size());
}

struct Config {
  uint32_t dims;
  uint64_t seed;
  size_t ops;
};

void RunRandomized(const Config& c) {
  testutil::TempDir dir;
  BufferPool pool(64);
  const std::string path = dir.File("r.idx");
  auto opened = RTree::Open(&pool, path, {.dims = c.dims});
  ASSERT_TRUE(opened.ok()) << opened.status().ToString();
  std::unique_ptr<RTree> t = std::move(*opened);
  BoxGen gen(c.dims, c.seed);
  std::map<uint64_t, Box> model;
  uint32_t next_rid = 1;
  // Grow to ~3,000 entries, then hover there: inserts and deletes balance.
  const size_t target = 3000;
  const size_t verify_every = std::max<size_t>(1, c.ops / 20);
  for (size_t step = 0; step < c.ops; ++step) {
    const uint64_t r = gen.rng()() % 100;
    const bool grow = model.size() < target;
    if (r < (grow ? 60u : 35u)) {  // insert
      Rid rid{next_rid / 7 + 1, static_cast<uint16_t>(next_rid % 7)};
      ++next_rid;
      Box b = gen.Entry();
      ASSERT_OK(t->Insert(b, rid));
      model[Key(rid)] = b;
    } else if (r < 75 && !model.empty()) {  // delete a present entry
      auto it = model.lower_bound(gen.rng()() % (model.rbegin()->first + 1));
      if (it == model.end()) it = model.begin();
      auto found = t->Delete(it->second, UnpackRid(it->first));
      ASSERT_TRUE(found.ok()) << found.status().ToString();
      ASSERT_TRUE(*found);
      model.erase(it);
    } else if (r < 85 && !model.empty()) {  // update: the entry moves
      auto it = model.lower_bound(gen.rng()() % (model.rbegin()->first + 1));
      if (it == model.end()) it = model.begin();
      Box moved = gen.Entry();
      auto found = t->Delete(it->second, UnpackRid(it->first));
      ASSERT_TRUE(found.ok() && *found);
      ASSERT_OK(t->Insert(moved, UnpackRid(it->first)));
      it->second = moved;
    } else if (r < 88) {  // delete absent: a wrong box for a present rid, or an unknown rid
      Box b = gen.Entry();
      Rid rid{0xFFFFFF, 1};
      if (!model.empty() && gen.rng()() % 2 == 0) {
        rid = UnpackRid(model.begin()->first);
        if (model.begin()->second.Equals(b, c.dims)) continue;
      }
      auto found = t->Delete(b, rid);
      ASSERT_TRUE(found.ok());
      ASSERT_FALSE(*found);
    } else if (r < 97) {
      ASSERT_NO_FATAL_FAILURE(CheckAllPredicates(*t, model, &gen));
    } else {
      size_t k = std::array<size_t, 4>{1, 10, 100, 0}[gen.rng()() % 4];
      ASSERT_NO_FATAL_FAILURE(CheckNearest(*t, model, gen.Point(), k));
    }
    if (step % verify_every == verify_every - 1) {
      ASSERT_NO_FATAL_FAILURE(ExpectVerified(*t, model));
    }
    if (step % (c.ops / 4 + 1) == c.ops / 8) {  // reopen: everything comes back from the file
      ASSERT_OK(t->Close());
      t.reset();
      auto again = RTree::Open(&pool, path, {.dims = 1});  // the meta page's dims win
      ASSERT_TRUE(again.ok()) << again.status().ToString();
      t = std::move(*again);
      ASSERT_EQ(t->dims(), c.dims);
      ASSERT_NO_FATAL_FAILURE(ExpectVerified(*t, model));
    }
  }
  ASSERT_NO_FATAL_FAILURE(ExpectVerified(*t, model));
  ASSERT_NO_FATAL_FAILURE(CheckAllPredicates(*t, model, &gen));
  // Delete everything: the tree shrinks back to one empty root leaf plus free pages.
  for (const auto& [k, b] : model) {
    auto found = t->Delete(b, UnpackRid(k));
    ASSERT_TRUE(found.ok() && *found);
  }
  model.clear();
  auto st = t->Verify(true);
  ASSERT_TRUE(st.ok()) << st.status().ToString();
  EXPECT_EQ(st->entries, 0u);
  EXPECT_EQ(st->height, 1u);
}

TEST(RTreeTest, Randomized1D) { RunRandomized({1, 11, RTreeOps()}); }
TEST(RTreeTest, Randomized2D) { RunRandomized({2, 12, RTreeOps()}); }
TEST(RTreeTest, Randomized3D) { RunRandomized({3, 13, RTreeOps()}); }
TEST(RTreeTest, Randomized5D) { RunRandomized({5, 15, RTreeOps()}); }
TEST(RTreeTest, Randomized8D) { RunRandomized({8, 18, RTreeOps()}); }

// Enough entries for a tree of 3+ levels in 2-D, then reopen against a fresh pool.
TEST(RTreeTest, DeepTreeSurvivesReopen) {
  testutil::TempDir dir;
  const std::string path = dir.File("deep.idx");
  BoxGen gen(2, 7);
  std::map<uint64_t, Box> model;
  {
    BufferPool pool(64);
    auto t = RTree::Open(&pool, path, {.dims = 2});
    ASSERT_TRUE(t.ok());
    for (uint32_t i = 1; i <= 60000; ++i) {
      Box b = gen.Entry();
      ASSERT_OK((*t)->Insert(b, Rid{i, 0}));
      model[Key(Rid{i, 0})] = b;
    }
    auto st = (*t)->Verify(true);
    ASSERT_TRUE(st.ok()) << st.status().ToString();
    EXPECT_GE(st->height, 3u);
    EXPECT_GE(st->min_fill, (*t)->min_fill());
    ASSERT_OK((*t)->Close());
  }
  BufferPool pool(64);
  auto t = RTree::Open(&pool, path);
  ASSERT_TRUE(t.ok());
  ASSERT_NO_FATAL_FAILURE(ExpectVerified(**t, model));
  for (int i = 0; i < 20; ++i) ASSERT_NO_FATAL_FAILURE(CheckAllPredicates(**t, model, &gen));
  ASSERT_NO_FATAL_FAILURE(CheckNearest(**t, model, gen.Point(), 50));
}

void RunBulkLoad(uint32_t dims, size_t n, double fill) {
  testutil::TempDir dir;
  BufferPool pool(64);
  auto opened = RTree::Open(&pool, dir.File("b.idx"), {.dims = dims, .fill_factor = fill});
  ASSERT_TRUE(opened.ok());
  RTree& t = **opened;
  BoxGen gen(dims, 100 + n);
  std::vector<Box> boxes(n);
  std::map<uint64_t, Box> model;
  for (size_t i = 0; i < n; ++i) {
    boxes[i] = gen.Entry();
    model[Key(Rid{static_cast<uint32_t>(i + 1), 3})] = boxes[i];
  }
  ASSERT_OK(t.BulkLoad(n, [&](size_t i, Box* b, Rid* r) {
    *b = boxes[i];
    *r = Rid{static_cast<uint32_t>(i + 1), 3};
  }));
  auto st = t.Verify(true);
  ASSERT_TRUE(st.ok()) << st.status().ToString();
  ASSERT_EQ(st->entries, n);
  if (n > t.capacity()) {
    // Nodes are filled to the fill factor (the last two of a level may share evenly).
    const size_t per = static_cast<size_t>(std::max(0.8, fill) * static_cast<double>(t.capacity()));
    EXPECT_LE(st->leaf_pages, (n + per - 1) / per + 1);
  }
  for (int i = 0; i < 10; ++i) ASSERT_NO_FATAL_FAILURE(CheckAllPredicates(t, model, &gen));
  ASSERT_NO_FATAL_FAILURE(CheckNearest(t, model, gen.Point(), 25));
  // A bulk-loaded tree takes ordinary changes afterwards.
  uint32_t next = static_cast<uint32_t>(n + 1);
  for (int i = 0; i < 2000; ++i) {
    if (i % 3 == 0 && !model.empty()) {
      auto it = model.begin();
      auto found = t.Delete(it->second, UnpackRid(it->first));
      ASSERT_TRUE(found.ok() && *found);
      model.erase(it);
    } else {
      Box b = gen.Entry();
      ASSERT_OK(t.Insert(b, Rid{next, 3}));
      model[Key(Rid{next++, 3})] = b;
    }
  }
  ASSERT_NO_FATAL_FAILURE(ExpectVerified(t, model));
  for (int i = 0; i < 5; ++i) ASSERT_NO_FATAL_FAILURE(CheckAllPredicates(t, model, &gen));
  // A second bulk load into a non-empty tree is refused.
  Status again = t.BulkLoad(1, [](size_t, Box* b, Rid* r) {
    *b = Box();
    *r = Rid{1, 1};
  });
  EXPECT_EQ(again.sqlstate(), "XX000");
}

TEST(RTreeTest, BulkLoadSizesAndFills) {
  for (size_t n : {0, 1, 5, 100, 339, 5000, 40000}) {
    for (uint32_t dims : {1u, 2u, 5u, 8u}) {
      SCOPED_TRACE(testing::Message() << "n=" << n << " dims=" << dims);
      ASSERT_NO_FATAL_FAILURE(RunBulkLoad(dims, n, dims == 5 ? 1.0 : 0.85));
    }
  }
}

TEST(RTreeTest, BadInputGetsClearErrors) {
  testutil::TempDir dir;
  BufferPool pool(16);
  EXPECT_EQ(RTree::Open(&pool, dir.File("a.idx"), {.dims = 0}).status().sqlstate(), "22023");
  EXPECT_EQ(RTree::Open(&pool, dir.File("b.idx"), {.dims = 9}).status().sqlstate(), "22023");
  auto t = RTree::Open(&pool, dir.File("c.idx"), {.dims = 2});
  ASSERT_TRUE(t.ok());
  Box inverted = Box::Of(std::vector<double>{1, 5}, std::vector<double>{2, 4});
  EXPECT_EQ((*t)->Insert(inverted, Rid{1, 1}).sqlstate(), "22023");
  Box nan = Box::Point(std::vector<double>{std::nan(""), 0});
  EXPECT_EQ((*t)->Insert(nan, Rid{1, 1}).sqlstate(), "22023");
  EXPECT_EQ((*t)->Count(RTreeOp::kOverlaps, nan).status().sqlstate(), "22023");
  EXPECT_EQ((*t)->Nearest(std::vector<double>{1, 2, 3}, 1, [](const Box&, Rid, double) {
    return true;
  }).sqlstate(), "22023");
  // Infinite coordinates are allowed (half-open regions).
  Box half = Box::Of(std::vector<double>{0, -INFINITY}, std::vector<double>{INFINITY, 0});
  ASSERT_OK((*t)->Insert(half, Rid{2, 2}));
  auto n = (*t)->Count(RTreeOp::kContains, Box::Point(std::vector<double>{1e300, -1e300}));
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(*n, 1u);
  // A file that is not an R-tree is reported as corrupt, naming it.
  {
    auto bt = RTree::Open(&pool, dir.File("c.idx"));
    EXPECT_FALSE(bt.ok());  // already registered with this pool
  }
  ASSERT_OK((*t)->Close());
  EXPECT_EQ((*t)->Insert(half, Rid{3, 3}).sqlstate(), "XX000");
}

}  // namespace
}  // namespace meridian::storage
