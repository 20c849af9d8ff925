// DROP TABLE / DROP VIEW [IF EXISTS] name [, name2 ...] [CASCADE | RESTRICT].

#include "transformer.h"

namespace meridian::parser {

namespace {

template <typename Ctx>
std::unique_ptr<ast::DropTableStmt> TransformDrop(Transformer* t, Ctx* ctx) {
  auto stmt = std::make_unique<ast::DropTableStmt>();
  stmt->if_exists = ctx->K_IF() != nullptr;
  stmt->cascade = ctx->K_CASCADE() != nullptr;
  for (P::QualifiedNameContext* name : ctx->qualifiedName()) {
    stmt->tables.push_back(t->RelationName(name));
    stmt->table_locs.push_back(t->Loc(name));
  }
  return stmt;
}

}  // namespace

std::unique_ptr<ast::DropTableStmt> Transformer::TransformDropTable(P::DropTableStmtContext* ctx) {
  return TransformDrop(this, ctx);
}

std::unique_ptr<ast::DropTableStmt> Transformer::TransformDropView(P::DropViewStmtContext* ctx) {
  return TransformDrop(this, ctx);
}

}  // namespace meridian::parser
