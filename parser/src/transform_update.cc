// UPDATE t [[AS] alias] SET c = expr | DEFAULT, ... [FROM items] [WHERE expr]; DEFAULT becomes a
// null value ExprPtr; c[i] / c[i:j] keep their subscripts; the FROM items are transformed as
// SELECT's.

#include "transformer.h"

namespace meridian::parser {

ast::Assignment Transformer::TransformColumnTarget(P::ColumnTargetContext* ctx) {
  ast::Assignment target;
  target.column = Identifier(ctx->identifier(0));
  target.loc = Loc(ctx);
  for (size_t i = 1; i < ctx->children.size(); ++i) {
    if (auto* sub = dynamic_cast<P::SubscriptContext*>(ctx->children[i])) {
      ast::Assignment::Subscript s;
      s.lower = TransformExpr(sub->lower);
      if (sub->upper != nullptr) s.upper = TransformExpr(sub->upper);
      target.subscripts.push_back(std::move(s));
    } else if (auto* name = dynamic_cast<P::IdentifierContext*>(ctx->children[i])) {
      if (!target.field.empty()) continue;
      target.field = Identifier(name);
      target.field_after = target.subscripts.size();
    }
  }
  return target;
}

ast::Assignment Transformer::TransformAssignment(P::AssignmentContext* ctx) {
  ast::Assignment assignment = TransformColumnTarget(ctx->columnTarget());
  assignment.loc = Loc(ctx);
  if (ctx->expr() != nullptr) assignment.value = TransformExpr(ctx->expr());
  return assignment;
}

std::unique_ptr<ast::UpdateStmt> Transformer::TransformUpdate(P::UpdateStmtContext* ctx) {
  auto stmt = std::make_unique<ast::UpdateStmt>();
  TransformWith(ctx->withClause(), &stmt->with);
  stmt->table = RelationName(ctx->target);
  stmt->table_loc = Loc(ctx->target);
  if (ctx->alias != nullptr) stmt->alias = Identifier(ctx->alias);
  for (P::AssignmentContext* a : ctx->assignment()) {
    stmt->assignments.push_back(TransformAssignment(a));
  }
  for (P::FromItemContext* item : ctx->fromItem()) {
    AppendJoinChain(item->tableRef(), item->joinClause(), &stmt->from);
  }
  if (ctx->expr() != nullptr) stmt->where = TransformExpr(ctx->expr());
  stmt->returning = TransformReturning(ctx->returningClause());
  if (ctx->returningClause() != nullptr) stmt->returning_loc = Loc(ctx->returningClause());
  return stmt;
}

}  // namespace meridian::parser
