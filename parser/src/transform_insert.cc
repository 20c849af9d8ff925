// INSERT INTO t [(cols)] VALUES (...), ... | SELECT ...; DEFAULT in a VALUES row becomes a null
// ExprPtr.

#include "transformer.h"

namespace meridian::parser {

std::unique_ptr<ast::InsertStmt> Transformer::TransformInsert(P::InsertStmtContext* ctx) {
  auto stmt = std::make_unique<ast::InsertStmt>();
  std::vector<P::IdentifierContext*> names = ctx->identifier();
  stmt->table = Identifier(names[0]);
  stmt->table_loc = Loc(names[0]);
  for (size_t i = 1; i < names.size(); ++i) {
    stmt->columns.push_back(Identifier(names[i]));
    stmt->column_locs.push_back(Loc(names[i]));
  }
  for (P::ValuesRowContext* row_ctx : ctx->valuesRow()) {
    std::vector<ast::ExprPtr> row;
    for (P::ValueItemContext* item : row_ctx->valueItem()) {
      row.push_back(item->expr() != nullptr ? TransformExpr(item->expr()) : nullptr);
    }
    stmt->values.push_back(std::move(row));
  }
  if (ctx->selectStmt() != nullptr) stmt->select = TransformSelect(ctx->selectStmt());
  return stmt;
}

}  // namespace meridian::parser
