// Access-path selection for one table: which of heap scan, index scan (point, IN list, range,
// prefix + range), R-tree index scan (a box over 2+ indexed columns) and index-only scan answers a
// set of WHERE conjuncts most cheaply, and in which key order it delivers rows. Costs are in
// PostgreSQL's units (one sequential page read = 1.0) so EXPLAIN output reads familiarly;
// statistics come from ANALYZE when present and from PostgreSQL's default selectivities otherwise
// (planner README: "Costs").
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "binder/bound_expr.h"
#include "catalog/table.h"
#include "execution/operators.h"

namespace meridian::exec {

// PostgreSQL's cost constants.
inline constexpr double kSeqPageCost = 1.0;
inline constexpr double kRandomPageCost = 4.0;
inline constexpr double kCpuTupleCost = 0.01;
inline constexpr double kCpuIndexTupleCost = 0.005;
inline constexpr double kCpuOperatorCost = 0.0025;

// One key column's condition in an index scan, in value order (not byte order).
// (KeyRange, one interval of a key column's values, is in execution/operators.h.)
struct KeyCondition {
  // Equality: exactly one of eq (a single value), in_list (several) or in_array (`= ANY(a)`:
  // the elements of an array value, or the rows of an uncorrelated `IN (subquery)` node,
  // evaluated when the scan opens) is set.
  const BoundExpr* eq = nullptr;
  std::vector<const BoundExpr*> in_list;
  const BoundExpr* in_array = nullptr;
  // Range (only on the column after the equality prefix).
  const BoundExpr* lower = nullptr;
  bool lower_inclusive = true;
  const BoundExpr* upper = nullptr;
  bool upper_inclusive = true;
  // OR of intervals (`k < 10 OR k BETWEEN 50 AND 60 OR k = 99`), instead of the range above;
  // overlapping intervals may find a row twice, so the scan drops repeated rids.
  std::vector<KeyRange> any_of;
  // Points over this and the next tuple_width - 1 key columns (`(a, b) IN ((1, 2), (1, 7))`,
  // `(a = 1 AND b = 2) OR (a = 3 AND b = 4)`): each tuple holds one value per column in key
  // order. The next tuple_width - 1 conditions are placeholders (tuple_member) the scan skips.
  int tuple_width = 0;
  std::vector<std::vector<const BoundExpr*>> tuples;
  bool tuple_member = false;
};

// The chosen way to read one table. Expressions point into the conjuncts the caller keeps
// alive (the residual filter and the index conditions share nothing).
struct AccessPlan {
  enum class Kind { kSeqScan, kIndexScan, kIndexOnlyScan };
  Kind kind = Kind::kSeqScan;
  std::shared_ptr<catalog::Index> index;
  std::vector<KeyCondition> keys;  // equality prefix, then at most one range column
  // An R-tree index: the query box, one interval per index column (dimension); a missing end
  // is unbounded. The scan finds the points in the closed box and re-checks index_conds.
  std::vector<KeyRange> box;
  // An R-tree nearest-neighbour scan (rows in distance order, no box): the query point's
  // expression (a float8[] of run-time constants), and for each of its elements the index
  // dimension it is the coordinate of; order_by is the ORDER BY key (for EXPLAIN).
  const BoundExpr* nearest_point = nullptr;
  std::vector<int> point_dims;
  const BoundExpr* order_by = nullptr;
  // An R-tree on a point or box column: the point or box value (a run-time constant) of the
  // index condition; the scan finds the entries near it and re-checks index_conds.
  const BoundExpr* geo_query = nullptr;
  bool reverse = false;  // scan the index backwards
  // Conjuncts the index enforces (owned here; for EXPLAIN "Index Cond"), and the rest.
  std::vector<BoundExprPtr> index_conds;
  std::vector<BoundExprPtr> residual;
  double rows = 0;  // estimated rows out of the access path, after the residual filter
  double startup_cost = 0;
  double total_cost = 0;
  // Column order the rows come in: table column indexes with direction (empty: none).
  struct OrderColumn {
    int column;
    bool descending;  // and NULLs first, as PostgreSQL's defaults pair them
  };
  std::vector<OrderColumn> order;
};

// An expression PostgreSQL folds while planning: operators, casts, CASE, IN lists and a few
// pure functions over constants (no column, parameter, subquery or aggregate).
bool IsPlanConstant(const BoundExpr& e);
// Splits an AND tree into its conjuncts (moves the nodes out of where), after PostgreSQL's
// simplification of AND/OR with a constant TRUE or FALSE operand.
std::vector<BoundExprPtr> SplitConjuncts(BoundExprPtr where);
// Joins conjuncts back with AND, cheapest first by PostgreSQL's per-row cost; null when empty.
BoundExprPtr JoinConjuncts(std::vector<BoundExprPtr> conjuncts);

struct AccessRequest {
  std::shared_ptr<catalog::Table> table;
  // Conjuncts over the table row (column slot depth 0 = this table). Taken over by the plan.
  std::vector<BoundExprPtr> conjuncts;
  // Columns the query needs from this table (for index-only scans); empty means all.
  std::vector<bool> needed_columns;
  // A wanted output order (ORDER BY on plain columns), with an optional LIMIT: a path that
  // delivers this order is charged only for the fraction of rows the LIMIT needs.
  std::vector<AccessPlan::OrderColumn> wanted_order;
  std::optional<double> limit;
  // An ORDER BY key (ascending, with a LIMIT) that an R-tree may deliver by a nearest-neighbour
  // scan: cube_distance(cube(ARRAY[c1, ..., ck]), point) over the columns of an R-tree index,
  // point a run-time constant (either argument order). *ordered then tells whether it did.
  const BoundExpr* nearest = nullptr;
  // A single ORDER BY key that is no column, with a LIMIT: an expression index on
  // it delivers that order (order_descending: DESC, NULLS FIRST; else ASC, NULLS LAST).
  // *ordered then tells whether it did.
  const BoundExpr* order_expr = nullptr;
  bool order_descending = false;
};

// Picks the cheapest access path. When wanted_order is given, *ordered tells whether the
// result already delivers it (the caller then needs no sort).
AccessPlan ChooseAccessPath(AccessRequest request, bool* ordered);

// The rows and total cost ChooseAccessPath's plan for req would have (req is left as it is).
struct AccessEstimate {
  double rows = 0;
  double total_cost = 0;
};
AccessEstimate EstimateAccessPath(const AccessRequest& req);

// Builds the operator for a plan. The plan's expressions are moved into the operator.
std::unique_ptr<RowSourceOp> MakeAccessOperator(const std::shared_ptr<catalog::Table>& table,
                                                AccessPlan* plan);

// The heap pages of table's live rows as the access paths estimate them (lock-free).
double EstimatedHeapPages(const catalog::Table& table);

// Rough estimate of a conjunct's selectivity on table (defaults without statistics).
double EstimateSelectivity(const BoundExpr& conjunct, const catalog::Table& table);

// For a call of a geometric operator that an R-tree on a point or box column serves (&&, @>,
// <@, ~= over point and box): PostgreSQL's estimate of the fraction of rows (or, as a join
// condition, of the cross product) it keeps, the same constant either way: 0.005 for &&
// (areasel, areajoinsel), 0.001 for @> and <@ (contsel, contjoinsel), 0.005 for ~= (eqsel,
// eqjoinsel without statistics: 1/200). nullopt for anything else.
std::optional<double> GeometryOperatorSelectivity(const BoundExpr& call);

// Index keys compare by byte order within one family (integers, double, strings, boolean,
// numeric, date, timestamp, real, ...; arrays of each); a condition is only sargable when its
// value belongs to the column's family. 0: no index family.
int KeyFamily(const Type& t);

}  // namespace meridian::exec
