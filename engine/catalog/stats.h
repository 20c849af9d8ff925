// Planner statistics of one table, gathered by ANALYZE (a full scan) and kept in memory: per
// column the distinct count, NULL fraction, min/max and an equi-depth histogram. Only the
// live row count survives a restart (in catalog.meta); column statistics are gathered again by
// ANALYZE or by the automatic re-analyze (Catalog::AutoAnalyze, at each checkpoint): after
// enough changes, and for a table with rows but no statistics (the first one after a start).
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "meridian/value.h"

namespace meridian::catalog {

struct ColumnStats {
  double distinct = 0;   // distinct non-NULL values
  double null_frac = 0;  // fraction of rows that are NULL
  // Non-NULL values only; empty when the column had none. bounds holds up to kBuckets + 1
  // sorted values splitting the non-NULL values into buckets of equal row counts.
  std::vector<Value> bounds;
};

struct TableStats {
  static constexpr int kBuckets = 32;
  uint64_t rows = 0;  // rows counted by the ANALYZE that produced these statistics
  std::vector<ColumnStats> columns;
  // Per expression index (by index id): per key column, the statistics of an expression key
  // (PostgreSQL's ANALYZE gathers them for index expressions too); empty for a column key.
  std::map<uint32_t, std::vector<ColumnStats>> expressions;
};

}  // namespace meridian::catalog
