// Binding of INSERT ... ON CONFLICT: which unique indexes arbitrate (a column list must name
// exactly the columns of a unique index or of the primary key, as a set — key expressions
// compared as deparsed text, `(lower(email))`, and a partial index only when the target's
// WHERE repeats each conjunct of its predicate; ON CONSTRAINT names a
// primary key or unique constraint; no target: every unique index, allowed for DO NOTHING
// only), and DO UPDATE's SET list and WHERE over the target row (alias or table name, columns
// 0..n-1) followed by the proposed row (EXCLUDED, columns n..2n-1).
#include <algorithm>

#include "binder/binder.h"
#include "binder/deparse.h"
#include "meridian/parser/parser.h"

namespace meridian::exec {

namespace {

Status NoMatchingConstraint(const ast::OnConflict& oc) {
  return Status::Error(sqlstate::kInvalidColumnReference,
                       "there is no unique or exclusion constraint matching the ON CONFLICT "
                       "specification")
      .WithPosition(oc.loc.position);
}

}  // namespace

Result<std::vector<BoundExprPtr>> Binder::BindPredicateConjuncts(
    const ast::Expr& expr, const catalog::TableSchema& schema) {
  std::vector<BoundExprPtr> out;
  std::vector<const ast::Expr*> stack{&expr};
  while (!stack.empty()) {
    const ast::Expr* e = stack.back();
    stack.pop_back();
    if (e->kind == ast::ExprKind::kBinary && e->binary_op == ast::BinaryOp::kAnd) {
      stack.push_back(e->children[1].get());
      stack.push_back(e->children[0].get());
      continue;
    }
    MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr bound, BindIndexExpr(*e, schema, true));
    out.push_back(std::move(bound));
  }
  return out;
}

Result<std::vector<std::string>> Binder::PredicateConjuncts(const ast::Expr& expr,
                                                            const catalog::TableSchema& schema) {
  MERIDIAN_ASSIGN_OR_RETURN(std::vector<BoundExprPtr> bound, BindPredicateConjuncts(expr, schema));
  std::vector<std::string> out;
  for (const BoundExprPtr& e : bound) out.push_back(DeparseExpr(*e, false));
  return out;
}

Status Binder::BindOnConflict(const ast::InsertStmt& stmt, BoundInsert* out) {
  const ast::OnConflict& oc = *stmt.on_conflict;
  catalog::Table& table = *out->table;
  const catalog::TableSchema& schema = table.schema();
  auto bound = std::make_unique<BoundOnConflict>();
  bound->do_update = oc.do_update;
  if (!oc.columns.empty()) {
    std::vector<int> wanted;
    std::vector<std::string> wanted_exprs;  // expressions as deparsed SQL text
    for (size_t i = 0; i < oc.columns.size(); ++i) {
      if (i < oc.target_exprs.size() && oc.target_exprs[i] != nullptr) {
        MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr e,
                                  BindIndexExpr(*oc.target_exprs[i], schema, false));
        std::string text = DeparseExpr(*e, false);
        if (std::find(wanted_exprs.begin(), wanted_exprs.end(), text) == wanted_exprs.end()) {
          wanted_exprs.push_back(std::move(text));
        }
        continue;
      }
      const int c = schema.FindColumn(oc.columns[i]);
      if (c < 0) {
        return Status::Error(sqlstate::kUndefinedColumn,
                             "column \"" + oc.columns[i] + "\" does not exist")
            .WithPosition(oc.column_locs[i].position);
      }
      if (std::find(wanted.begin(), wanted.end(), c) == wanted.end()) wanted.push_back(c);
    }
    std::sort(wanted.begin(), wanted.end());
    std::sort(wanted_exprs.begin(), wanted_exprs.end());
    std::vector<std::string> where;  // the target's WHERE conjuncts as text
    if (oc.target_where != nullptr) {
      MERIDIAN_ASSIGN_OR_RETURN(where, PredicateConjuncts(*oc.target_where, schema));
    }
    for (const std::shared_ptr<catalog::Index>& index : table.indexes()) {
      const catalog::IndexSchema& x = index->schema();
      if (!x.unique || x.IsRtree()) continue;
      std::vector<int> cols;
      std::vector<std::string> exprs;
      for (size_t k = 0; k < x.columns.size(); ++k) {
        if (x.columns[k] != catalog::kExpressionKey) {
          if (std::find(cols.begin(), cols.end(), x.columns[k]) == cols.end()) {
            cols.push_back(x.columns[k]);
          }
        } else {
          MERIDIAN_ASSIGN_OR_RETURN(ast::ExprPtr parsed, parser::ParseExpression(x.expressions[k]));
          MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr e, BindIndexExpr(*parsed, schema, false));
          std::string text = DeparseExpr(*e, false);
          if (std::find(exprs.begin(), exprs.end(), text) == exprs.end()) {
            exprs.push_back(std::move(text));
          }
        }
      }
      std::sort(cols.begin(), cols.end());
      std::sort(exprs.begin(), exprs.end());
      if (cols != wanted || exprs != wanted_exprs) continue;
      // A partial index arbitrates only when the target's WHERE repeats each conjunct of its
      // predicate (PostgreSQL proves implication; Meridian matches them as written).
      if (x.IsPartial()) {
        MERIDIAN_ASSIGN_OR_RETURN(ast::ExprPtr parsed, parser::ParseExpression(x.predicate));
        MERIDIAN_ASSIGN_OR_RETURN(std::vector<std::string> needed,
                                  PredicateConjuncts(*parsed, schema));
        bool implied = true;
        for (const std::string& n : needed) {
          implied &= std::find(where.begin(), where.end(), n) != where.end();
        }
        if (!implied) continue;
      }
      bound->arbiters.push_back(index);
    }
    if (bound->arbiters.empty()) return NoMatchingConstraint(oc);
  } else if (!oc.constraint.empty()) {
    for (const std::shared_ptr<catalog::Index>& index : table.indexes()) {
      if (index->name() == oc.constraint && index->schema().unique &&
          index->schema().IsConstraint()) {
        bound->arbiters.push_back(index);
      }
    }
    if (bound->arbiters.empty()) {
      return Status::Error(sqlstate::kUndefinedObject, "constraint \"" + oc.constraint +
                                                           "\" for table \"" + schema.name +
                                                           "\" does not exist")
          .WithPosition(oc.constraint_loc.position);
    }
  } else if (oc.do_update) {
    return Status::Error(sqlstate::kSyntaxError,
                         "ON CONFLICT DO UPDATE requires inference specification or constraint "
                         "name")
        .WithHint("For example, ON CONFLICT (column_name).")
        .WithPosition(oc.loc.position);
  } else {
    for (const std::shared_ptr<catalog::Index>& index : table.indexes()) {
      if (index->schema().unique) bound->arbiters.push_back(index);
    }
  }
  if (oc.do_update) {
    Scope scope;
    scope.tables.push_back(
        TableScope(stmt.alias.empty() ? schema.name : stmt.alias, out->table, 0));
    scope.tables.push_back(
        TableScope("excluded", out->table, static_cast<int>(schema.columns.size())));
    ScopeSwitch enter(this, &scope);
    correlated_.assign(1, false);
    MERIDIAN_RETURN_IF_ERROR(BindAssignments(oc.assignments, table, 0, &bound->assignments));
    MERIDIAN_RETURN_IF_ERROR(CheckIdentityAssignments(oc.assignments, table));
    if (oc.where != nullptr) {
      rules_ = ExprRules{"WHERE", false, true, true};
      MERIDIAN_ASSIGN_OR_RETURN(bound->where, BindBoolean(*oc.where, "WHERE"));
    }
  }
  out->on_conflict = std::move(bound);
  return Status::Ok();
}

}  // namespace meridian::exec
