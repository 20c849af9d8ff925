// BTree: point operations, size limits, unique violations, randomized inserts/deletes/lookups/
// range scans checked against std::map / std::set with Verify() every few hundred steps (3+
// levels, splits and merges, a 64-frame pool forcing eviction, reopen mid-run), bulk build,
// and codec-encoded prefix scans. MERIDIAN_BTREE_OPS scales the op counts (default 1,000,000).
#include "storage/btree.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <random>
#include <set>

#include "btree_test_util.h"
#include "storage/btree_page.h"
#include "storage/key_codec.h"
#include "temp_dir.h"

namespace meridian::storage {
namespace {

using testutil::TempDir;

TEST(BTreeTest, InsertLookupDeleteSmall) {
  TempDir dir;
  BufferPool pool(16);
  auto tree = BTree::Open(&pool, dir.File("t.idx"), {.unique = true});
  ASSERT_TRUE(tree.ok()) << tree.status().ToString();
  BTree& t = **tree;
  ASSERT_OK(t.Insert("b", "2"));
  ASSERT_OK(t.Insert("a", "1"));
  ASSERT_OK(t.Insert("c", "3"));
  auto v = t.Lookup("b");
  ASSERT_TRUE(v.ok());
  ASSERT_EQ(*v, std::vector<std::string>{"2"});
  EXPECT_TRUE(t.Lookup("zz")->empty());
  EXPECT_FALSE(*t.Delete("b", "wrong"));
  EXPECT_TRUE(*t.Delete("b", "2"));
  EXPECT_FALSE(*t.Delete("b", "2"));
  EXPECT_TRUE(t.Lookup("b")->empty());
  ASSERT_OK(t.Verify(true).status());
  EXPECT_EQ(t.Verify()->entries, 2u);
}

TEST(BTreeTest, UniqueViolationAndLimits) {
  TempDir dir;
  BufferPool pool(16);
  auto tree = BTree::Open(&pool, dir.File("t.idx"), {.unique = true});
  ASSERT_TRUE(tree.ok());
  BTree& t = **tree;
  ASSERT_OK(t.Insert("k", "1"));
  Status st = t.Insert("k", "2");
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.sqlstate(), "23505");
  st = t.Insert(std::string(BTree::kMaxKeySize + 1, 'x'), "1");
  EXPECT_EQ(st.sqlstate(), "54000");
  st = t.Insert("v", std::string(BTree::kMaxValueSize + 1, 'x'));
  EXPECT_EQ(st.sqlstate(), "54000");
  ASSERT_OK(t.Insert(std::string(BTree::kMaxKeySize, 'y'), std::string(BTree::kMaxValueSize, 'v')));
  ASSERT_OK(t.Verify(true).status());
}

TEST(BTreeTest, NonUniqueDuplicatesAndReopenKeepsUniqueFlag) {
  TempDir dir;
  std::string path = dir.File("t.idx");
  {
    BufferPool pool(16);
    auto tree = BTree::Open(&pool, path, {.unique = false});
    ASSERT_TRUE(tree.ok());
    for (int i = 9; i >= 0; --i) ASSERT_OK((*tree)->Insert("dup", std::to_string(i)));
    ASSERT_OK((*tree)->Insert("dup", "3"));  // same pair again: no-op
    auto v = (*tree)->Lookup("dup");
    ASSERT_EQ(v->size(), 10u);
    EXPECT_EQ((*v)[0], "0");
    EXPECT_EQ((*v)[9], "9");
    ASSERT_OK((*tree)->Close());
  }
  BufferPool pool(16);
  auto tree = BTree::Open(&pool, path, {.unique = true});  // the stored flag wins
  ASSERT_TRUE(tree.ok());
  EXPECT_FALSE((*tree)->unique());
  EXPECT_EQ((*tree)->Lookup("dup")->size(), 10u);
  ASSERT_OK((*tree)->Verify(true).status());
}

// Big-endian 8-byte key, as bench_access and key_codec integers use.
std::string BigEndianKey(uint64_t v, size_t width = 8) {
  std::string k(width, '\0');
  for (size_t i = 0; i < 8 && i < width; ++i) k[7 - i] = static_cast<char>((v >> (8 * i)) & 0xff);
  return k;
}

// Ascending inserts take the rightmost split (README "Insert policy"): every leaf but the last
// is full, at every level, on unique and non-unique trees, and the tree stays valid; small
// values then long keys (internal nodes of a few children, 4+ levels).
TEST(BTreeTest, AscendingInsertsFillPages) {
  for (bool unique : {true, false}) {
    for (size_t width : {size_t{8}, size_t{1000}}) {
      TempDir dir;
      BufferPool pool(256);
      auto tree = BTree::Open(&pool, dir.File("a.idx"), {.unique = unique});
      ASSERT_TRUE(tree.ok());
      const size_t n = width == 8 ? 20000 : 600;
      for (size_t i = 0; i < n; ++i) {
        std::string key = unique ? BigEndianKey(i, width) : BigEndianKey(i / 3, width);
        ASSERT_OK((*tree)->Insert(key, BigEndianKey(i)));
      }
      auto stats = (*tree)->Verify(true);
      ASSERT_TRUE(stats.ok()) << stats.status().ToString();
      EXPECT_EQ(stats->entries, n);
      // Leaf cell: 4-byte header + key + 8-byte value, plus a 2-byte slot.
      const size_t per_leaf = kNodeCapacity / (4 + width + 8 + kNodeSlotSize);
      EXPECT_LE(stats->leaf_pages, (n + per_leaf - 1) / per_leaf) << unique << " " << width;
      if (width == 1000) {
        EXPECT_GE(stats->height, 4u);
      }
      for (size_t i = 0; i < n; i += 97) {
        std::string key = unique ? BigEndianKey(i, width) : BigEndianKey(i / 3, width);
        auto v = (*tree)->Lookup(key);
        ASSERT_TRUE(v.ok());
        EXPECT_EQ(v->size(), unique ? 1u : std::min<size_t>(3, n - i / 3 * 3));
      }
    }
  }
}

// Random inserts share an overflowing leaf with a roomy sibling before splitting: leaves end
// well above the ~69% of 50/50 splits. Descending inserts (never the rightmost append) stay
// correct too.
TEST(BTreeTest, RandomInsertsShareWithSiblings) {
  TempDir dir;
  BufferPool pool(64);  // evicts: shares and splits write through the pool
  auto tree = BTree::Open(&pool, dir.File("r.idx"), {.unique = true});
  ASSERT_TRUE(tree.ok());
  const size_t n = 30000;
  std::vector<uint64_t> ids(n);
  for (size_t i = 0; i < n; ++i) ids[i] = i;
  std::shuffle(ids.begin(), ids.end(), std::mt19937_64(5));
  for (size_t i = 0; i < n; ++i) {
    ASSERT_OK((*tree)->Insert(BigEndianKey(ids[i] * 2), "0123456789abcdefghij"));
    if (i % 5000 == 0) ASSERT_OK((*tree)->Verify(true).status());
  }
  for (size_t i = n; i-- > 0;) ASSERT_OK((*tree)->Insert(BigEndianKey(i * 2 + 1), "x"));
  auto stats = (*tree)->Verify(true);
  ASSERT_TRUE(stats.ok()) << stats.status().ToString();
  EXPECT_EQ(stats->entries, 2 * n);
  size_t k = 0;
  auto cursor = (*tree)->Scan({});
  std::string key, value;
  while (*cursor.Next(&key, &value)) ASSERT_EQ(key, BigEndianKey(k++));
  EXPECT_EQ(k, 2 * n);
}

// Fill after random inserts only (the share policy's purpose): above 75% on average.
TEST(BTreeTest, RandomInsertFill) {
  TempDir dir;
  BufferPool pool(1024);
  auto tree = BTree::Open(&pool, dir.File("f.idx"), {.unique = true});
  ASSERT_TRUE(tree.ok());
  const size_t n = 50000;
  std::vector<uint64_t> ids(n);
  for (size_t i = 0; i < n; ++i) ids[i] = i;
  std::shuffle(ids.begin(), ids.end(), std::mt19937_64(9));
  for (uint64_t id : ids) ASSERT_OK((*tree)->Insert(BigEndianKey(id), "0123456789abcdefghij"));
  auto stats = (*tree)->Verify(true);
  ASSERT_TRUE(stats.ok());
  const double per_leaf = static_cast<double>(kNodeCapacity) / (4 + 8 + 20 + kNodeSlotSize);
  const double fill = static_cast<double>(n) / stats->leaf_pages / per_leaf;
  EXPECT_GT(fill, 0.75) << stats->leaf_pages << " leaves";
}

// Randomized operations against a reference model, growing to 3+ levels, shrinking back
// (merges at every level, root collapse) and growing again; reopen with a fresh pool midway.
struct RandomizedConfig {
  bool unique = true;
  uint64_t seed = 1;
  size_t ops = 0;
  size_t key_space = 12000;
  size_t max_filler = 300;  // key filler bytes (see TestKey)
  size_t grow_to = 6000;    // entries before the shrink phase starts
  std::string big_value;    // appended to every value when set
};

void RunRandomized(const RandomizedConfig& cfg) {
  const bool unique = cfg.unique;
  const size_t ops = cfg.ops;
  TempDir dir;
  std::string path = dir.File("r.idx");
  auto pool = std::make_unique<BufferPool>(64);
  auto opened = BTree::Open(pool.get(), path, {.unique = unique});
  ASSERT_TRUE(opened.ok());
  std::unique_ptr<BTree> tree = std::move(*opened);
  std::mt19937_64 rng(cfg.seed);
  Model model(unique);
  const size_t kKeySpace = cfg.key_space;
  uint32_t max_height = 0;
  bool shrank = false;
  bool growing = true;
  for (size_t step = 0; step < ops; ++step) {
    // Phases: grow to ~6,000 entries, then shrink to ~200, then grow again.
    if (growing && model.size() > cfg.grow_to) growing = false;
    if (!growing && model.size() < 200) growing = true;
    uint64_t r = rng() % 100;
    uint64_t id = rng() % kKeySpace;
    std::string key = TestKey(id, cfg.max_filler);
    std::string value = unique ? TestValue(id) : TestValue(rng() % 4);
    value.append(cfg.big_value);
    if (r < (growing ? 55u : 20u)) {
      Status st = tree->Insert(key, value);
      bool ok = model.Insert(key, value);
      if (ok) {
        ASSERT_TRUE(st.ok()) << st.ToString() << " at step " << step;
      } else {
        ASSERT_FALSE(st.ok()) << "duplicate accepted at step " << step;
        ASSERT_EQ(st.sqlstate(), "23505");
      }
    } else if (r < 85) {
      if (!growing && model.size() > 0) {  // shrinking: delete an entry that exists
        auto it = model.set().lower_bound({key, ""});
        if (it == model.set().end()) it = model.set().begin();
        key = it->first;
        value = it->second;
      }
      auto found = tree->Delete(key, value);
      ASSERT_TRUE(found.ok()) << found.status().ToString();
      ASSERT_EQ(*found, model.Erase(key, value)) << "step " << step;
    } else if (r < 93) {
      auto got = tree->Lookup(key);
      ASSERT_TRUE(got.ok());
      ASSERT_EQ(*got, model.Lookup(key)) << "step " << step;
      std::string first = "stale";
      auto found = tree->LookupFirst(key, &first);
      ASSERT_TRUE(found.ok());
      ASSERT_EQ(*found, !got->empty()) << "step " << step;
      if (*found) {
        ASSERT_EQ(first, got->front()) << "step " << step;
      }
    } else {
      ScanRange range = RandomRange(rng, kKeySpace);
      CheckScan(tree.get(), model, range, 40);
    }
    if (step % VerifyEvery() == 0) {
      auto stats = tree->Verify(true);
      ASSERT_TRUE(stats.ok()) << stats.status().ToString() << " at step " << step;
      ASSERT_EQ(stats->entries, model.size());
      if (stats->height < max_height) shrank = true;
      max_height = std::max(max_height, stats->height);
    }
    if (step == ops / 2) {  // close, drop the pool, reopen from disk
      ASSERT_OK(tree->Close());
      tree.reset();
      pool = std::make_unique<BufferPool>(64);
      auto again = BTree::Open(pool.get(), path, {.unique = unique});
      ASSERT_TRUE(again.ok()) << again.status().ToString();
      tree = std::move(*again);
    }
  }
  auto stats = tree->Verify(true);
  ASSERT_TRUE(stats.ok()) << stats.status().ToString();
  ASSERT_EQ(stats->entries, model.size());
  CheckScan(tree.get(), model, ScanRange{}, SIZE_MAX);
  std::printf("  %zu ops: max height %u, lost a level: %s, %zu entries left\n", ops, max_height,
              shrank ? "yes" : "no", model.size());
  EXPECT_GE(max_height, 3u);
  if (ops >= 100000) {
    EXPECT_TRUE(shrank) << "the tree never lost a level";
  }
  EXPECT_GT(pool->stats().evictions, 0u);
}

RandomizedConfig Config(bool unique, uint64_t seed, size_t ops) {
  RandomizedConfig cfg;
  cfg.unique = unique;
  cfg.seed = seed;
  cfg.ops = ops;
  return cfg;
}

TEST(BTreeTest, RandomizedUnique) { RunRandomized(Config(true, 1, TotalOps() * 40 / 100)); }
TEST(BTreeTest, RandomizedNonUnique) { RunRandomized(Config(false, 2, TotalOps() * 40 / 100)); }

// Keys up to kMaxKeySize and 200-byte values: internal nodes of 4-8 children, 4+ levels.
TEST(BTreeTest, RandomizedLargeKeys) {
  for (bool unique : {true, false}) {
    RandomizedConfig cfg = Config(unique, unique ? 3 : 4, TotalOps() * 5 / 100);
    cfg.key_space = 3000;
    cfg.max_filler = BTree::kMaxKeySize - 3;
    cfg.grow_to = 1500;
    if (!unique) cfg.big_value.assign(200, 'v');
    RunRandomized(cfg);
  }
}

TEST(BTreeTest, BulkBuildThenRandomOps) {
  TempDir dir;
  BufferPool pool(64);
  auto opened = BTree::Open(&pool, dir.File("b.idx"), {.unique = true, .fill_factor = 0.8});
  ASSERT_TRUE(opened.ok());
  BTree& t = **opened;
  Model model(true);
  std::set<std::string> sorted;
  for (uint64_t id = 0; id < 20000; id += 2) sorted.insert(TestKey(id));
  auto it = sorted.begin();
  ASSERT_OK(t.BulkBuild([&](std::string* k, std::string* v) -> Result<bool> {
    if (it == sorted.end()) return false;
    *k = *it++;
    *v = "bulk";
    return true;
  }));
  for (const auto& k : sorted) ASSERT_TRUE(model.Insert(k, "bulk"));
  auto stats = t.Verify(true);
  ASSERT_TRUE(stats.ok()) << stats.status().ToString();
  ASSERT_EQ(stats->entries, model.size());
  EXPECT_GE(stats->height, 3u);
  // A second bulk build needs an empty tree.
  EXPECT_FALSE(t.BulkBuild([](std::string*, std::string*) -> Result<bool> { return false; }).ok());
  std::mt19937_64 rng(3);
  size_t ops = TotalOps() / 10;
  for (size_t step = 0; step < ops; ++step) {
    uint64_t id = rng() % 20000;
    std::string key = TestKey(id);
    uint64_t r = rng() % 10;
    if (r < 4) {
      Status st = t.Insert(key, "x");
      ASSERT_EQ(st.ok(), model.Insert(key, "x"));
    } else if (r < 8) {
      std::string v = model.Lookup(key).empty() ? "x" : model.Lookup(key)[0];
      ASSERT_EQ(*t.Delete(key, v), model.Erase(key, v));
    } else {
      CheckScan(&t, model, RandomRange(rng, 20000), 40);
    }
    if (step % 5000 == 0) {
      auto s = t.Verify(true);
      ASSERT_TRUE(s.ok()) << s.status().ToString();
      ASSERT_EQ(s->entries, model.size());
    }
  }
  ASSERT_OK(t.Verify(true).status());
}

TEST(BTreeTest, BulkBuildRejectsUnsortedInputAndLeavesTreeEmpty) {
  TempDir dir;
  BufferPool pool(64);
  auto opened = BTree::Open(&pool, dir.File("b.idx"), {.unique = true});
  ASSERT_TRUE(opened.ok());
  BTree& t = **opened;
  uint64_t n = 0;
  Status st = t.BulkBuild([&](std::string* k, std::string* v) -> Result<bool> {
    if (n == 5000) return false;
    *k = TestKey(n == 4000 ? 3999 : n);  // a duplicate at 4000
    v->assign(1, 'v');
    ++n;
    return true;
  });
  EXPECT_EQ(st.sqlstate(), "23505");
  auto s = t.Verify(true);
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ(s->entries, 0u);
  ASSERT_OK(t.Insert("a", "b"));
}

TEST(BTreeTest, PrefixScanOverEncodedCompositeKeys) {
  TempDir dir;
  BufferPool pool(32);
  auto opened = BTree::Open(&pool, dir.File("p.idx"), {.unique = true});
  ASSERT_TRUE(opened.ok());
  BTree& t = **opened;
  // Index on (a INTEGER, b TEXT DESC).
  std::vector<bool> desc = {false, true};
  for (int a = 0; a < 50; ++a) {
    for (int b = 0; b < 40; ++b) {
      std::string key =
          EncodeKey({Value::Int(a), Value::String(Tagged("s", static_cast<uint64_t>(b)))}, desc);
      ASSERT_OK(t.Insert(key, std::to_string(a)));
    }
    ASSERT_OK(t.Insert(EncodeKey({Value::Int(a), Value::Null()}, desc), "null"));
  }
  for (bool reverse : {false, true}) {
    auto cur = t.Scan(ScanRange::Prefix(EncodeKey({Value::Int(17)}), reverse));
    std::string k, v, prev;
    int n = 0;
    while (true) {
      auto more = cur.Next(&k, &v);
      ASSERT_TRUE(more.ok());
      if (!*more) break;
      auto row = DecodeKey(k, desc);
      ASSERT_TRUE(row.ok());
      EXPECT_EQ((*row)[0].AsInt(), 17);
      if (n == 0) {
        EXPECT_EQ((*row)[1].IsNull(), !reverse);  // DESC column: NULL first
      }
      if (n > 0) {
        EXPECT_EQ(prev < k, !reverse);
      }
      prev = k;
      ++n;
    }
    EXPECT_EQ(n, 41);
  }
  ASSERT_OK(t.Verify(true).status());
}

}  // namespace
}  // namespace meridian::storage
