// BoundExpr constructors and structural comparison.
#include "binder/bound_expr.h"

#include "binder/bound_statement.h"
#include "execution/operator.h"

namespace meridian::exec {

SubqueryPlan::SubqueryPlan() = default;
SubqueryPlan::~SubqueryPlan() = default;

BoundExprPtr BoundExpr::Const(Value v, Type t, uint32_t position) {
  auto e = std::make_unique<BoundExpr>();
  e->kind = BoundKind::kConst;
  e->value = std::move(v);
  e->type = t;
  e->position = position;
  return e;
}

BoundExprPtr BoundExpr::Column(int depth, int index, Type t, std::string name) {
  auto e = std::make_unique<BoundExpr>();
  e->kind = BoundKind::kColumn;
  e->depth = depth;
  e->index = index;
  e->type = t;
  e->name = std::move(name);
  return e;
}

BoundExprPtr BoundExpr::Make(BoundKind kind, Type type, uint32_t position) {
  auto e = std::make_unique<BoundExpr>();
  e->kind = kind;
  e->type = type;
  e->position = position;
  return e;
}

bool BoundExpr::Equals(const BoundExpr& o) const {
  if (kind != o.kind || !(type == o.type) || children.size() != o.children.size()) return false;
  switch (kind) {
    case BoundKind::kConst:
      if (!(value == o.value)) return false;
      break;
    case BoundKind::kColumn:
    case BoundKind::kParam:
      if (depth != o.depth || index != o.index) return false;
      break;
    case BoundKind::kUnary:
      if (unary_op != o.unary_op) return false;
      break;
    case BoundKind::kBinary:
      if (binary_op != o.binary_op) return false;
      break;
    case BoundKind::kFunction:
      if (func != o.func || scalar != o.scalar) return false;
      break;
    case BoundKind::kAggregate:
      if (agg != o.agg || distinct != o.distinct || star != o.star || agg_order != o.agg_order ||
          has_filter != o.has_filter) {
        return false;
      }
      break;
    case BoundKind::kCase:
      if (has_operand != o.has_operand || has_else != o.has_else) return false;
      break;
    case BoundKind::kInSubquery:
      if (binary_op != o.binary_op || all != o.all) return false;
      [[fallthrough]];
    case BoundKind::kSubquery:
    case BoundKind::kExists:
    case BoundKind::kArray:
      if (subquery != o.subquery) return false;
      break;
    case BoundKind::kQuantifiedArray:
      if (binary_op != o.binary_op || all != o.all) return false;
      break;
    case BoundKind::kWindow:
      if (agg != o.agg || star != o.star || has_filter != o.has_filter ||
          !window->Equals(*o.window)) {
        return false;
      }
      break;
    default:
      break;
  }
  if (negated != o.negated || explicit_cast != o.explicit_cast) return false;
  for (size_t i = 0; i < children.size(); ++i) {
    if (!children[i]->Equals(*o.children[i])) return false;
  }
  return true;
}

bool BoundExpr::ContainsSubquery() const {
  if (subquery != nullptr) return true;
  for (const BoundExprPtr& c : children) {
    if (c->ContainsSubquery()) return true;
  }
  return false;
}

bool BoundExpr::ContainsWindow() const {
  if (kind == BoundKind::kWindow) return true;
  for (const BoundExprPtr& c : children) {
    if (c->ContainsWindow()) return true;
  }
  return false;
}

namespace {

bool SameOffset(const BoundExprPtr& a, const BoundExprPtr& b) {
  if (a == nullptr || b == nullptr) return a == nullptr && b == nullptr;
  return a->Equals(*b);
}

}  // namespace

bool WindowClause::SameWindow(const WindowClause& o) const {
  return num_partition == o.num_partition && descending == o.descending &&
         nulls_first == o.nulls_first && rows == o.rows && start == o.start && end == o.end &&
         SameOffset(start_offset, o.start_offset) && SameOffset(end_offset, o.end_offset);
}

bool WindowClause::Equals(const WindowClause& o) const {
  return func == o.func && num_args == o.num_args && SameWindow(o);
}

bool BoundExpr::ContainsAggregate() const {
  if (kind == BoundKind::kAggregate) return true;
  for (const BoundExprPtr& c : children) {
    if (c->ContainsAggregate()) return true;
  }
  return false;
}

void BoundExpr::MarkColumnsRead(std::vector<bool>* used, bool* all) const {
  if (kind == BoundKind::kColumn && depth == 0) {
    const auto i = static_cast<size_t>(index);
    if (i >= used->size()) used->resize(i + 1, false);
    (*used)[i] = true;
  }
  if (subquery != nullptr && subquery->correlated) *all = true;
  for (const BoundExprPtr& c : children) c->MarkColumnsRead(used, all);
}

}  // namespace meridian::exec
