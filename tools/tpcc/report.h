// What meridian-tpcc prints and writes: the periodic progress line of a run, the final table
// (tpmC, tpmTotal, per-type counts, latency percentiles, rollbacks, retries, errors), the JSON
// file of --json and the ratios of --compare.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "histogram.h"
#include "run.h"

namespace tpcc {

// Cumulative counters at one instant, for the periodic lines.
struct IntervalSample {
  std::array<uint64_t, kTxTypes> done{};
  uint64_t errors = 0;
  uint64_t retries = 0;
  HistogramData new_order_latency;
};

// "[ 20s] tpmC 12345 | tps NO 20.1 P 19.0 OS 1.7 D 1.8 SL 1.9 | NO p95 12.3 ms | retries 0 | errors 0"
void PrintIntervalLine(double elapsed_s, double interval_s, const IntervalSample& before,
                       const IntervalSample& after, bool warmup);
void PrintSummary(const RunSummary& summary);
// Writes the summary as JSON; false (and a message on stderr) when the file cannot be written.
bool WriteJson(const RunSummary& summary, const std::string& path);
// Prints this run against the one in path (ratios new/old). False when path is unreadable.
bool PrintComparison(const RunSummary& summary, const std::string& path);

}  // namespace tpcc
