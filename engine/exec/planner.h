// Planner: turns a bound SELECT into a physical operator tree. There is one access path (the
// sequential heap scan) and one join method (nested loop) for now, so planning is a fixed
// pipeline: scan/join → filter → aggregate → having → project → distinct → sort → limit.
// The cost-based optimizer (index scans, join order) replaces this when B+trees land.
#pragma once

#include <memory>

#include "exec/bound_statement.h"
#include "exec/operators.h"

namespace meridian::exec {

Result<OperatorPtr> PlanSelect(std::unique_ptr<BoundSelect> select);

}  // namespace meridian::exec
