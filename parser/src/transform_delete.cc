// DELETE FROM t [[AS] alias] [USING items] [WHERE expr]; the USING items are transformed as
// SELECT's FROM items.

#include "transformer.h"

namespace meridian::parser {

std::unique_ptr<ast::DeleteStmt> Transformer::TransformDelete(P::DeleteStmtContext* ctx) {
  auto stmt = std::make_unique<ast::DeleteStmt>();
  TransformWith(ctx->withClause(), &stmt->with);
  stmt->table = RelationName(ctx->target);
  stmt->table_loc = Loc(ctx->target);
  if (ctx->alias != nullptr) stmt->alias = Identifier(ctx->alias);
  for (P::FromItemContext* item : ctx->fromItem()) {
    AppendJoinChain(item->tableRef(), item->joinClause(), &stmt->using_from);
  }
  if (ctx->expr() != nullptr) stmt->where = TransformExpr(ctx->expr());
  stmt->returning = TransformReturning(ctx->returningClause());
  if (ctx->returningClause() != nullptr) stmt->returning_loc = Loc(ctx->returningClause());
  return stmt;
}

}  // namespace meridian::parser
