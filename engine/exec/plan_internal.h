// Planner internals shared by plan_select.cc (the SELECT pipeline) and plan_join.cc (FROM:
// scans, predicate pushdown and joins): the Built (operator + EXPLAIN node) pair, the Builder
// that wraps operators for EXPLAIN ANALYZE, and small expression helpers.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "exec/access_path.h"
#include "exec/bound_statement.h"
#include "exec/explain.h"

namespace meridian::exec {

struct Built {
  OperatorPtr op;
  std::unique_ptr<PlanNode> node;
};

class Builder {
 public:
  explicit Builder(bool instrument) : instrument_(instrument) {}
  // Attaches the children's nodes and, for EXPLAIN ANALYZE, wraps op in an InstrumentOp.
  Built Make(OperatorPtr op, std::unique_ptr<PlanNode> node, std::vector<Built*> children = {});
  bool instrument() const { return instrument_; }

 private:
  bool instrument_;
};

// Marks the depth-0 columns e uses (in the joined row); *all when e holds a correlated
// subquery (it may read any column of this row).
void CollectColumns(const BoundExpr& e, std::vector<bool>* used, bool* all);
// Shifts depth-0 column slots by -offset (a conjunct moving from the joined row to one table).
void Rebase(BoundExpr* e, int offset);
// "(a = 1)" or "((a = 1) AND (b > 2))", as EXPLAIN prints conditions.
std::string Conditions(const std::vector<BoundExprPtr>& conds);

// Plans the FROM chain of s: every table's access path with the WHERE/ON conjuncts pushed to
// it, then the joins in FROM order, each by nested loop, hash join or index nested-loop join
// (whichever is cheapest), then the conjuncts that must wait until every join is done.
class FromPlanner {
 public:
  FromPlanner(BoundSelect* s, Builder* builder, std::vector<bool> used, bool all_used);
  // wanted/limit: a single table's ORDER BY (+ LIMIT) that an index may deliver (*ordered).
  Result<Built> Plan(std::vector<BoundExprPtr> where,
                     const std::vector<AccessPlan::OrderColumn>& wanted,
                     std::optional<double> limit, bool* ordered);

 private:
  // The set of FROM tables whose columns c reads; *correlated when it holds a correlated
  // subquery.
  std::vector<bool> TablesOf(const BoundExpr& c, bool* correlated) const;
  Result<Built> Scan(size_t t, std::vector<BoundExprPtr> conjuncts,
                     const std::vector<AccessPlan::OrderColumn>& wanted,
                     std::optional<double> limit, bool* ordered);
  // A subquery or WITH query in FROM: its plan under a "Subquery Scan" filtered by conjuncts.
  Result<Built> DerivedScan(size_t t, std::vector<BoundExprPtr> conjuncts);
  Result<Built> Join(Built left, size_t t, std::vector<BoundExprPtr> pushed,
                     std::vector<BoundExprPtr> conds);

  BoundSelect* s_;
  Builder* b_;
  std::vector<bool> used_;
  bool all_used_;
  std::vector<int> offsets_;
  std::vector<int> widths_;
  std::vector<bool> nullable_;  // per table: NULL-extended by some outer join
};

}  // namespace meridian::exec
