// Planner: turns a bound SELECT into a physical operator tree and its EXPLAIN description,
// through its logical plan (logical_plan.h: built, rewritten, then lowered). Per FROM table it
// pushes the WHERE conjuncts that only use that table down to the table's access path, chosen
// by cost among heap scan, index scan and index-only scan (access_path.h); the rest goes to
// the joins, whose order is chosen by cost (join_order.h, plan_join.cc). Then the fixed
// pipeline: aggregate → having → windows → project → distinct → sort (skipped when a single
// table's index delivers the ORDER BY) → limit.
#pragma once

#include <memory>

#include "binder/bound_statement.h"
#include "execution/operators.h"
#include "planner/explain.h"

namespace meridian::exec {

struct PlannedSelect {
  OperatorPtr root;
  std::unique_ptr<PlanNode> explain;
};

// instrument: wrap every operator in an InstrumentOp (EXPLAIN ANALYZE).
Result<PlannedSelect> PlanSelectExplained(std::unique_ptr<BoundSelect> select, bool instrument);
Result<OperatorPtr> PlanSelect(std::unique_ptr<BoundSelect> select);

// The hashed form (decorrelate.cc) of a correlated subquery used as form: select is a second
// binding of the subquery, spare (kScalar only) a third, whose select list gives the value
// over no rows; per_row_cost the estimated cost of one per-row run. Null when the subquery's
// shape does not allow it (see SubqueryPlan::Hashed).
std::unique_ptr<SubqueryPlan::Hashed> Decorrelate(HashedForm form,
                                                  std::unique_ptr<BoundSelect> select,
                                                  std::unique_ptr<BoundSelect> spare,
                                                  double per_row_cost);
// Whether values of types a and b have equal hash keys exactly when a = b is true (kIn's x
// and y).
bool HashesAsEqual(const Type& a, const Type& b);

}  // namespace meridian::exec
