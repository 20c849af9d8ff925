// Binding of function calls: aggregates (count, sum, avg, min, max) and the scalar functions
// abs, coalesce, nullif, length, lower, upper. Unknown names give 42883 as in PostgreSQL.
#include "exec/binder.h"
#include "exec/type_rules.h"

namespace meridian::exec {

namespace {

Status NoFunction(const std::string& name, const std::vector<BoundExprPtr>& args,
                  uint32_t position) {
  std::string sig = name + "(";
  for (size_t i = 0; i < args.size(); ++i) {
    if (i > 0) sig += ", ";
    sig += args[i]->type.Name();
  }
  sig += ")";
  return Status::Error(sqlstate::kUndefinedFunction, "function " + sig + " does not exist")
      .WithHint(
          "No function matches the given name and argument types. You might need to add "
          "explicit type casts.")
      .WithPosition(position);
}

bool IsAggregateName(const std::string& n) {
  return n == "count" || n == "sum" || n == "avg" || n == "min" || n == "max";
}

}  // namespace

Result<BoundExprPtr> Binder::BindFunction(const ast::Expr& expr) {
  const uint32_t pos = expr.loc.position;
  const std::string& name = expr.name;
  if (IsAggregateName(name)) return BindAggregate(expr);
  if (expr.star) {
    return Status::Error(sqlstate::kSyntaxError,
                         name + "(*) specified, but " + name + " is not an aggregate function")
        .WithPosition(pos);
  }
  if (expr.distinct) {
    return Status::Error("42809",
                         "DISTINCT specified, but " + name + " is not an aggregate function")
        .WithPosition(pos);
  }
  std::vector<BoundExprPtr> args;
  for (const ast::ExprPtr& c : expr.children) {
    MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr a, BindExpr(*c));
    args.push_back(std::move(a));
  }
  auto e = std::make_unique<BoundExpr>();
  e->kind = BoundKind::kFunction;
  e->name = name;
  e->position = pos;
  if (name == "abs" && args.size() == 1) {
    if (args[0]->type.id == TypeId::kUnknown) {
      MERIDIAN_ASSIGN_OR_RETURN(args[0], Coerce(std::move(args[0]), Type::Double(), false, ""));
    }
    if (!args[0]->type.IsNumeric()) return NoFunction(name, args, pos);
    e->func = Func::kAbs;
    e->type = args[0]->type;
  } else if (name == "coalesce" && !args.empty()) {
    std::vector<BoundExprPtr*> all;
    for (BoundExprPtr& a : args) all.push_back(&a);
    MERIDIAN_RETURN_IF_ERROR(UnifyTypes(all, "COALESCE", &e->type));
    e->func = Func::kCoalesce;
  } else if (name == "nullif" && args.size() == 2) {
    if (args[0]->type.id == TypeId::kUnknown) {
      MERIDIAN_ASSIGN_OR_RETURN(
          args[0],
          Coerce(std::move(args[0]),
                 args[1]->type.id == TypeId::kUnknown ? Type::Text() : args[1]->type, false, ""));
    }
    if (args[1]->type.id == TypeId::kUnknown) {
      MERIDIAN_ASSIGN_OR_RETURN(args[1], Coerce(std::move(args[1]), args[0]->type, false, ""));
    }
    if (!Comparable(args[0]->type, args[1]->type)) return NoFunction(name, args, pos);
    e->func = Func::kNullIf;
    e->type = args[0]->type;
  } else if ((name == "length" || name == "char_length" || name == "lower" || name == "upper") &&
             args.size() == 1) {
    if (args[0]->type.id == TypeId::kUnknown) {
      MERIDIAN_ASSIGN_OR_RETURN(args[0], Coerce(std::move(args[0]), Type::Text(), false, ""));
    }
    if (!args[0]->type.IsString()) return NoFunction(name, args, pos);
    if (name == "lower" || name == "upper") {
      e->func = name == "lower" ? Func::kLower : Func::kUpper;
      e->type = Type::Text();
    } else {
      e->func = Func::kLength;
      e->type = Type::Integer();
    }
  } else {
    return NoFunction(name, args, pos);
  }
  e->children = std::move(args);
  return e;
}

Result<BoundExprPtr> Binder::BindAggregate(const ast::Expr& expr) {
  const uint32_t pos = expr.loc.position;
  const std::string& name = expr.name;
  if (!rules_.aggregates) {
    return Status::Error(sqlstate::kGroupingError,
                         std::string("aggregate functions are not allowed in ") + rules_.clause)
        .WithPosition(pos);
  }
  if (in_aggregate_) {
    return Status::Error(sqlstate::kGroupingError, "aggregate function calls cannot be nested")
        .WithPosition(pos);
  }
  auto e = std::make_unique<BoundExpr>();
  e->kind = BoundKind::kAggregate;
  e->name = name;
  e->position = pos;
  e->distinct = expr.distinct;
  e->star = expr.star;
  if (expr.star) {
    if (name != "count") {
      return Status::Error(sqlstate::kSyntaxError, name + "(*) is not allowed").WithPosition(pos);
    }
    e->agg = AggFunc::kCount;
    e->type = Type::BigInt();
    return e;
  }
  if (expr.children.size() != 1) {
    std::vector<BoundExprPtr> none;
    return NoFunction(name, none, pos);
  }
  in_aggregate_ = true;
  auto arg = BindExpr(*expr.children[0]);
  in_aggregate_ = false;
  if (!arg.ok()) return arg.status();
  BoundExprPtr a = std::move(arg).value();
  std::vector<BoundExprPtr> args;
  Type t = a->type;
  if (name == "count") {
    e->agg = AggFunc::kCount;
    e->type = Type::BigInt();
  } else if (name == "sum" || name == "avg") {
    if (!t.IsNumeric()) {
      args.push_back(std::move(a));
      return NoFunction(name, args, pos);
    }
    e->agg = name == "sum" ? AggFunc::kSum : AggFunc::kAvg;
    e->type = (name == "sum" && t.IsIntegral()) ? Type::BigInt() : Type::Double();
  } else {
    if (t.id == TypeId::kUnknown) {
      MERIDIAN_ASSIGN_OR_RETURN(a, Coerce(std::move(a), Type::Text(), false, ""));
    }
    e->agg = name == "min" ? AggFunc::kMin : AggFunc::kMax;
    e->type = a->type;
  }
  e->children.push_back(std::move(a));
  return e;
}

}  // namespace meridian::exec
