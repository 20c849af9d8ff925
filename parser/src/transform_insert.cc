// INSERT INTO t [(cols)] VALUES (...), ... | query; DEFAULT in a VALUES row becomes a null
// ExprPtr.

#include "transformer.h"

namespace meridian::parser {

namespace {

// The VALUES list when the query is nothing but one (no WITH, set operation, ORDER BY, LIMIT,
// OFFSET or locking clause, no parentheses), else null.
P::ValuesClauseContext* BareValues(P::SelectStmtContext* ctx) {
  if (ctx->children.size() != 1) return nullptr;  // only the selectSet
  P::SelectSetContext* set = ctx->selectSet();
  if (set->children.size() != 1) return nullptr;
  P::SelectTermContext* term = set->selectTerm(0);
  if (term->children.size() != 1) return nullptr;
  return term->selectPrimary(0)->valuesClause();
}

}  // namespace

std::unique_ptr<ast::InsertStmt> Transformer::TransformInsert(P::InsertStmtContext* ctx) {
  auto stmt = std::make_unique<ast::InsertStmt>();
  std::vector<P::IdentifierContext*> names = ctx->identifier();
  stmt->table = Identifier(names[0]);
  stmt->table_loc = Loc(names[0]);
  for (size_t i = 1; i < names.size(); ++i) {
    if (names[i] == ctx->overriding) continue;
    stmt->columns.push_back(Identifier(names[i]));
    stmt->column_locs.push_back(Loc(names[i]));
  }
  stmt->returning = TransformReturning(ctx->returningClause());
  if (ctx->returningClause() != nullptr) stmt->returning_loc = Loc(ctx->returningClause());
  if (ctx->overriding != nullptr) {
    const std::string word = Identifier(ctx->overriding);
    if (word == "system") {
      stmt->overriding = 's';
    } else if (word == "user") {
      stmt->overriding = 'u';
    } else {
      Fail(ErrorAt(ctx->overriding, sqlstate::kSyntaxError,
                   "syntax error at or near \"" + ctx->overriding->getText() + "\""));
    }
  }
  if (ctx->selectStmt() == nullptr) {  // DEFAULT VALUES
    stmt->default_values = true;
    return stmt;
  }
  if (P::ValuesClauseContext* values = BareValues(ctx->selectStmt())) {
    for (P::ValuesRowContext* row_ctx : values->valuesRow()) {
      std::vector<ast::ExprPtr> row;
      for (P::ValueItemContext* item : row_ctx->valueItem()) {
        row.push_back(TransformValueItem(item));
      }
      stmt->values.push_back(std::move(row));
    }
    return stmt;
  }
  stmt->select = TransformSelect(ctx->selectStmt());
  return stmt;
}

}  // namespace meridian::parser
