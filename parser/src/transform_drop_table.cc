// DROP TABLE [IF EXISTS] t [, t2 ...].

#include "transformer.h"

namespace meridian::parser {

std::unique_ptr<ast::DropTableStmt> Transformer::TransformDropTable(P::DropTableStmtContext* ctx) {
  auto stmt = std::make_unique<ast::DropTableStmt>();
  stmt->if_exists = ctx->K_IF() != nullptr;
  for (P::IdentifierContext* name : ctx->identifier()) {
    stmt->tables.push_back(Identifier(name));
    stmt->table_locs.push_back(Loc(name));
  }
  return stmt;
}

}  // namespace meridian::parser
