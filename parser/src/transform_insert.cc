// INSERT INTO t [AS alias] [(cols)] VALUES (...), ... | query [ON CONFLICT ...]; DEFAULT in a
// VALUES row becomes a null ExprPtr.

#include "transformer.h"

namespace meridian::parser {

namespace {

// The VALUES list when the query is nothing but one (no WITH, set operation, ORDER BY, LIMIT,
// OFFSET or locking clause, no parentheses), else null.
P::ValuesClauseContext* BareValues(P::SelectStmtContext* ctx) {
  if (ctx->children.size() != 1) return nullptr;  // only the selectSet
  P::SelectSetContext* set = ctx->selectSet();
  if (set->children.size() != 1) return nullptr;
  P::SelectTermContext* term = set->selectTerm(0);
  if (term->children.size() != 1) return nullptr;
  return term->selectPrimary(0)->valuesClause();
}

}  // namespace

std::unique_ptr<ast::OnConflict> Transformer::TransformOnConflict(P::OnConflictClauseContext* ctx) {
  auto out = std::make_unique<ast::OnConflict>();
  out->loc = Loc(ctx);
  if (P::ConflictTargetContext* target = ctx->conflictTarget()) {
    if (target->K_CONSTRAINT() != nullptr) {
      out->constraint = Identifier(target->identifier());
      out->constraint_loc = Loc(target->identifier());
    } else {
      for (P::IndexElemContext* item : target->indexElem()) {
        std::string name;
        ast::ExprPtr expr;
        TransformIndexElem(item, &name, &expr);
        out->columns.push_back(std::move(name));
        out->column_locs.push_back(Loc(item));
        out->target_exprs.push_back(std::move(expr));
      }
      if (target->expr() != nullptr) out->target_where = TransformExpr(target->expr());
    }
  }
  out->do_update = ctx->K_UPDATE() != nullptr;
  for (P::AssignmentContext* a : ctx->assignment()) {
    out->assignments.push_back(TransformAssignment(a));
  }
  if (ctx->expr() != nullptr) out->where = TransformExpr(ctx->expr());
  return out;
}

std::unique_ptr<ast::InsertStmt> Transformer::TransformInsert(P::InsertStmtContext* ctx) {
  auto stmt = std::make_unique<ast::InsertStmt>();
  TransformWith(ctx->withClause(), &stmt->with);
  stmt->table = RelationName(ctx->target);
  stmt->table_loc = Loc(ctx->target);
  if (ctx->alias != nullptr) stmt->alias = Identifier(ctx->alias);
  bool indirection = false;
  std::vector<ast::Assignment> targets;
  for (P::ColumnTargetContext* column : ctx->columnTarget()) {
    targets.push_back(TransformColumnTarget(column));
    stmt->columns.push_back(targets.back().column);
    stmt->column_locs.push_back(targets.back().loc);
    indirection =
        indirection || !targets.back().subscripts.empty() || !targets.back().field.empty();
  }
  if (indirection) stmt->column_targets = std::move(targets);
  if (P::OnConflictClauseContext* oc = ctx->onConflictClause()) {
    stmt->on_conflict = TransformOnConflict(oc);
  }
  stmt->returning = TransformReturning(ctx->returningClause());
  if (ctx->returningClause() != nullptr) stmt->returning_loc = Loc(ctx->returningClause());
  if (ctx->overriding != nullptr) {
    const std::string word = Identifier(ctx->overriding);
    if (word == "system") {
      stmt->overriding = 's';
    } else if (word == "user") {
      stmt->overriding = 'u';
    } else {
      Fail(ErrorAt(ctx->overriding, sqlstate::kSyntaxError,
                   "syntax error at or near \"" + ctx->overriding->getText() + "\""));
    }
  }
  if (ctx->selectStmt() == nullptr) {  // DEFAULT VALUES
    stmt->default_values = true;
    return stmt;
  }
  if (P::ValuesClauseContext* values = BareValues(ctx->selectStmt())) {
    for (P::ValuesRowContext* row_ctx : values->valuesRow()) {
      std::vector<ast::ExprPtr> row;
      for (P::ValueItemContext* item : row_ctx->valueItem()) {
        row.push_back(TransformValueItem(item));
      }
      stmt->values.push_back(std::move(row));
    }
    return stmt;
  }
  stmt->select = TransformSelect(ctx->selectStmt());
  return stmt;
}

}  // namespace meridian::parser
