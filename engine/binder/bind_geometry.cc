// Binding of the geometric operators over point and box (&& @> <@ ~= <-> and the comparisons
// box = < <= > >=, point <>): each becomes a call of a registered function under
// PostgreSQL's name (engine/function/geometry_functions.cc), printed back as its operator by
// EXPLAIN and deparse (GeometryOperatorSymbol). An untyped literal takes the other operand's
// type; `unknown @> point` and `point <@ unknown` are ambiguous (42725), as in PostgreSQL.
#include "binder/binder.h"
#include "binder/function_registry.h"
#include "binder/json_operators.h"

namespace meridian::exec {

// 42883 "operator does not exist: l op r" with PostgreSQL's hint (bind_expr.cc).
Status NoOperator(const std::string& op, Type l, Type r, uint32_t position);

namespace {

struct GeoOperator {
  const char* op;
  TypeId left, right;
  const char* function;
  bool distance;  // result double precision (else boolean)
};

constexpr GeoOperator kGeoOperators[] = {
    {"&&", TypeId::kBox, TypeId::kBox, "box_overlap", false},
    {"@>", TypeId::kBox, TypeId::kBox, "box_contain", false},
    {"@>", TypeId::kBox, TypeId::kPoint, "box_contain_pt", false},
    {"<@", TypeId::kBox, TypeId::kBox, "box_contained", false},
    {"<@", TypeId::kPoint, TypeId::kBox, "on_pb", false},
    {"~=", TypeId::kBox, TypeId::kBox, "box_same", false},
    {"~=", TypeId::kPoint, TypeId::kPoint, "point_eq", false},
    {"<>", TypeId::kPoint, TypeId::kPoint, "point_ne", false},
    {"<->", TypeId::kPoint, TypeId::kPoint, "point_distance", true},
    {"<->", TypeId::kPoint, TypeId::kBox, "dist_pb", true},
    {"<->", TypeId::kBox, TypeId::kPoint, "dist_bp", true},
    {"<->", TypeId::kBox, TypeId::kBox, "box_distance", true},
    {"=", TypeId::kBox, TypeId::kBox, "box_eq", false},
    {"<", TypeId::kBox, TypeId::kBox, "box_lt", false},
    {"<=", TypeId::kBox, TypeId::kBox, "box_le", false},
    {">", TypeId::kBox, TypeId::kBox, "box_gt", false},
    {">=", TypeId::kBox, TypeId::kBox, "box_ge", false},
};

bool IsUnknown(const BoundExprPtr& e) { return e->type.id == TypeId::kUnknown; }

Type OfId(TypeId id) { return Type{id, -1}; }

}  // namespace

const char* GeometryOperatorSymbol(std::string_view function) {
  for (const GeoOperator& g : kGeoOperators) {
    if (function == g.function) return g.op;
  }
  return nullptr;
}

bool IsGeometryOperator(const std::string& op) { return op == "&&" || op == "~=" || op == "<->"; }

Result<BoundExprPtr> Binder::BindGeometryOperator(const std::string& op, BoundExprPtr* l,
                                                  BoundExprPtr* r, uint32_t pos) {
  const bool lg = (*l)->type.IsGeometric(), rg = (*r)->type.IsGeometric();
  if (!lg && !rg && !IsGeometryOperator(op)) return BoundExprPtr();
  if (IsUnknown(*l) && IsUnknown(*r)) {
    return Status::Error(sqlstate::kAmbiguousFunction,
                         "operator is not unique: unknown " + op + " unknown")
        .WithHint(
            "Could not choose a best candidate operator. You might need to add explicit type "
            "casts.")
        .WithPosition(pos);
  }
  // An untyped side takes the other side's type; `unknown @> point` and `point <@ unknown`
  // have several candidates (box, path, polygon, circle, ...) and none of the same type.
  TypeId lt = (*l)->type.id, rt = (*r)->type.id;
  if ((lt == TypeId::kUnknown && op == "@>" && rt == TypeId::kPoint) ||
      (rt == TypeId::kUnknown && op == "<@" && lt == TypeId::kPoint)) {
    return Status::Error(
               sqlstate::kAmbiguousFunction,
               "operator is not unique: " + (*l)->type.Name() + " " + op + " " + (*r)->type.Name())
        .WithHint(
            "Could not choose a best candidate operator. You might need to add explicit type "
            "casts.")
        .WithPosition(pos);
  }
  if (lt == TypeId::kUnknown) lt = rt;
  if (rt == TypeId::kUnknown) rt = lt;
  for (const GeoOperator& g : kGeoOperators) {
    if (op != g.op || lt != g.left || rt != g.right) continue;
    for (BoundExprPtr* side : {l, r}) {
      const TypeId want = side == l ? g.left : g.right;
      if ((*side)->type.id != want) {
        MERIDIAN_ASSIGN_OR_RETURN(*side, Coerce(std::move(*side), OfId(want), false, ""));
      }
    }
    std::vector<BoundExprPtr> args;
    args.push_back(std::move(*l));
    args.push_back(std::move(*r));
    return MakeJsonCall(g.function, std::move(args), g.distance ? Type::Double() : Type::Boolean(),
                        pos);
  }
  return NoOperator(op, (*l)->type, (*r)->type, pos);
}

Result<BoundExprPtr> Binder::BindGeometryBinary(ast::BinaryOp op, BoundExprPtr* l, BoundExprPtr* r,
                                                uint32_t pos) {
  if (!(*l)->type.IsGeometric() && !(*r)->type.IsGeometric()) return BoundExprPtr();
  switch (op) {
    case ast::BinaryOp::kEq:
    case ast::BinaryOp::kNe:
    case ast::BinaryOp::kLt:
    case ast::BinaryOp::kLe:
    case ast::BinaryOp::kGt:
    case ast::BinaryOp::kGe:
    case ast::BinaryOp::kAdd:
    case ast::BinaryOp::kSub:
    case ast::BinaryOp::kMul:
    case ast::BinaryOp::kDiv:
    case ast::BinaryOp::kMod:
      return BindGeometryOperator(ast::OperatorName(op), l, r, pos);
    default:
      return BoundExprPtr();
  }
}

Result<BoundExprPtr> Binder::BindPointSubscript(BoundExprPtr point, BoundExprPtr index,
                                                uint32_t pos) {
  if (index->type.id != TypeId::kInteger) {
    MERIDIAN_ASSIGN_OR_RETURN(index, Coerce(std::move(index), Type::Integer(), false, ""));
  }
  std::vector<BoundExprPtr> args;
  args.push_back(std::move(point));
  args.push_back(std::move(index));
  return MakeJsonCall("point_subscript", std::move(args), Type::Double(), pos);
}

}  // namespace meridian::exec
