// The measured run: T terminals, each with its own session, bound to a (warehouse, district)
// pair, drawing transaction types from a shuffled deck of 100 cards (45 New-Order, 43 Payment,
// 4 each Order-Status, Delivery, Stock-Level). 40001/40P01 are retried with jittered
// exponential backoff and counted apart from errors; a lost connection is an error and the
// terminal reconnects. At the deadline terminals stop after their current transaction, which
// is not counted at all (neither done nor error).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "histogram.h"
#include "options.h"
#include "transactions.h"

namespace tpcc {

struct TxSummary {
  uint64_t done = 0;         // committed, plus New-Orders rolled back on purpose
  uint64_t rolled_back = 0;  // New-Orders rolled back on the unused item (part of done)
  uint64_t errors = 0;
  uint64_t retries_40001 = 0;
  uint64_t retries_40p01 = 0;
  HistogramData latency;     // microseconds, from first BEGIN to COMMIT, retries included
};

struct RunSummary {
  std::string driver;
  int warehouses = 0;
  int terminals = 0;
  bool spec_timing = false;
  double measured_seconds = 0;
  std::array<TxSummary, kTxTypes> tx;  // the measured interval only
  // Every New-Order whose COMMIT was acknowledged, warmup and cut-off ones included: after a
  // crash the database must hold at least this many new orders.
  uint64_t new_orders_committed = 0;
  uint64_t reconnects = 0;
  std::vector<std::string> error_samples;  // the first distinct error messages

  double TpmC() const;
  double TpmTotal() const;
  uint64_t Errors() const;
  uint64_t Retries() const;
};

// Runs the workload against an already loaded database. Throws DbError when no terminal can
// connect at the start.
RunSummary Run(const Options& options);

}  // namespace tpcc
