// PageJournal (all-or-nothing page images) and the buffer pool's no-steal files and checkpoint
// snapshots, the two halves of the index checkpoint (docs/txn.md section 5).
#include "storage/page_journal.h"

#include <gtest/gtest.h>

#include <cstring>
#include <functional>

#include "storage/buffer_pool.h"
#include "storage/page.h"
#include "temp_dir.h"

namespace meridian::storage {
namespace {

using testutil::TempDir;

std::string PageOf(char fill) {
  std::string page(kPageSize, fill);
  return page;
}

std::string ReadPageAt(const std::string& path, uint32_t page_no) {
  auto file = FileSystem::Default()->Open(path, false);
  EXPECT_TRUE(file.ok());
  std::string buf(kPageSize, '\0');
  size_t got = 0;
  EXPECT_TRUE((*file)->ReadAt(uint64_t{page_no} * kPageSize, kPageSize, buf.data(), &got).ok());
  buf.resize(got);
  return buf;
}

void WritePageAt(const std::string& path, uint32_t page_no, const std::string& bytes) {
  auto file = FileSystem::Default()->Open(path, true);
  ASSERT_TRUE(file.ok());
  ASSERT_TRUE((*file)->WriteAt(uint64_t{page_no} * kPageSize, bytes).ok());
}

TEST(PageJournalTest, CompleteJournalIsReplayedOnceAndTornOneIgnored) {
  TempDir dir;
  FileSystem* fs = FileSystem::Default();
  const std::string a = dir.File("a"), b = dir.File("b"), journal = dir.File("journal");
  const std::string pa0 = PageOf('x'), pa2 = PageOf('y'), pb1 = PageOf('z');
  WritePageAt(a, 2, PageOf('o'));
  WritePageAt(b, 1, PageOf('o'));
  ASSERT_TRUE(PageJournal::Write(fs, journal, dir.path(),
                                 {{a, 0, pa0.data()}, {a, 2, pa2.data()}, {b, 1, pb1.data()}})
                  .ok());
  // The crash came before (or during) the in-place writes: recovery puts all of them there.
  auto applied = PageJournal::Recover(fs, journal, dir.path());
  ASSERT_TRUE(applied.ok()) << applied.status().ToString();
  EXPECT_EQ(*applied, 3u);
  EXPECT_EQ(ReadPageAt(a, 0), pa0);
  EXPECT_EQ(ReadPageAt(a, 2), pa2);
  EXPECT_EQ(ReadPageAt(b, 1), pb1);
  // Emptied: a later start never replays these images over newer pages.
  WritePageAt(a, 0, PageOf('n'));
  applied = PageJournal::Recover(fs, journal, dir.path());
  ASSERT_TRUE(applied.ok());
  EXPECT_EQ(*applied, 0u);
  EXPECT_EQ(ReadPageAt(a, 0), PageOf('n'));

  // A journal whose in-place writes all completed writes nothing again.
  ASSERT_TRUE(PageJournal::Write(fs, journal, dir.path(), {{b, 1, pb1.data()}}).ok());
  applied = PageJournal::Recover(fs, journal, dir.path());
  ASSERT_TRUE(applied.ok());
  EXPECT_EQ(*applied, 0u);

  // A journal torn anywhere (here: one byte of an image changed, or cut short) changes nothing.
  auto expect_torn_ignored = [&](const std::function<Status(File*)>& tear) {
    ASSERT_TRUE(PageJournal::Write(fs, journal, dir.path(), {{a, 0, pa0.data()}}).ok());
    {
      auto file = fs->Open(journal, false);
      ASSERT_TRUE(file.ok());
      ASSERT_TRUE(tear(file->get()).ok());
    }
    auto torn = PageJournal::Recover(fs, journal, dir.path());
    ASSERT_TRUE(torn.ok());
    EXPECT_EQ(*torn, 0u);
    EXPECT_EQ(ReadPageAt(a, 0), PageOf('n'));
  };
  expect_torn_ignored([](File* f) { return f->WriteAt(20 + 100, "!"); });
  expect_torn_ignored([](File* f) { return f->Truncate(20 + kPageSize / 2); });

  // Images of a file removed since are skipped; an absent journal is empty.
  ASSERT_TRUE(
      PageJournal::Write(fs, journal, dir.path(), {{dir.File("gone"), 0, pa0.data()}}).ok());
  applied = PageJournal::Recover(fs, journal, dir.path());
  ASSERT_TRUE(applied.ok());
  EXPECT_FALSE(*fs->Exists(dir.File("gone")));
  applied = PageJournal::Recover(fs, dir.File("none"), dir.path());
  ASSERT_TRUE(applied.ok());
  EXPECT_EQ(*applied, 0u);
}

TEST(NoStealTest, DirtyPagesStayUntilNothingElseCanBeEvictedAndSnapshotsWriteThem) {
  TempDir dir;
  BufferPool pool(8);
  auto file = pool.file_system()->Open(dir.File("index"), true);
  ASSERT_TRUE(file.ok());
  auto fid = pool.RegisterFile(std::move(file).value());
  ASSERT_TRUE(fid.ok());
  auto other_file = pool.file_system()->Open(dir.File("heap"), true);
  ASSERT_TRUE(other_file.ok());
  auto other = pool.RegisterFile(std::move(other_file).value());
  ASSERT_TRUE(other.ok());
  int hook_calls = 0;
  pool.SetNoSteal(*fid, [&] {
    ++hook_calls;
    return Status::Ok();
  });
  // Four dirty no-steal pages, then many pages of another file through the other frames:
  // eviction passes over the dirty no-steal ones.
  for (uint32_t i = 0; i < 4; ++i) {
    auto g = pool.NewPage(*fid);
    ASSERT_TRUE(g.ok());
    std::memset(g->data() + kPageHeaderSize, 'a' + static_cast<int>(i), 16);
  }
  for (uint32_t i = 0; i < 100; ++i) {
    auto g = pool.NewPage(*other);
    ASSERT_TRUE(g.ok()) << g.status().ToString();
  }
  EXPECT_EQ(hook_calls, 0);
  // A snapshot takes all four, writes them in place, and they are clean afterwards.
  auto snap = pool.SnapshotDirty(*fid, 16);
  ASSERT_TRUE(snap.ok()) << snap.status().ToString();
  EXPECT_EQ(snap->pages, (std::vector<uint32_t>{0, 1, 2, 3}));
  ASSERT_TRUE(pool.WriteSnapshot(*snap).ok());
  pool.ReleaseSnapshot(&*snap, /*written=*/true);
  EXPECT_EQ(pool.PinnedCount(), 0u);
  EXPECT_EQ(hook_calls, 0);
  const std::string on_disk = ReadPageAt(dir.File("index"), 2);
  ASSERT_EQ(on_disk.size(), kPageSize);
  EXPECT_EQ(on_disk[kPageHeaderSize], 'c');
  EXPECT_TRUE(VerifyPageChecksum(on_disk.data()));
  // Too many dirty pages for the limit: nothing is taken.
  for (uint32_t i = 0; i < 6; ++i) {
    auto g = pool.FetchWrite(*fid, i % 4);
    ASSERT_TRUE(g.ok());
  }
  auto big = pool.SnapshotDirty(*fid, 2);
  ASSERT_FALSE(big.ok());
  EXPECT_EQ(big.status().sqlstate(), "53000");
  EXPECT_EQ(pool.PinnedCount(), 0u);
  // When every frame but the dirty no-steal ones is pinned, eviction writes one, calling the
  // hook first; a failed snapshot leaves the pages dirty.
  std::vector<WritePageGuard> held;
  for (uint32_t i = 0; i < 4; ++i) {
    auto g = pool.NewPage(*other);
    ASSERT_TRUE(g.ok()) << g.status().ToString();
    held.push_back(std::move(g).value());
  }
  auto g = pool.NewPage(*other);
  ASSERT_TRUE(g.ok()) << g.status().ToString();
  EXPECT_GE(hook_calls, 1);
  g->Release();
  held.clear();
  ASSERT_TRUE(pool.FlushAll().ok());
}

}  // namespace
}  // namespace meridian::storage
