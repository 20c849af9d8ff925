// HeapFile: CRUD and errors, a randomized workload checked against std::map with close/reopen
// in the middle, a heap ten times the pool scanned fully, concurrent inserters and scanners,
// corruption and lost-unsynced-data behavior.
#include "storage/heap_file.h"

#include <gtest/gtest.h>

#include <atomic>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <thread>

#include "storage/buffer_pool.h"
#include "storage/fault_injection_file_system.h"
#include "temp_dir.h"

namespace meridian::storage {
namespace {

using testutil::TempDir;

uint64_t Key(Rid rid) { return (uint64_t{rid.page} << 16) | rid.slot; }

std::map<uint64_t, std::string> ScanAll(HeapFile* heap) {
  std::map<uint64_t, std::string> out;
  auto cursor = heap->Scan();
  Rid rid;
  std::string tuple;
  for (;;) {
    auto more = cursor.Next(&rid, &tuple);
    EXPECT_TRUE(more.ok()) << more.status().ToString();
    if (!more.ok() || !*more) break;
    EXPECT_TRUE(out.emplace(Key(rid), tuple).second);
  }
  return out;
}

std::string MakeTuple(std::mt19937& rng, uint64_t id) {
  size_t len;
  switch (rng() % 20) {
    case 0:
      len = 1000 + rng() % 3000;
      break;
    case 1:
      len = rng() % 8;
      break;
    case 2:
      if (rng() % 50 == 0) {
        len = HeapFile::MaxTupleSize();
        break;
      }
      [[fallthrough]];
    default:
      len = 10 + rng() % 200;
  }
  std::string s = std::to_string(id) + ":";
  s.resize(std::max(len, s.size()), static_cast<char>('a' + id % 26));
  if (s.size() > HeapFile::MaxTupleSize()) s.resize(HeapFile::MaxTupleSize());
  return s;
}

TEST(HeapFileTest, BasicOperationsAndErrors) {
  TempDir dir;
  BufferPool pool(8);
  auto heap = HeapFile::Open(&pool, dir.File("t.heap"));
  ASSERT_TRUE(heap.ok()) << heap.status().ToString();
  HeapFile* h = heap->get();
  EXPECT_EQ(h->page_count(), 0u);
  auto a = h->Insert("alpha");
  auto b = h->Insert("beta");
  ASSERT_TRUE(a.ok() && b.ok());
  std::string out;
  ASSERT_TRUE(h->Get(*a, &out).ok());
  EXPECT_EQ(out, "alpha");
  auto a2 = h->Update(*a, "ALPHA");
  ASSERT_TRUE(a2.ok());
  EXPECT_EQ(*a2, *a);  // fits in place
  // Fill the page so a growing update must move.
  std::vector<Rid> fillers;
  while (h->page_count() == 1) {
    auto r = h->Insert(std::string(500, 'f'));
    ASSERT_TRUE(r.ok());
    fillers.push_back(*r);
  }
  auto moved = h->Update(*b, std::string(7000, 'B'));
  ASSERT_TRUE(moved.ok()) << moved.status().ToString();
  EXPECT_NE(moved->page, b->page);
  EXPECT_EQ(h->Get(*b, &out).sqlstate(), "XX000");
  ASSERT_TRUE(h->Get(*moved, &out).ok());
  EXPECT_EQ(out, std::string(7000, 'B'));
  ASSERT_TRUE(h->Delete(*a).ok());
  EXPECT_EQ(h->Delete(*a).sqlstate(), "XX000");
  EXPECT_EQ(h->Get(*a, &out).sqlstate(), "XX000");
  EXPECT_EQ(h->Get(Rid{999, 0}, &out).sqlstate(), "XX000");
  EXPECT_EQ(h->Get(Rid{0, 999}, &out).sqlstate(), "XX000");
  auto too_big = h->Insert(std::string(HeapFile::MaxTupleSize() + 1, 'x'));
  ASSERT_FALSE(too_big.ok());
  EXPECT_EQ(too_big.status().sqlstate(), "54000");
  EXPECT_TRUE(h->Insert(std::string(HeapFile::MaxTupleSize(), 'x')).ok());
  EXPECT_EQ(
      h->Update(fillers[0], std::string(HeapFile::MaxTupleSize() + 1, 'x')).status().sqlstate(),
      "54000");
  EXPECT_EQ(pool.PinnedCount(), 0u);
  // Same path twice in one pool is refused.
  EXPECT_FALSE(HeapFile::Open(&pool, dir.File("t.heap")).ok());
  ASSERT_TRUE(h->Close().ok());
  EXPECT_FALSE(h->Insert("x").ok());
  // Reopen: contents survive.
  auto again = HeapFile::Open(&pool, dir.File("t.heap"));
  ASSERT_TRUE(again.ok());
  auto rows = ScanAll(again->get());
  EXPECT_EQ(rows.size(), fillers.size() + 2);
  EXPECT_EQ(rows[Key(*moved)], std::string(7000, 'B'));
}

TEST(HeapFileTest, RandomizedAgainstModelWithReopen) {
  TempDir dir;
  const std::string path = dir.File("random.heap");
  BufferPool pool(32);
  auto opened = HeapFile::Open(&pool, path);
  ASSERT_TRUE(opened.ok());
  std::unique_ptr<HeapFile> heap = std::move(*opened);
  std::map<uint64_t, std::string> model;
  std::vector<Rid> rids;  // live rids, for random picks (swap-remove)
  std::map<uint64_t, size_t> index;
  std::mt19937 rng(12345);
  constexpr int kOps = 200000;
  uint64_t next_id = 0;
  auto remove_rid = [&](Rid rid) {
    size_t i = index[Key(rid)];
    index.erase(Key(rid));
    if (i != rids.size() - 1) {
      rids[i] = rids.back();
      index[Key(rids[i])] = i;
    }
    rids.pop_back();
  };
  auto add_rid = [&](Rid rid) {
    ASSERT_FALSE(index.count(Key(rid)));
    index[Key(rid)] = rids.size();
    rids.push_back(rid);
  };
  for (int op = 0; op < kOps; ++op) {
    if (op == kOps / 3 || op == 2 * kOps / 3) {
      ASSERT_TRUE(heap->Close().ok());
      heap.reset();
      auto re = HeapFile::Open(&pool, path);
      ASSERT_TRUE(re.ok()) << re.status().ToString();
      heap = std::move(*re);
      ASSERT_EQ(ScanAll(heap.get()), model);
    }
    unsigned dice = rng() % 100;
    // Bias toward growth early, toward shrinking late, so pages fill, empty and refill.
    unsigned insert_pct = op < kOps / 2 ? 45 : 30;
    if (dice < insert_pct || rids.empty()) {
      std::string t = MakeTuple(rng, next_id++);
      auto rid = heap->Insert(t);
      ASSERT_TRUE(rid.ok()) << rid.status().ToString();
      ASSERT_FALSE(model.count(Key(*rid)));
      model[Key(*rid)] = t;
      add_rid(*rid);
    } else if (dice < insert_pct + 25) {
      Rid rid = rids[rng() % rids.size()];
      std::string t = MakeTuple(rng, next_id++);
      auto moved = heap->Update(rid, t);
      ASSERT_TRUE(moved.ok()) << moved.status().ToString();
      if (!(*moved == rid)) {
        model.erase(Key(rid));
        remove_rid(rid);
        ASSERT_FALSE(model.count(Key(*moved)));
        add_rid(*moved);
      }
      model[Key(*moved)] = t;
    } else if (dice < insert_pct + 45) {
      Rid rid = rids[rng() % rids.size()];
      ASSERT_TRUE(heap->Delete(rid).ok());
      model.erase(Key(rid));
      remove_rid(rid);
    } else {
      Rid rid = rids[rng() % rids.size()];
      std::string out;
      ASSERT_TRUE(heap->Get(rid, &out).ok());
      ASSERT_EQ(out, model[Key(rid)]);
    }
    ASSERT_EQ(pool.PinnedCount(), 0u) << op;
  }
  ASSERT_EQ(ScanAll(heap.get()), model);
  Status st = pool.Verify();
  ASSERT_TRUE(st.ok()) << st.ToString();
  // Space is reused: the file stays far below "every tuple ever inserted".
  EXPECT_LT(heap->page_count(), 4000u);
}

TEST(HeapFileTest, HeapTenTimesThePoolScansFully) {
  TempDir dir;
  BufferPool pool(32);
  auto heap = HeapFile::Open(&pool, dir.File("big.heap"));
  ASSERT_TRUE(heap.ok());
  HeapFile* h = heap->get();
  std::map<uint64_t, std::string> model;
  uint64_t i = 0;
  while (h->page_count() < 320) {
    std::string t = "row-" + std::to_string(i) + std::string(150 + i % 50, 'r');
    auto rid = h->Insert(t);
    ASSERT_TRUE(rid.ok());
    model[Key(*rid)] = t;
    ++i;
  }
  EXPECT_EQ(ScanAll(h), model);
  EXPECT_EQ(pool.PinnedCount(), 0u);
  EXPECT_GT(pool.stats().evictions, 300u);
}

TEST(HeapFileTest, ConcurrentInsertersAndScanners) {
  TempDir dir;
  BufferPool pool(24);
  auto heap = HeapFile::Open(&pool, dir.File("conc.heap"));
  ASSERT_TRUE(heap.ok());
  HeapFile* h = heap->get();
  constexpr int kThreads = 4;
  constexpr int kRowsPerThread = 4000;
  std::atomic<int> failures{0};
  std::vector<std::vector<std::pair<Rid, std::string>>> mine(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      std::mt19937 rng(t + 100);
      for (int i = 0; i < kRowsPerThread; ++i) {
        std::string tuple = std::to_string(t);  // built by append: GCC 12 -Wrestrict false positive
        tuple.append("-").append(std::to_string(i)).append(rng() % 300, 'x');
        auto rid = h->Insert(tuple);
        if (!rid.ok()) {
          ++failures;
          continue;
        }
        mine[t].emplace_back(*rid, tuple);
        if (i % 7 == 0) {  // update one of our rows (may move)
          auto& [r, s] = mine[t][rng() % mine[t].size()];
          s += "u";
          auto moved = h->Update(r, s);
          if (!moved.ok())
            ++failures;
          else
            r = *moved;
        }
        if (i % 1000 == 999) {  // a full scan must see every row of ours, unchanged
          std::set<std::string> seen;
          auto cursor = h->Scan();
          Rid rr;
          std::string tt;
          for (;;) {
            auto more = cursor.Next(&rr, &tt);
            if (!more.ok()) {
              ++failures;
              break;
            }
            if (!*more) break;
            seen.insert(tt);
          }
          for (const auto& [r, s] : mine[t]) {
            if (!seen.count(s)) ++failures;
          }
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(pool.PinnedCount(), 0u);
  std::map<uint64_t, std::string> expected;
  for (const auto& rows : mine) {
    for (const auto& [r, s] : rows) expected[Key(r)] = s;
  }
  EXPECT_EQ(ScanAll(h), expected);
}

TEST(HeapFileTest, CorruptPageIsReportedByScan) {
  TempDir dir;
  const std::string path = dir.File("c.heap");
  {
    BufferPool pool(8);
    auto heap = HeapFile::Open(&pool, path);
    ASSERT_TRUE(heap.ok());
    while ((*heap)->page_count() < 3) ASSERT_TRUE((*heap)->Insert(std::string(100, 'z')).ok());
    ASSERT_TRUE((*heap)->Close().ok());
  }
  {
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(kPageSize + kPageSize - 10);
    f.write("!", 1);
  }
  BufferPool pool(8);
  auto heap = HeapFile::Open(&pool, path);
  ASSERT_TRUE(heap.ok());
  auto cursor = (*heap)->Scan();
  Rid rid;
  std::string tuple;
  Status error;
  for (;;) {
    auto more = cursor.Next(&rid, &tuple);
    if (!more.ok()) {
      error = more.status();
      break;
    }
    ASSERT_TRUE(*more) << "scan ended without reporting the corrupt page";
  }
  EXPECT_EQ(error.sqlstate(), "XX001");
  EXPECT_NE(error.message().find("page 1"), std::string::npos) << error.message();
}

TEST(HeapFileTest, UnsyncedChangesAreLostOnPowerCutButFlushedOnesStay) {
  TempDir dir;
  const std::string path = dir.File("p.heap");
  FaultInjectionFileSystem fs(FileSystem::Default());
  std::map<uint64_t, std::string> flushed;
  {
    BufferPool pool(4, &fs);
    auto heap = HeapFile::Open(&pool, path);
    ASSERT_TRUE(heap.ok());
    for (int i = 0; i < 300; ++i) {
      std::string t = "durable-" + std::to_string(i) + std::string(100, 'd');
      auto rid = (*heap)->Insert(t);
      ASSERT_TRUE(rid.ok());
      flushed[Key(*rid)] = t;
    }
    ASSERT_TRUE((*heap)->Flush().ok());
    for (int i = 0; i < 300; ++i) {  // written back by eviction, never synced
      ASSERT_TRUE((*heap)->Insert("volatile-" + std::to_string(i) + std::string(100, 'v')).ok());
    }
    // The "power cut": unsynced bytes vanish, and nothing more reaches the disk (the heap's
    // Close on destruction fails, so the pool is dropped with its dirty pages).
    fs.SetFailWrites(true);
    ASSERT_TRUE(fs.DropUnsyncedData().ok());
  }
  fs.SetFailWrites(false);
  BufferPool pool(4, &fs);
  auto heap = HeapFile::Open(&pool, path);
  ASSERT_TRUE(heap.ok());
  EXPECT_EQ(ScanAll(heap->get()), flushed);
}

}  // namespace
}  // namespace meridian::storage

namespace meridian::storage {
namespace {

// Visibility map (README "Visibility map"): set only when every tuple passes the caller's test
// under the page latch; cleared by every write method before it changes the page; bumps the
// removal epoch for removals; clear again after reopening.
TEST(HeapFileVisibilityMapTest, SetAndClearRules) {
  TempDir dir;
  BufferPool pool(16);
  auto opened = HeapFile::Open(&pool, dir.File("vm.heap"));
  ASSERT_TRUE(opened.ok());
  std::unique_ptr<HeapFile> heap = std::move(*opened);
  std::string tuple(100, 'x');
  WriteTupleHeader(tuple.data(), TupleHeader{});  // begin 0: committed before time began
  std::vector<Rid> rids;
  for (int i = 0; i < 200; ++i) {  // more than one page
    auto rid = heap->Insert(tuple);
    ASSERT_TRUE(rid.ok());
    rids.push_back(*rid);
  }
  ASSERT_GE(heap->page_count(), 2u);
  const uint32_t p0 = rids.front().page;
  const uint32_t p1 = rids.back().page;
  auto all = [](const TupleHeader&) { return true; };
  auto ended = [](const TupleHeader& h) { return h.end == 0; };
  EXPECT_FALSE(heap->AllVisible(p0));
  // A test that one tuple fails leaves the bit clear.
  int seen = 0;
  auto first_fails = [&seen](const TupleHeader&) { return seen++ > 0; };
  auto r = heap->MarkAllVisible(p0, first_fails);
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(*r);
  EXPECT_FALSE(heap->AllVisible(p0));
  for (uint32_t p = 0; p < heap->page_count(); ++p) ASSERT_TRUE(heap->MarkAllVisible(p, all).ok());
  EXPECT_TRUE(heap->AllVisible(p0));
  EXPECT_TRUE(heap->AllVisible(p1));
  EXPECT_EQ(heap->all_visible_count(), heap->page_count());
  EXPECT_FALSE(heap->AllVisible(heap->page_count() + 5));  // past the end

  // UpdateHeader that stores a change clears the page's bit; one that stores nothing does not.
  ASSERT_TRUE(heap->UpdateHeader(rids[0], [](TupleHeader*) { return false; }).ok());
  EXPECT_TRUE(heap->AllVisible(p0));
  ASSERT_TRUE(heap->UpdateHeader(rids[0],
                                 [](TupleHeader* h) {
                                   h->end = 7;
                                   return true;
                                 })
                  .ok());
  EXPECT_FALSE(heap->AllVisible(p0));
  EXPECT_TRUE(heap->AllVisible(p1));
  // The end mark keeps the page from qualifying under a test that refuses it.
  ASSERT_TRUE(heap->MarkAllVisible(p0, ended).ok());
  EXPECT_FALSE(heap->AllVisible(p0));

  // Insert into a marked page clears it.
  ASSERT_TRUE(heap->MarkAllVisible(p1, all).ok());
  ASSERT_TRUE(heap->AllVisible(p1));
  auto more = heap->Insert(tuple);
  ASSERT_TRUE(more.ok());
  EXPECT_FALSE(heap->AllVisible(more->page));

  // Delete clears and bumps the removal epoch; Update in place clears.
  ASSERT_TRUE(heap->MarkAllVisible(p1, all).ok());
  const uint64_t epoch = heap->removal_epoch();
  ASSERT_TRUE(heap->Delete(rids.back()).ok());
  EXPECT_FALSE(heap->AllVisible(p1));
  EXPECT_GT(heap->removal_epoch(), epoch);
  ASSERT_TRUE(heap->MarkAllVisible(p1, all).ok());
  ASSERT_TRUE(heap->Update(rids[rids.size() - 2], tuple).ok());
  EXPECT_FALSE(heap->AllVisible(rids[rids.size() - 2].page));

  // SweepPage that writes clears and bumps; one that only reads does not.
  ASSERT_TRUE(heap->MarkAllVisible(p1, all).ok());
  ASSERT_TRUE(heap->SweepPage(p1, [](TupleHeader*) { return HeapFile::SweepAction::kKeep; }).ok());
  EXPECT_TRUE(heap->AllVisible(p1));
  const uint64_t before_sweep = heap->removal_epoch();
  ASSERT_TRUE(
      heap->SweepPage(p1, [](TupleHeader*) { return HeapFile::SweepAction::kRemove; }).ok());
  EXPECT_FALSE(heap->AllVisible(p1));
  EXPECT_GT(heap->removal_epoch(), before_sweep);

  // Nothing is all-visible after reopening until a pass sets it again.
  for (uint32_t p = 0; p < heap->page_count(); ++p) ASSERT_TRUE(heap->MarkAllVisible(p, all).ok());
  EXPECT_GT(heap->all_visible_count(), 0u);
  ASSERT_TRUE(heap->Close().ok());
  heap.reset();
  auto re = HeapFile::Open(&pool, dir.File("vm.heap"));
  ASSERT_TRUE(re.ok());
  EXPECT_EQ((*re)->all_visible_count(), 0u);
  EXPECT_FALSE((*re)->AllVisible(p1));
  ASSERT_TRUE((*re)->MarkAllVisible(p1, all).ok());
  EXPECT_TRUE((*re)->AllVisible(p1));
}

// Writers clearing bits while a marker sets them: a page one writer changed (under its
// exclusive latch) after a pass checked it is never left marked with a tuple the test refuses.
TEST(HeapFileVisibilityMapTest, ConcurrentMarkAndClear) {
  TempDir dir;
  BufferPool pool(16);
  auto opened = HeapFile::Open(&pool, dir.File("vmc.heap"));
  ASSERT_TRUE(opened.ok());
  HeapFile* heap = opened->get();
  std::string tuple(60, 'y');
  WriteTupleHeader(tuple.data(), TupleHeader{});
  std::vector<Rid> rids;
  for (int i = 0; i < 400; ++i) rids.push_back(*heap->Insert(tuple));
  auto clean = [](const TupleHeader& h) { return h.end == 0; };
  std::atomic<bool> stop{false};
  std::thread marker([&] {
    while (!stop.load()) {
      for (uint32_t p = 0; p < heap->page_count(); ++p) (void)heap->MarkAllVisible(p, clean);
    }
  });
  for (int round = 0; round < 2000; ++round) {
    const Rid rid = rids[static_cast<size_t>(round * 7919) % rids.size()];
    ASSERT_TRUE(heap->UpdateHeader(rid,
                                   [&](TupleHeader* h) {
                                     h->end = static_cast<uint64_t>(round + 1);
                                     return true;
                                   })
                    .ok());
    // Marked by now would be a violation: the page holds an ended tuple.
    EXPECT_FALSE(heap->AllVisible(rid.page));
    ASSERT_TRUE(heap->UpdateHeader(rid,
                                   [](TupleHeader* h) {
                                     h->end = 0;
                                     return true;
                                   })
                    .ok());
  }
  stop = true;
  marker.join();
}

}  // namespace
}  // namespace meridian::storage
