// Planner internals shared by plan_select.cc (the SELECT pipeline) and plan_join.cc (FROM:
// scans, predicate pushdown and joins): the Built (operator + EXPLAIN node) pair, the Builder
// that wraps operators for EXPLAIN ANALYZE, and small expression helpers.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "binder/bound_statement.h"
#include "optimizer/access_path.h"
#include "optimizer/join_order.h"
#include "planner/explain.h"

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
// Marks the columns at depth that s reads (a LATERAL item: depth 1, the FROM items before
// it); *all when it holds a correlated subquery.
void CollectOuterColumns(const BoundSelect& s, int depth, std::vector<bool>* used, bool* all);
// Shifts depth-0 column slots by -offset (a conjunct moving from the joined row to one table).
void Rebase(BoundExpr* e, int offset);
// "(a = 1)" or "((a = 1) AND (b > 2))", as EXPLAIN prints conditions.
std::string Conditions(const std::vector<BoundExprPtr>& conds);
// Adds conds to node's one "Filter:" line (PostgreSQL prints a node's quals as one AND list),
// creating it after the other details when the node has none yet.
void AddFilterLine(PlanNode* node, const std::vector<BoundExprPtr>& conds);

// Shifts depth-0 column slots to pos[slot] (a conjunct moving from the FROM-order joined row
// to a row whose tables come in another order).
void Remap(BoundExpr* e, const std::vector<int>& pos);

// PostgreSQL's cost of sorting rows (plan_select.cc).
double SortCost(double rows);
// Names the depth-0 columns from, from + 1, ... read in e by labels (how EXPLAIN shows a
// column holding an aggregate's or a window call's result: "(count(*))").
void NameColumns(BoundExpr* e, int from, const std::vector<std::string>& labels);
// "x DESC NULLS LAST" as EXPLAIN's Sort Key shows a key (nothing for the defaults).
std::string SortKeyText(const std::string& expr, bool descending, bool nulls_first);
// The window stage over cur (plan_window.cc): a WindowAgg per window of calls (over an input
// row `input` wide), each with the Sort it needs; remaps the set-returning calls and projections
// above from the binder's window row to the WindowOps' columns.
Result<Built> PlanWindows(Built cur, std::vector<BoundExprPtr>* calls, int input,
                          std::vector<BoundExprPtr>* set_functions,
                          std::vector<BoundExprPtr>* projections, Builder* b);

// Plans the FROM list of s. Every run of tables joined by inner joins (commas, CROSS, INNER)
// is one join group, ordered by cost (join_order.h); an outer join keeps its place: the
// groups and tables before it are joined first, put back in FROM column order, and the outer
// join's result is the first input of the next group. Each conjunct is pushed to a table's
// scan when it reads one table that no outer join NULL-extends, else to the first join step
// (or filter after an outer join) where its tables are present and outer-join semantics
// allow it; the rest (correlated subqueries) filters the final row. The result row is always
// in FROM column order.
class FromPlanner {
 public:
  // s: the FROM list's block (tables, derived selects, names, LATERAL, locks, rid table);
  // join_types/join_on per FROM item (the logical Joins'); order_by and projections: the
  // block's ORDER BY over its select list (a single table's LIMIT may take it from an index).
  FromPlanner(BoundSelect* s, Builder* builder, std::vector<bool> used, bool all_used,
              std::vector<ast::JoinType> join_types, std::vector<BoundExprPtr> join_on,
              const std::vector<SortKey>& order_by, const std::vector<BoundExprPtr>& projections);
  // A semi Apply (EXISTS, x IN) whose unique-ified inner side is FROM item `item` (after
  // every other; plan_select.cc, SemiJoinItems), joined by equalities among the conjuncts,
  // while predicate, its hashed SubPlan, is a conjunct too. The join group costs both
  // (PlanGroup): the inner join with the item (any order and method: an index nested loop
  // into the outer table when the item is small), against the group without the item and
  // the SubPlan filtering its rows (switch_after per-row runs at per_row_cost, then the build
  // and a lookup per row), for each subset of the semi joins. The loser's parts are dropped:
  // the item, its equalities and filters, or the predicate.
  struct SemiJoin {
    size_t item = 0;
    const BoundExpr* predicate = nullptr;
    std::vector<BoundExprPtr> equalities;  // given to Plan as conjuncts by the caller
    double build_cost = 0;
    double per_row_cost = 0;
    uint64_t switch_after = 1;
    bool joined = false;  // PlanGroup's choice (else the SubPlan filters)
  };
  void AddSemiJoin(SemiJoin semi) { semis_.push_back(std::move(semi)); }
  // wanted/limit: a single table's ORDER BY (+ LIMIT) that an index may deliver (*ordered).
  Result<Built> Plan(std::vector<BoundExprPtr> where,
                     const std::vector<AccessPlan::OrderColumn>& wanted,
                     std::optional<double> limit, bool* ordered);

 private:
  // A conjunct over several tables, waiting for its join step.
  struct Cond {
    BoundExprPtr expr;
    std::vector<bool> tables;
    size_t need = 0;  // FROM item from which on it may be applied
    bool done = false;
  };
  // A join step's plan: rows so far and the FROM tables in its row, in row order.
  struct Partial {
    Built built;
    std::vector<int> layout;
  };

  // The set of FROM tables whose columns c reads; *correlated when it holds a correlated
  // subquery.
  std::vector<bool> TablesOf(const BoundExpr& c, bool* correlated) const;
  // Row position of every FROM column present in layout (-1 for the others).
  std::vector<int> Positions(const std::vector<int>& layout) const;
  int LayoutWidth(const std::vector<int>& layout) const;
  // Columns of FROM item t's table or subquery (widths_[t] less the rid of s_->rid_table).
  int TableWidth(size_t t) const;
  // Distinct values of table t's column col (statistics, a unique index, or rows / 10).
  double Distinct(size_t t, int col) const;
  // The estimate of table t's scan under its pushed conjuncts (a derived table is planned
  // here and kept in derived_built_).
  Result<JoinRel> DescribeTable(size_t t, std::vector<BoundExprPtr>* pushed);
  // c as a join predicate between relations; rel_of maps a FROM table to its relation.
  JoinPred DescribePred(const BoundExpr& c, const std::vector<int>& rel_of,
                        const std::vector<JoinRel>& rels) const;
  Result<Built> Scan(size_t t, std::vector<BoundExprPtr> conjuncts,
                     const std::vector<AccessPlan::OrderColumn>& wanted,
                     std::optional<double> limit, bool* ordered);
  // A subquery or WITH query in FROM: its plan under a "Subquery Scan" filtered by conjuncts.
  Result<Built> DerivedScan(size_t t, std::vector<BoundExprPtr> conjuncts);
  // One inner-join group: FROM items [begin, end) joined, after *prefix when it has a plan.
  Status PlanGroup(Partial* prefix, size_t begin, size_t end,
                   std::vector<std::vector<BoundExprPtr>>* pushed, std::vector<Cond>* conds);
  // Joins table t to left by the given method; conds are over the FROM-order row.
  Result<Partial> Join(Partial left, size_t t, JoinKind kind, std::vector<BoundExprPtr> pushed,
                       std::vector<BoundExprPtr> conds, JoinStepChoice choice, double rows);
  // A LATERAL item t joined to *cur (inner or left) by a nested loop that re-runs t's plan,
  // filtered by pushed, for every row of *cur; conds over the FROM-order row decide a match.
  Status JoinLateral(Partial* cur, size_t t, std::vector<BoundExprPtr> pushed,
                     std::vector<BoundExprPtr> conds);
  // Puts the row back in FROM column order (a projection) when the joins reordered it.
  void RestoreOrder(Partial* p) const;
  // Filters p's row by conds (column slots of that row).
  static void AddFilter(Partial* p, std::vector<BoundExprPtr> conds);

  BoundSelect* s_;
  Builder* b_;
  std::vector<ast::JoinType> join_types_;
  std::vector<BoundExprPtr> join_on_;
  const std::vector<SortKey>& order_by_;
  const std::vector<BoundExprPtr>& projections_;
  std::vector<bool> used_;
  bool all_used_;
  std::vector<int> offsets_;
  std::vector<int> widths_;
  std::vector<Type> column_types_;    // of every column of the FROM-order row
  std::vector<int> table_of_;         // FROM table of every column of that row
  std::vector<Built> derived_built_;  // derived tables planned while estimating
  std::vector<double> derived_rows_;  // their row estimates (kept after the plan moves on)
  std::vector<SemiJoin> semis_;
};

}  // namespace meridian::exec
