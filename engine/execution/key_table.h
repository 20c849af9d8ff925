// KeyTable: the open-addressing hash table under HashJoinOp and HashAggregateOp. It maps a key to
// a dense id (0, 1, 2, ... in order of first insertion) and a small payload kept in the slot, so
// a probe that hits costs one cache miss in the table. Integer mode (one key of an integral
// type, held as int64): the key itself is the slot's tag. Bytes mode (anything else): keys are
// catalog::AppendKeyValue encodings, kept once per id in an arena; the tag is their hash.
// Linear probing, at most half full (it doubles when it would get fuller).
#pragma once

#include <sys/mman.h>

#include <cstdint>
#include <cstdlib>
#include <functional>
#include <new>
#include <string>
#include <string_view>
#include <vector>

namespace meridian::exec {

// murmur3's 64-bit finalizer: spreads sequential integers over the whole table.
inline uint64_t MixKey(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}

// An allocator for big arrays read at random (hash tables, a hash join's rows): from 2 MiB on
// it asks for transparent huge pages, so a random access costs a cache miss but rarely also a
// TLB miss (profiles of a 1M-row join showed most of the probe time in those loads).
template <typename T>
struct HugePageAllocator {
  using value_type = T;
  static constexpr size_t kHugePage = size_t{2} << 20;
  HugePageAllocator() = default;
  template <typename U>
  HugePageAllocator(const HugePageAllocator<U>&) {}  // NOLINT: rebinding
  T* allocate(size_t n) {
    const size_t bytes = n * sizeof(T);
    if (bytes < kHugePage) return static_cast<T*>(::operator new(bytes));
    const size_t rounded = (bytes + kHugePage - 1) / kHugePage * kHugePage;
    void* p = std::aligned_alloc(kHugePage, rounded);
    if (p == nullptr) throw std::bad_alloc();
    (void)madvise(p, rounded, MADV_HUGEPAGE);  // a hint; fine when refused
    return static_cast<T*>(p);
  }
  void deallocate(T* p, size_t n) {
    if (n * sizeof(T) < kHugePage) {
      ::operator delete(p);
    } else {
      std::free(p);
    }
  }
  template <typename U>
  bool operator==(const HugePageAllocator<U>&) const {
    return true;
  }
};
template <typename T>
using HugeVector = std::vector<T, HugePageAllocator<T>>;

template <typename Payload>
class KeyTable {
 public:
  static constexpr uint32_t kNoId = 0xFFFFFFFF;
  struct Slot {
    uint64_t tag = 0;     // integer mode: the key; bytes mode: the key's hash
    uint32_t id = kNoId;  // kNoId: empty
    Payload payload{};
  };

  KeyTable() { Reset(true, 0); }

  // Empties the table; expected_keys sizes it (it still grows past that).
  void Reset(bool int_keys, size_t expected_keys) {
    int_keys_ = int_keys;
    size_ = 0;
    arena_.clear();
    key_ends_.clear();
    size_t capacity = 16;
    while (capacity < 2 * expected_keys) capacity *= 2;
    slots_.assign(capacity, Slot{});
    mask_ = capacity - 1;
  }
  bool int_keys() const { return int_keys_; }
  size_t size() const { return size_; }
  size_t capacity() const { return slots_.size(); }  // slots (buckets)

  // Integer mode. Find: null when absent. Insert: the key's slot, *inserted when it is new
  // (payload value-initialised); valid until the next Insert.
  Slot* FindInt(int64_t key) {
    const auto tag = static_cast<uint64_t>(key);
    for (size_t i = MixKey(tag) & mask_;; i = (i + 1) & mask_) {
      Slot& s = slots_[i];
      if (s.id == kNoId) return nullptr;
      if (s.tag == tag) return &s;
    }
  }
  Slot* InsertInt(int64_t key, bool* inserted) {
    if (2 * (size_ + 1) > slots_.size()) Grow();
    const auto tag = static_cast<uint64_t>(key);
    for (size_t i = MixKey(tag) & mask_;; i = (i + 1) & mask_) {
      Slot& s = slots_[i];
      if (s.id == kNoId) return Claim(&s, tag, inserted);
      if (s.tag == tag) {
        *inserted = false;
        return &s;
      }
    }
  }
  // A hint that key will be looked up soon (integer mode).
  void PrefetchInt(int64_t key) const {
    __builtin_prefetch(&slots_[MixKey(static_cast<uint64_t>(key)) & mask_]);
  }

  // Bytes mode, as the integer ones.
  Slot* FindBytes(std::string_view key) {
    const uint64_t tag = std::hash<std::string_view>{}(key);
    for (size_t i = MixKey(tag) & mask_;; i = (i + 1) & mask_) {
      Slot& s = slots_[i];
      if (s.id == kNoId) return nullptr;
      if (s.tag == tag && key_bytes(s.id) == key) return &s;
    }
  }
  Slot* InsertBytes(std::string_view key, bool* inserted) {
    if (2 * (size_ + 1) > slots_.size()) Grow();
    const uint64_t tag = std::hash<std::string_view>{}(key);
    for (size_t i = MixKey(tag) & mask_;; i = (i + 1) & mask_) {
      Slot& s = slots_[i];
      if (s.id == kNoId) {
        arena_.append(key);
        key_ends_.push_back(arena_.size());
        return Claim(&s, tag, inserted);
      }
      if (s.tag == tag && key_bytes(s.id) == key) {
        *inserted = false;
        return &s;
      }
    }
  }
  // Bytes mode: the key that got id.
  std::string_view key_bytes(uint32_t id) const {
    const size_t begin = id == 0 ? 0 : key_ends_[id - 1];
    return std::string_view(arena_).substr(begin, key_ends_[id] - begin);
  }

  // fn(Slot&) for every key.
  template <typename Fn>
  void ForEach(Fn fn) {
    for (Slot& s : slots_) {
      if (s.id != kNoId) fn(s);
    }
  }

 private:
  Slot* Claim(Slot* s, uint64_t tag, bool* inserted) {
    s->tag = tag;
    s->id = static_cast<uint32_t>(size_++);
    s->payload = Payload{};
    *inserted = true;
    return s;
  }
  void Grow() {
    HugeVector<Slot> old(slots_.size() * 2);
    old.swap(slots_);
    mask_ = slots_.size() - 1;
    for (const Slot& s : old) {
      if (s.id == kNoId) continue;
      size_t i = MixKey(s.tag) & mask_;
      while (slots_[i].id != kNoId) i = (i + 1) & mask_;
      slots_[i] = s;
    }
  }

  bool int_keys_ = true;
  HugeVector<Slot> slots_;
  size_t mask_ = 0;
  size_t size_ = 0;
  std::string arena_;             // bytes mode: every key once, in id order
  std::vector<size_t> key_ends_;  // bytes mode: where key id ends in arena_
};

}  // namespace meridian::exec
