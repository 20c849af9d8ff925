// Rewrites the expressions of an aggregated query (select list, HAVING, ORDER BY keys) to
// read the aggregate operator's output row: GROUP BY values first, then aggregate results.
// A bare column that is neither grouped nor aggregated is error 42803, as in PostgreSQL.
#include "binder/binder.h"

namespace meridian::exec {

Status Binder::RewriteForAggregate(BoundExprPtr* expr, BoundSelect* out) {
  BoundExpr& e = **expr;
  for (size_t i = 0; i < out->group_by.size(); ++i) {
    if (e.Equals(*out->group_by[i])) {
      auto ref = BoundExpr::Column(0, static_cast<int>(i), e.type, e.name);
      ref->position = e.position;
      *expr = std::move(ref);
      return Status::Ok();
    }
  }
  if (e.kind == BoundKind::kAggregate) {
    size_t j = 0;
    while (j < out->aggregates.size() && !out->aggregates[j]->Equals(e)) ++j;
    Type type = e.type;
    uint32_t pos = e.position;
    if (j == out->aggregates.size()) out->aggregates.push_back(std::move(*expr));
    auto ref = BoundExpr::Column(0, static_cast<int>(out->group_by.size() + j), type, "");
    ref->position = pos;
    *expr = std::move(ref);
    return Status::Ok();
  }
  if (e.kind == BoundKind::kColumn && e.depth == 0) {
    return Status::Error(sqlstate::kGroupingError,
                         "column \"" + e.name +
                             "\" must appear in the GROUP BY clause or be used in an aggregate "
                             "function")
        .WithPosition(e.position);
  }
  if (e.subquery != nullptr && e.subquery->correlated) {
    return Status::NotSupported(
               "correlated subqueries in the select list of an aggregated query are not "
               "supported yet")
        .WithPosition(e.position);
  }
  for (BoundExprPtr& c : e.children) MERIDIAN_RETURN_IF_ERROR(RewriteForAggregate(&c, out));
  return Status::Ok();
}

}  // namespace meridian::exec
