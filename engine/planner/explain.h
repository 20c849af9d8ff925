// EXPLAIN support: PlanNode, the planner's description of each operator it builds (label,
// details such as "Index Cond", estimated cost and rows), InstrumentOp, which measures actual
// rows, loops and time of an operator for EXPLAIN ANALYZE, and the text rendering in
// PostgreSQL's layout ("->" children, two-space indents, "(cost=a..b rows=n width=w)").
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "binder/bound_expr.h"
#include "execution/operator.h"

namespace meridian::exec {

struct PlanNode {
  std::string label;
  std::vector<std::string> details;
  double startup_cost = 0;
  double total_cost = 0;
  double rows = 0;
  int width = 0;
  bool modify = false;  // Insert/Update/Delete on t: printed with rows=0, as PostgreSQL does
  std::vector<std::unique_ptr<PlanNode>> children;
  struct Actual {
    uint64_t rows = 0;
    uint64_t loops = 0;
    double first_row_ms = 0;  // summed over loops
    double total_ms = 0;      // summed over loops
    std::string detail;       // Operator::AnalyzeDetail after its first row
  } actual;
};

// Wraps an operator and records into *actual (owned by the plan tree, which outlives it).
class InstrumentOp : public Operator {
 public:
  InstrumentOp(OperatorPtr child, PlanNode::Actual* actual)
      : child_(std::move(child)), actual_(actual) {}
  Status Open(const EvalContext* outer, ExecContext* exec) override;
  Result<bool> Next(Row* row) override;
  void PruneColumns(const std::vector<bool>& needed) override { child_->PruneColumns(needed); }

 private:
  OperatorPtr child_;
  PlanNode::Actual* actual_;
  bool first_pending_ = false;
  double loop_base_ms_ = 0;  // actual_->total_ms when this loop started
};

// PostgreSQL-like text of a bound expression: "(id = 42)", "(name IS NULL)".
std::string ExprToString(const BoundExpr& e);
// Average width in bytes PostgreSQL would print for a row of these types.
int RowWidth(const std::vector<Type>& types);
// The plan as lines of text; analyze adds "(actual time=a..b rows=n loops=l)" (without
// "time=a..b" when timing is false); costs false leaves out "(cost=... rows=... width=...)".
std::vector<std::string> RenderPlan(const PlanNode& root, bool analyze, bool costs = true,
                                    bool timing = true);

}  // namespace meridian::exec
