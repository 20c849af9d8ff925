// BufferPool: eviction with far more pages than frames, pins respected, all-pinned error,
// on-disk checksum verification, I/O fault propagation, a flush meeting a failing concurrent
// batch, and concurrent page access.
#include "storage/buffer_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <fstream>
#include <functional>
#include <future>
#include <random>
#include <thread>

#include "storage/btree_page.h"
#include "storage/doublewrite.h"
#include "storage/fault_injection_file_system.h"
#include "storage/page.h"
#include "temp_dir.h"

namespace meridian::storage {
namespace {

using testutil::TempDir;

// Test payload lives after the page header: a u32 tag and a u32 counter.
constexpr size_t kTagAt = kPageHeaderSize;
constexpr size_t kCounterAt = kPageHeaderSize + 4;

uint32_t Load32(const char* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}
void Store32(char* p, uint32_t v) { std::memcpy(p, &v, 4); }

Result<FileId> OpenFile(BufferPool* pool, const std::string& path) {
  MERIDIAN_ASSIGN_OR_RETURN(auto file, pool->file_system()->Open(path, true));
  return pool->RegisterFile(std::move(file));
}

void ExpectNoPins(const BufferPool& pool) {
  ASSERT_EQ(pool.PinnedCount(), 0u);
  Status st = pool.Verify();
  ASSERT_TRUE(st.ok()) << st.ToString();
}

TEST(BufferPoolTest, EvictionWithCapacityFarBelowData) {
  TempDir dir;
  BufferPool pool(16);
  auto fid = OpenFile(&pool, dir.File("data"));
  ASSERT_TRUE(fid.ok());
  constexpr uint32_t kPages = 5000;
  for (uint32_t i = 0; i < kPages; ++i) {
    auto guard = pool.NewPage(*fid);
    ASSERT_TRUE(guard.ok()) << guard.status().ToString();
    ASSERT_EQ(guard->page_no(), i);
    Store32(guard->data() + kTagAt, i * 7 + 1);
    guard->Release();
    ExpectNoPins(pool);
  }
  EXPECT_EQ(pool.PageCount(*fid), kPages);
  std::mt19937 rng(1);
  for (int step = 0; step < 5000; ++step) {
    uint32_t p = rng() % kPages;
    if (step % 3 == 0) {
      auto guard = pool.FetchWrite(*fid, p);
      ASSERT_TRUE(guard.ok()) << guard.status().ToString();
      Store32(guard->data() + kCounterAt, Load32(guard->data() + kCounterAt) + 1);
    } else {
      auto guard = pool.FetchRead(*fid, p);
      ASSERT_TRUE(guard.ok()) << guard.status().ToString();
      ASSERT_EQ(Load32(guard->data() + kTagAt), p * 7 + 1);
    }
    ExpectNoPins(pool);
  }
  auto stats = pool.stats();
  EXPECT_GT(stats.evictions, 4000u);
  EXPECT_GT(stats.writes, 4000u);
  ASSERT_TRUE(pool.FlushAll().ok());
  ASSERT_TRUE(pool.UnregisterFile(*fid).ok());

  // A fresh pool reads every page back with its checksum verified.
  BufferPool pool2(8);
  auto fid2 = OpenFile(&pool2, dir.File("data"));
  ASSERT_TRUE(fid2.ok());
  EXPECT_EQ(pool2.PageCount(*fid2), kPages);
  for (uint32_t i = 0; i < kPages; ++i) {
    auto guard = pool2.FetchRead(*fid2, i);
    ASSERT_TRUE(guard.ok()) << guard.status().ToString();
    ASSERT_EQ(Load32(guard->data() + kTagAt), i * 7 + 1);
  }
  ExpectNoPins(pool2);
}

TEST(BufferPoolTest, FilesKeepTheirOwnFrameListsThroughEvictionAndClose) {
  // Each file's flush and checkpoint image visit that file's frames only (FileEntry::frames):
  // frames moving between files by eviction, and a file closing, keep the lists exact
  // (Verify checks every mapped frame is in its file's list and nothing else is).
  TempDir dir;
  BufferPool pool(24);
  auto a = OpenFile(&pool, dir.File("a"));
  auto b = OpenFile(&pool, dir.File("b"));
  ASSERT_TRUE(a.ok() && b.ok());
  constexpr uint32_t kPages = 60;
  for (uint32_t i = 0; i < kPages; ++i) {
    for (FileId f : {*a, *b}) {
      auto guard = pool.NewPage(f);
      ASSERT_TRUE(guard.ok()) << guard.status().ToString();
      Store32(guard->data() + kTagAt, i * 7 + f);
    }
    ExpectNoPins(pool);
  }
  std::mt19937 rng(7);
  for (int step = 0; step < 600; ++step) {
    const FileId f = step % 2 == 0 ? *a : *b;
    auto guard = pool.FetchWrite(f, rng() % kPages);
    ASSERT_TRUE(guard.ok()) << guard.status().ToString();
    Store32(guard->data() + kCounterAt, Load32(guard->data() + kCounterAt) + 1);
    guard->Release();
    if (step % 50 == 0) ExpectNoPins(pool);
  }
  ASSERT_TRUE(pool.FlushFile(*a).ok());
  auto image = pool.SnapshotDirty(*a, 1000);
  ASSERT_TRUE(image.ok()) << image.status().ToString();
  EXPECT_TRUE(image->pages.empty());  // a is clean after its flush, whatever b holds
  pool.ReleaseSnapshot(&*image, true);
  ASSERT_TRUE(pool.UnregisterFile(*a).ok());
  ExpectNoPins(pool);
  for (uint32_t i = 0; i < kPages; ++i) {  // b's pages take a's frames
    auto guard = pool.FetchRead(*b, i);
    ASSERT_TRUE(guard.ok()) << guard.status().ToString();
    ASSERT_EQ(Load32(guard->data() + kTagAt), i * 7 + *b);
  }
  ExpectNoPins(pool);
  ASSERT_TRUE(pool.UnregisterFile(*b).ok());
  ExpectNoPins(pool);
}

TEST(BufferPoolTest, PinnedPagesAreNeverEvictedAndAllPinnedIsAnError) {
  TempDir dir;
  BufferPool pool(4);
  auto fid = OpenFile(&pool, dir.File("data"));
  ASSERT_TRUE(fid.ok());
  for (uint32_t i = 0; i < 100; ++i) {
    auto guard = pool.NewPage(*fid);
    ASSERT_TRUE(guard.ok());
    Store32(guard->data() + kTagAt, i);
  }
  std::vector<ReadPageGuard> held;
  for (uint32_t i = 0; i < 3; ++i) {
    auto guard = pool.FetchRead(*fid, i);
    ASSERT_TRUE(guard.ok());
    held.push_back(std::move(*guard));
  }
  EXPECT_EQ(pool.PinnedCount(), 3u);
  const char* addr0 = held[0].data();
  for (uint32_t i = 3; i < 100; ++i) {  // all traffic goes through the one free frame
    auto guard = pool.FetchRead(*fid, i);
    ASSERT_TRUE(guard.ok()) << guard.status().ToString();
    EXPECT_EQ(Load32(guard->data() + kTagAt), i);
  }
  EXPECT_EQ(held[0].data(), addr0);
  for (uint32_t i = 0; i < 3; ++i) EXPECT_EQ(Load32(held[i].data() + kTagAt), i);

  // Pin the last frame too: the next miss fails cleanly instead of hanging.
  auto fourth = pool.FetchRead(*fid, 50);
  ASSERT_TRUE(fourth.ok());
  auto miss = pool.FetchRead(*fid, 60);
  ASSERT_FALSE(miss.ok());
  EXPECT_EQ(miss.status().sqlstate(), "53000");
  // A page that is already cached still works (two readers share a latch).
  auto hit = pool.FetchRead(*fid, 1);
  ASSERT_TRUE(hit.ok());
  hit->Release();
  fourth->Release();
  held.clear();
  ExpectNoPins(pool);
  auto again = pool.FetchRead(*fid, 60);
  ASSERT_TRUE(again.ok());
  again->Release();
  // Unregister refuses while a page is pinned.
  auto pinned = pool.FetchRead(*fid, 2);
  ASSERT_TRUE(pinned.ok());
  EXPECT_FALSE(pool.UnregisterFile(*fid).ok());
  pinned->Release();
  EXPECT_TRUE(pool.UnregisterFile(*fid).ok());
}

TEST(BufferPoolTest, FlippedByteOnDiskIsReportedAsCorruption) {
  TempDir dir;
  const std::string path = dir.File("data");
  {
    BufferPool pool(8);
    auto fid = OpenFile(&pool, path);
    ASSERT_TRUE(fid.ok());
    for (uint32_t i = 0; i < 10; ++i) {
      auto guard = pool.NewPage(*fid);
      ASSERT_TRUE(guard.ok());
      Store32(guard->data() + kTagAt, i);
    }
    ASSERT_TRUE(pool.UnregisterFile(*fid).ok());
  }
  {
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    ASSERT_TRUE(f.good());
    f.seekg(3 * kPageSize + 1000);
    char c;
    f.read(&c, 1);
    c = static_cast<char>(c ^ 0x01);
    f.seekp(3 * kPageSize + 1000);
    f.write(&c, 1);
  }
  BufferPool pool(8);
  auto fid = OpenFile(&pool, path);
  ASSERT_TRUE(fid.ok());
  for (uint32_t i = 0; i < 10; ++i) {
    auto guard = pool.FetchRead(*fid, i);
    if (i == 3) {
      ASSERT_FALSE(guard.ok());
      EXPECT_EQ(guard.status().sqlstate(), "XX001");
      EXPECT_EQ(guard.status().message(), "invalid page checksum in file \"" + path + "\" page 3");
    } else {
      ASSERT_TRUE(guard.ok()) << guard.status().ToString();
    }
  }
  auto again = pool.FetchWrite(*fid, 3);  // still reported, not cached as good
  EXPECT_EQ(again.status().sqlstate(), "XX001");
  ExpectNoPins(pool);
}

// tests/fuzz (fuzz_storage): a page whose checksum matches but whose slots or cells point
// outside the page (a page written wrongly, or a bit flipped before the checksum was computed)
// was handed to the readers, and SlottedPage::Get / BTreePage::Key read past the frame. Such a
// page is now reported as corruption when read (VerifyPageLayout), like a checksum mismatch.
TEST(BufferPoolTest, BadLayoutUnderAValidChecksumIsReportedAsCorruption) {
  TempDir dir;
  const std::string path = dir.File("data");
  {
    BufferPool pool(8);
    auto fid = OpenFile(&pool, path);
    ASSERT_TRUE(fid.ok());
    for (uint32_t i = 0; i < 4; ++i) {
      auto guard = pool.NewPage(*fid);
      ASSERT_TRUE(guard.ok());
      if (i == 1 || i == 2) {
        SlottedPage page(guard->data());
        page.Init(PageType::kHeap, i);
        ASSERT_TRUE(page.Insert("a tuple of some bytes").has_value());
      } else if (i == 3) {
        BTreePage node(guard->data());
        node.Init(kBTreeLeafPageType, 0, i);
        ASSERT_TRUE(node.InsertLeafEntry(0, "key", "value"));
      }
    }
    ASSERT_TRUE(pool.UnregisterFile(*fid).ok());
  }
  // Page 1: slot 0 points 100 bytes before the page's end with a length of 4000. Page 2: an
  // unknown page type. Page 3: the leaf cell's key length runs past the page. Each with its
  // checksum recomputed.
  auto rewrite = [&](uint32_t page_no, const std::function<void(char*)>& change) {
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    ASSERT_TRUE(f.good());
    std::string page(kPageSize, '\0');
    f.seekg(uint64_t{page_no} * kPageSize);
    f.read(page.data(), kPageSize);
    change(page.data());
    SetPageChecksum(page.data());
    f.seekp(uint64_t{page_no} * kPageSize);
    f.write(page.data(), kPageSize);
  };
  rewrite(1, [](char* p) {
    StoreU16(p + kPageHeaderSize, static_cast<uint16_t>(kPageSize - 100));
    StoreU16(p + kPageHeaderSize + 2, 4000);
  });
  rewrite(2, [](char* p) { p[kPageTypeOffset] = 77; });
  rewrite(3, [](char* p) {
    uint16_t cell = LoadU16(p + kNodeHeaderSize);
    StoreU16(p + cell, 9000);
  });
  BufferPool pool(8);
  auto fid = OpenFile(&pool, path);
  ASSERT_TRUE(fid.ok());
  const char* expected[] = {nullptr, "inconsistent heap page layout", "unknown page type 77",
                            "inconsistent B+tree node layout"};
  for (uint32_t i = 0; i < 4; ++i) {
    auto guard = pool.FetchRead(*fid, i);
    if (expected[i] == nullptr) {
      ASSERT_TRUE(guard.ok()) << guard.status().ToString();
      continue;
    }
    ASSERT_FALSE(guard.ok()) << "page " << i;
    EXPECT_EQ(guard.status().sqlstate(), "XX001");
    EXPECT_EQ(guard.status().message(),
              std::string(expected[i]) + " in file \"" + path + "\" page " + std::to_string(i));
  }
  ExpectNoPins(pool);
}

TEST(BufferPoolTest, WriteFaultsSurfaceAsErrors) {
  TempDir dir;
  FaultInjectionFileSystem fs(FileSystem::Default());
  BufferPool pool(4, &fs);
  auto fid = OpenFile(&pool, dir.File("data"));
  ASSERT_TRUE(fid.ok());
  for (uint32_t i = 0; i < 4; ++i) {
    auto guard = pool.NewPage(*fid);
    ASSERT_TRUE(guard.ok());
    Store32(guard->data() + kTagAt, i);
  }
  fs.SetFailWrites(true);
  Status st = pool.FlushFile(*fid);
  EXPECT_EQ(st.sqlstate(), "58030");
  auto evicting = pool.NewPage(*fid);  // needs a dirty victim written back
  ASSERT_FALSE(evicting.ok());
  EXPECT_EQ(evicting.status().sqlstate(), "58030");
  ExpectNoPins(pool);
  fs.SetFailWrites(false);
  ASSERT_TRUE(pool.FlushFile(*fid).ok());
  for (uint32_t i = 0; i < pool.PageCount(*fid); ++i) {
    auto guard = pool.FetchRead(*fid, i);
    ASSERT_TRUE(guard.ok());
    if (i < 4) {
      EXPECT_EQ(Load32(guard->data() + kTagAt), i);
    }
  }
  ExpectNoPins(pool);
}

// A checkpoint's FlushFile must not take a page that a commit batch copied (clean, its io
// held) as written: the batch may still fail, leaving the page dirty and not on disk, while the
// checkpoint goes on to write index images naming versions on that page. FlushFile waits for
// such a write and writes the page itself when the write failed.
TEST(BufferPoolTest, FlushFileWritesAPageWhoseConcurrentBatchFailed) {
  TempDir dir;
  BufferPool pool(16);
  auto dw = Doublewrite::Open(pool.file_system(), dir.File("doublewrite"), dir.path());
  ASSERT_TRUE(dw.ok()) << dw.status().ToString();
  pool.EnableDoublewrite(std::move(dw).value());
  auto fid = OpenFile(&pool, dir.File("data"));
  ASSERT_TRUE(fid.ok());
  {
    auto guard = pool.NewPage(*fid);
    ASSERT_TRUE(guard.ok());
    Store32(guard->data() + kTagAt, 1);
  }
  ASSERT_TRUE(pool.FlushFile(*fid).ok());
  {
    auto guard = pool.FetchWrite(*fid, 0);
    ASSERT_TRUE(guard.ok());
    Store32(guard->data() + kTagAt, 2);
  }
  // The batch's writer stops after copying the page (before_write runs with its io held) and
  // then fails; later calls (FlushFile's own write) pass.
  std::promise<void> batch_holds_page, batch_may_fail;
  std::shared_future<void> may_fail = batch_may_fail.get_future().share();
  std::atomic<int> calls{0};
  pool.SetNoSteal(*fid, [&]() -> Status {
    if (calls.fetch_add(1) != 0) return Status::Ok();
    batch_holds_page.set_value();
    may_fail.wait();
    return Status::IOError("injected failure of the batch");
  });
  Status batch_status, flush_status;
  std::thread batch([&] { batch_status = pool.FlushGroupPages({{*fid, {0}}}, {}, {}, nullptr); });
  batch_holds_page.get_future().wait();
  std::atomic<bool> flushed{false};
  std::thread flush([&] {
    flush_status = pool.FlushFile(*fid);
    flushed = true;
  });
  for (int i = 0; i < 40 && !flushed; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  batch_may_fail.set_value();
  batch.join();
  flush.join();
  EXPECT_FALSE(batch_status.ok());
  ASSERT_TRUE(flush_status.ok()) << flush_status.ToString();
  std::ifstream in(dir.File("data"), std::ios::binary);
  char tag[4];
  in.seekg(kTagAt);
  ASSERT_TRUE(in.read(tag, 4));
  EXPECT_EQ(Load32(tag), 2u) << "the page FlushFile returned for is not on disk";
  ExpectNoPins(pool);
}

TEST(BufferPoolTest, ConcurrentReadersAndWriters) {
  TempDir dir;
  BufferPool pool(16);
  auto fid = OpenFile(&pool, dir.File("data"));
  ASSERT_TRUE(fid.ok());
  constexpr uint32_t kPages = 200;
  for (uint32_t i = 0; i < kPages; ++i) {
    auto guard = pool.NewPage(*fid);
    ASSERT_TRUE(guard.ok());
    Store32(guard->data() + kTagAt, i);
  }
  constexpr int kThreads = 4;
  constexpr int kIncrementsPerThread = 3000;
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      std::mt19937 rng(t);
      for (int i = 0; i < kIncrementsPerThread; ++i) {
        uint32_t p = rng() % kPages;
        {
          auto guard = pool.FetchWrite(*fid, p);
          if (!guard.ok()) {
            ++failures;
            continue;
          }
          Store32(guard->data() + kCounterAt, Load32(guard->data() + kCounterAt) + 1);
        }
        auto r = pool.FetchRead(*fid, rng() % kPages);
        if (!r.ok() || Load32(r->data() + kTagAt) != r->page_no()) ++failures;
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(failures.load(), 0);
  ExpectNoPins(pool);
  uint64_t total = 0;
  for (uint32_t i = 0; i < kPages; ++i) {
    auto guard = pool.FetchRead(*fid, i);
    ASSERT_TRUE(guard.ok());
    total += Load32(guard->data() + kCounterAt);
  }
  EXPECT_EQ(total, uint64_t{kThreads} * kIncrementsPerThread);
}

}  // namespace
}  // namespace meridian::storage
