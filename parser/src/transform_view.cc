// CREATE [OR REPLACE] [TEMP | TEMPORARY] VIEW name [(columns)] AS query.

#include "transformer.h"

namespace meridian::parser {

std::unique_ptr<ast::CreateViewStmt> Transformer::TransformCreateView(
    P::CreateViewStmtContext* ctx) {
  auto stmt = std::make_unique<ast::CreateViewStmt>();
  std::vector<P::IdentifierContext*> ids = ctx->identifier();
  stmt->name = Identifier(ids[0]);
  stmt->name_loc = Loc(ids[0]);
  stmt->or_replace = ctx->K_OR() != nullptr;
  stmt->temporary = ctx->K_TEMP() != nullptr || ctx->K_TEMPORARY() != nullptr;
  for (size_t i = 1; i < ids.size(); ++i) {
    stmt->columns.push_back(Identifier(ids[i]));
    stmt->column_locs.push_back(Loc(ids[i]));
  }
  stmt->query = TransformSelect(ctx->selectStmt());
  stmt->query_text = std::string(SourceOf(ctx->selectStmt()));
  return stmt;
}

}  // namespace meridian::parser
