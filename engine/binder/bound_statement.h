// Bound statements: the binder's output for SELECT, INSERT, UPDATE and DELETE, with tables
// resolved, expressions bound and typed, and output columns named as PostgreSQL names them.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "binder/bound_expr.h"
#include "catalog/table.h"
#include "execution/operators.h"
#include "meridian/database.h"

namespace meridian::exec {

struct WorkTable;  // execution/recursive_union.h

// Links a recursive UNION to its recursive term's reference to the query: the planner puts the
// working table here when it plans the UNION, and the reference's scan, planned after, takes
// it.
// A data-modifying WITH query's RETURNING rows are read the same way: its slot (cte set) holds
// them before the statement is planned, and its references show as "CTE Scan".
struct WorkTableSlot {
  std::shared_ptr<WorkTable> table;
  double estimated_rows = 1;  // the planner's guess of one iteration's rows
  bool cte = false;           // a data-modifying WITH query's rows, not a recursive union's
};

struct BoundSelect {
  // A set operation (UNION/INTERSECT/EXCEPT): set_left/set_right are the inputs, each followed
  // by casts to the common column types when needed (over that input's output row; empty =
  // none). Such a node uses only
  // columns, visible, order_by, limit and offset below.
  ast::SetOp set_op = ast::SetOp::kNone;
  bool set_all = false;
  std::unique_ptr<BoundSelect> set_left, set_right;
  std::vector<BoundExprPtr> left_casts, right_casts;
  // WITH RECURSIVE's query (a UNION [ALL], bind_cte.cc): set_left is the non-recursive term,
  // set_right the recursive term, which reads work_table through one FROM item whose derived
  // BoundSelect has work_table_scan set (and only work_table and columns besides).
  bool recursive = false;
  bool work_table_scan = false;
  std::shared_ptr<WorkTableSlot> work_table;

  std::vector<std::shared_ptr<catalog::Table>> from;  // a left-deep join chain, in FROM order
  // Parallel to from: a subquery or WITH query in FROM (from[i] is null then), and the name
  // each item goes by (alias or table name).
  std::vector<std::unique_ptr<BoundSelect>> derived;
  // A set-returning function in FROM (unnest, generate_series) is a derived BoundSelect with
  // only this call (kFunction, arguments bound in the enclosing scope) and one column.
  BoundExprPtr function;
  std::vector<std::string> from_names;
  // Per FROM item: LATERAL, i.e. its subquery or function reads the FROM items before it, as
  // columns at depth 1 of their FROM-order row (references to enclosing queries are one level
  // further out); it runs once per row of them. Empty: none is.
  std::vector<bool> lateral;
  bool IsLateral(size_t i) const { return i < lateral.size() && lateral[i]; }
  // Per FROM table: how it joins the tables before it (kComma for the first) and its ON
  // condition (USING becomes equalities) over the joined row of tables 0..i; may be null.
  std::vector<ast::JoinType> join_types;
  std::vector<BoundExprPtr> join_on;
  BoundExprPtr where;  // over the joined row; may be null
  bool aggregated = false;
  std::vector<BoundExprPtr> group_by;  // over the joined row
  // GROUP BY GROUPING SETS / ROLLUP / CUBE: the grouping sets, each the group_by indexes it
  // groups by (in order; () is empty); empty for a plain GROUP BY. The aggregate row of a
  // set has NULL for the keys outside it; GROUPING(...) reads the set's number from the
  // kAggregate with agg kGrouping and no children among the aggregates (bind_aggregate.cc).
  std::vector<std::vector<int>> grouping_sets;
  std::vector<BoundExprPtr> aggregates;  // kAggregate nodes over the joined row
  BoundExprPtr having;                   // over the aggregate row (groups, then aggregates)
  // Window calls (kWindow) over the window input row: the aggregate row when aggregated, else
  // the joined row, window_input columns wide. The window row is that row followed by one
  // column per call: call j's result is column window_input + j.
  std::vector<BoundExprPtr> windows;
  int window_input = 0;
  // Set-returning calls of the select list (kFunction: unnest, generate_series), over the set
  // input row: the window row when there are window calls, else the aggregate row when
  // aggregated, else the joined row, set_input columns wide. Each input row gives as many rows
  // as its longest call (the others NULL once done; none when every call gives none), each the
  // input row followed by one column per call: call j's value is column set_input + j.
  std::vector<BoundExprPtr> set_functions;
  int set_input = 0;
  // Over the set row when there are set-returning calls, else the window row when there are
  // window calls, else the aggregate row when aggregated, else the joined row. The first `visible`
  // are the select list; the rest are hidden ORDER BY keys.
  std::vector<BoundExprPtr> projections;
  size_t visible = 0;
  std::vector<ColumnInfo> columns;  // the visible columns
  bool distinct = false;
  // DISTINCT ON: projected-row columns (hidden ones too); the rows, sorted by order_by (which
  // starts with them), keep the first of each run of equal values.
  std::vector<int> distinct_on;
  std::vector<SortKey> order_by;  // over the projected row
  BoundExprPtr limit;             // constant expressions; may be null
  BoundExprPtr offset;
  // SELECT ... FOR UPDATE / FOR SHARE: per FROM table, whether its rows are locked as they are
  // read (empty: none); FOR SHARE takes the same exclusive row lock as FOR UPDATE.
  std::vector<bool> lock_rows;
  bool lock_nowait = false;
  bool lock_skip_locked = false;
  // UPDATE ... FROM / DELETE ... USING: the FROM table (the target) whose scan appends each
  // row's rid (RidColumnOp, an integer) after its columns, so the joined row names the row to
  // change; -1: none. The FROM items after it start one column later.
  int rid_table = -1;
  bool LocksRows() const {
    for (bool b : lock_rows) {
      if (b) return true;
    }
    return false;
  }
};

// What the decorrelation rule needs to build a deferred subquery's hashed form (planner
// Decorrelate): the subquery bound once more (the per-row plan took the first binding), a
// third binding in spare (a scalar one's value over no rows; an EXISTS / IN's unique-ified
// inner side, planner UniqueInner), and the per-row plan's cost.
struct SubqueryPlan::Deferred {
  HashedForm form = HashedForm::kNone;
  std::unique_ptr<BoundSelect> select;
  std::unique_ptr<BoundSelect> spare;
  double per_row_cost = 1.0;
};

// PostgreSQL's functional dependency on a primary key: per column of s's joined row, kKeyed when
// its FROM table's primary key is wholly among s's plain-column GROUP BY items (kKeyColumn for
// the key's own columns), so the column has one value per group; kFree otherwise. Reads
// s.derived, so call it before planning takes them.
enum class GroupedBy : uint8_t { kFree, kKeyed, kKeyColumn };
std::vector<GroupedBy> ColumnsDeterminedByGroupBy(const BoundSelect& s);

// RETURNING of INSERT, UPDATE or DELETE: expressions over the table row (the new row; DELETE's
// old one) and the result columns they make.
struct BoundReturning {
  std::vector<BoundExprPtr> exprs;
  std::vector<ColumnInfo> columns;
  bool empty() const { return exprs.empty(); }
};

// A CHECK constraint bound over the table row (every position, dropped ones too).
struct BoundCheck {
  std::string name;
  BoundExprPtr expr;
};

// SET column = value of an UPDATE or of ON CONFLICT DO UPDATE.
struct BoundAssignment {
  int column;
  BoundExprPtr value;  // cast to the column type
};

// INSERT ... ON CONFLICT: the arbiter indexes and, for DO UPDATE, the assignments and WHERE
// bound over the existing row followed by the proposed one (EXCLUDED at column offset n).
struct BoundOnConflict {
  // Unique indexes whose live keys count as conflicts; with no target, every unique index.
  std::vector<std::shared_ptr<catalog::Index>> arbiters;
  bool do_update = false;
  std::vector<BoundAssignment> assignments;
  BoundExprPtr where;  // may be null
};

struct BoundInsert {
  std::shared_ptr<catalog::Table> table;
  // Produces rows whose values already have the types of the target columns.
  OperatorPtr source;
  // Per table column: index into the source row, or -1 for its default.
  std::vector<int> column_source;
  // Per table column: its DEFAULT bound and cast to the column type; null means NULL.
  std::vector<BoundExprPtr> defaults;
  std::vector<BoundCheck> checks;
  BoundReturning returning;
  std::unique_ptr<BoundOnConflict> on_conflict;  // null without ON CONFLICT
};

// The rows an UPDATE or DELETE changes: its WHERE, and once planned (PlanMatches) the access
// path that finds them. A prepared statement's plan cache keeps it planned between executions.
struct BoundMatch {
  std::shared_ptr<catalog::Table> table;
  BoundExprPtr where;    // over the table row; may be null; PlanMatches moves it into scan
  BoundExprPtr recheck;  // a second binding of where: READ COMMITTED re-checks newer versions
  std::unique_ptr<RowSourceOp> scan;  // where's access path (null until planned)
  BoundExprPtr residual;              // the conjuncts the access path does not enforce
  BoundReturning returning;
  std::string alias;  // UPDATE t AS x / DELETE FROM t x: x (empty: none)
  // UPDATE ... FROM / DELETE ... USING (null otherwise): the FROM items joined with the target
  // as one SELECT (where, above, is then null: it is the join's WHERE). Its row: the FROM
  // items' columns, the target's from target_offset on, then the target row's rid; recheck,
  // SET values and RETURNING are bound over that row. The statement driver plans it into
  // join_plan (normal join planning: hash or index nested-loop joins).
  std::unique_ptr<BoundSelect> join;
  OperatorPtr join_plan;
  int target_offset = 0;
};

struct BoundUpdate : BoundMatch {
  using Assignment = BoundAssignment;  // values over the old row
  std::vector<Assignment> assignments;
  std::vector<BoundCheck> checks;
};

struct BoundDelete : BoundMatch {};

}  // namespace meridian::exec
