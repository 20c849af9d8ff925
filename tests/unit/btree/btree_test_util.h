// Helpers shared by the B+tree tests: a reference model (ordered set of (key, value) pairs),
// deterministic variable-length test keys, random scan ranges, and a scan checker comparing a
// BTree cursor with the model in either direction.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "assert_ok.h"
#include "storage/btree.h"


namespace meridian::storage {

// Total randomized operations across the test binary: MERIDIAN_BTREE_OPS or 1,000,000.
inline size_t TotalOps() {
  const char* env = std::getenv("MERIDIAN_BTREE_OPS");
  if (env != nullptr && *env != '\0') return std::strtoull(env, nullptr, 10);
  return 1000000;
}

// Steps between Verify() calls in the randomized tests: MERIDIAN_BTREE_VERIFY_EVERY or 2,000.
inline size_t VerifyEvery() {
  const char* env = std::getenv("MERIDIAN_BTREE_VERIFY_EVERY");
  if (env != nullptr && *env != '\0') return std::max<size_t>(1, std::strtoull(env, nullptr, 10));
  return 2000;
}

// Big-endian id then 0..max_filler-1 filler bytes, so key sizes vary; the default gives leaves
// of ~10-100 entries, BTree::kMaxKeySize - 3 gives internal nodes of a handful of children.
inline std::string TestKey(uint64_t id, size_t max_filler = 300) {
  std::string k;
  for (int shift = 24; shift >= 0; shift -= 8) k.push_back(static_cast<char>((id >> shift) & 0xFF));
  k.append((id * 7919) % max_filler, static_cast<char>('a' + id % 26));
  return k;
}
// Tagged decimal (built with append: GCC 12 -O3 warns falsely on "literal" + std::string).
inline std::string Tagged(const char* tag, uint64_t n) {
  std::string s(tag);
  s.append(std::to_string(n));
  return s;
}
inline std::string TestValue(uint64_t n) { return Tagged("v", n); }

class Model {
 public:
  explicit Model(bool unique) : unique_(unique) {}
  size_t size() const { return set_.size(); }
  const std::set<std::pair<std::string, std::string>>& set() const { return set_; }
  // False when refused: the key is present on a unique model. A present pair is a no-op.
  bool Insert(const std::string& k, const std::string& v) {
    auto it = set_.lower_bound({k, ""});
    if (unique_ && it != set_.end() && it->first == k) return false;
    set_.insert({k, v});
    return true;
  }
  bool Erase(const std::string& k, const std::string& v) { return set_.erase({k, v}) > 0; }
  std::vector<std::string> Lookup(const std::string& k) const {
    std::vector<std::string> out;
    for (auto it = set_.lower_bound({k, ""}); it != set_.end() && it->first == k; ++it) {
      out.push_back(it->second);
    }
    return out;
  }

 private:
  bool unique_;
  std::set<std::pair<std::string, std::string>> set_;
};

inline ScanBound RandomBound(std::mt19937_64& rng, size_t key_space) {
  std::string key = TestKey(rng() % key_space, 8);           // only the id decides the order
  if (rng() % 4 == 0) key.resize(rng() % (key.size() + 1));  // a bare prefix
  switch (rng() % 3) {
    case 0:
      return ScanBound::Unbounded();
    case 1:
      return ScanBound::Inclusive(key);
    default:
      return ScanBound::Exclusive(key);
  }
}

inline ScanRange RandomRange(std::mt19937_64& rng, size_t key_space) {
  if (rng() % 8 == 0) {
    std::string k = TestKey(rng() % key_space);
    return ScanRange::Prefix(k.substr(0, 3), rng() % 2 == 0);
  }
  ScanRange r;
  r.lower = RandomBound(rng, key_space);
  r.upper = RandomBound(rng, key_space);
  r.reverse = rng() % 2 == 0;
  return r;
}

// Expected entries of range in scan order, at most limit of them.
inline std::vector<std::pair<std::string, std::string>> ModelScan(const Model& model,
                                                                  const ScanRange& r,
                                                                  size_t limit) {
  const auto& s = model.set();
  using It = std::set<std::pair<std::string, std::string>>::const_iterator;
  // First position whose key is past bound b's key (inclusive: key > b; exclusive: key >= b).
  auto after = [&](const ScanBound& b, bool past_equal) -> It {
    It it = s.lower_bound({b.key, ""});
    if (past_equal) {
      while (it != s.end() && it->first == b.key) ++it;
    }
    return it;
  };
  It lo = r.lower.kind == ScanBound::Kind::kUnbounded
              ? s.begin()
              : after(r.lower, r.lower.kind == ScanBound::Kind::kExclusive);
  It hi = r.upper.kind == ScanBound::Kind::kUnbounded
              ? s.end()
              : after(r.upper, r.upper.kind == ScanBound::Kind::kInclusive);
  std::vector<std::pair<std::string, std::string>> out;
  // An empty range may have hi before lo.
  if (lo != s.end() && hi != s.end() && *hi < *lo) return out;
  if (lo == s.end()) return out;
  if (!r.reverse) {
    for (It it = lo; it != hi && out.size() < limit; ++it) out.push_back(*it);
  } else {
    for (It it = hi; it != lo && out.size() < limit;) {
      --it;
      out.push_back(*it);
    }
  }
  return out;
}

inline void CheckScan(BTree* tree, const Model& model, const ScanRange& range, size_t limit) {
  auto want = ModelScan(model, range, limit);
  BTree::Cursor cur = tree->Scan(range);
  std::vector<std::pair<std::string, std::string>> got;
  std::string k, v;
  while (got.size() < limit) {
    auto more = cur.Next(&k, &v);
    ASSERT_TRUE(more.ok()) << more.status().ToString();
    if (!*more) break;
    got.emplace_back(k, v);
  }
  ASSERT_EQ(got.size(), want.size()) << "reverse=" << range.reverse;
  ASSERT_TRUE(got == want) << "reverse=" << range.reverse;
}

}  // namespace meridian::storage
