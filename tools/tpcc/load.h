// The initial database of clause 4.3: drop and create the nine tables, load W warehouses with
// several sessions in parallel through multi-row INSERTs, then build the secondary indexes and
// ANALYZE. Work is cut into units (the items; per warehouse: warehouse + districts + stock,
// customers + history, orders + order lines + new orders) that the loader threads take in turn.
#pragma once

#include <cstdint>

#include "options.h"

namespace tpcc {

struct LoadSummary {
  int64_t rows = 0;
  double seconds = 0;
};

// Throws DbError on the first failed statement (the other threads stop at their next batch).
LoadSummary Load(const Options& options);

// The number of warehouse rows in the database, or -1 when the tables are missing.
int64_t CountWarehouses(Session& session);

}  // namespace tpcc
