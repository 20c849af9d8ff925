// Doublewrite: batches take the kAreas areas in turn; Recover writes each page's newest intact
// image back over a page that differs, so a page staged in several batches ends with its newest
// image, a page lost past the end of its file comes back, a torn copy gives way to an older
// intact one, the areas are empty afterwards, and pages Forget names are never put back. A
// commit record riding in a batch is handed to Recover's keeper only when every image of its
// batch is intact (oldest batch first), and before the areas are cleared.
#include "storage/doublewrite.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "storage/page.h"
#include "temp_dir.h"

namespace meridian::storage {
namespace {

using testutil::TempDir;

std::string Image(char fill) {
  std::string page(kPageSize, fill);
  SetPageChecksum(page.data());
  return page;
}

std::string ReadPage(FileSystem* fs, const std::string& path, uint32_t page_no) {
  auto f = fs->Open(path, false);
  EXPECT_TRUE(f.ok());
  std::string page(kPageSize, '\0');
  size_t got = 0;
  EXPECT_TRUE((*f)->ReadAt(uint64_t{page_no} * kPageSize, kPageSize, page.data(), &got).ok());
  page.resize(got);
  return page;
}

// A data directory with t.heap holding one durable page of 'a'.
class DoublewriteTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto opened = fs->Open(data + "/t.heap", true);
    ASSERT_TRUE(opened.ok());
    table = std::move(opened).value();
    ASSERT_TRUE(table->WriteAt(0, Image('a')).ok());
    ASSERT_TRUE(table->Sync().ok());
  }
  TempDir dir;
  FileSystem* fs = FileSystem::Default();
  const std::string data = dir.path();
  const std::string dw_path = data + "/doublewrite";
  std::unique_ptr<File> table;
};

TEST_F(DoublewriteTest, RecoverAppliesTheNewestImageOfEachPage) {
  {
    auto dw = Doublewrite::Open(fs, dw_path, data);
    ASSERT_TRUE(dw.ok());
    // More batches than areas: the first ones are overwritten, the last kAreas stay.
    for (int i = 0; i < Doublewrite::kAreas + 3; ++i) {
      const std::string p0 = Image(static_cast<char>('b' + i));
      std::vector<Doublewrite::Image> batch = {{table.get(), 0, p0.data()}};
      const std::string p1 = Image('z');
      if (i == 4) batch.push_back({table.get(), 1, p1.data()});  // page 1 only in batch 4
      EXPECT_EQ((*dw)->next_area(), i % Doublewrite::kAreas);
      ASSERT_TRUE((*dw)->Stage(batch).ok());
    }
  }
  // The in-place writes were lost: the file still has page 0 = 'a' and no page 1.
  auto restored = Doublewrite::Recover(fs, dw_path, data);
  ASSERT_TRUE(restored.ok());
  // Page 0 once (the newest of the kAreas batches still held), page 1 from batch 4.
  EXPECT_EQ(*restored, 2u);
  EXPECT_EQ(ReadPage(fs, data + "/t.heap", 0), Image(static_cast<char>('b' + Doublewrite::kAreas + 2)));
  EXPECT_EQ(ReadPage(fs, data + "/t.heap", 1), Image('z'));
  // The areas are empty now: a second recovery restores nothing.
  ASSERT_TRUE(table->WriteAt(0, Image('q')).ok());
  auto again = Doublewrite::Recover(fs, dw_path, data);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*again, 0u);
  EXPECT_EQ(ReadPage(fs, data + "/t.heap", 0), Image('q'));
}

TEST_F(DoublewriteTest, ATornCopyIsSkippedAndAnOlderIntactOneStillApplies) {
  {
    auto dw = Doublewrite::Open(fs, dw_path, data);
    ASSERT_TRUE(dw.ok());
    const std::string older = Image('o'), newer = Image('n');
    ASSERT_TRUE((*dw)->Stage({{table.get(), 0, older.data()}}).ok());  // area 0
    ASSERT_TRUE((*dw)->Stage({{table.get(), 0, newer.data()}}).ok());  // area 1
  }
  // Tear area 1's image (its header stays valid): only the older copy can be used.
  auto dwf = fs->Open(dw_path, false);
  ASSERT_TRUE(dwf.ok());
  const uint64_t area1_image = (64 * 1024 + Doublewrite::kMaxPages * kPageSize) + 64 * 1024;
  ASSERT_TRUE((*dwf)->WriteAt(area1_image + 100, std::string(16, 'X')).ok());
  auto restored = Doublewrite::Recover(fs, dw_path, data);
  ASSERT_TRUE(restored.ok());
  EXPECT_EQ(*restored, 1u);
  EXPECT_EQ(ReadPage(fs, data + "/t.heap", 0), Image('o'));
}

// A checkpoint writes index pages in place without the area (its journal protects them): the
// images the area held of them, in any area, must not come back over the newer pages at the
// next start, while the images of other pages still do.
TEST_F(DoublewriteTest, ForgottenPagesAreNotPutBack) {
  {
    auto dw = Doublewrite::Open(fs, dw_path, data);
    ASSERT_TRUE(dw.ok());
    const std::string a1 = Image('1'), a2 = Image('2'), b = Image('b');
    ASSERT_TRUE((*dw)->Stage({{table.get(), 0, a1.data()}, {table.get(), 1, b.data()}}).ok());
    ASSERT_TRUE((*dw)->Stage({{table.get(), 0, a2.data()}}).ok());
    ASSERT_TRUE((*dw)->Forget(table.get(), {0}).ok());
    // Forgetting again (the entries are disabled already) changes nothing.
    ASSERT_TRUE((*dw)->Forget(table.get(), {0}).ok());
  }
  ASSERT_TRUE(table->WriteAt(0, Image('c')).ok());  // the checkpoint's newer page 0
  auto restored = Doublewrite::Recover(fs, dw_path, data);
  ASSERT_TRUE(restored.ok());
  EXPECT_EQ(*restored, 1u);  // page 1 only
  EXPECT_EQ(ReadPage(fs, data + "/t.heap", 0), Image('c'));
  EXPECT_EQ(ReadPage(fs, data + "/t.heap", 1), Image('b'));
}

TEST_F(DoublewriteTest, RecordsOfWholeBatchesAreKeptOldestFirst) {
  {
    auto dw = Doublewrite::Open(fs, dw_path, data);
    ASSERT_TRUE(dw.ok());
    const std::string p0 = Image('x'), p1 = Image('y'), p2 = Image('z');
    bool embedded = false;
    ASSERT_TRUE((*dw)->Stage({{table.get(), 0, p0.data()}}, "first", &embedded).ok());  // area 0
    EXPECT_TRUE(embedded);
    ASSERT_TRUE((*dw)->Stage({{table.get(), 1, p1.data()}}, "second", &embedded).ok());  // 1
    ASSERT_TRUE((*dw)->Stage({{table.get(), 2, p2.data()}}, "torn", &embedded).ok());  // 2
    ASSERT_TRUE((*dw)->Stage({{table.get(), 3, p2.data()}}).ok());  // area 3: no record
    // A record the header cannot hold is not embedded (the caller syncs the log instead).
    ASSERT_TRUE(
        (*dw)->Stage({{table.get(), 4, p2.data()}}, std::string(70 * 1024, 'r'), &embedded).ok());
    EXPECT_FALSE(embedded);
  }
  // Tear area 2's image: its batch is not whole, so its record never committed.
  auto dwf = fs->Open(dw_path, false);
  ASSERT_TRUE(dwf.ok());
  const uint64_t area_bytes = 64 * 1024 + Doublewrite::kMaxPages * kPageSize;
  ASSERT_TRUE((*dwf)->WriteAt(2 * area_bytes + 64 * 1024 + 100, std::string(16, 'X')).ok());
  std::vector<std::string> kept;
  auto restored = Doublewrite::Recover(fs, dw_path, data, [&](const std::vector<std::string>& r) {
    kept = r;
    return Status::Ok();
  });
  ASSERT_TRUE(restored.ok());
  EXPECT_EQ(kept, (std::vector<std::string>{"first", "second"}));
  EXPECT_EQ(ReadPage(fs, data + "/t.heap", 1), Image('y'));
  // A keeper that fails leaves the areas as they were: the next start tries again.
  kept.clear();
  {
    auto dw = Doublewrite::Open(fs, dw_path, data);
    ASSERT_TRUE(dw.ok());
    const std::string p = Image('w');
    ASSERT_TRUE((*dw)->Stage({{table.get(), 0, p.data()}}, "again").ok());
  }
  EXPECT_FALSE(Doublewrite::Recover(fs, dw_path, data, [](const std::vector<std::string>&) {
                 return Status::IOError("log unavailable");
               }).ok());
  ASSERT_TRUE(Doublewrite::Recover(fs, dw_path, data, [&](const std::vector<std::string>& r) {
                kept = r;
                return Status::Ok();
              }).ok());
  EXPECT_EQ(kept, (std::vector<std::string>{"again"}));
  // Cleared afterwards: nothing is kept twice.
  kept.clear();
  ASSERT_TRUE(Doublewrite::Recover(fs, dw_path, data, [&](const std::vector<std::string>& r) {
                kept = r;
                return Status::Ok();
              }).ok());
  EXPECT_TRUE(kept.empty());
}

}  // namespace
}  // namespace meridian::storage
