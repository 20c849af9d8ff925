// Equivalence classes of a query's equalities (PostgreSQL's EquivalenceClass, for constants):
// columns joined by `a = b` form a class; when one member equals a constant (a literal, a
// parameter or an outer query's column), every member gets that equality, so
// `w_id = 1 AND c_w_id = w_id` also gives `c_w_id = 1` — an index key on c_w_id — and the
// column equality it implies is no longer needed as a join condition.
#pragma once

#include <vector>

#include "binder/bound_expr.h"

namespace meridian::exec {

struct DerivedEqualities {
  std::vector<bool> drop;             // per input conjunct: implied by the new ones
  std::vector<BoundExprPtr> added;    // member = constant, over the same row as the inputs
};

// conjuncts: top-level conjuncts over one row (depth-0 columns); eligible[i]: conjunct i holds
// for every row of the result (not below an outer join's NULL-extended side, no subquery).
// Only classes whose members and constant share one key family (and, for strings, one type)
// take part, so that equality is transitive for them.
DerivedEqualities DeriveEqualities(const std::vector<const BoundExpr*>& conjuncts,
                                   const std::vector<bool>& eligible);

}  // namespace meridian::exec
