// Binding of expressions: literals, operators (with unknown-literal coercion and PostgreSQL's
// operator type checks), CAST, CASE, IN, BETWEEN and subquery expressions.
#include <charconv>
#include <cstdlib>

#include "binder/binder.h"
#include "binder/type_rules.h"
#include "catalog/schema.h"
#include "execution/evaluator.h"
#include "meridian/numeric.h"
#include "optimizer/access_path.h"

namespace meridian::exec {

Status NoOperator(const std::string& op, Type l, Type r, uint32_t position) {
  return Status::Error(sqlstate::kUndefinedFunction,
                       "operator does not exist: " + l.Name() + " " + op + " " + r.Name())
      .WithHint(
          "No operator matches the given name and argument types. You might need to add "
          "explicit type casts.")
      .WithPosition(position);
}

namespace {

BoundExprPtr MakeNode(BoundKind kind, Type type, uint32_t position) {
  return BoundExpr::Make(kind, type, position);
}

// The type an unknown literal takes when compared with or combined with type t: t without
// its modifier (a literal compared with a numeric(5,2) column is not rounded first).
Type LiteralTargetFor(Type t) {
  if (t.IsArray()) return Type::Array(LiteralTargetFor(t.Element()));
  return t.id == TypeId::kVarchar ? Type::Text() : Type{t.id, -1};
}

bool IsUnknown(const BoundExprPtr& e) { return e->type.id == TypeId::kUnknown; }

}  // namespace

bool IsNullConstant(const BoundExpr& e) {
  if (e.kind == BoundKind::kConst) return e.value.IsNull();
  return e.kind == BoundKind::kCast && IsNullConstant(*e.children[0]);
}

namespace {

// Whether a constant part of e fails to evaluate (1 / 0): PostgreSQL raises that while planning,
// before it could fold e away.
bool HasFailingConstant(const BoundExpr& e) {
  if (IsPlanConstant(e)) return !Eval(e, EvalContext{}).ok();
  for (const BoundExprPtr& c : e.children) {
    if (HasFailingConstant(*c)) return true;
  }
  return false;
}

}  // namespace

BoundExprPtr FoldStrictNull(BoundExprPtr e) {
  bool null_operand = false;
  for (const BoundExprPtr& c : e->children) {
    // An aggregate makes its query an aggregate one (one row over no rows): it must stay.
    if (HasFailingConstant(*c) || c->ContainsAggregate()) return e;
    null_operand |= IsNullConstant(*c);
  }
  if (null_operand) return BoundExpr::Const(Value::Null(), e->type, e->position);
  return e;
}

Result<BoundExprPtr> Binder::BindExpr(const ast::Expr& expr) {
  Result<BoundExprPtr> r = [&]() -> Result<BoundExprPtr> {
    switch (expr.kind) {
      case ast::ExprKind::kLiteral:
        return BindLiteral(expr);
      case ast::ExprKind::kColumnRef:
        return BindColumnRef(expr);
      case ast::ExprKind::kStar:
        if (expr.star) {  // (t).*, which PostgreSQL expands only as a select item
          return Status::NotSupported("row expansion via \"*\" is not supported here")
              .WithPosition(expr.loc.position);
        }
        if (!expr.table.empty()) return BindColumnRef(expr);  // t.* in an expression: t's row
        return Status::Error(sqlstate::kSyntaxError, "\"*\" is not allowed here")
            .WithPosition(expr.loc.position);
      case ast::ExprKind::kParam:
        return BindParam(expr);
      case ast::ExprKind::kUnary:
        return BindUnary(expr);
      case ast::ExprKind::kBinary:
        return BindBinary(expr);
      case ast::ExprKind::kIsNull: {
        MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr child, BindExpr(*expr.children[0]));
        auto e = MakeNode(BoundKind::kIsNull, Type::Boolean(), expr.loc.position);
        e->negated = expr.negated;
        e->children.push_back(std::move(child));
        return e;
      }
      case ast::ExprKind::kBooleanTest:
        return BindBooleanTest(expr);
      case ast::ExprKind::kFunction:
        return BindFunction(expr);
      case ast::ExprKind::kCast:
        return BindCast(expr);
      case ast::ExprKind::kCase:
        return BindCase(expr);
      case ast::ExprKind::kInList:
        return BindInList(expr);
      case ast::ExprKind::kBetween:
        return BindBetween(expr);
      case ast::ExprKind::kSubquery:
      case ast::ExprKind::kExists:
      case ast::ExprKind::kInSubquery:
        return BindSubqueryExpr(expr);
      case ast::ExprKind::kArray:
        return BindArray(expr);
      case ast::ExprKind::kQuantifiedArray:
        return BindQuantifiedArray(expr);
      case ast::ExprKind::kSubscript:
        return BindSubscript(expr);
      case ast::ExprKind::kFieldSelect:
        return BindFieldSelect(expr);
    }
    return Status::NotSupported("this expression is not supported yet")
        .WithPosition(expr.loc.position);
  }();
  if (r.ok() && (*r)->position == 0) (*r)->position = expr.loc.position;
  return r;
}

Result<BoundExprPtr> Binder::BindLiteral(const ast::Expr& expr) {
  const uint32_t pos = expr.loc.position;
  switch (expr.literal_kind) {
    case ast::LiteralKind::kNull:
      return BoundExpr::Const(Value::Null(), Type::Unknown(), pos);
    case ast::LiteralKind::kBool:
      return BoundExpr::Const(Value::Bool(expr.bool_value), Type::Boolean(), pos);
    case ast::LiteralKind::kString:
      return BoundExpr::Const(Value::String(expr.text), Type::Unknown(), pos);
    case ast::LiteralKind::kInteger: {
      int64_t v = 0;
      const char* b = expr.text.data();
      const char* e = b + expr.text.size();
      auto res = std::from_chars(b, e, v);
      if (res.ec == std::errc() && res.ptr == e) {
        bool small = v >= INT32_MIN && v <= INT32_MAX;
        return BoundExpr::Const(Value::Int(v), small ? Type::Integer() : Type::BigInt(), pos);
      }
      [[fallthrough]];  // beyond bigint: numeric, as in PostgreSQL
    }
    case ast::LiteralKind::kFloat: {
      // 1.5, 1e3: numeric constants, as in PostgreSQL. One that Meridian's 38-digit numeric
      // cannot hold (1e308, 1e-50) becomes a double precision constant instead.
      const double d = std::strtod(expr.text.c_str(), nullptr);
      Result<Numeric> n = numeric::Parse(expr.text);
      if (!n.ok() || numeric::ToDouble(*n) != d) {
        return BoundExpr::Const(Value::Double(d), Type::Double(), pos);
      }
      return BoundExpr::Const(Value::Decimal(*n), Type::Numeric(), pos);
    }
  }
  return Status::Internal("unknown literal kind");
}

Result<BoundExprPtr> Binder::BindParam(const ast::Expr& expr) {
  const uint32_t pos = expr.loc.position;
  if (params_ == nullptr) {
    return Status::Error(sqlstate::kUndefinedParameter,
                         "there is no parameter $" + std::to_string(expr.param_index))
        .WithPosition(pos);
  }
  MERIDIAN_ASSIGN_OR_RETURN(Type type, params_->Lookup(expr.param_index, pos));
  auto e = MakeNode(BoundKind::kParam, type, pos);
  e->index = expr.param_index - 1;
  return e;
}

void Binder::InferParamType(BoundExpr* e, Type to) {
  if (e->kind != BoundKind::kParam || e->type.id != TypeId::kUnknown || params_ == nullptr ||
      to.id == TypeId::kUnknown) {
    return;
  }
  e->type = params_->Infer(e->index + 1, to);
}

Result<BoundExprPtr> Binder::BindBoolean(const ast::Expr& expr, const char* what) {
  MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr e, BindExpr(expr));
  if (IsUnknown(e)) {
    MERIDIAN_ASSIGN_OR_RETURN(e, Coerce(std::move(e), Type::Boolean(), false, ""));
  }
  if (e->type.id != TypeId::kBoolean) {
    return Status::Error(sqlstate::kDatatypeMismatch, std::string("argument of ") + what +
                                                          " must be type boolean, not type " +
                                                          e->type.Name())
        .WithPosition(expr.loc.position);
  }
  return e;
}

// x IS [NOT] TRUE / FALSE is x IS [NOT] DISTINCT FROM true / false, and IS [NOT] UNKNOWN is
// IS [NOT] NULL, over a boolean x; name keeps the test as written for deparsing and EXPLAIN.
Result<BoundExprPtr> Binder::BindBooleanTest(const ast::Expr& expr) {
  const bool unknown = expr.literal_kind == ast::LiteralKind::kNull;
  const std::string what = std::string(expr.negated ? "IS NOT " : "IS ") +
                           (unknown ? "UNKNOWN" : (expr.bool_value ? "TRUE" : "FALSE"));
  MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr child, BindBoolean(*expr.children[0], what.c_str()));
  BoundExprPtr e;
  if (unknown) {
    e = MakeNode(BoundKind::kIsNull, Type::Boolean(), expr.loc.position);
    e->negated = expr.negated;
  } else {
    e = MakeNode(BoundKind::kBinary, Type::Boolean(), expr.loc.position);
    e->binary_op =
        expr.negated ? ast::BinaryOp::kIsDistinctFrom : ast::BinaryOp::kIsNotDistinctFrom;
  }
  e->name = what;
  e->children.push_back(std::move(child));
  if (!unknown) {
    e->children.push_back(
        BoundExpr::Const(Value::Bool(expr.bool_value), Type::Boolean(), expr.loc.position));
  }
  return e;
}

Result<BoundExprPtr> Binder::BindUnary(const ast::Expr& expr) {
  const uint32_t pos = expr.loc.position;
  if (expr.unary_op == ast::UnaryOp::kNot) {
    MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr child, BindBoolean(*expr.children[0], "NOT"));
    auto e = MakeNode(BoundKind::kUnary, Type::Boolean(), pos);
    e->unary_op = ast::UnaryOp::kNot;
    e->children.push_back(std::move(child));
    return e;
  }
  MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr child, BindExpr(*expr.children[0]));
  if (IsUnknown(child)) {
    MERIDIAN_ASSIGN_OR_RETURN(child, Coerce(std::move(child), Type::Double(), false, ""));
  }
  if (child->type.id == TypeId::kInterval) {
    if (expr.unary_op == ast::UnaryOp::kPlus) return child;
    auto e = MakeNode(BoundKind::kUnary, child->type, pos);
    e->unary_op = ast::UnaryOp::kNeg;
    e->children.push_back(std::move(child));
    return FoldStrictNull(std::move(e));
  }
  if (!child->type.IsNumeric()) {
    return Status::Error(sqlstate::kUndefinedFunction,
                         std::string("operator does not exist: ") +
                             (expr.unary_op == ast::UnaryOp::kNeg ? "- " : "+ ") +
                             child->type.Name())
        .WithPosition(pos);
  }
  if (expr.unary_op == ast::UnaryOp::kPlus) return child;
  // Fold a negated literal, as PostgreSQL's grammar does: -2147483648 is an integer.
  if (child->kind == BoundKind::kConst && !child->value.IsNull()) {
    if (child->value.IsDouble()) {
      return BoundExpr::Const(Value::Double(-child->value.AsDouble()), child->type, pos);
    }
    if (child->value.IsReal()) {
      return BoundExpr::Const(Value::Real(-child->value.AsReal()), child->type, pos);
    }
    if (child->value.IsDecimal()) {
      return BoundExpr::Const(Value::Decimal(numeric::Negate(child->value.AsDecimal())),
                              child->type, pos);
    }
    if (child->type.id == TypeId::kSmallInt) {
      auto e = MakeNode(BoundKind::kUnary, child->type, pos);
      e->unary_op = ast::UnaryOp::kNeg;
      e->children.push_back(std::move(child));
      return e;
    }
    // Only a literal written after the minus: a negated typed constant (-(x::int)) is checked
    // against its type's range when evaluated (22003), as PostgreSQL's int4um does.
    int64_t v = child->value.AsInt();
    if (v != INT64_MIN && expr.children[0]->kind == ast::ExprKind::kLiteral) {
      bool small = -v >= INT32_MIN && -v <= INT32_MAX;
      return BoundExpr::Const(Value::Int(-v), small ? Type::Integer() : Type::BigInt(), pos);
    }
  }
  auto e = MakeNode(BoundKind::kUnary, child->type, pos);
  e->unary_op = ast::UnaryOp::kNeg;
  e->children.push_back(std::move(child));
  return FoldStrictNull(std::move(e));
}

Result<BoundExprPtr> Binder::MakeComparison(ast::BinaryOp op, BoundExprPtr l, BoundExprPtr r,
                                            uint32_t position) {
  if (IsUnknown(l) && IsUnknown(r)) {
    MERIDIAN_ASSIGN_OR_RETURN(l, Coerce(std::move(l), Type::Text(), false, ""));
    MERIDIAN_ASSIGN_OR_RETURN(r, Coerce(std::move(r), Type::Text(), false, ""));
  } else if (IsUnknown(l)) {
    MERIDIAN_ASSIGN_OR_RETURN(l, Coerce(std::move(l), LiteralTargetFor(r->type), false, ""));
  } else if (IsUnknown(r)) {
    MERIDIAN_ASSIGN_OR_RETURN(r, Coerce(std::move(r), LiteralTargetFor(l->type), false, ""));
  }
  // character(n) compares without its trailing blanks (bpchar semantics; its cast to text
  // drops them).
  if (l->type.id == TypeId::kChar && r->type.IsString()) {
    MERIDIAN_ASSIGN_OR_RETURN(l, Coerce(std::move(l), Type::Text(), false, ""));
  }
  if (r->type.id == TypeId::kChar && l->type.IsString()) {
    MERIDIAN_ASSIGN_OR_RETURN(r, Coerce(std::move(r), Type::Text(), false, ""));
  }
  // numeric vs integer compares as numeric and date vs timestamp as timestamp, as PostgreSQL's
  // operators do; the converted side then matches an index on the other (same key family).
  for (BoundExprPtr* side : {&l, &r}) {
    const Type other = (side == &l ? r : l)->type;
    if ((*side)->type.IsIntegral() && other.id == TypeId::kNumeric) {
      MERIDIAN_ASSIGN_OR_RETURN(*side, Coerce(std::move(*side), Type::Numeric(), false, ""));
    } else if ((*side)->type.id == TypeId::kDate && other.id == TypeId::kTimestamp) {
      MERIDIAN_ASSIGN_OR_RETURN(*side, Coerce(std::move(*side), Type::Timestamp(), false, ""));
    } else if (((*side)->type.id == TypeId::kDate || (*side)->type.id == TypeId::kTimestamp) &&
               other.id == TypeId::kTimestampTz) {
      MERIDIAN_ASSIGN_OR_RETURN(*side, Coerce(std::move(*side), Type::TimestampTz(), false, ""));
    }
  }
  if (!Comparable(l->type, r->type))
    return NoOperator(ast::OperatorName(op), l->type, r->type, position);
  auto e = MakeNode(BoundKind::kBinary, Type::Boolean(), position);
  e->binary_op = op;
  e->children.push_back(std::move(l));
  e->children.push_back(std::move(r));
  // IS [NOT] DISTINCT FROM is not strict: NULL is an operand like any other.
  if (op == ast::BinaryOp::kIsDistinctFrom || op == ast::BinaryOp::kIsNotDistinctFrom) return e;
  return FoldStrictNull(std::move(e));
}

namespace {

bool IsTimeType(Type t) {
  return t.id == TypeId::kInterval || t.id == TypeId::kTime || t.id == TypeId::kTimestamp ||
         t.id == TypeId::kTimestampTz;
}

}  // namespace

Result<BoundExprPtr> Binder::MakeTimeArithmetic(ast::BinaryOp op, BoundExprPtr* l, BoundExprPtr* r,
                                                uint32_t position) {
  const bool add = op == ast::BinaryOp::kAdd, sub = op == ast::BinaryOp::kSub;
  const bool mul = op == ast::BinaryOp::kMul, div = op == ast::BinaryOp::kDiv;
  // An untyped literal takes the other operand's type for -, interval for + (and double
  // precision as an interval's factor), as PostgreSQL's operator resolution picks.
  for (BoundExprPtr* side : {l, r}) {
    BoundExprPtr* other = side == l ? r : l;
    if (!IsUnknown(*side) || IsUnknown(*other)) continue;
    const Type o = (*other)->type;
    Type to = Type::Unknown();
    if (o.id == TypeId::kInterval) {
      to = (mul || div) ? Type::Double() : Type::Interval();
    } else if (o.id == TypeId::kTimestamp || o.id == TypeId::kTimestampTz ||
               o.id == TypeId::kTime) {
      to = sub ? Type{o.id, -1} : Type::Interval();
    }
    if (to.id != TypeId::kUnknown) {
      MERIDIAN_ASSIGN_OR_RETURN(*side, Coerce(std::move(*side), to, false, ""));
    }
  }
  const TypeId a = (*l)->type.id, b = (*r)->type.id;
  if (!IsTimeType((*l)->type) && !IsTimeType((*r)->type)) return BoundExprPtr{};
  auto coerce = [&](BoundExprPtr* side, Type to) -> Status {
    MERIDIAN_ASSIGN_OR_RETURN(*side, Coerce(std::move(*side), to, false, ""));
    return Status::Ok();
  };
  auto is_point = [](TypeId t) {
    return t == TypeId::kDate || t == TypeId::kTimestamp || t == TypeId::kTimestampTz;
  };
  Type result = Type::Unknown();
  if (a == TypeId::kInterval && b == TypeId::kInterval && (add || sub)) {
    result = Type::Interval();
  } else if ((mul && ((a == TypeId::kInterval && (*r)->type.IsNumeric()) ||
                      (b == TypeId::kInterval && (*l)->type.IsNumeric()))) ||
             (div && a == TypeId::kInterval && (*r)->type.IsNumeric())) {
    MERIDIAN_RETURN_IF_ERROR(coerce(a == TypeId::kInterval ? r : l, Type::Double()));
    result = Type::Interval();
  } else if (((add || sub) && b == TypeId::kInterval && (is_point(a) || a == TypeId::kTime)) ||
             (add && a == TypeId::kInterval && (is_point(b) || b == TypeId::kTime))) {
    BoundExprPtr* point = b == TypeId::kInterval ? l : r;
    if ((*point)->type.id == TypeId::kDate) {
      MERIDIAN_RETURN_IF_ERROR(coerce(point, Type::Timestamp()));
    }
    result = Type{(*point)->type.id, -1};
  } else if (sub && is_point(a) && is_point(b) && (a != TypeId::kDate || b != TypeId::kDate)) {
    const Type common = (a == TypeId::kTimestampTz || b == TypeId::kTimestampTz)
                            ? Type::TimestampTz()
                            : Type::Timestamp();
    MERIDIAN_RETURN_IF_ERROR(coerce(l, common));
    MERIDIAN_RETURN_IF_ERROR(coerce(r, common));
    result = Type::Interval();
  } else if (sub && a == TypeId::kTime && b == TypeId::kTime) {
    result = Type::Interval();
  } else if (add && ((a == TypeId::kDate && b == TypeId::kTime) ||
                     (a == TypeId::kTime && b == TypeId::kDate))) {
    result = Type::Timestamp();
  } else {
    return NoOperator(ast::OperatorName(op), (*l)->type, (*r)->type, position);
  }
  auto e = MakeNode(BoundKind::kBinary, result, position);
  e->binary_op = op;
  e->children.push_back(std::move(*l));
  e->children.push_back(std::move(*r));
  return FoldStrictNull(std::move(e));
}

Result<BoundExprPtr> Binder::MakeArithmetic(ast::BinaryOp op, BoundExprPtr l, BoundExprPtr r,
                                            uint32_t position) {
  {
    MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr e, MakeTimeArithmetic(op, &l, &r, position));
    if (e != nullptr) return e;
  }
  if (IsUnknown(l) && !IsUnknown(r) && r->type.IsNumeric()) {
    MERIDIAN_ASSIGN_OR_RETURN(l, Coerce(std::move(l), LiteralTargetFor(r->type), false, ""));
  } else if (IsUnknown(r) && !IsUnknown(l) && l->type.IsNumeric()) {
    MERIDIAN_ASSIGN_OR_RETURN(r, Coerce(std::move(r), LiteralTargetFor(l->type), false, ""));
  }
  // date + integer, integer + date, date - integer → date; date - date → integer.
  const bool ld = l->type.id == TypeId::kDate, rd = r->type.id == TypeId::kDate;
  if (ld || rd) {
    if (ld && IsUnknown(r)) {
      MERIDIAN_ASSIGN_OR_RETURN(r, Coerce(std::move(r), Type::Integer(), false, ""));
    }
    Type result = Type::Unknown();
    if (ld && rd && op == ast::BinaryOp::kSub) {
      result = Type::Integer();
    } else if (ld && r->type.IsIntegral() &&
               (op == ast::BinaryOp::kAdd || op == ast::BinaryOp::kSub)) {
      result = Type::Date();
    } else if (rd && l->type.IsIntegral() && op == ast::BinaryOp::kAdd) {
      result = Type::Date();
    }
    if (result.id == TypeId::kUnknown) {
      return NoOperator(ast::OperatorName(op), l->type, r->type, position);
    }
    auto e = MakeNode(BoundKind::kBinary, result, position);
    e->binary_op = op;
    e->children.push_back(std::move(l));
    e->children.push_back(std::move(r));
    return FoldStrictNull(std::move(e));
  }
  if (!l->type.IsNumeric() || !r->type.IsNumeric()) {
    return NoOperator(ast::OperatorName(op), l->type, r->type, position);
  }
  const Type result = PromoteNumeric(l->type, r->type);
  // PostgreSQL has no % for real or double precision (only for integers and numeric).
  if (op == ast::BinaryOp::kMod && result.IsFloat()) {
    return NoOperator(ast::OperatorName(op), l->type, r->type, position);
  }
  auto e = MakeNode(BoundKind::kBinary, result, position);
  e->binary_op = op;
  e->children.push_back(std::move(l));
  e->children.push_back(std::move(r));
  return FoldStrictNull(std::move(e));
}

Result<BoundExprPtr> Binder::BindBinary(const ast::Expr& expr) {
  const uint32_t pos = expr.loc.position;
  const ast::BinaryOp op = expr.binary_op;
  if (op == ast::BinaryOp::kAnd || op == ast::BinaryOp::kOr) {
    const char* what = op == ast::BinaryOp::kAnd ? "AND" : "OR";
    MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr l, BindBoolean(*expr.children[0], what));
    MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr r, BindBoolean(*expr.children[1], what));
    auto e = MakeNode(BoundKind::kBinary, Type::Boolean(), pos);
    e->binary_op = op;
    e->children.push_back(std::move(l));
    e->children.push_back(std::move(r));
    return e;
  }
  MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr l, BindExpr(*expr.children[0]));
  MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr r, BindExpr(*expr.children[1]));
  if (l->type.id == TypeId::kJsonb || r->type.id == TypeId::kJsonb) {
    MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr j, BindJsonbBinary(op, &l, &r, pos));
    if (j != nullptr) return j;
  }
  if (l->type.IsGeometric() || r->type.IsGeometric()) {
    MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr g, BindGeometryBinary(op, &l, &r, pos));
    if (g != nullptr) return g;
  }
  switch (op) {
    case ast::BinaryOp::kAdd:
    case ast::BinaryOp::kSub:
    case ast::BinaryOp::kMul:
    case ast::BinaryOp::kDiv:
    case ast::BinaryOp::kMod:
      return MakeArithmetic(op, std::move(l), std::move(r), pos);
    case ast::BinaryOp::kConcat:
    case ast::BinaryOp::kLike:
    case ast::BinaryOp::kNotLike:
    case ast::BinaryOp::kILike:
    case ast::BinaryOp::kNotILike:
    case ast::BinaryOp::kRegexMatch:
    case ast::BinaryOp::kRegexNotMatch:
    case ast::BinaryOp::kRegexIMatch:
    case ast::BinaryOp::kRegexNotIMatch: {
      bool concat = op == ast::BinaryOp::kConcat;
      if (concat && (l->type.IsArray() || r->type.IsArray())) {
        return MakeArrayConcat(std::move(l), std::move(r), pos);
      }
      // bytea || bytea (an untyped literal beside a bytea is bytea, as in PostgreSQL).
      const bool lb = l->type.id == TypeId::kBytea, rb = r->type.id == TypeId::kBytea;
      if (concat && (lb || rb) && (lb || IsUnknown(l)) && (rb || IsUnknown(r))) {
        if (!lb) {
          MERIDIAN_ASSIGN_OR_RETURN(l, Coerce(std::move(l), Type::Bytea(), false, ""));
        }
        if (!rb) {
          MERIDIAN_ASSIGN_OR_RETURN(r, Coerce(std::move(r), Type::Bytea(), false, ""));
        }
        auto e = MakeNode(BoundKind::kBinary, Type::Bytea(), pos);
        e->binary_op = op;
        e->children.push_back(std::move(l));
        e->children.push_back(std::move(r));
        return FoldStrictNull(std::move(e));
      }
      bool ls = l->type.IsString() || IsUnknown(l);
      bool rs = r->type.IsString() || IsUnknown(r);
      // || accepts one non-string operand (anynonarray || text); LIKE wants two strings.
      if (concat ? (!ls && !rs) : (!ls || !rs)) {
        return NoOperator(ast::OperatorName(op), l->type, r->type, pos);
      }
      // Unknown literals and character(n) (its blanks dropped) take part as text.
      if (IsUnknown(l) || l->type.id == TypeId::kChar) {
        MERIDIAN_ASSIGN_OR_RETURN(l, Coerce(std::move(l), Type::Text(), false, ""));
      }
      if (IsUnknown(r) || r->type.id == TypeId::kChar) {
        MERIDIAN_ASSIGN_OR_RETURN(r, Coerce(std::move(r), Type::Text(), false, ""));
      }
      auto e = MakeNode(BoundKind::kBinary, concat ? Type::Text() : Type::Boolean(), pos);
      e->binary_op = op;
      e->children.push_back(std::move(l));
      e->children.push_back(std::move(r));
      return e;
    }
    default:
      return MakeComparison(op, std::move(l), std::move(r), pos);
  }
}

Result<BoundExprPtr> Binder::BindCast(const ast::Expr& expr) {
  const std::string& type_name = expr.cast_type.name;
  if (type_name == "regclass" || type_name == "regtype" || type_name == "regnamespace" ||
      type_name == "regproc") {
    return BindRegCast(expr);
  }
  MERIDIAN_ASSIGN_OR_RETURN(Type to, catalog::TypeFromSpec(expr.cast_type));
  const ast::Expr& operand = *expr.children[0];
  if (operand.kind == ast::ExprKind::kArray && operand.subquery == nullptr && to.IsArray()) {
    // ARRAY[...]::T[] types the elements as T (ARRAY[]::int[] is an empty int[]).
    return BindArray(operand, to);
  }
  MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr child, BindExpr(operand));
  InferParamType(child.get(), to);
  if (!CanCast(child->type, to)) {
    return Status::Error(sqlstate::kCannotCoerce,
                         "cannot cast type " + child->type.Name() + " to " + to.Name())
        .WithPosition(expr.loc.position);
  }
  if (child->kind == BoundKind::kConst) {
    auto v = CastValue(child->value, child->type, to, /*explicit_cast=*/true);
    if (!v.ok()) return Status(v.status()).WithPositionIfUnset(child->position);
    return BoundExpr::Const(std::move(v).value(), to, expr.loc.position);
  }
  auto e = MakeNode(BoundKind::kCast, to, expr.loc.position);
  e->explicit_cast = true;
  e->children.push_back(std::move(child));
  return e;
}

Status Binder::UnifyTypes(std::vector<BoundExprPtr*> exprs, const char* context, Type* type) {
  Type common = Type::Unknown();
  for (BoundExprPtr* e : exprs) {
    std::optional<Type> t = CommonType(common, (*e)->type);
    if (!t) {
      return Status::Error(sqlstate::kDatatypeMismatch,
                           std::string(context) + " types " + common.Name() + " and " +
                               (*e)->type.Name() + " cannot be matched")
          .WithPosition((*e)->position);
    }
    common = (common.id == TypeId::kUnknown && (*e)->type.id == TypeId::kUnknown) ? common : *t;
  }
  if (common.id == TypeId::kUnknown) common = Type::Text();
  for (BoundExprPtr* e : exprs) {
    if ((*e)->type.id == common.id && common.id != TypeId::kVarchar) continue;
    MERIDIAN_ASSIGN_OR_RETURN(*e, Coerce(std::move(*e), common, false, ""));
  }
  *type = common;
  return Status::Ok();
}

Result<BoundExprPtr> Binder::BindCase(const ast::Expr& expr) {
  auto e = MakeNode(BoundKind::kCase, Type::Unknown(), expr.loc.position);
  e->has_operand = expr.has_case_operand;
  e->has_else = expr.has_else;
  size_t i = 0;
  if (expr.has_case_operand) {
    MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr operand, BindExpr(*expr.children[0]));
    if (IsUnknown(operand)) {
      MERIDIAN_ASSIGN_OR_RETURN(operand, Coerce(std::move(operand), Type::Text(), false, ""));
    }
    e->children.push_back(std::move(operand));
    i = 1;
  }
  const size_t end = expr.children.size() - (expr.has_else ? 1 : 0);
  std::vector<size_t> results;
  for (; i + 1 < end; i += 2) {
    if (expr.has_case_operand) {
      MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr w, BindExpr(*expr.children[i]));
      Type ot = e->children[0]->type;
      if (IsUnknown(w)) {
        MERIDIAN_ASSIGN_OR_RETURN(w, Coerce(std::move(w), LiteralTargetFor(ot), false, ""));
      }
      if (!Comparable(ot, w->type)) return NoOperator("=", ot, w->type, w->position);
      e->children.push_back(std::move(w));
    } else {
      MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr w, BindBoolean(*expr.children[i], "CASE/WHEN"));
      e->children.push_back(std::move(w));
    }
    MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr t, BindExpr(*expr.children[i + 1]));
    results.push_back(e->children.size());
    e->children.push_back(std::move(t));
  }
  if (expr.has_else) {
    MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr el, BindExpr(*expr.children.back()));
    results.push_back(e->children.size());
    e->children.push_back(std::move(el));
  }
  std::vector<BoundExprPtr*> branches;
  for (size_t r : results) branches.push_back(&e->children[r]);
  MERIDIAN_RETURN_IF_ERROR(UnifyTypes(branches, "CASE", &e->type));
  return e;
}

Result<BoundExprPtr> Binder::BindInList(const ast::Expr& expr) {
  auto e = MakeNode(BoundKind::kInList, Type::Boolean(), expr.loc.position);
  e->negated = expr.negated;
  MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr x, BindExpr(*expr.children[0]));
  std::vector<BoundExprPtr> items;
  Type known = x->type;
  for (size_t i = 1; i < expr.children.size(); ++i) {
    MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr item, BindExpr(*expr.children[i]));
    if (known.id == TypeId::kUnknown) known = item->type;
    items.push_back(std::move(item));
  }
  if (known.id == TypeId::kUnknown) known = Type::Text();
  Type target = LiteralTargetFor(known);
  if (IsUnknown(x)) {
    MERIDIAN_ASSIGN_OR_RETURN(x, Coerce(std::move(x), target, false, ""));
  }
  for (BoundExprPtr& item : items) {
    if (IsUnknown(item)) {
      MERIDIAN_ASSIGN_OR_RETURN(item, Coerce(std::move(item), target, false, ""));
    }
    if (!Comparable(x->type, item->type)) {
      return NoOperator("=", x->type, item->type, item->position);
    }
  }
  if (x->type.id == TypeId::kJsonb) {
    // jsonb's equality, not its text's: x = a OR x = b ... (NOT IN: x <> a AND x <> b ...),
    // x bound again for each item.
    BoundExprPtr out;
    for (size_t i = 0; i < items.size(); ++i) {
      BoundExprPtr xi;
      if (i == 0) {
        xi = std::move(x);
      } else {
        MERIDIAN_ASSIGN_OR_RETURN(xi, BindExpr(*expr.children[0]));
      }
      MERIDIAN_ASSIGN_OR_RETURN(
          BoundExprPtr cmp, BindJsonbBinary(expr.negated ? ast::BinaryOp::kNe : ast::BinaryOp::kEq,
                                            &xi, &items[i], expr.loc.position));
      if (cmp == nullptr) return Status::Internal("jsonb IN: no jsonb comparison");
      if (out == nullptr) {
        out = std::move(cmp);
        continue;
      }
      auto both = MakeNode(BoundKind::kBinary, Type::Boolean(), expr.loc.position);
      both->binary_op = expr.negated ? ast::BinaryOp::kAnd : ast::BinaryOp::kOr;
      both->children.push_back(std::move(out));
      both->children.push_back(std::move(cmp));
      out = std::move(both);
    }
    if (out != nullptr) return out;
  }
  e->children.push_back(std::move(x));
  for (BoundExprPtr& item : items) e->children.push_back(std::move(item));
  return e;
}

Result<BoundExprPtr> Binder::BindBetween(const ast::Expr& expr) {
  const uint32_t pos = expr.loc.position;
  MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr x1, BindExpr(*expr.children[0]));
  MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr x2, BindExpr(*expr.children[0]));
  MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr lo, BindExpr(*expr.children[1]));
  MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr hi, BindExpr(*expr.children[2]));
  MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr ge,
                            MakeComparison(ast::BinaryOp::kGe, std::move(x1), std::move(lo), pos));
  MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr le,
                            MakeComparison(ast::BinaryOp::kLe, std::move(x2), std::move(hi), pos));
  auto both = MakeNode(BoundKind::kBinary, Type::Boolean(), pos);
  both->binary_op = ast::BinaryOp::kAnd;
  both->children.push_back(std::move(ge));
  both->children.push_back(std::move(le));
  if (!expr.negated) return both;
  auto e = MakeNode(BoundKind::kUnary, Type::Boolean(), pos);
  e->unary_op = ast::UnaryOp::kNot;
  e->children.push_back(std::move(both));
  return e;
}

Result<BoundExprPtr> Binder::BindSubqueryExpr(const ast::Expr& expr) {
  const uint32_t pos = expr.loc.position;
  BoundExprPtr x;
  if (expr.kind == ast::ExprKind::kInSubquery) {
    MERIDIAN_ASSIGN_OR_RETURN(x, BindExpr(*expr.children[0]));
  }
  std::vector<ColumnInfo> columns;
  const HashedForm form = expr.kind == ast::ExprKind::kExists                 ? HashedForm::kExists
                          : expr.kind == ast::ExprKind::kSubquery             ? HashedForm::kScalar
                          : expr.binary_op == ast::BinaryOp::kEq && !expr.all ? HashedForm::kIn
                                                                              : HashedForm::kNone;
  MERIDIAN_ASSIGN_OR_RETURN(
      std::unique_ptr<SubqueryPlan> plan,
      BindSubqueryPlan(*expr.subquery, &columns, form, where_subquery_conjuncts_.count(&expr) != 0,
                       !expr.negated));
  if (expr.kind != ast::ExprKind::kExists && columns.size() != 1) {
    return Status::Error(sqlstate::kSyntaxError, "subquery must return only one column")
        .WithPosition(pos);
  }
  BoundKind kind = expr.kind == ast::ExprKind::kSubquery ? BoundKind::kSubquery
                   : expr.kind == ast::ExprKind::kExists ? BoundKind::kExists
                                                         : BoundKind::kInSubquery;
  auto e = MakeNode(kind, kind == BoundKind::kSubquery ? plan->type : Type::Boolean(), pos);
  e->negated = expr.negated;
  if (x != nullptr) {
    if (IsUnknown(x)) {
      MERIDIAN_ASSIGN_OR_RETURN(x, Coerce(std::move(x), LiteralTargetFor(plan->type), false, ""));
    }
    if (!Comparable(x->type, plan->type)) {
      return NoOperator(ast::OperatorName(expr.binary_op), x->type, plan->type, pos);
    }
    e->binary_op = expr.binary_op;
    e->all = expr.all;
    KeepHashedIn(plan.get(), x->type);
    e->children.push_back(std::move(x));
  }
  e->subquery = std::move(plan);
  return e;
}

}  // namespace meridian::exec
