// An R*-tree and a B+tree in one small buffer pool, written in turn (their pages evict each
// other's): both still pass Verify and hold every entry — the R-tree never writes into a frame
// that belongs to another file.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <thread>

#include "storage/btree.h"
#include "storage/rtree.h"
#include "temp_dir.h"

namespace meridian::storage {
namespace {

std::string BigEndian(uint64_t v) {
  std::string out(8, '\0');
  for (int i = 0; i < 8; ++i) out[i] = static_cast<char>(v >> (56 - 8 * i));
  return out;
}

TEST(RTreeSharedPoolTest, RTreeAndBTreeInOneSmallPoolBothVerify) {
  testutil::TempDir dir;
  BufferPool pool(24);
  auto r = RTree::Open(&pool, dir.File("r.idx"), {.dims = 2});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  auto b = BTree::Open(&pool, dir.File("b.idx"));
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  std::mt19937_64 rng(5);
  constexpr uint32_t kRows = 40000;
  std::thread writer([&] {
    for (uint32_t i = 0; i < kRows; ++i) {
      double p[2] = {static_cast<double>(rng() % 100000) / 100, static_cast<double>(rng() % 1000)};
      ASSERT_TRUE((*r)->Insert(Box::Point(p), Rid{i / 100, static_cast<uint16_t>(i % 100)}).ok());
    }
  });
  for (uint32_t i = 0; i < kRows; ++i) {
    ASSERT_TRUE((*b)->Insert(BigEndian(i * 2654435761u % 1000003), BigEndian(i)).ok());
  }
  writer.join();
  auto rs = (*r)->Verify();
  ASSERT_TRUE(rs.ok()) << rs.status().ToString();
  EXPECT_EQ(rs->entries, kRows);
  auto bs = (*b)->Verify();
  ASSERT_TRUE(bs.ok()) << bs.status().ToString();
  EXPECT_EQ(bs->entries, kRows);
}

}  // namespace
}  // namespace meridian::storage
