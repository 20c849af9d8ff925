// Binding of INSERT: the target column list, VALUES rows or INSERT ... SELECT, assignment
// coercion of every value to its column's type, and the DEFAULTs of the columns not given;
// ON CONFLICT in bind_on_conflict.cc.
#include "binder/binder.h"
#include "binder/type_rules.h"
#include "planner/planner.h"

namespace meridian::exec {

Result<std::unique_ptr<BoundInsert>> Binder::BindInsert(const ast::InsertStmt& stmt) {
  WithScope with(this, stmt.with);  // WITH ... INSERT: seen by the source, RETURNING, ...
  return BindInsertBody(stmt);
}

Result<std::unique_ptr<BoundInsert>> Binder::BindInsertBody(const ast::InsertStmt& stmt) {
  auto out = std::make_unique<BoundInsert>();
  MERIDIAN_ASSIGN_OR_RETURN(out->table,
                            LookupTable(stmt.table, stmt.table_loc, catalog::LockMode::kExclusive));
  const catalog::TableSchema& schema = out->table->schema();
  const size_t ncols = schema.columns.size();

  // The listed columns, each once (targets); with subscripts a column may be listed several
  // times (a[1], a[2]): its values are assigned in order into a NULL array, as PostgreSQL's
  // rewriter nests them. slot_of: per listed position, its target; listed: per target, the
  // position of its first listing.
  std::vector<int> targets;
  std::vector<int> slot_of;
  std::vector<int> listed;
  std::vector<bool> subscripted;  // per target
  const bool explicit_list = !stmt.columns.empty();
  const bool indirection = !stmt.column_targets.empty();
  for (size_t i = 0; i < stmt.columns.size(); ++i) {
    uint32_t pos = i < stmt.column_locs.size() ? stmt.column_locs[i].position : 0;
    int c = schema.FindColumn(stmt.columns[i]);
    if (c < 0) {
      return Status::Error(sqlstate::kUndefinedColumn, "column \"" + stmt.columns[i] +
                                                           "\" of relation \"" + schema.name +
                                                           "\" does not exist")
          .WithPosition(pos);
    }
    bool sub = false;
    if (indirection) {
      MERIDIAN_RETURN_IF_ERROR(CheckTargetField(stmt.column_targets[i], schema.columns[c]));
      sub = !stmt.column_targets[i].subscripts.empty();
    }
    int slot = -1;
    for (size_t k = 0; k < targets.size(); ++k) {
      if (targets[k] != c) continue;
      if (!sub || !subscripted[k]) {
        return Status::Error(sqlstate::kDuplicateColumn,
                             "column \"" + stmt.columns[i] + "\" specified more than once")
            .WithPosition(pos);
      }
      slot = static_cast<int>(k);
    }
    if (slot < 0) {
      slot = static_cast<int>(targets.size());
      targets.push_back(c);
      listed.push_back(static_cast<int>(i));
      subscripted.push_back(sub);
    }
    slot_of.push_back(slot);
  }
  // The value at listed position i assigned to its target: coerced to the column's type, or
  // through its subscripts into the target's value so far (*slot; null: none yet).
  auto assign = [&](size_t i, const ast::Expr* value_expr, BoundExprPtr value,
                    BoundExprPtr* slot) -> Status {
    const catalog::Column& col = schema.columns[targets[slot_of[i]]];
    if (!indirection || stmt.column_targets[i].subscripts.empty()) {
      if (value == nullptr) {
        MERIDIAN_ASSIGN_OR_RETURN(value, BindExpr(*value_expr));
      }
      MERIDIAN_ASSIGN_OR_RETURN(*slot, Coerce(std::move(value), col.type, true, col.name));
      return Status::Ok();
    }
    BoundExprPtr current =
        *slot != nullptr ? std::move(*slot) : BoundExpr::Const(Value::Null(), col.type);
    MERIDIAN_ASSIGN_OR_RETURN(
        *slot, BindArrayAssignment(stmt.column_targets[i], col, std::move(current), value_expr,
                                   std::move(value)));
    return Status::Ok();
  };
  auto list_all = [&](size_t n, const std::vector<int>& live) {
    for (size_t i = 0; i < n; ++i) {
      targets.push_back(live[i]);
      slot_of.push_back(static_cast<int>(i));
      listed.push_back(static_cast<int>(i));
      subscripted.push_back(false);
    }
  };
  // Without a column list the values go to the columns that are not dropped, in order.
  const std::vector<int> live = schema.LiveColumns();
  const size_t max_targets = explicit_list ? stmt.columns.size() : live.size();

  Scope empty;
  ScopeSwitch enter(this, &empty);
  correlated_.assign(1, false);

  if (stmt.select != nullptr) {
    scope_ = enter.saved();  // the SELECT opens its own top-level scope
    // Untyped outputs (NULL, '2024-01-01') stay unknown and take their column's type below, as
    // PostgreSQL binds INSERT ... SELECT, instead of becoming text first.
    set_branch_ = true;
    MERIDIAN_ASSIGN_OR_RETURN(std::unique_ptr<BoundSelect> select, BindSelect(*stmt.select));
    const size_t n = select->columns.size();
    if (n > max_targets) {
      return Status::Error(sqlstate::kSyntaxError,
                           "INSERT has more expressions than target columns")
          .WithPosition(stmt.select->items.empty() ? 0 : stmt.select->loc.position);
    }
    if (explicit_list && n < stmt.columns.size()) {
      return Status::Error(sqlstate::kSyntaxError,
                           "INSERT has more target columns than expressions")
          .WithPosition(stmt.column_locs.size() > n ? stmt.column_locs[n].position : 0);
    }
    if (!explicit_list) list_all(n, live);
    scope_ = &empty;  // subscripts of the column list see no columns
    rules_ = ExprRules{"VALUES", false, true, true};
    std::vector<BoundExprPtr> casts(targets.size());
    for (size_t i = 0; i < n; ++i) {
      const catalog::Column& col = schema.columns[targets[slot_of[i]]];
      auto ref = BoundExpr::Column(0, static_cast<int>(i), select->columns[i].type, col.name);
      ref->position = stmt.select->loc.position;
      MERIDIAN_RETURN_IF_ERROR(assign(i, nullptr, std::move(ref), &casts[slot_of[i]]));
    }
    MERIDIAN_ASSIGN_OR_RETURN(OperatorPtr plan, PlanSelect(std::move(select)));
    out->source = std::make_unique<ProjectOp>(std::move(plan), std::move(casts));
  } else if (stmt.default_values) {
    std::vector<std::vector<BoundExprPtr>> rows(1);  // one row, every column its DEFAULT
    out->source = std::make_unique<ValuesOp>(std::move(rows));
  } else {
    rules_ = ExprRules{"VALUES", false, true, true};
    size_t width = 0;
    std::vector<std::vector<BoundExprPtr>> rows;
    for (const std::vector<ast::ExprPtr>& row : stmt.values) {
      if (row.size() > max_targets) {
        const ast::ExprPtr& extra = row[max_targets];
        return Status::Error(sqlstate::kSyntaxError,
                             "INSERT has more expressions than target columns")
            .WithPosition(extra != nullptr ? extra->loc.position : 0);
      }
      if (explicit_list && row.size() < stmt.columns.size()) {
        return Status::Error(sqlstate::kSyntaxError,
                             "INSERT has more target columns than expressions")
            .WithPosition(stmt.column_locs[row.size()].position);
      }
      if (!rows.empty() && row.size() != width) {
        return Status::Error(sqlstate::kSyntaxError, "VALUES lists must all be the same length")
            .WithPosition(row.empty() || row[0] == nullptr ? 0 : row[0]->loc.position);
      }
      width = row.size();
      if (!explicit_list && targets.empty()) list_all(width, live);
      std::vector<BoundExprPtr> bound_row(targets.size());
      for (size_t i = 0; i < row.size(); ++i) {
        const catalog::Column& col = schema.columns[targets[slot_of[i]]];
        BoundExprPtr& e = bound_row[slot_of[i]];
        if (row[i] == nullptr && !subscripted[slot_of[i]]) {  // DEFAULT
          if (col.default_expr != nullptr) {
            MERIDIAN_ASSIGN_OR_RETURN(e, BindDefault(*col.default_expr, col.type, col.name));
          } else {
            e = BoundExpr::Const(Value::Null(), col.type);
          }
        } else {
          MERIDIAN_RETURN_IF_ERROR(assign(i, row[i].get(), nullptr, &e));
        }
      }
      rows.push_back(std::move(bound_row));
    }
    out->source = std::make_unique<ValuesOp>(std::move(rows));
  }

  out->column_source.assign(ncols, -1);
  for (size_t i = 0; i < targets.size(); ++i) out->column_source[targets[i]] = static_cast<int>(i);
  out->defaults.resize(ncols);
  for (size_t c = 0; c < ncols; ++c) {
    const catalog::Column& col = schema.columns[c];
    if (out->column_source[c] >= 0 || col.default_expr == nullptr) continue;
    MERIDIAN_ASSIGN_OR_RETURN(out->defaults[c], BindDefault(*col.default_expr, col.type, col.name));
  }
  MERIDIAN_ASSIGN_OR_RETURN(out->checks, BindChecks(out->table));
  MERIDIAN_RETURN_IF_ERROR(CheckIdentityTargets(stmt, listed, out.get()));
  if (stmt.on_conflict != nullptr) MERIDIAN_RETURN_IF_ERROR(BindOnConflict(stmt, out.get()));
  MERIDIAN_RETURN_IF_ERROR(BindReturning(stmt.returning, out->table, &out->returning, stmt.alias));
  return out;
}

}  // namespace meridian::exec
