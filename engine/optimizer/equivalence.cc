// DeriveEqualities: union-find over column equalities, constants spread to every member
// (see equivalence.h).
#include "optimizer/equivalence.h"

#include <map>
#include <numeric>

#include "optimizer/access_path.h"

namespace meridian::exec {

namespace {

bool IsRowColumn(const BoundExpr& e) { return e.kind == BoundKind::kColumn && e.depth == 0; }

// A value fixed for the whole scan that can be evaluated twice with the same result: a
// literal, a parameter, an outer query's column, or a cast or negation of one.
bool IsStableConstant(const BoundExpr& e) {
  if (e.subquery != nullptr) return false;
  switch (e.kind) {
    case BoundKind::kConst:
    case BoundKind::kParam:
      return true;
    case BoundKind::kColumn:
      return e.depth > 0;
    case BoundKind::kCast:
    case BoundKind::kUnary:
      return e.children.size() == 1 && IsStableConstant(*e.children[0]);
    default:
      return false;
  }
}

BoundExprPtr Clone(const BoundExpr& e) {
  auto out = std::make_unique<BoundExpr>();
  out->kind = e.kind;
  out->type = e.type;
  out->position = e.position;
  out->value = e.value;
  out->depth = e.depth;
  out->index = e.index;
  out->name = e.name;
  out->unary_op = e.unary_op;
  out->binary_op = e.binary_op;
  out->func = e.func;
  out->scalar = e.scalar;
  out->explicit_cast = e.explicit_cast;
  for (const BoundExprPtr& c : e.children) out->children.push_back(Clone(*c));
  return out;
}

// Whether a and b compare by one transitive equality: the same key family, and for strings
// the same type (CHAR(n) pads, TEXT does not).
bool SameEquality(const Type& a, const Type& b) {
  const int fa = KeyFamily(a);
  if (fa == 0 || fa != KeyFamily(b)) return false;
  return !a.IsString() || a.id == b.id;
}

struct UnionFind {
  std::map<int, int> parent;
  int Find(int x) {
    auto it = parent.try_emplace(x, x).first;
    if (it->second == x) return x;
    int root = Find(it->second);
    parent[x] = root;
    return root;
  }
  void Union(int a, int b) { parent[Find(a)] = Find(b); }
};

}  // namespace

DerivedEqualities DeriveEqualities(const std::vector<const BoundExpr*>& conjuncts,
                                   const std::vector<bool>& eligible) {
  DerivedEqualities out;
  out.drop.assign(conjuncts.size(), false);
  UnionFind classes;
  std::map<int, const BoundExpr*> column_expr;  // a kColumn node of each member
  std::map<int, const BoundExpr*> constant_of;  // member → a constant it equals directly
  std::vector<std::pair<size_t, std::pair<int, int>>> column_pairs;
  for (size_t i = 0; i < conjuncts.size(); ++i) {
    const BoundExpr& c = *conjuncts[i];
    if (!eligible[i] || c.kind != BoundKind::kBinary || c.binary_op != ast::BinaryOp::kEq) continue;
    const BoundExpr& l = *c.children[0];
    const BoundExpr& r = *c.children[1];
    if (IsRowColumn(l) && IsRowColumn(r)) {
      if (l.index == r.index || !SameEquality(l.type, r.type)) continue;
      column_expr.emplace(l.index, &l);
      column_expr.emplace(r.index, &r);
      classes.Union(l.index, r.index);
      column_pairs.push_back({i, {l.index, r.index}});
      continue;
    }
    const BoundExpr* col = IsRowColumn(l) ? &l : IsRowColumn(r) ? &r : nullptr;
    const BoundExpr* value = col == &l ? &r : &l;
    if (col == nullptr || !IsStableConstant(*value) || !SameEquality(col->type, value->type)) {
      continue;
    }
    column_expr.emplace(col->index, col);
    classes.Find(col->index);
    constant_of.emplace(col->index, value);
  }
  // Each class's constant: one member's, when every member compares with it transitively.
  std::map<int, const BoundExpr*> class_constant;
  for (const auto& [member, value] : constant_of) class_constant.emplace(classes.Find(member), value);
  for (const auto& [member, expr] : column_expr) {
    auto it = class_constant.find(classes.Find(member));
    if (it != class_constant.end() && it->second != nullptr &&
        !SameEquality(expr->type, it->second->type)) {
      it->second = nullptr;  // a member of another family: leave the class as written
    }
  }
  for (const auto& [member, expr] : column_expr) {
    auto it = class_constant.find(classes.Find(member));
    if (it == class_constant.end() || it->second == nullptr || constant_of.count(member) != 0) {
      continue;
    }
    BoundExprPtr eq = BoundExpr::Make(BoundKind::kBinary, Type::Boolean(), expr->position);
    eq->binary_op = ast::BinaryOp::kEq;
    eq->children.push_back(BoundExpr::Column(0, member, expr->type, expr->name));
    eq->children.push_back(Clone(*it->second));
    out.added.push_back(std::move(eq));
  }
  // a = b is implied once both equal the class's constant.
  for (const auto& [i, pair] : column_pairs) {
    auto it = class_constant.find(classes.Find(pair.first));
    out.drop[i] = it != class_constant.end() && it->second != nullptr;
  }
  return out;
}

}  // namespace meridian::exec
