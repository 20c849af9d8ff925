// PREPARE name [(type [, ...])] AS statement, EXECUTE name [(expr [, ...])], DEALLOCATE [PREPARE]
// {name | ALL}: SQL-level prepared statements (executed by engine/main/prepared.cc).

#include "transformer.h"

namespace meridian::parser {

std::unique_ptr<ast::PrepareStmt> Transformer::TransformPrepare(P::PrepareStmtContext* ctx) {
  auto stmt = std::make_unique<ast::PrepareStmt>();
  stmt->name = Identifier(ctx->identifier());
  stmt->name_loc = Loc(ctx->identifier());
  for (P::TypeNameContext* type : ctx->typeName()) stmt->param_types.push_back(TransformType(type));
  P::PreparableStmtContext* body = ctx->preparableStmt();
  auto inner = std::make_shared<ast::Statement>();
  inner->loc = Loc(body);
  inner->text = std::string(SourceOf(body));
  top_with_ =
      TopWith(body->selectStmt(), body->insertStmt(), body->updateStmt(), body->deleteStmt());
  if (auto* s = body->selectStmt()) {
    inner->kind = ast::StatementKind::kSelect;
    inner->select = TransformSelect(s);
  } else if (auto* s = body->insertStmt()) {
    inner->kind = ast::StatementKind::kInsert;
    inner->insert = TransformInsert(s);
  } else if (auto* s = body->updateStmt()) {
    inner->kind = ast::StatementKind::kUpdate;
    inner->update = TransformUpdate(s);
  } else if (auto* s = body->deleteStmt()) {
    inner->kind = ast::StatementKind::kDelete;
    inner->del = TransformDelete(s);
  }
  stmt->statement = std::move(inner);
  return stmt;
}

std::unique_ptr<ast::ExecuteStmt> Transformer::TransformExecute(P::ExecuteStmtContext* ctx) {
  auto stmt = std::make_unique<ast::ExecuteStmt>();
  stmt->name = Identifier(ctx->identifier());
  stmt->name_loc = Loc(ctx->identifier());
  for (P::ExprContext* arg : ctx->expr()) stmt->args.push_back(TransformExpr(arg));
  return stmt;
}

std::unique_ptr<ast::DeallocateStmt> Transformer::TransformDeallocate(
    P::DeallocateStmtContext* ctx) {
  auto stmt = std::make_unique<ast::DeallocateStmt>();
  if (ctx->K_ALL() != nullptr) {
    stmt->all = true;
    stmt->name_loc = Loc(ctx->K_ALL());
  } else {
    stmt->name = Identifier(ctx->identifier());
    stmt->name_loc = Loc(ctx->identifier());
  }
  return stmt;
}

}  // namespace meridian::parser
