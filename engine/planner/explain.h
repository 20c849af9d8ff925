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
  std::vector<std::string> filter;  // the "Filter:" line's conditions (AddFilterLine)
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

// EXPLAIN's subqueries, numbered as PostgreSQL's "SubPlan N" / "InitPlan N". While a
// collector is active on this thread (Scope, set by EXPLAIN around binding and planning), the
// binder plans each subquery with its PlanNode (SubqueryPlan::explain) and ExprToString
// numbers the subqueries it prints: "(SubPlan 2)", "(InitPlan 1)" (PostgreSQL prints an
// InitPlan's result as "$0"). RenderPlan prints each subquery's plan under the node whose
// details name it (InitPlans before that node's children, SubPlans after, as PostgreSQL does),
// and the ones no detail names (a select-list subquery: no Output lines without VERBOSE)
// after the top node's children.
class ExplainSubplans {
 public:
  struct Entry {
    std::shared_ptr<const PlanNode> node;
    bool init;  // uncorrelated and not an IN: computed once, PostgreSQL's InitPlan
  };
  // Makes c the active collector of this thread until destroyed (or Stop).
  class Scope {
   public:
    explicit Scope(ExplainSubplans* c);
    ~Scope() { Stop(); }
    void Stop();
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    ExplainSubplans* saved_;
    bool active_ = true;
  };
  static ExplainSubplans* Active();
  bool analyze = false;  // subqueries are planned with instrumented operators
  // "SubPlan 3" / "InitPlan 1" for a subquery planned with its PlanNode (registered at its
  // first use); "SubPlan" otherwise.
  std::string Name(const SubqueryPlan& plan, bool in_list);
  const std::vector<Entry>& entries() const { return entries_; }

 private:
  std::vector<Entry> entries_;
};

// PostgreSQL-like text of a bound expression: "(id = 42)", "(name IS NULL)".
std::string ExprToString(const BoundExpr& e);
// Average width in bytes PostgreSQL would print for a row of these types.
int RowWidth(const std::vector<Type>& types);
// The plan as lines of text; analyze adds "(actual time=a..b rows=n loops=l)" (without
// "time=a..b" when timing is false); costs false leaves out "(cost=... rows=... width=...)".
// subplans: the collector active while root was planned, whose subqueries are printed.
std::vector<std::string> RenderPlan(const PlanNode& root, bool analyze, bool costs = true,
                                    bool timing = true, const ExplainSubplans* subplans = nullptr);

}  // namespace meridian::exec
