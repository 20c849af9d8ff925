// SELECT: select list (*, t.*, expr [AS] alias), FROM list with aliases, WHERE, GROUP BY, HAVING,
// ORDER BY with ASC/DESC and NULLS FIRST/LAST, LIMIT (ALL) and OFFSET in either order.

#include "transformer.h"

namespace meridian::parser {

std::unique_ptr<ast::SelectStmt> Transformer::TransformSelect(P::SelectStmtContext* ctx) {
  auto stmt = std::make_unique<ast::SelectStmt>();
  stmt->loc = Loc(ctx);
  stmt->distinct = ctx->K_DISTINCT() != nullptr;

  for (P::SelectItemContext* item_ctx : ctx->selectItem()) {
    ast::SelectItem item;
    item.loc = Loc(item_ctx);
    if (auto* expr_item = dynamic_cast<P::SelectExprContext*>(item_ctx)) {
      item.expr = TransformExpr(expr_item->expr());
      if (expr_item->columnLabel() != nullptr) {
        item.alias = ColumnLabel(expr_item->columnLabel());
      } else if (expr_item->identifier() != nullptr) {
        item.alias = Identifier(expr_item->identifier());
      }
    } else {
      item.expr = std::make_unique<ast::Expr>();
      item.expr->kind = ast::ExprKind::kStar;
      item.expr->loc = item.loc;
      if (auto* qualified = dynamic_cast<P::SelectQualifiedStarContext*>(item_ctx)) {
        item.expr->table = Identifier(qualified->identifier());
      }
    }
    stmt->items.push_back(std::move(item));
  }

  for (P::TableRefContext* ref_ctx : ctx->tableRef()) {
    ast::TableRef ref;
    ref.loc = Loc(ref_ctx);
    ref.name = Identifier(ref_ctx->identifier(0));
    if (ref_ctx->identifier().size() > 1) ref.alias = Identifier(ref_ctx->identifier(1));
    stmt->from.push_back(std::move(ref));
  }

  if (ctx->where != nullptr) stmt->where = TransformExpr(ctx->where);
  // expr() also holds WHERE and HAVING; the rest are the GROUP BY items.
  for (P::ExprContext* e : ctx->expr()) {
    if (e != ctx->where && e != ctx->having) stmt->group_by.push_back(TransformExpr(e));
  }
  if (ctx->having != nullptr) stmt->having = TransformExpr(ctx->having);

  for (P::OrderItemContext* order_ctx : ctx->orderItem()) {
    ast::OrderItem order;
    order.expr = TransformExpr(order_ctx->expr());
    order.descending = order_ctx->K_DESC() != nullptr;
    if (order_ctx->K_NULLS() != nullptr) order.nulls_first = order_ctx->K_FIRST() != nullptr;
    stmt->order_by.push_back(std::move(order));
  }

  if (P::LimitClauseContext* limit = ctx->limitClause(); limit && limit->expr()) {
    stmt->limit = TransformExpr(limit->expr());
  }
  if (P::OffsetClauseContext* offset = ctx->offsetClause()) {
    stmt->offset = TransformExpr(offset->expr());
  }
  return stmt;
}

}  // namespace meridian::parser
