// WindowOp: the window functions of one window (PostgreSQL's WindowAgg) over input sorted by
// the window's PARTITION BY then ORDER BY keys; and the frame arithmetic it uses (WindowFrameOf,
// NtileOf), kept apart so it can be tested alone.
#pragma once

#include <cstdint>
#include <vector>

#include "binder/bound_expr.h"
#include "execution/operator.h"

namespace meridian::exec {

// Rows [begin, end) of a partition of n rows that form row i's frame. peer_begin/peer_end: the
// first row of i's peer group and one past its last (rows equal in every ORDER BY key; all
// rows without ORDER BY). start_offset/end_offset: the n of n PRECEDING / FOLLOWING (>= 0).
// An empty frame has begin == end.
struct FrameRange {
  size_t begin = 0;
  size_t end = 0;
};
FrameRange WindowFrameOf(const WindowClause& w, size_t i, size_t n, size_t peer_begin,
                         size_t peer_end, int64_t start_offset, int64_t end_offset);

// ntile(buckets) of every row of a partition of n rows, PostgreSQL's way: the first
// n % buckets buckets get one row more than the others (buckets > 0).
std::vector<int32_t> NtileOf(size_t n, int64_t buckets);

// Input: rows sorted by partition_cols then order_cols (their positions in the input row).
// Output: the input row's first pass_width columns, then one column per call of functions
// (kWindow calls over the input row, all with one window: the same partition, order and
// frame). Reads one partition at a time into memory (as SortOp, below it, holds its whole
// input), computes every call for every row of it, then returns its rows in input order.
class WindowOp : public Operator {
 public:
  WindowOp(OperatorPtr child, int pass_width, std::vector<int> partition_cols,
           std::vector<int> order_cols, std::vector<BoundExprPtr> functions);
  Status Open(const EvalContext* outer, ExecContext* exec) override;
  Result<bool> Next(Row* row) override;
  void PruneColumns(const std::vector<bool>& needed) override;

 private:
  // Reads the next partition into rows_ (false when the input is exhausted).
  Result<bool> LoadPartition();
  bool SameKeys(const Row& a, const Row& b, const std::vector<int>& cols) const;
  // Evaluates the frame offsets (once per Open): 22004 for NULL, 22013 for a negative one.
  Status EvaluateOffsets();
  Status Check(size_t i) const;  // polls ExecControl every kCheckInterval rows
  Result<Value> EvalAt(const BoundExpr& e, size_t row);
  Status Compute(const BoundExpr& f, std::vector<Value>* out);
  Status ComputeAggregate(const BoundExpr& f, std::vector<Value>* out);
  Status ComputeLagLead(const BoundExpr& f, std::vector<Value>* out);
  Status ComputeNtile(const BoundExpr& f, std::vector<Value>* out);
  Status ComputeFrameValue(const BoundExpr& f, std::vector<Value>* out);
  FrameRange FrameOf(size_t i) const;

  OperatorPtr child_;
  int pass_width_;
  std::vector<int> partition_cols_, order_cols_;
  std::vector<BoundExprPtr> functions_;
  const WindowClause* window_;  // functions_[0]'s window (all share it)
  EvalContext ctx_;
  bool offsets_ready_ = false;
  int64_t start_offset_ = 0, end_offset_ = 0;
  bool child_done_ = false;
  bool has_pending_ = false;
  Row pending_;                       // the first row of the next partition
  std::vector<Row> rows_;             // the current partition
  std::vector<size_t> peer_begin_;    // per row of rows_
  std::vector<size_t> peer_end_;      // per row of rows_
  std::vector<std::vector<Value>> results_;  // per function, per row of rows_
  size_t next_ = 0;
};

}  // namespace meridian::exec
