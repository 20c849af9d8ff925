// Latency histograms in microseconds with HdrHistogram-style buckets: exact below 64 us, then
// 32 buckets per power of two (a bucket is at most ~3% wide), up to ~2^40 us. LiveHistogram
// takes Record() from many threads (relaxed atomics); Snapshot() copies it into a
// HistogramData for percentiles and interval differences.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>

namespace tpcc {

inline constexpr int kHistogramBuckets = 64 + 36 * 32;

struct HistogramData {
  std::array<uint64_t, kHistogramBuckets> counts{};
  uint64_t max_us = 0;

  uint64_t count() const;
  // The latency at or below which a fraction p (0..1) of the samples lie: the bucket's upper
  // edge, never above max_us. 0 when empty.
  uint64_t Percentile(double p) const;
  // Samples in *this but not in earlier (an interval between two snapshots); max_us is kept.
  HistogramData Minus(const HistogramData& earlier) const;
};

class LiveHistogram {
 public:
  void Record(uint64_t us);
  HistogramData Snapshot() const;

 private:
  std::array<std::atomic<uint64_t>, kHistogramBuckets> counts_{};
  std::atomic<uint64_t> max_us_{0};
};

int HistogramBucket(uint64_t us);
uint64_t HistogramBucketUpper(int bucket);

}  // namespace tpcc
