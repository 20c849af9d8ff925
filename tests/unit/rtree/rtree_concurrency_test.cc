// RTree under concurrency (run under ASan/UBSan by `make debug`): 2 writers insert, move and
// delete their own entries while 2 readers search and ask for nearest neighbours, checking that
// every answer satisfies its predicate and that a fixed set of entries nobody touches is always
// found; a 64-frame pool keeps pages moving. Then Verify and an exact comparison.
#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <mutex>
#include <thread>

#include "rtree_test_util.h"
#include "storage/rtree.h"
#include "temp_dir.h"

namespace meridian::storage {
namespace {

TEST(RTreeConcurrencyTest, WritersAndReaders) {
  testutil::TempDir dir;
  BufferPool pool(64);
  constexpr uint32_t kDims = 3;
  auto opened = RTree::Open(&pool, dir.File("c.idx"), {.dims = kDims});
  ASSERT_TRUE(opened.ok());
  RTree& t = **opened;
  // Fixed entries: rid page 1, never changed. Readers must always see those in their query.
  BoxGen fixed_gen(kDims, 1);
  std::map<uint64_t, Box> fixed;
  for (uint16_t i = 0; i < 2000; ++i) {
    Box b = fixed_gen.Entry();
    ASSERT_OK(t.Insert(b, Rid{1, i}));
    fixed[Key(Rid{1, i})] = b;
  }
  const size_t per_writer = std::max<size_t>(500, RTreeOps() / 8);
  std::atomic<bool> done{false};
  std::atomic<int> failures{0};
  std::mutex mu;
  std::map<uint64_t, Box> final_model = fixed;  // guarded by mu

  auto writer = [&](uint32_t w) {
    BoxGen gen(kDims, 50 + w);
    std::map<uint64_t, Box> mine;
    for (size_t i = 0; i < per_writer; ++i) {
      uint64_t r = gen.rng()() % 10;
      if (r < 5 || mine.empty()) {
        Rid rid{100 + w, static_cast<uint16_t>(i % 60000)};
        if (mine.count(Key(rid))) continue;
        Box b = gen.Entry();
        if (!t.Insert(b, rid).ok()) ++failures;
        mine[Key(rid)] = b;
      } else {
        auto it = mine.lower_bound(gen.rng()() % (mine.rbegin()->first + 1));
        if (it == mine.end()) it = mine.begin();
        auto found = t.Delete(it->second, UnpackRid(it->first));
        if (!found.ok() || !*found) ++failures;
        if (r < 8) {  // move it
          Box b = gen.Entry();
          if (!t.Insert(b, UnpackRid(it->first)).ok()) ++failures;
          it->second = b;
        } else {
          mine.erase(it);
        }
      }
    }
    std::lock_guard lock(mu);
    final_model.insert(mine.begin(), mine.end());
  };
  auto reader = [&](uint64_t seed) {
    BoxGen gen(kDims, seed);
    while (!done.load()) {
      Box q = gen.Query();
      size_t fixed_seen = 0, fixed_want = 0;
      for (const auto& [k, b] : fixed) fixed_want += b.Overlaps(q, kDims);
      Status st = t.Search(RTreeOp::kOverlaps, q, [&](const Box& b, Rid r) {
        if (!b.Overlaps(q, kDims)) ++failures;
        auto it = fixed.find(Key(r));
        if (it != fixed.end()) {
          ++fixed_seen;
          if (!it->second.Equals(b, kDims)) ++failures;
        }
        return true;
      });
      if (!st.ok() || fixed_seen != fixed_want) ++failures;
      std::vector<double> p = gen.Point();
      double last = 0;
      st = t.Nearest(p, 20, [&](const Box& b, Rid, double dist) {
        if (dist < last || dist != std::sqrt(b.MinDist2(p.data(), kDims))) ++failures;
        last = dist;
        return true;
      });
      if (!st.ok()) ++failures;
    }
  };
  std::thread r1(reader, 901), r2(reader, 902);
  std::thread w1(writer, 0), w2(writer, 1);
  w1.join();
  w2.join();
  done = true;
  r1.join();
  r2.join();
  EXPECT_EQ(failures.load(), 0);
  auto st = t.Verify(true);
  ASSERT_TRUE(st.ok()) << st.status().ToString();
  EXPECT_EQ(st->entries, final_model.size());
  BoxGen gen(kDims, 77);
  for (int i = 0; i < 20; ++i) ASSERT_NO_FATAL_FAILURE(CheckAllPredicates(t, final_model, &gen));
}

}  // namespace
}  // namespace meridian::storage
