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

  const auto table_ref = [&](P::TableRefContext* ref_ctx) {
    ast::TableRef ref;
    ref.loc = Loc(ref_ctx);
    ref.name = Identifier(ref_ctx->identifier(0));
    if (ref_ctx->identifier().size() > 1) ref.alias = Identifier(ref_ctx->identifier(1));
    return ref;
  };
  for (P::FromItemContext* item : ctx->fromItem()) {
    stmt->from.push_back(table_ref(item->tableRef()));
    for (P::JoinClauseContext* join : item->joinClause()) {
      if (auto* cross = dynamic_cast<P::CrossJoinContext*>(join)) {
        ast::TableRef ref = table_ref(cross->tableRef());
        ref.join = ast::JoinType::kCross;
        ref.join_loc = Loc(cross);
        stmt->from.push_back(std::move(ref));
        continue;
      }
      auto* q = static_cast<P::QualifiedJoinContext*>(join);
      ast::TableRef ref = table_ref(q->tableRef());
      ref.join_loc = Loc(q);
      ref.join = ast::JoinType::kInner;
      if (P::JoinTypeContext* jt = q->joinType()) {
        ref.join = jt->K_LEFT() ? ast::JoinType::kLeft
                   : jt->K_RIGHT() ? ast::JoinType::kRight
                   : jt->K_FULL()  ? ast::JoinType::kFull
                                   : ast::JoinType::kInner;
      }
      if (q->expr() != nullptr) {
        ref.on = TransformExpr(q->expr());
      } else if (q->K_USING() != nullptr) {
        for (P::IdentifierContext* id : q->identifier()) ref.using_columns.push_back(Identifier(id));
      } else {
        Fail(ErrorAt(q, sqlstate::kSyntaxError, "syntax error at or near \"JOIN\""));
      }
      stmt->from.push_back(std::move(ref));
    }
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
