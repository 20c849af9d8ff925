// DELETE FROM t [WHERE expr].

#include "transformer.h"

namespace meridian::parser {

std::unique_ptr<ast::DeleteStmt> Transformer::TransformDelete(P::DeleteStmtContext* ctx) {
  auto stmt = std::make_unique<ast::DeleteStmt>();
  stmt->table = Identifier(ctx->identifier());
  stmt->table_loc = Loc(ctx->identifier());
  if (ctx->expr() != nullptr) stmt->where = TransformExpr(ctx->expr());
  stmt->returning = TransformReturning(ctx->returningClause());
  if (ctx->returningClause() != nullptr) stmt->returning_loc = Loc(ctx->returningClause());
  return stmt;
}

}  // namespace meridian::parser
