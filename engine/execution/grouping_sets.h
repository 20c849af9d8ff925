// GROUP BY GROUPING SETS / ROLLUP / CUBE (grouping_sets.cc): one hash aggregation per grouping
// set over the input, which a SpoolOp keeps (RowStore: work_mem in memory, the rest in a
// temporary file) so that the input runs once; each pass spills as HashAggregateOp does.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "execution/operators.h"
#include "execution/recursive_union.h"

namespace meridian::exec {

// Its child's rows, kept as they pass the first time after Restart(); every later Open reads
// them again from the store instead of the child.
class SpoolOp : public Operator {
 public:
  explicit SpoolOp(OperatorPtr child) : child_(std::move(child)) {}
  void Restart() { filled_ = false; }
  Status Open(const EvalContext* outer, ExecContext* exec) override;
  Result<bool> Next(Row* row) override;
  void PruneColumns(const std::vector<bool>& needed) override { child_->PruneColumns(needed); }
  uint64_t spilled_bytes() const { return store_.spilled_bytes(); }

 private:
  OperatorPtr child_;
  RowStore store_;
  bool filled_ = false;   // the store holds every row of the child
  bool filling_ = false;  // this pass reads the child
  std::unique_ptr<RowStore::Reader> reader_;
};

// Output rows as HashAggregateOp's over all keys: the group_by values (NULL for the keys
// outside the row's set), then the aggregates; an aggregate with agg kGrouping and no
// arguments is the number of the row's grouping set. Sets come out in order, each one's
// groups together; a set without keys gives one row even for no input (as GROUP BY ()).
class GroupingSetsAggregateOp : public Operator {
 public:
  GroupingSetsAggregateOp(OperatorPtr child, std::vector<BoundExprPtr> groups,
                          std::vector<std::vector<int>> sets, std::vector<BoundExprPtr> aggregates);
  Status Open(const EvalContext* outer, ExecContext* exec) override;
  Result<bool> Next(Row* row) override;
  void PruneColumns(const std::vector<bool>& needed) override;
  std::string AnalyzeDetail() const override;

 private:
  Status OpenSet();

  SpoolOp* spool_;  // owned by agg_
  std::unique_ptr<HashAggregateOp> agg_;
  size_t num_keys_;
  std::vector<std::vector<int>> sets_;
  std::vector<int> slots_;  // per output aggregate: its column in agg_'s aggregates, -1: set id
  const EvalContext* outer_ = nullptr;
  ExecContext* exec_ = nullptr;
  size_t set_ = 0;
  bool set_open_ = false;
  Row input_;
  // Over the hashed sets run so far: the most batches and memory, the spill bytes summed.
  uint64_t batches_ = 0;
  size_t peak_bytes_ = 0;
  uint64_t disk_bytes_ = 0;
};

}  // namespace meridian::exec
