// CREATE [OR REPLACE] [TEMP | TEMPORARY] VIEW name [(columns)] AS query.

#include "transformer.h"

namespace meridian::parser {

std::unique_ptr<ast::CreateViewStmt> Transformer::TransformCreateView(
    P::CreateViewStmtContext* ctx) {
  auto stmt = std::make_unique<ast::CreateViewStmt>();
  std::vector<P::IdentifierContext*> ids = ctx->identifier();
  stmt->name = RelationName(ctx->qualifiedName());
  stmt->name_loc = Loc(ctx->qualifiedName());
  stmt->or_replace = ctx->K_OR() != nullptr;
  stmt->temporary = ctx->K_TEMP() != nullptr || ctx->K_TEMPORARY() != nullptr;
  for (P::IdentifierContext* id : ids) {
    stmt->columns.push_back(Identifier(id));
    stmt->column_locs.push_back(Loc(id));
  }
  stmt->query = TransformSelect(ctx->selectStmt());
  stmt->query_text = std::string(SourceOf(ctx->selectStmt()));
  return stmt;
}

}  // namespace meridian::parser
