// The logical plan of a SELECT: a tree of logical operators built from the bound statement
// (BuildLogicalPlan), rewritten by the rules of RewriteLogicalPlan (engine/optimizer/README.md
// lists them in order), then lowered to physical operators by the planner
// (LowerLogicalPlan, plan_select.cc). Each node owns the bound expressions it evaluates;
// column references keep the binder's numbering (the FROM-order joined row, the aggregate row,
// the window row, ... as bound_statement.h describes them).
//
// Shape today (lowering relies on it): one SELECT block is
//   [Limit] ← [DistinctOn] ← [Sort] ← [Distinct] ← Project ← [ProjectSet] ← [Window] ←
//   [Filter (HAVING)] ← [Aggregate] ← [Filter (WHERE)] ← [Apply]... ← FROM
// where FROM is Values (no FROM list), a Get, or a left-deep chain of Joins whose right input
// is a Get; a set operation block is [Limit] ← [DistinctOn] ← [Sort] ← SetOperation with one
// block per input. A FROM subquery, function or WITH query is a Get leaf that keeps its bound
// SELECT (its own block is built when it is lowered).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "binder/bound_statement.h"
#include "planner/planner.h"

namespace meridian::exec {

enum class LogicalKind : uint8_t {
  kGet,
  kValues,
  kJoin,
  kFilter,
  kAggregate,
  kWindow,
  kProjectSet,
  kProject,
  kDistinct,
  kSort,
  kDistinctOn,
  kLimit,
  kSetOperation,
  kApply,
};

struct LogicalOp;
using LogicalOpPtr = std::unique_ptr<LogicalOp>;

struct LogicalOp {
  explicit LogicalOp(LogicalKind k) : kind(k) {}
  virtual ~LogicalOp() = default;
  template <class T>
  T& As() {
    return static_cast<T&>(*this);
  }
  template <class T>
  const T& As() const {
    return static_cast<const T&>(*this);
  }
  LogicalKind kind;
  std::vector<LogicalOpPtr> children;
};

// FROM item `item` of `block`: a table (block->from[item]) or a derived select, function or
// work-table reference (block->derived[item]); LATERAL when block->IsLateral(item).
struct LogicalGet : LogicalOp {
  LogicalGet() : LogicalOp(LogicalKind::kGet) {}
  BoundSelect* block = nullptr;
  size_t item = 0;
};

// One row of no columns (SELECT without FROM).
struct LogicalValues : LogicalOp {
  LogicalValues() : LogicalOp(LogicalKind::kValues) {}
};

// children[0] joined with children[1] (a Get: FROM item `item`) by type, on the FROM-order
// row of items 0..item (on may be null). kComma and kCross are inner joins without ON.
struct LogicalJoin : LogicalOp {
  LogicalJoin() : LogicalOp(LogicalKind::kJoin) {}
  ast::JoinType type = ast::JoinType::kComma;
  size_t item = 0;
  BoundExprPtr on;
};

// The rows of children[0] for which every conjunct is true (WHERE: split at AND; HAVING: one).
struct LogicalFilter : LogicalOp {
  LogicalFilter() : LogicalOp(LogicalKind::kFilter) {}
  std::vector<BoundExprPtr> conjuncts;
};

// A dependent join (Apply): a WHERE conjunct [NOT] EXISTS (subquery) or x [NOT] IN (subquery)
// whose subquery is correlated, i.e. is run per row of children[0] with that row as its outer
// row. kSemi keeps the rows for which a subquery row exists (EXISTS; IN: one equal to x), kAnti
// those for which none does (NOT EXISTS); null_aware (NOT IN) also drops a row whose answer is
// NULL (x NULL over a non-empty subquery, or no equal value but a NULL one), as a WHERE does.
// The right input is the subquery of predicate (its per-row physical plan, SubqueryPlan::root;
// not yet a logical subtree). position: its place among the WHERE's conjuncts, where the
// lowering puts it back. hashed: the decorrelation rule gave it a hashed form (a semi/anti join
// by hash lookups, SubqueryPlan::hashed).
enum class ApplyType : uint8_t { kSemi, kAnti };
struct LogicalApply : LogicalOp {
  LogicalApply() : LogicalOp(LogicalKind::kApply) {}
  ApplyType type = ApplyType::kSemi;
  bool null_aware = false;
  BoundExprPtr predicate;
  size_t position = 0;
  bool hashed = false;
  // A hashed semi Apply (EXISTS, x IN) may also be joined: unique_inner is its subquery
  // without the correlation equalities, grouped by their inner sides (and IN's y), and
  // outer_keys the outer sides (then x) over this block's row; the lowering costs that inner
  // join against the hashed filter (plan_join.cc, FromPlanner::AddSemiJoin). Null: not.
  std::unique_ptr<BoundSelect> unique_inner;
  std::vector<BoundExprPtr> outer_keys;
};

// GROUP BY keys (grouping sets as in BoundSelect) and aggregate calls; the output row is the
// keys then the aggregates. dependent (one per key): carried beside the hash key, a FROM
// table's primary key being among the keys; min_max: planagg applies. Both are marks of the
// rules of RewriteLogicalPlan.
struct LogicalAggregate : LogicalOp {
  LogicalAggregate() : LogicalOp(LogicalKind::kAggregate) {}
  std::vector<BoundExprPtr> keys;
  std::vector<std::vector<int>> grouping_sets;
  std::vector<BoundExprPtr> aggregates;
  std::vector<bool> dependent;
  bool min_max = false;
};

// Window calls over an input row `input` columns wide; call j's result is column input + j.
struct LogicalWindow : LogicalOp {
  LogicalWindow() : LogicalOp(LogicalKind::kWindow) {}
  std::vector<BoundExprPtr> calls;
  int input = 0;
};

// Set-returning calls of the select list (PostgreSQL's ProjectSet), as LogicalWindow.
struct LogicalProjectSet : LogicalOp {
  LogicalProjectSet() : LogicalOp(LogicalKind::kProjectSet) {}
  std::vector<BoundExprPtr> calls;
  int input = 0;
};

// The select list (the first `visible`) and the hidden ORDER BY keys.
struct LogicalProject : LogicalOp {
  LogicalProject() : LogicalOp(LogicalKind::kProject) {}
  std::vector<BoundExprPtr> exprs;
  size_t visible = 0;
};

// SELECT DISTINCT over the first `visible` columns.
struct LogicalDistinct : LogicalOp {
  LogicalDistinct() : LogicalOp(LogicalKind::kDistinct) {}
  size_t visible = 0;
};

// ORDER BY over the projected row (a set operation's output row).
struct LogicalSort : LogicalOp {
  LogicalSort() : LogicalOp(LogicalKind::kSort) {}
  std::vector<SortKey> keys;
};

// DISTINCT ON: the first row of each run of equal values of these projected columns.
struct LogicalDistinctOn : LogicalOp {
  LogicalDistinctOn() : LogicalOp(LogicalKind::kDistinctOn) {}
  std::vector<int> columns;
};

struct LogicalLimit : LogicalOp {
  LogicalLimit() : LogicalOp(LogicalKind::kLimit) {}
  BoundExprPtr limit, offset;  // either may be null
};

// UNION / INTERSECT / EXCEPT of children[0] and children[1], each cast by its casts (empty:
// none); recursive: WITH RECURSIVE's union, whose right input reads work_table.
struct LogicalSetOperation : LogicalOp {
  LogicalSetOperation() : LogicalOp(LogicalKind::kSetOperation) {}
  ast::SetOp op = ast::SetOp::kUnion;
  bool all = false;
  bool recursive = false;
  std::shared_ptr<WorkTableSlot> work_table;
  std::vector<BoundExprPtr> left_casts, right_casts;
  std::vector<ColumnInfo> columns;
};

struct LogicalPlan {
  LogicalOpPtr root;
  // The bound SELECT blocks whose FROM items the Gets name; their expressions have moved into
  // the nodes, what stays is the FROM list (tables, derived selects, names, LATERAL, row locks,
  // the rid table of UPDATE ... FROM).
  std::vector<std::unique_ptr<BoundSelect>> blocks;
  size_t width = 0;  // output columns
};

// The nodes of one block (the shape above), null where absent. from_slot owns the FROM
// subtree (Values, Get or Join) and set the set operation (then from_slot is null).
struct LogicalBlock {
  LogicalLimit* limit = nullptr;
  LogicalDistinctOn* distinct_on = nullptr;
  LogicalSort* sort = nullptr;
  LogicalDistinct* distinct = nullptr;
  LogicalProject* project = nullptr;
  LogicalProjectSet* project_set = nullptr;
  LogicalWindow* window = nullptr;
  LogicalFilter* having = nullptr;
  LogicalAggregate* aggregate = nullptr;
  LogicalFilter* where = nullptr;
  std::vector<LogicalApply*> applies;  // top down
  // The slot under where (or where a WHERE Filter goes): the top Apply's, else from_slot.
  LogicalOpPtr* below_where = nullptr;
  LogicalOpPtr* from_slot = nullptr;
  LogicalSetOperation* set = nullptr;
  // The FROM list's block (its Gets' BoundSelect); null for Values and set operations.
  BoundSelect* FromBlock() const;
};
// Reads the block whose top node *top is; an error when the tree has another shape.
Result<LogicalBlock> UnpackBlock(LogicalOpPtr* top);

// Moves select's parts into a logical tree of the shape above.
LogicalPlan BuildLogicalPlan(std::unique_ptr<BoundSelect> select);

// The unique-ified inner side of a correlated EXISTS or x IN (decorrelate.cc): s (a binding
// of the subquery) without its correlation equalities `inner = outer`, as SELECT inner_1, ...,
// inner_k [, y] ... GROUP BY the same; *outer_keys gets the outer sides over the enclosing
// row. Null when the subquery's shape is not Decorrelate's or it holds a subquery.
std::unique_ptr<BoundSelect> UniqueInner(HashedForm form, std::unique_ptr<BoundSelect> s,
                                         std::vector<BoundExprPtr>* outer_keys);

// Runs the rewrite rules, in the order engine/optimizer/README.md gives, on every block.
void RewriteLogicalPlan(LogicalPlan* plan);

// The physical plan of plan (plan_select.cc), in one walk of its blocks: a block's FROM list is
// planned as a whole (FromPlanner: conjunct placement, access paths, join order), then its
// pipeline node by node. instrument as PlanSelectExplained's.
Result<PlannedSelect> LowerLogicalPlan(LogicalPlan* plan, bool instrument);

// One line per node, children indented by two spaces (tests, debugging). Not while EXPLAIN
// collects subplans: printing a subquery numbers it (ExprToString).
std::string LogicalPlanToString(const LogicalOp& op);

}  // namespace meridian::exec
