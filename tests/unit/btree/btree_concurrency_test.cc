// BTree under concurrency: 4 writer threads inserting disjoint and overlapping keys (and
// deleting some of their own) while 2 threads scan forward and backward checking order; then
// Verify and an exact comparison of the contents with what the writers report.
#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <random>
#include <thread>

#include "btree_test_util.h"
#include "storage/btree.h"
#include "temp_dir.h"

namespace meridian::storage {
namespace {

TEST(BTreeConcurrencyTest, WritersAndScanners) {
  testutil::TempDir dir;
  BufferPool pool(64);
  auto opened = BTree::Open(&pool, dir.File("c.idx"), {.unique = true});
  ASSERT_TRUE(opened.ok());
  BTree& t = **opened;
  constexpr int kWriters = 4;
  const uint64_t per_thread = std::max<uint64_t>(200, TotalOps() / 10 / kWriters / 2);
  const uint64_t shared_keys = per_thread / 2;
  std::atomic<bool> writers_done{false};
  std::atomic<int> failures{0};
  std::mutex mu;  // guards expected and shared_wins
  std::set<std::string> expected;
  uint64_t shared_wins = 0;

  auto writer = [&](int w) {
    std::mt19937_64 rng(100 + w);
    std::set<std::string> mine;
    uint64_t wins = 0;
    for (uint64_t i = 0; i < per_thread; ++i) {
      // Disjoint keys: ids 1,000,000 * (w + 1) + i. Overlapping: ids < shared_keys, all threads.
      uint64_t id = (rng() % 3 == 0) ? rng() % shared_keys : 1000000 * (w + 1) + i;
      std::string key = TestKey(id);
      Status st = t.Insert(key, Tagged("w", static_cast<uint64_t>(w)));
      if (id < shared_keys) {
        if (st.ok()) {
          ++wins;
        } else if (st.sqlstate() != "23505") {
          ++failures;
        }
        continue;
      }
      if (!st.ok()) {
        ++failures;
        continue;
      }
      mine.insert(key);
      if (rng() % 4 == 0) {  // delete one of our own keys again
        auto victim = mine.lower_bound(TestKey(1000000 * (w + 1) + rng() % (i + 1)));
        if (victim != mine.end()) {
          auto found = t.Delete(*victim, Tagged("w", static_cast<uint64_t>(w)));
          if (!found.ok() || !*found) ++failures;
          mine.erase(victim);
        }
      }
    }
    std::lock_guard lock(mu);
    expected.insert(mine.begin(), mine.end());
    shared_wins += wins;
  };

  auto scanner = [&](bool reverse) {
    while (!writers_done.load()) {
      ScanRange range;
      range.reverse = reverse;
      BTree::Cursor cur = t.Scan(range);
      std::string k, v, prev;
      bool first = true;
      while (true) {
        auto more = cur.Next(&k, &v);
        if (!more.ok()) {
          ++failures;
          return;
        }
        if (!*more) break;
        if (!first && (reverse ? !(k < prev) : !(prev < k))) ++failures;
        prev = k;
        first = false;
      }
    }
  };

  std::vector<std::thread> threads;
  for (int w = 0; w < kWriters; ++w) threads.emplace_back(writer, w);
  std::thread s1(scanner, false), s2(scanner, true);
  for (auto& th : threads) th.join();
  writers_done = true;
  s1.join();
  s2.join();
  EXPECT_EQ(failures.load(), 0);

  auto stats = t.Verify(true);
  ASSERT_TRUE(stats.ok()) << stats.status().ToString();
  EXPECT_GE(stats->height, 3u);
  // Every shared key inserted at most once; the rest are exactly each writer's survivors.
  std::set<std::string> got;
  BTree::Cursor cur = t.Scan(ScanRange{});
  std::string k, v;
  uint64_t shared_seen = 0;
  while (*cur.Next(&k, &v)) {
    uint64_t id = (uint64_t{static_cast<uint8_t>(k[0])} << 24) |
                  (uint64_t{static_cast<uint8_t>(k[1])} << 16) |
                  (uint64_t{static_cast<uint8_t>(k[2])} << 8) | static_cast<uint8_t>(k[3]);
    if (id < shared_keys) {
      ++shared_seen;
    } else {
      got.insert(k);
    }
  }
  EXPECT_EQ(shared_seen, shared_wins);
  EXPECT_TRUE(got == expected);
  EXPECT_EQ(stats->entries, shared_seen + expected.size());
}

}  // namespace
}  // namespace meridian::storage
