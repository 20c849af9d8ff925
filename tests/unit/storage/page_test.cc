// SlottedPage: insert/get/update/delete, slot reuse, compaction on fragmentation, CRC32C
// vectors and page checksums.
#include "storage/page.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <string>
#include <vector>

#include "storage/crc32c.h"

namespace meridian::storage {
namespace {

TEST(Crc32cTest, KnownVectors) {
  EXPECT_EQ(Crc32c("123456789", 9), 0xE3069283u);
  EXPECT_EQ(Crc32c("", 0), 0u);
  std::string zeros(32, '\0');
  EXPECT_EQ(Crc32c(zeros.data(), zeros.size()), 0x8A9136AAu);
  // Extending in pieces equals one pass.
  std::string s = "The quick brown fox jumps over the lazy dog, twice over.";
  uint32_t part = Crc32cExtend(Crc32c(s.data(), 10), s.data() + 10, s.size() - 10);
  EXPECT_EQ(part, Crc32c(s.data(), s.size()));
}

// Crc32cExtend may use the CPU's crc32 instruction; it must equal the portable one at every
// length, alignment and starting value.
TEST(Crc32cTest, Crc32cExtendMatchesPortable) {
  std::mt19937 rng(5);
  std::vector<unsigned char> buf(kPageSize + 16);
  for (auto& b : buf) b = static_cast<unsigned char>(rng());
  for (size_t n : {size_t{0}, size_t{1}, size_t{7}, size_t{8}, size_t{9}, size_t{63}, size_t{64},
                   size_t{1000}, size_t{kPageSize}}) {
    for (size_t offset = 0; offset < 9; ++offset) {
      const uint32_t start = offset == 0 ? 0 : static_cast<uint32_t>(rng());
      EXPECT_EQ(Crc32cExtend(start, buf.data() + offset, n),
                Crc32cExtendPortable(start, buf.data() + offset, n))
          << n << " " << offset;
    }
  }
  EXPECT_EQ(Crc32cExtendPortable(0, "123456789", 9), 0xE3069283u);
}

// ComputePageChecksum may use the CPU's crc32 instruction; it must equal the portable Crc32c.
TEST(Crc32cTest, PageChecksumMatchesPortableCrc32c) {
  std::mt19937 rng(11);
  std::vector<char> buf(kPageSize);
  for (int round = 0; round < 50; ++round) {
    for (auto& b : buf) b = static_cast<char>(rng());
    EXPECT_EQ(ComputePageChecksum(buf.data()), Crc32c(buf.data() + 4, kPageSize - 4)) << round;
  }
}

TEST(PageTest, ZeroPageIsValidAndEmpty) {
  std::vector<char> buf(kPageSize, 0);
  EXPECT_TRUE(VerifyPageChecksum(buf.data()));
  SlottedPage page(buf.data());
  EXPECT_FALSE(page.IsInitialized());
  EXPECT_EQ(page.slot_count(), 0);
  EXPECT_FALSE(page.Get(0).has_value());
  EXPECT_TRUE(page.IsConsistent());
}

TEST(PageTest, ChecksumDetectsFlippedBytes) {
  std::vector<char> buf(kPageSize, 0);
  SlottedPage page(buf.data());
  page.Init(PageType::kHeap, 7);
  ASSERT_TRUE(page.Insert("hello").has_value());
  SetPageChecksum(buf.data());
  EXPECT_TRUE(VerifyPageChecksum(buf.data()));
  for (size_t pos : {size_t{0}, size_t{5}, size_t{100}, kPageSize - 1}) {
    buf[pos] ^= 0x10;
    EXPECT_FALSE(VerifyPageChecksum(buf.data())) << pos;
    buf[pos] ^= 0x10;
  }
}

TEST(PageTest, InsertGetUpdateDelete) {
  std::vector<char> buf(kPageSize, 0);
  SlottedPage page(buf.data());
  page.Init(PageType::kHeap, 0);
  EXPECT_EQ(page.FreeSpaceForInsert(), kMaxTupleSize);
  auto a = page.Insert("alpha");
  auto b = page.Insert("");
  auto c = page.Insert("gamma");
  ASSERT_TRUE(a && b && c);
  EXPECT_EQ(*page.Get(*a), "alpha");
  EXPECT_EQ(*page.Get(*b), "");
  EXPECT_TRUE(page.Update(*a, "al"));
  EXPECT_EQ(*page.Get(*a), "al");
  EXPECT_TRUE(page.Update(*a, "a much longer alpha value"));
  EXPECT_EQ(*page.Get(*a), "a much longer alpha value");
  EXPECT_EQ(*page.Get(*c), "gamma");
  EXPECT_TRUE(page.IsConsistent());
  EXPECT_TRUE(page.Delete(*b));
  EXPECT_FALSE(page.Delete(*b));
  EXPECT_FALSE(page.Get(*b).has_value());
  auto d = page.Insert("delta");  // reuses the empty slot
  ASSERT_TRUE(d);
  EXPECT_EQ(*d, *b);
  EXPECT_TRUE(page.Delete(*c));  // trailing slot is trimmed
  EXPECT_EQ(page.slot_count(), 2);
  EXPECT_TRUE(page.IsConsistent());
  EXPECT_FALSE(page.Get(100).has_value());
}

TEST(PageTest, FillsAndRejectsTooLarge) {
  std::vector<char> buf(kPageSize, 0);
  SlottedPage page(buf.data());
  page.Init(PageType::kHeap, 0);
  EXPECT_FALSE(page.Insert(std::string(kMaxTupleSize + 1, 'x')).has_value());
  auto s = page.Insert(std::string(kMaxTupleSize, 'x'));
  ASSERT_TRUE(s);
  EXPECT_EQ(page.FreeSpaceForInsert(), 0u);
  EXPECT_FALSE(page.Insert("").has_value());
  EXPECT_TRUE(page.Delete(*s));
  EXPECT_EQ(page.FreeSpaceForInsert(), kMaxTupleSize);
}

TEST(PageTest, CompactionReclaimsFragmentedSpace) {
  std::vector<char> buf(kPageSize, 0);
  SlottedPage page(buf.data());
  page.Init(PageType::kHeap, 0);
  std::vector<uint16_t> slots;
  for (;;) {
    auto s = page.Insert(std::string(100, static_cast<char>('a' + slots.size() % 26)));
    if (!s) break;
    slots.push_back(*s);
  }
  ASSERT_GT(slots.size(), 70u);
  // Free every other tuple: lots of free bytes, none contiguous.
  for (size_t i = 0; i < slots.size(); i += 2) ASSERT_TRUE(page.Delete(slots[i]));
  ASSERT_TRUE(page.IsConsistent());
  // A 1000-byte tuple only fits after compaction.
  auto big = page.Insert(std::string(1000, 'Z'));
  ASSERT_TRUE(big);
  EXPECT_TRUE(page.IsConsistent());
  EXPECT_EQ(*page.Get(*big), std::string(1000, 'Z'));
  for (size_t i = 1; i < slots.size(); i += 2) {
    EXPECT_EQ(*page.Get(slots[i]), std::string(100, static_cast<char>('a' + i % 26))) << i;
  }
  // Growing a tuple in place can compact too.
  EXPECT_TRUE(page.Update(slots[1], std::string(2000, 'Q')));
  EXPECT_EQ(*page.Get(slots[1]), std::string(2000, 'Q'));
  EXPECT_TRUE(page.IsConsistent());
}

TEST(PageTest, RandomOpsAgainstModel) {
  std::mt19937 rng(42);
  std::vector<char> buf(kPageSize, 0);
  SlottedPage page(buf.data());
  page.Init(PageType::kHeap, 3);
  std::map<uint16_t, std::string> model;
  for (int step = 0; step < 20000; ++step) {
    int op = static_cast<int>(rng() % 3);
    std::string value(rng() % 300, static_cast<char>('a' + rng() % 26));
    if (op == 0 || model.empty()) {
      if (auto s = page.Insert(value)) {
        ASSERT_FALSE(model.count(*s));
        // The lowest empty slot is reused (the kPageFlagNoEmptySlot hint never hides a hole).
        uint16_t lowest = 0;
        while (model.count(lowest)) ++lowest;
        ASSERT_EQ(*s, lowest) << step;
        model[*s] = value;
      }
    } else {
      auto it = model.begin();
      std::advance(it, rng() % model.size());
      if (op == 1) {
        if (page.Update(it->first, value)) it->second = value;
      } else {
        ASSERT_TRUE(page.Delete(it->first));
        model.erase(it);
      }
    }
    ASSERT_TRUE(page.IsConsistent()) << step;
  }
  for (const auto& [slot, value] : model) EXPECT_EQ(*page.Get(slot), value);
}

}  // namespace
}  // namespace meridian::storage
