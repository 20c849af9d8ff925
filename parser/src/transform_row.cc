// Row constructors (a, b, ...) and ROW(a, ...) as operands of comparisons and IN lists, turned into
// comparisons of their elements as PostgreSQL defines them: = is the AND of the element equalities,
// <> the OR of the inequalities, < <= > >= compare left to right (the first pair that differs
// decides; a NULL pair before that makes the result NULL), and (a, b) [NOT] IN ((1, 2), ...)
// is [NOT] the OR of the row equalities. Elements are transformed once per use.
#include "transformer.h"

namespace meridian::parser {
using ast::BinaryOp;
using ast::ExprKind;
using ast::ExprPtr;

Transformer::RowOperand Transformer::BareRow(antlr4::ParserRuleContext* ctx) const {
  // Down through the precedence levels while each holds exactly one sub-rule and nothing else.
  while (ctx != nullptr) {
    if (auto* row = dynamic_cast<P::RowPrimaryContext*>(ctx)) return {row, row->expr()};
    if (auto* fn = dynamic_cast<P::FunctionPrimaryContext*>(ctx)) {
      // ROW(a, ...): the keyword, unquoted and unqualified, with nothing but arguments.
      const std::string name = fn->qualifiedName()->getText();
      const bool row = name.size() == 3 && (name[0] | 0x20) == 'r' && (name[1] | 0x20) == 'o' &&
                       (name[2] | 0x20) == 'w' && fn->K_DISTINCT() == nullptr &&
                       fn->K_ALL() == nullptr && fn->aggOrderBy() == nullptr &&
                       fn->aggFilter() == nullptr && fn->overClause() == nullptr;
      if (row) return {fn, fn->expr()};
      return {};
    }
    if (ctx->children.size() != 1) return {};
    ctx = dynamic_cast<antlr4::ParserRuleContext*>(ctx->children[0]);
  }
  return {};
}

ExprPtr Transformer::CompareRows(BinaryOp op, const RowOperand& left, const RowOperand& right) {
  const std::vector<P::ExprContext*>& l = left.items;
  const std::vector<P::ExprContext*>& r = right.items;
  if (l.size() != r.size()) {
    Fail(
        ErrorAt(right.ctx, sqlstate::kSyntaxError, "unequal number of entries in row expressions"));
    return NewExpr(ExprKind::kLiteral, Loc(left.ctx));
  }
  if (l.empty()) {
    Fail(ErrorAt(right.ctx, sqlstate::kFeatureNotSupported, "cannot compare rows of zero length"));
    return NewExpr(ExprKind::kLiteral, Loc(left.ctx));
  }
  if (op == BinaryOp::kEq || op == BinaryOp::kNe) {
    const BinaryOp join = op == BinaryOp::kEq ? BinaryOp::kAnd : BinaryOp::kOr;
    ExprPtr out;
    for (size_t i = 0; i < l.size(); ++i) {
      ExprPtr pair = MakeBinary(op, TransformExpr(l[i]), TransformExpr(r[i]));
      out = out ? MakeBinary(join, std::move(out), std::move(pair)) : std::move(pair);
    }
    return out;
  }
  // l0 < r0 OR (l0 = r0 AND (l1 < r1 OR (l1 = r1 AND ... l_last op r_last))), built from the
  // last element outwards; the strict operator decides every pair but the last.
  const BinaryOp strict = op == BinaryOp::kLe   ? BinaryOp::kLt
                          : op == BinaryOp::kGe ? BinaryOp::kGt
                                                : op;
  ExprPtr out = MakeBinary(op, TransformExpr(l.back()), TransformExpr(r.back()));
  for (size_t i = l.size() - 1; i-- > 0;) {
    ExprPtr equal = MakeBinary(BinaryOp::kEq, TransformExpr(l[i]), TransformExpr(r[i]));
    out = MakeBinary(BinaryOp::kOr, MakeBinary(strict, TransformExpr(l[i]), TransformExpr(r[i])),
                     MakeBinary(BinaryOp::kAnd, std::move(equal), std::move(out)));
  }
  return out;
}

ExprPtr Transformer::RowInList(const RowOperand& left, P::InListPredicateContext* list) {
  ExprPtr out;
  for (P::InItemContext* item : list->inItem()) {
    const RowOperand row = item->expr() != nullptr ? BareRow(item->expr()) : RowOperand{};
    if (row.ctx == nullptr) {
      Fail(ErrorAt(item, sqlstate::kFeatureNotSupported,
                   "the items of an IN list compared with a row must be rows"));
      return TransformInItem(item);
    }
    ExprPtr match = CompareRows(BinaryOp::kEq, left, row);
    out = out ? MakeBinary(BinaryOp::kOr, std::move(out), std::move(match)) : std::move(match);
  }
  if (list->K_NOT() == nullptr) return out;
  ExprPtr e = NewExpr(ExprKind::kUnary, out->loc);
  e->unary_op = ast::UnaryOp::kNot;
  e->children.push_back(std::move(out));
  return e;
}

}  // namespace meridian::parser
