// Log-linear latency buckets (histogram.h).
#include "histogram.h"

#include <algorithm>
#include <cmath>

namespace tpcc {

int HistogramBucket(uint64_t us) {
  if (us < 64) return static_cast<int>(us);
  int msb = 63 - __builtin_clzll(us);
  int shift = msb - 5;
  int bucket = 64 + (shift - 1) * 32 + static_cast<int>((us >> shift) - 32);
  return std::min(bucket, kHistogramBuckets - 1);
}

uint64_t HistogramBucketUpper(int bucket) {
  if (bucket < 64) return static_cast<uint64_t>(bucket);
  int shift = (bucket - 64) / 32 + 1;
  uint64_t sub = static_cast<uint64_t>((bucket - 64) % 32 + 32);
  return ((sub + 1) << shift) - 1;
}

uint64_t HistogramData::count() const {
  uint64_t n = 0;
  for (uint64_t c : counts) n += c;
  return n;
}

uint64_t HistogramData::Percentile(double p) const {
  uint64_t n = count();
  if (n == 0) return 0;
  auto rank = static_cast<uint64_t>(std::ceil(p * static_cast<double>(n)));
  rank = std::clamp<uint64_t>(rank, 1, n);
  uint64_t seen = 0;
  for (int b = 0; b < kHistogramBuckets; ++b) {
    seen += counts[static_cast<size_t>(b)];
    if (seen >= rank) return max_us > 0 ? std::min(HistogramBucketUpper(b), max_us)
                                        : HistogramBucketUpper(b);
  }
  return max_us;
}

HistogramData HistogramData::Minus(const HistogramData& earlier) const {
  HistogramData d;
  for (size_t b = 0; b < counts.size(); ++b) d.counts[b] = counts[b] - earlier.counts[b];
  d.max_us = max_us;
  return d;
}

void LiveHistogram::Record(uint64_t us) {
  counts_[static_cast<size_t>(HistogramBucket(us))].fetch_add(1, std::memory_order_relaxed);
  uint64_t prev = max_us_.load(std::memory_order_relaxed);
  while (us > prev && !max_us_.compare_exchange_weak(prev, us, std::memory_order_relaxed)) {
  }
}

HistogramData LiveHistogram::Snapshot() const {
  HistogramData d;
  for (size_t b = 0; b < counts_.size(); ++b) d.counts[b] = counts_[b].load(std::memory_order_relaxed);
  d.max_us = max_us_.load(std::memory_order_relaxed);
  return d;
}

}  // namespace tpcc
