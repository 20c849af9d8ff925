// Window clauses: OVER w / OVER ([w] PARTITION BY ... ORDER BY ... frame) of a function call
// and the WINDOW w AS (...) definitions of a SELECT core. The frame bounds' order is checked
// here with PostgreSQL's grammar messages (42P20); what the engine does not run (RANGE with an
// offset, GROUPS, EXCLUDE) is left to the binder.
#include "transformer.h"

namespace meridian::parser {

namespace {

using Bound = ast::WindowFrame::Bound;

Bound BoundOf(P::FrameBoundContext* ctx) {
  if (ctx->K_UNBOUNDED() != nullptr) {
    return ctx->K_PRECEDING() != nullptr ? Bound::kUnboundedPreceding : Bound::kUnboundedFollowing;
  }
  if (ctx->K_CURRENT() != nullptr) return Bound::kCurrentRow;
  return ctx->K_PRECEDING() != nullptr ? Bound::kPreceding : Bound::kFollowing;
}

}  // namespace

ast::OrderItem Transformer::TransformOrderItem(P::OrderItemContext* ctx) {
  ast::OrderItem order;
  order.expr = TransformExpr(ctx->expr());
  order.descending = ctx->K_DESC() != nullptr;
  if (ctx->K_NULLS() != nullptr) order.nulls_first = ctx->K_FIRST() != nullptr;
  return order;
}

std::unique_ptr<ast::WindowSpec> Transformer::TransformOver(P::OverClauseContext* ctx) {
  if (ctx->windowSpec() != nullptr) {
    auto spec = TransformWindowSpec(ctx->windowSpec());
    spec->loc = Loc(ctx->LPAREN());
    return spec;
  }
  auto spec = std::make_unique<ast::WindowSpec>();
  spec->existing = Identifier(ctx->identifier());
  spec->reference_only = true;
  spec->loc = Loc(ctx->identifier());
  return spec;
}

std::unique_ptr<ast::WindowSpec> Transformer::TransformWindowSpec(P::WindowSpecContext* ctx) {
  auto spec = std::make_unique<ast::WindowSpec>();
  spec->loc = Loc(ctx);
  if (ctx->existing != nullptr) spec->existing = Identifier(ctx->existing);
  for (P::ExprContext* e : ctx->expr()) spec->partition_by.push_back(TransformExpr(e));
  for (P::OrderItemContext* o : ctx->orderItem()) spec->order_by.push_back(TransformOrderItem(o));
  P::FrameClauseContext* frame_ctx = ctx->frameClause();
  if (frame_ctx == nullptr) return spec;
  auto frame = std::make_unique<ast::WindowFrame>();
  frame->loc = Loc(frame_ctx);
  frame->mode = frame_ctx->frameMode->getType() == P::K_ROWS     ? ast::WindowFrame::Mode::kRows
                : frame_ctx->frameMode->getType() == P::K_GROUPS ? ast::WindowFrame::Mode::kGroups
                                                            : ast::WindowFrame::Mode::kRange;
  std::vector<P::FrameBoundContext*> bounds = frame_ctx->frameBound();
  P::FrameBoundContext* start = bounds[0];
  P::FrameBoundContext* end = bounds.size() > 1 ? bounds[1] : nullptr;
  frame->start = BoundOf(start);
  frame->start_loc = Loc(start);
  if (start->expr() != nullptr) frame->start_offset = TransformExpr(start->expr());
  auto error = [&](antlr4::ParserRuleContext* at, const char* message) {
    Fail(ErrorAt(at, sqlstate::kWindowingError, message));
  };
  if (frame->start == Bound::kUnboundedFollowing) {
    error(start, "frame start cannot be UNBOUNDED FOLLOWING");
  }
  if (end == nullptr) {
    if (frame->start == Bound::kFollowing) {
      error(start, "frame starting from following row cannot end with current row");
    }
    frame->end = Bound::kCurrentRow;
    frame->end_loc = frame->start_loc;
  } else {
    frame->end = BoundOf(end);
    frame->end_loc = Loc(end);
    if (end->expr() != nullptr) frame->end_offset = TransformExpr(end->expr());
    if (frame->end == Bound::kUnboundedPreceding) {
      error(end, "frame end cannot be UNBOUNDED PRECEDING");
    } else if (frame->start == Bound::kCurrentRow && frame->end == Bound::kPreceding) {
      error(end, "frame starting from current row cannot have preceding rows");
    } else if (frame->start == Bound::kFollowing &&
               (frame->end == Bound::kPreceding || frame->end == Bound::kCurrentRow)) {
      error(end, "frame starting from following row cannot have preceding rows");
    }
  }
  if (P::FrameExclusionContext* ex = frame_ctx->frameExclusion()) {
    frame->exclusion = ex->K_NO() == nullptr;  // EXCLUDE NO OTHERS is the default
  }
  spec->frame = std::move(frame);
  return spec;
}

void Transformer::TransformWindowDefs(P::SelectCoreContext* ctx, ast::SelectStmt* stmt) {
  for (P::WindowDefContext* def : ctx->windowDef()) {
    std::unique_ptr<ast::WindowSpec> spec = TransformWindowSpec(def->windowSpec());
    spec->name = Identifier(def->identifier());
    spec->loc = Loc(def->identifier());
    stmt->windows.push_back(std::move(*spec));
  }
}

}  // namespace meridian::parser
