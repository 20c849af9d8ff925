// CREATE [UNIQUE] INDEX [[IF NOT EXISTS] name] ON t [USING method] (col [ASC|DESC]
// [NULLS FIRST|LAST], ...) and DROP INDEX [IF EXISTS] name [, ...]. The access method name is
// kept as written (lower-cased) and checked by the engine.

#include "transformer.h"

namespace meridian::parser {

std::unique_ptr<ast::CreateIndexStmt> Transformer::TransformCreateIndex(
    P::CreateIndexStmtContext* ctx) {
  auto stmt = std::make_unique<ast::CreateIndexStmt>();
  stmt->unique = ctx->K_UNIQUE() != nullptr;
  stmt->if_not_exists = ctx->K_IF() != nullptr;
  if (ctx->name != nullptr) stmt->name = Identifier(ctx->name);
  stmt->table = RelationName(ctx->table);
  stmt->table_loc = Loc(ctx->table);
  if (ctx->method != nullptr) {
    stmt->method = Identifier(ctx->method);
    stmt->method_loc = Loc(ctx->method);
  }
  for (P::IndexColumnContext* col_ctx : ctx->indexColumn()) {
    ast::IndexColumn col;
    TransformIndexElem(col_ctx->indexElem(), &col.name, &col.expr);
    if (col.expr != nullptr) {
      P::IndexElemContext* elem = col_ctx->indexElem();
      col.text =
          std::string(elem->expr() != nullptr ? SourceOf(elem->expr()) : SourceOf(elem->primary()));
    }
    col.loc = Loc(col_ctx);
    col.descending = col_ctx->K_DESC() != nullptr;
    if (col_ctx->K_NULLS() != nullptr) col.nulls_first = col_ctx->K_FIRST() != nullptr;
    stmt->columns.push_back(std::move(col));
  }
  if (ctx->where != nullptr) {
    stmt->where = TransformExpr(ctx->where);
    stmt->where_text = std::string(SourceOf(ctx->where));
    stmt->where_loc = Loc(ctx->where);
  }
  return stmt;
}

void Transformer::TransformIndexElem(P::IndexElemContext* ctx, std::string* name,
                                     ast::ExprPtr* expr) {
  if (ctx->identifier() != nullptr) {
    *name = Identifier(ctx->identifier());
    return;
  }
  if (ctx->expr() != nullptr) {
    *expr = TransformExpr(ctx->expr());
    return;
  }
  // PostgreSQL's func_expr_windowless: only a function call stands without parentheses.
  ast::ExprPtr e = TransformPrimary(ctx->primary());
  if (e == nullptr || e->kind != ast::ExprKind::kFunction) {
    Fail(ErrorAt(ctx->primary(), sqlstate::kSyntaxError,
                 "syntax error at or near \"" + ctx->primary()->getStart()->getText() + "\""));
  }
  *expr = std::move(e);
}

std::unique_ptr<ast::DropIndexStmt> Transformer::TransformDropIndex(P::DropIndexStmtContext* ctx) {
  auto stmt = std::make_unique<ast::DropIndexStmt>();
  stmt->if_exists = ctx->K_IF() != nullptr;
  for (P::QualifiedNameContext* name : ctx->qualifiedName()) {
    stmt->names.push_back(RelationName(name));
    stmt->name_locs.push_back(Loc(name));
  }
  return stmt;
}

}  // namespace meridian::parser
