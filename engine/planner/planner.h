// Planner: turns a bound SELECT into a physical operator tree and its EXPLAIN description.
// Per FROM table it pushes the WHERE conjuncts that only use that table down to the table's
// access path, chosen by cost among heap scan, index scan and index-only scan
// (access_path.h); the rest goes to the joins, whose order is chosen by cost (join_order.h,
// plan_join.cc). Then the
// fixed pipeline: aggregate → having → project → distinct → sort (skipped when a single
// table's index delivers the ORDER BY) → limit.
#pragma once

#include <memory>

#include "binder/bound_statement.h"
#include "planner/explain.h"
#include "execution/operators.h"

namespace meridian::exec {

struct PlannedSelect {
  OperatorPtr root;
  std::unique_ptr<PlanNode> explain;
};

// instrument: wrap every operator in an InstrumentOp (EXPLAIN ANALYZE).
Result<PlannedSelect> PlanSelectExplained(std::unique_ptr<BoundSelect> select, bool instrument);
Result<OperatorPtr> PlanSelect(std::unique_ptr<BoundSelect> select);

// The hashed form of a correlated [NOT] EXISTS subquery (decorrelate.cc): select is a second
// binding of the subquery; per_row_cost the estimated cost of one per-row run. Null when the
// subquery's shape does not allow it (see SubqueryPlan::HashedExists).
std::unique_ptr<SubqueryPlan::HashedExists> DecorrelateExists(std::unique_ptr<BoundSelect> select,
                                                              double per_row_cost);

}  // namespace meridian::exec
