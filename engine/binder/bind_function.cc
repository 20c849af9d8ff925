// Binding of function calls: aggregates (count, sum, avg, min, max), the scalar functions
// abs, coalesce, nullif, length, lower, upper, the math functions (round, floor, ceil, sign,
// sqrt, power, mod, greatest, least), the string functions (substring, strpos, trim, replace,
// concat, left, right, repeat, lpad, rpad, reverse, initcap, like_escape), the session and
// system-catalog functions (version, current_setting, set_config, current_user, pg_get_indexdef,
// ...; evaluated in system_functions.cc) and the ::regclass / ::regtype / ::regnamespace casts.
// Unknown names give 42883 as in PostgreSQL.
#include <algorithm>
#include <iterator>
#include <optional>
#include <utility>

#include "binder/binder.h"
#include "binder/function_registry.h"
#include "binder/type_rules.h"
#include "catalog/system_tables.h"
#include "execution/evaluator.h"

namespace meridian::exec {

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

namespace {

// rank, dense_rank, percent_rank, cume_dist: with WITHIN GROUP, hypothetical-set aggregates.
bool IsHypotheticalSetName(const std::string& n) {
  return n == "rank" || n == "dense_rank" || n == "percent_rank" || n == "cume_dist";
}

bool IsAggregateName(const std::string& n) {
  return n == "count" || n == "sum" || n == "avg" || n == "min" || n == "max" ||
         n == "string_agg" || n == "array_agg" || n == "bool_and" || n == "bool_or" ||
         n == "every" || n == "bit_and" || n == "bit_or" || n == "bit_xor" || n == "grouping" ||
         n == "stddev" || n == "stddev_samp" || n == "stddev_pop" || n == "variance" ||
         n == "var_samp" || n == "var_pop" || n == "corr" || n == "covar_pop" ||
         n == "covar_samp" || n == "regr_slope" || n == "regr_intercept" ||
         n == "percentile_cont" || n == "percentile_disc" || n == "mode";
}

// The one-argument statistical aggregates (PostgreSQL's names, two for the sample forms).
bool StatAggregate(const std::string& n, AggFunc* f) {
  static const std::pair<const char*, AggFunc> kNames[] = {
      {"stddev", AggFunc::kStddevSamp},    {"stddev_samp", AggFunc::kStddevSamp},
      {"stddev_pop", AggFunc::kStddevPop}, {"variance", AggFunc::kVarSamp},
      {"var_samp", AggFunc::kVarSamp},     {"var_pop", AggFunc::kVarPop}};
  for (const auto& [name, func] : kNames) {
    if (n == name) {
      *f = func;
      return true;
    }
  }
  return false;
}

// The two-argument (Y, X) ones over double precision.
bool RegressionAggregate(const std::string& n, AggFunc* f) {
  static const std::pair<const char*, AggFunc> kNames[] = {
      {"corr", AggFunc::kCorr},
      {"covar_pop", AggFunc::kCovarPop},
      {"covar_samp", AggFunc::kCovarSamp},
      {"regr_slope", AggFunc::kRegrSlope},
      {"regr_intercept", AggFunc::kRegrIntercept}};
  for (const auto& [name, func] : kNames) {
    if (n == name) {
      *f = func;
      return true;
    }
  }
  return false;
}

// A session or system-catalog function: argument kinds ('t' text, 'o' oid, 'i' integer,
// 'b' boolean, 'r' regclass: text or oid), how many are required, and the result kind.
struct SystemFunction {
  const char* name;
  Func func;
  const char* args;
  size_t required;
  char result;
};

constexpr SystemFunction kSystemFunctions[] = {
    {"version", Func::kVersion, "", 0, 't'},
    {"current_setting", Func::kCurrentSetting, "tb", 1, 't'},
    {"set_config", Func::kSetConfig, "ttb", 3, 't'},
    {"current_schema", Func::kCurrentSchema, "", 0, 't'},
    {"current_schemas", Func::kCurrentSchemas, "b", 1, 'A'},  // 'A': text[]
    {"current_database", Func::kCurrentDatabase, "", 0, 't'},
    {"current_catalog", Func::kCurrentDatabase, "", 0, 't'},
    {"current_user", Func::kCurrentUser, "", 0, 't'},
    {"current_role", Func::kCurrentUser, "", 0, 't'},
    {"user", Func::kCurrentUser, "", 0, 't'},
    {"session_user", Func::kSessionUser, "", 0, 't'},
    {"pg_backend_pid", Func::kBackendPid, "", 0, 'i'},
    {"pg_get_userbyid", Func::kUserById, "o", 1, 't'},
    {"pg_table_is_visible", Func::kTableIsVisible, "o", 1, 'b'},
    {"pg_relation_is_publishable", Func::kRelationIsPublishable, "o", 1, 'b'},
    // No extended statistics objects exist, so no oid names one.
    {"pg_get_statisticsobjdef_columns", Func::kAlwaysNull, "o", 1, 't'},
    {"pg_type_is_visible", Func::kAlwaysTrue, "o", 1, 'b'},
    {"pg_collation_is_visible", Func::kAlwaysTrue, "o", 1, 'b'},  // both live in pg_catalog
    {"pg_is_in_recovery", Func::kAlwaysFalse, "", 0, 'b'},        // pgx target_session_attrs
    {"format_type", Func::kFormatType, "oi", 2, 't'},
    {"pg_get_indexdef", Func::kIndexDef, "oib", 1, 't'},
    {"pg_get_constraintdef", Func::kConstraintDef, "ob", 1, 't'},
    {"pg_get_viewdef", Func::kViewDef, "ob", 1, 't'},
    // Views have only their _RETURN rule, which psql's \d+ skips: no rule is ever shown.
    {"pg_get_ruledef", Func::kAlwaysNull, "ob", 1, 't'},
    {"pg_get_expr", Func::kGetExpr, "tob", 2, 't'},
    {"pg_encoding_to_char", Func::kEncodingToChar, "i", 1, 't'},
    {"obj_description", Func::kAlwaysNull, "ot", 1, 't'},
    {"col_description", Func::kAlwaysNull, "oi", 2, 't'},
    {"shobj_description", Func::kAlwaysNull, "ot", 2, 't'},
    {"to_regclass", Func::kToRegClass, "t", 1, 'o'},
    // No table is partitioned, so no relation has ancestors: PostgreSQL's set-returning
    // function gives no rows, this scalar form NULL (psql's \d reads it inside IN (...)).
    {"pg_partition_ancestors", Func::kAlwaysNull, "r", 1, 'o'},
    // Meridian has no triggers (pg_trigger is empty).
    {"pg_get_triggerdef", Func::kAlwaysNull, "ob", 1, 't'},
    {"to_regtype", Func::kToRegType, "t", 1, 'o'},
    // 'Z': timestamp with time zone.
    {"now", Func::kNow, "", 0, 'Z'},
    {"current_timestamp", Func::kNow, "", 0, 'Z'},
    {"localtimestamp", Func::kLocalTimestamp, "", 0, 'T'},
    {"transaction_timestamp", Func::kNow, "", 0, 'Z'},
    {"statement_timestamp", Func::kNow, "", 0, 'Z'},
    {"clock_timestamp", Func::kClockTimestamp, "", 0, 'Z'},
    {"random", Func::kRandom, "", 0, 'F'},
    {"current_date", Func::kCurrentDate, "", 0, 'D'},
    // 'r': a regclass argument, a relation's name or oid (sequence.cc resolves it per call).
    {"nextval", Func::kNextval, "r", 1, 'o'},
    {"currval", Func::kCurrval, "r", 1, 'o'},
    {"setval", Func::kSetval, "rob", 2, 'o'},
    {"lastval", Func::kLastval, "", 0, 'o'},
    {"pg_get_serial_sequence", Func::kSerialSequence, "tt", 2, 't'},
    {"quote_ident", Func::kQuoteIdent, "t", 1, 't'},
};

// String functions with fixed signatures, bound like the system functions above.
// A name listed twice is overloaded: the first entry whose argument kinds fit is taken, so a
// text (or untyped) second argument makes substring the regular-expression form, as PostgreSQL
// resolves substring(text, text) before substring(text, integer) for an unknown literal.
constexpr SystemFunction kStringFunctions[] = {
    {"substring", Func::kSubstringRegex, "tt", 2, 't'},
    {"substring", Func::kSubstring, "tii", 2, 't'},
    {"substr", Func::kSubstring, "tii", 2, 't'},
    {"position", Func::kStrpos, "tt", 2, 'i'},  // POSITION(a IN b) arrives as position(b, a)
    {"strpos", Func::kStrpos, "tt", 2, 'i'},
    {"btrim", Func::kBTrim, "tt", 1, 't'},
    {"ltrim", Func::kLTrim, "tt", 1, 't'},
    {"rtrim", Func::kRTrim, "tt", 1, 't'},
    {"replace", Func::kReplace, "ttt", 3, 't'},
    {"left", Func::kLeft, "ti", 2, 't'},
    {"right", Func::kRight, "ti", 2, 't'},
    {"repeat", Func::kRepeat, "ti", 2, 't'},
    {"lpad", Func::kLPad, "tit", 2, 't'},
    {"rpad", Func::kRPad, "tit", 2, 't'},
    {"reverse", Func::kReverse, "t", 1, 't'},
    {"initcap", Func::kInitcap, "t", 1, 't'},
    {"split_part", Func::kSplitPart, "tti", 3, 't'},
    {"translate", Func::kTranslate, "ttt", 3, 't'},
    {"like_escape", Func::kLikeEscape, "tt", 2, 't'},
};

// Math functions of one number argument: a numeric argument gives a numeric result (sqrt:
// double precision, computed in float8), any other a double precision one, as PostgreSQL
// resolves integer arguments to the float8 versions.
struct MathFunction {
  const char* name;
  Func func;
};

constexpr MathFunction kMathFunctions[] = {
    {"round", Func::kRound},  {"floor", Func::kFloor}, {"ceil", Func::kCeil},
    {"ceiling", Func::kCeil}, {"sign", Func::kSign},   {"sqrt", Func::kSqrt},
    {"trunc", Func::kTrunc},
};

Type KindType(char kind) {
  switch (kind) {
    case 't':
    case 'r':
      return Type::Text();
    case 'i':
      return Type::Integer();
    case 'b':
      return Type::Boolean();
    case 'T':
      return Type::Timestamp();
    case 'Z':
      return Type::TimestampTz();
    case 'D':
      return Type::Date();
    case 'F':
      return Type::Double();
    case 'A':
      return Type::Array(Type::Text());
    default:
      return Type::BigInt();  // oid
  }
}

}  // namespace

bool Binder::IsAggregateFunctionName(const std::string& name) { return IsAggregateName(name); }

Result<BoundExprPtr> Binder::BindFunction(const ast::Expr& expr, bool ignore_over) {
  const uint32_t pos = expr.loc.position;
  const std::string& name = expr.name;
  if (expr.over != nullptr && !ignore_over && IsJsonAggregateName(name)) {
    return Status::NotSupported(name + " as a window function is not supported yet")
        .WithPosition(pos);
  }
  if (expr.over != nullptr && !ignore_over) return BindWindowFunction(expr);
  if (IsHypotheticalSetName(name) && !expr.agg_order.empty()) return BindAggregate(expr);
  if (IsWindowFunctionName(name)) {
    return Status::Error(sqlstate::kWrongObjectType,
                         "window function " + name + " requires an OVER clause")
        .WithPosition(pos);
  }
  if (IsAggregateName(name)) return BindAggregate(expr);
  if (IsJsonAggregateName(name)) return BindAggregate(expr);
  if (expr.star) {
    return Status::Error(sqlstate::kSyntaxError,
                         name + "(*) specified, but " + name + " is not an aggregate function")
        .WithPosition(pos);
  }
  if (expr.distinct) {
    return Status::Error(sqlstate::kWrongObjectType,
                         "DISTINCT specified, but " + name + " is not an aggregate function")
        .WithPosition(pos);
  }
  if (!expr.agg_order.empty() || expr.filter != nullptr) {
    return Status::Error(sqlstate::kWrongObjectType,
                         std::string(expr.agg_order.empty() ? "FILTER" : "ORDER BY") +
                             " specified, but " + name + " is not an aggregate function")
        .WithPosition(pos);
  }
  std::vector<BoundExprPtr> args;
  for (const ast::ExprPtr& c : expr.children) {
    MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr a, BindExpr(*c));
    args.push_back(std::move(a));
  }
  if (name == "localtime" ||
      ((name == "current_timestamp" || name == "localtimestamp") && args.size() == 1)) {
    return BindClockWithPrecision(name, expr, args, pos);
  }
  if (args.size() == 2 && (name == "&&" || name == "@>" || name == "<@") &&
      (args[0]->type.IsArray() || args[1]->type.IsArray())) {  // bind_array.cc
    MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr array, BindArrayFunction(name, &args, pos));
    if (array != nullptr) return array;
  }
  if (args.size() == 2 &&
      (name == "&&" || name == "~=" || name == "<->" || name == "@>" || name == "<@")) {
    MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr geo,
                              BindGeometryOperator(name, &args[0], &args[1], pos));
    if (geo != nullptr) return geo;
  }
  if (name == "row") return BindRowConstructor(std::move(args), pos);
  MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr json, BindJsonFunction(name, &args, pos));
  if (json != nullptr) return json;
  MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr system, BindSystemFunction(name, &args, pos));
  if (system != nullptr) return system;
  MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr array, BindArrayFunction(name, &args, pos));
  if (array != nullptr) return array;
  MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr registered, BindRegisteredFunction(name, &args, pos));
  if (registered != nullptr) return registered;
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
    e->type = Type{args[0]->type.id, -1};
    e->children.push_back(std::move(args[0]));
    return FoldStrictNull(std::move(e));
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
    // NULLIF returns the left operand of the = it uses: PostgreSQL promotes an integer to
    // numeric or double precision, and a numeric to double precision, to compare it with the
    // right side (NULLIF(1, 2.2) is numeric, NULLIF(1, 2.5::real) double precision); the
    // cross-type integer and float operators keep the left type otherwise.
    const Type& left = args[0]->type;
    const Type& right = args[1]->type;
    Type result = left;
    if (left.IsIntegral() && right.id == TypeId::kNumeric) {
      result = Type::Numeric();
    } else if ((left.IsIntegral() || left.id == TypeId::kNumeric) && right.IsFloat()) {
      result = Type::Double();
    }
    if (result.id != left.id) {
      MERIDIAN_ASSIGN_OR_RETURN(args[0], Coerce(std::move(args[0]), result, false, ""));
    }
    e->func = Func::kNullIf;
    e->type = args[0]->type;
    // NULLIF(NULL, x) is NULL without evaluating x (PostgreSQL folds it).
    if (IsNullConstant(*args[0])) {
      e->children = std::move(args);
      return FoldStrictNull(std::move(e));
    }
  } else if ((name == "greatest" || name == "least") && !args.empty()) {
    std::vector<BoundExprPtr*> all;
    for (BoundExprPtr& a : args) all.push_back(&a);
    MERIDIAN_RETURN_IF_ERROR(UnifyTypes(all, name == "greatest" ? "GREATEST" : "LEAST", &e->type));
    e->func = name == "greatest" ? Func::kGreatest : Func::kLeast;
  } else if (name == "concat" && !args.empty()) {
    for (BoundExprPtr& a : args) {
      if (a->type.id == TypeId::kUnknown) {
        MERIDIAN_ASSIGN_OR_RETURN(a, Coerce(std::move(a), Type::Text(), false, ""));
      }
    }
    e->func = Func::kConcat;
    e->type = Type::Text();
  } else if ((name == "power" || name == "pow") && args.size() == 2) {
    for (BoundExprPtr& a : args) {
      if (a->type.id != TypeId::kUnknown && !a->type.IsNumeric()) {
        return NoFunction(name, args, pos);
      }
      MERIDIAN_ASSIGN_OR_RETURN(a, Coerce(std::move(a), Type::Double(), false, ""));
    }
    e->func = Func::kPower;
    e->type = Type::Double();
  } else if (name == "mod" && args.size() == 2) {
    for (size_t i = 0; i < 2; ++i) {
      if (args[i]->type.id == TypeId::kUnknown) {
        const Type& other = args[1 - i]->type;
        MERIDIAN_ASSIGN_OR_RETURN(
            args[i],
            Coerce(std::move(args[i]), other.IsNumeric() ? other : Type::Integer(), false, ""));
      }
    }
    // mod() exists for integers and numeric only, as the % operator.
    if (!args[0]->type.IsNumeric() || !args[1]->type.IsNumeric() || args[0]->type.IsFloat() ||
        args[1]->type.IsFloat()) {
      return NoFunction(name, args, pos);
    }
    std::vector<BoundExprPtr*> all{&args[0], &args[1]};
    MERIDIAN_RETURN_IF_ERROR(UnifyTypes(all, "mod", &e->type));
    e->func = Func::kMod;
  } else if ((name == "round" || name == "trunc") && args.size() == 2) {
    // round/trunc(numeric, integer); a double precision first argument keeps Meridian's
    // float8 version (PostgreSQL has none).
    const Type t0 = args[0]->type;
    if (t0.id == TypeId::kUnknown || t0.IsIntegral()) {
      MERIDIAN_ASSIGN_OR_RETURN(args[0], Coerce(std::move(args[0]), Type::Numeric(), false, ""));
    } else if (t0.id == TypeId::kReal) {
      MERIDIAN_ASSIGN_OR_RETURN(args[0], Coerce(std::move(args[0]), Type::Double(), false, ""));
    }
    if (args[1]->type.id == TypeId::kUnknown) {
      MERIDIAN_ASSIGN_OR_RETURN(args[1], Coerce(std::move(args[1]), Type::Integer(), false, ""));
    }
    const TypeId a0 = args[0]->type.id;
    if ((a0 != TypeId::kDouble && a0 != TypeId::kNumeric) || !args[1]->type.IsIntegral()) {
      return NoFunction(name, args, pos);
    }
    e->func = name == "round" ? Func::kRoundTo : Func::kTruncTo;
    e->type = a0 == TypeId::kNumeric ? Type::Numeric() : Type::Double();
  } else if (args.size() == 1 &&
             std::any_of(std::begin(kMathFunctions), std::end(kMathFunctions),
                         [&](const MathFunction& f) { return name == f.name; })) {
    if (args[0]->type.id != TypeId::kUnknown && !args[0]->type.IsNumeric()) {
      return NoFunction(name, args, pos);
    }
    for (const MathFunction& f : kMathFunctions) {
      if (name == f.name) e->func = f.func;
    }
    if (args[0]->type.id == TypeId::kNumeric && e->func != Func::kSqrt) {
      e->type = Type::Numeric();
    } else {
      if (args[0]->type.id != TypeId::kDouble) {
        MERIDIAN_ASSIGN_OR_RETURN(args[0], Coerce(std::move(args[0]), Type::Double(), false, ""));
      }
      e->type = Type::Double();
    }
  } else if (name == "pg_typeof" && args.size() == 1) {
    // The argument's static type, as regtype's text form (no modifier, as in PostgreSQL). Not
    // folded to a constant: an aggregate argument still makes the query an aggregation.
    e->func = Func::kPgTypeof;
    e->type = Type::Text();
    e->value = Value::String(args[0]->type.Name());
  } else if (IsDateTimeFunction(name)) {
    MERIDIAN_ASSIGN_OR_RETURN(bool found, BindDateTimeFunction(name, &args, e.get()));
    if (!found) return NoFunction(name, args, pos);
  } else if ((name == "length" || name == "char_length" || name == "lower" || name == "upper") &&
             args.size() == 1) {
    if (args[0]->type.id == TypeId::kUnknown) {
      MERIDIAN_ASSIGN_OR_RETURN(args[0], Coerce(std::move(args[0]), Type::Text(), false, ""));
    }
    const bool bytea = args[0]->type.id == TypeId::kBytea && name == "length";  // byte count
    if (!args[0]->type.IsString() && !bytea) return NoFunction(name, args, pos);
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

Result<BoundExprPtr> Binder::BindSystemFunction(const std::string& name,
                                                std::vector<BoundExprPtr>* args,
                                                uint32_t position) {
  std::vector<SystemFunction> candidates(std::begin(kSystemFunctions), std::end(kSystemFunctions));
  candidates.insert(candidates.end(), std::begin(kStringFunctions), std::end(kStringFunctions));
  bool named = false;
  for (const SystemFunction& f : candidates) {
    if (name != f.name) continue;
    named = true;
    const size_t max_args = std::string_view(f.args).size();
    if (args->size() < f.required || args->size() > max_args) continue;
    auto fits = [&](size_t i) {
      const BoundExpr& a = *(*args)[i];
      const char kind = f.args[i];
      return a.type.id == TypeId::kUnknown || ((kind == 't' || kind == 'r') && a.type.IsString()) ||
             (kind == 'r' && a.type.IsIntegral()) ||
             ((kind == 'o' || kind == 'i') && a.type.IsIntegral()) ||
             (kind == 'b' && a.type.id == TypeId::kBoolean);
    };
    bool all_fit = true;
    for (size_t i = 0; i < args->size(); ++i) all_fit = all_fit && fits(i);
    if (!all_fit) continue;
    for (size_t i = 0; i < args->size(); ++i) {
      BoundExprPtr& a = (*args)[i];
      const char kind = f.args[i];
      if (a->type.id == TypeId::kUnknown || kind == 'o') {
        MERIDIAN_ASSIGN_OR_RETURN(a, Coerce(std::move(a), KindType(kind), false, ""));
      }
    }
    auto e = std::make_unique<BoundExpr>();
    e->kind = BoundKind::kFunction;
    e->name = name;
    e->position = position;
    e->func = f.func;
    e->type = KindType(f.result);
    e->children = std::move(*args);
    return e;
  }
  // A name with registered entries too (substring/substr/position of bytea) tries those next.
  if (named && FindScalarFunctions(name) == nullptr) return NoFunction(name, *args, position);
  return BoundExprPtr();
}

namespace {

// Whether an argument of type t can be passed as kind (function_registry.h); untyped literals
// and parameters fit every kind.
bool FitsKind(const Type& t, char kind) {
  if (t.id == TypeId::kUnknown) return true;
  switch (kind) {
    case 't':
      return t.IsString();
    case 'i':
      return t.id == TypeId::kSmallInt || t.id == TypeId::kInteger;
    case 'l':
      return t.IsIntegral();
    case 'N':
      return t.id == TypeId::kNumeric;
    case 'n':
      return t.IsIntegral() || t.id == TypeId::kNumeric;
    case 'F':
      return t.IsNumeric();
    case 'b':
      return t.id == TypeId::kBoolean;
    case 'y':
      return t.id == TypeId::kBytea;
    case 'u':
      return t.id == TypeId::kUuid;
    case 'j':
      return t.id == TypeId::kJson;
    case 'J':
      return t.id == TypeId::kJsonb;
    case 'p':
      return t.id == TypeId::kPoint;
    case 'B':
      return t.id == TypeId::kBox;
    case 'D':
      return t.id == TypeId::kDate;
    case 'S':
      return t.id == TypeId::kTimestamp || t.id == TypeId::kDate;
    case 'Z':
      return t.id == TypeId::kTimestampTz;
    case 'V':
      return t.id == TypeId::kInterval;
    case 'A':
      return t.IsArray() && Type{t.element, -1}.IsString();
    case 'I':
      return t.IsArray() && !t.IsVector() &&
             (t.element == TypeId::kInteger || t.element == TypeId::kSmallInt);
    case 'a':
      return t.IsArray() && !t.IsVector();
    case 'e':
      return !t.IsArray();
    case 'x':
      return true;
    case 'r':
      return t.IsString() || t.IsIntegral();
    default:
      return false;
  }
}

}  // namespace

Result<BoundExprPtr> Binder::BindRegisteredFunction(const std::string& name,
                                                    std::vector<BoundExprPtr>* args,
                                                    uint32_t position) {
  const std::vector<const ScalarFunction*>* entries = FindScalarFunctions(name);
  if (entries == nullptr) return BoundExprPtr();
  for (const ScalarFunction* f : *entries) {
    const std::string_view kinds = f->args;
    const size_t n = args->size();
    if (n < f->required || (!f->variadic && n > kinds.size())) {
      continue;
    }
    auto kind_of = [&](size_t i) { return i < kinds.size() ? kinds[i] : kinds.back(); };
    bool fits = true;
    for (size_t i = 0; i < n && fits; ++i) fits = FitsKind((*args)[i]->type, kind_of(i));
    if (!fits) continue;
    // 'a' / 'e' (PostgreSQL's anycompatiblearray / anycompatible): one element type common to
    // every such argument; all untyped makes it text.
    std::optional<Type> element;
    for (size_t i = 0; i < n && fits; ++i) {
      const char kind = kind_of(i);
      const Type& t = (*args)[i]->type;
      if ((kind != 'a' && kind != 'e') || t.id == TypeId::kUnknown) continue;
      const Type e = kind == 'a' ? t.Element() : t;
      element = element ? CommonType(*element, e) : std::optional<Type>(e);
      fits = element.has_value();
    }
    if (!fits) continue;
    const Type common = element ? *element : Type::Text();
    for (size_t i = 0; i < n; ++i) {
      BoundExprPtr& a = (*args)[i];
      const char kind = kind_of(i);
      if (kind == 'x' || kind == 'r') {  // as passed (a regclass: text or oid)
        if (a->type.id == TypeId::kUnknown) {
          MERIDIAN_ASSIGN_OR_RETURN(a, Coerce(std::move(a), Type::Text(), false, ""));
        }
        continue;
      }
      const Type want = kind == 'a'   ? Type::Array(common)
                        : kind == 'e' ? common
                        : kind == 'I' ? Type::Array(Type::Integer())
                                      : ScalarKindType(kind == 'n' ? 'N' : kind);
      if (kind == 'a' || kind == 'e') {
        if (a->type != want) {
          MERIDIAN_ASSIGN_OR_RETURN(a, Coerce(std::move(a), want, false, ""));
        }
        continue;
      }
      if (a->type.id != want.id || (kind == 'I' && a->type != want)) {
        MERIDIAN_ASSIGN_OR_RETURN(a, Coerce(std::move(a), want, false, ""));
      }
    }
    auto e = std::make_unique<BoundExpr>();
    e->kind = BoundKind::kFunction;
    e->name = name;
    e->position = position;
    e->func = Func::kRegistered;
    e->scalar = f;
    e->type = f->result == 'a'   ? Type::Array(common)
              : f->result == 'e' ? common
                                 : ScalarKindType(f->result);
    e->children = std::move(*args);
    return e;
  }
  return NoFunction(name, *args, position);
}

Result<BoundExprPtr> Binder::BindClockWithPrecision(const std::string& name, const ast::Expr& expr,
                                                    const std::vector<BoundExprPtr>& args,
                                                    uint32_t position) {
  // CURRENT_TIMESTAMP(p), LOCALTIMESTAMP(p) and LOCALTIME[(p)]: the clock read, cast to the
  // type with p fractional digits (at most 6, as PostgreSQL reduces them; its grammar takes an
  // integer literal only).
  int32_t precision = -1;
  if (args.size() > 1) return NoFunction(name, args, position);
  if (expr.children.size() == 1) {
    const ast::Expr& p = *expr.children[0];
    if (p.kind != ast::ExprKind::kLiteral || p.literal_kind != ast::LiteralKind::kInteger ||
        p.text.empty() || p.text[0] == '-' || p.text.size() > 9) {
      return Status::Error(sqlstate::kSyntaxError,
                           "the precision of " + name + " must be an integer literal")
          .WithPosition(p.loc.position);
    }
    precision = std::min(std::stoi(p.text), 6);
  }
  std::vector<BoundExprPtr> none;
  MERIDIAN_ASSIGN_OR_RETURN(
      BoundExprPtr clock,
      BindSystemFunction(name == "localtime" ? "localtimestamp" : name, &none, position));
  const Type to = name == "current_timestamp" ? Type::TimestampTz(precision)
                  : name == "localtimestamp"  ? Type::Timestamp(precision)
                                              : Type::Time(precision);
  return Coerce(std::move(clock), to, /*explicit_cast=*/true, "");
}

Result<BoundExprPtr> Binder::BindRegCast(const ast::Expr& expr) {
  const std::string& to = expr.cast_type.name;
  MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr child, BindExpr(*expr.children[0]));
  InferParamType(child.get(), Type::Text());
  const bool from_name = child->type.id == TypeId::kUnknown || child->type.IsString();
  if (!from_name && !child->type.IsIntegral()) {
    return Status::Error(sqlstate::kCannotCoerce,
                         "cannot cast type " + child->type.Name() + " to " + to)
        .WithPosition(expr.loc.position);
  }
  if (child->type.id == TypeId::kUnknown) {
    MERIDIAN_ASSIGN_OR_RETURN(child, Coerce(std::move(child), Type::Text(), false, ""));
  }
  // A function's name cast to regproc is that name: pg_proc lists no functions to look it up
  // in (the catalogs hold regproc columns as their names, pg_am.amhandler).
  if (to == "regproc" && from_name) return child;
  auto e = std::make_unique<BoundExpr>();
  e->kind = BoundKind::kFunction;
  e->name = to;
  e->position = expr.loc.position;
  if (from_name) {
    e->func = to == "regclass"  ? Func::kRegClassIn
              : to == "regtype" ? Func::kRegTypeIn
                                : Func::kRegNamespaceIn;
    e->type = Type::BigInt();
  } else {
    e->func = to == "regclass"  ? Func::kRegClassOut
              : to == "regtype" ? Func::kRegTypeOut
              : to == "regproc" ? Func::kRegProcOut
                                : Func::kRegNamespaceOut;
    e->type = Type::Text();
  }
  e->children.push_back(std::move(child));
  // A constant name is looked up now, so 'pg_class'::regclass compares like an oid literal.
  if (e->children[0]->kind == BoundKind::kConst) {
    ExecContext exec;
    exec.catalog = catalog_;
    EvalContext ctx{nullptr, nullptr, &exec};
    auto v = Eval(*e, ctx);
    if (!v.ok()) return Status(v.status()).WithPositionIfUnset(expr.loc.position);
    return BoundExpr::Const(std::move(v).value(), e->type, expr.loc.position);
  }
  return e;
}

Status Binder::BindAggregateExtras(const ast::Expr& expr, BoundExpr* e, bool window) {
  const size_t args = e->children.size();
  for (const ast::OrderItem& o : expr.agg_order) {
    in_aggregate_ = !window;
    auto bound = BindExpr(*o.expr);
    in_aggregate_ = false;
    if (!bound.ok()) return bound.status();
    BoundExprPtr key = std::move(bound).value();
    if (key->type.id == TypeId::kUnknown) {
      MERIDIAN_ASSIGN_OR_RETURN(key, Coerce(std::move(key), Type::Text(), false, ""));
    }
    if (e->distinct) {
      // The key must be one of the arguments (perhaps under the cast binding added to it).
      bool found = false;
      for (size_t i = 0; i < args && !found; ++i) {
        const BoundExpr& a = *e->children[i];
        found = a.Equals(*key) || (a.kind == BoundKind::kCast && a.children[0]->Equals(*key));
      }
      if (!found) {
        return Status::Error(sqlstate::kInvalidColumnReference,
                             "in an aggregate with DISTINCT, ORDER BY expressions must appear in "
                             "argument list")
            .WithPosition(o.expr->loc.position);
      }
    }
    if (key->type.id == TypeId::kJsonb && !e->distinct) {
      // jsonb's order, not its text's: sort by jsonb_sortkey(key) (bind_json.cc).
      std::vector<BoundExprPtr> one;
      one.push_back(std::move(key));
      MERIDIAN_ASSIGN_OR_RETURN(
          key, MakeJsonCall("jsonb_sortkey", std::move(one), Type::Bytea(), o.expr->loc.position));
    }
    e->agg_order.push_back({o.descending, o.nulls_first.value_or(o.descending)});
    e->children.push_back(std::move(key));
  }
  if (expr.filter != nullptr) {
    // A window call in it is "not allowed in FILTER", also in an aggregate OVER a window.
    const ExprRules saved = rules_;
    const char* saved_window = std::exchange(in_window_, nullptr);
    rules_ = ExprRules{"FILTER", false, true, true};
    auto cond = BindBoolean(*expr.filter, "FILTER");
    rules_ = saved;
    in_window_ = saved_window;
    if (!cond.ok()) return cond.status();
    e->children.push_back(std::move(cond).value());
    e->has_filter = true;
  }
  return Status::Ok();
}

// string_agg(value text, delimiter text) → text: both arguments text or varchar (an untyped
// literal becomes text), else 42883 as in PostgreSQL.
// An aggregate call's arguments, bound as inside an aggregate (nested aggregates are 42803)
// unless it is a window call.
Result<std::vector<BoundExprPtr>> Binder::BindAggregateArgs(const ast::Expr& expr, bool window) {
  std::vector<BoundExprPtr> args;
  in_aggregate_ = !window;
  for (const ast::ExprPtr& child : expr.children) {
    auto arg = BindExpr(*child);
    if (!arg.ok()) {
      in_aggregate_ = false;
      return arg.status();
    }
    args.push_back(std::move(arg).value());
  }
  in_aggregate_ = false;
  return args;
}

Result<BoundExprPtr> Binder::BindStringAgg(const ast::Expr& expr, BoundExprPtr e, bool window) {
  MERIDIAN_ASSIGN_OR_RETURN(std::vector<BoundExprPtr> args, BindAggregateArgs(expr, window));
  bool text_args = args.size() == 2;
  for (const BoundExprPtr& a : args) {
    text_args = text_args && (a->type.id == TypeId::kUnknown || a->type.IsString());
  }
  if (!text_args) return NoFunction("string_agg", args, e->position);
  for (BoundExprPtr& a : args) {
    MERIDIAN_ASSIGN_OR_RETURN(a, Coerce(std::move(a), Type::Text(), false, ""));
  }
  e->agg = AggFunc::kStringAgg;
  e->type = Type::Text();
  e->children = std::move(args);
  return e;
}

// corr(Y, X), covar_pop, covar_samp, regr_slope, regr_intercept: double precision arguments
// (numbers convert, unknown literals too), a double precision result.
Result<BoundExprPtr> Binder::BindRegression(const ast::Expr& expr, BoundExprPtr e, AggFunc f,
                                            bool window) {
  MERIDIAN_ASSIGN_OR_RETURN(std::vector<BoundExprPtr> args, BindAggregateArgs(expr, window));
  bool numbers = args.size() == 2;
  for (const BoundExprPtr& a : args) {
    numbers = numbers && (a->type.id == TypeId::kUnknown || a->type.IsNumeric());
  }
  if (!numbers) return NoFunction(expr.name, args, e->position);
  for (BoundExprPtr& a : args) {
    if (a->type.id != TypeId::kDouble) {
      MERIDIAN_ASSIGN_OR_RETURN(a, Coerce(std::move(a), Type::Double(), false, ""));
    }
  }
  e->agg = f;
  e->type = Type::Double();
  e->children = std::move(args);
  return e;
}

// GROUPING(a, ...): allowed where aggregates are; its arguments are checked against GROUP BY
// when the query's expressions are rewritten (RewriteForAggregate), as PostgreSQL does.
Result<BoundExprPtr> Binder::BindGrouping(const ast::Expr& expr) {
  const uint32_t pos = expr.loc.position;
  if (!rules_.aggregates) {
    return Status::Error(sqlstate::kGroupingError,
                         std::string("grouping operations are not allowed in ") + rules_.clause)
        .WithPosition(pos);
  }
  if (in_aggregate_) {
    return Status::Error(sqlstate::kGroupingError, "aggregate function calls cannot be nested")
        .WithPosition(pos);
  }
  if (expr.star || expr.distinct || !expr.agg_order.empty() || expr.filter != nullptr ||
      expr.children.empty()) {
    return Status::Error(sqlstate::kSyntaxError,
                         "syntax error at or near \"" + std::string(expr.star ? "*" : ")") + "\"")
        .WithPosition(pos);
  }
  if (expr.children.size() > 31) {
    return Status::Error(sqlstate::kTooManyArguments, "GROUPING must have fewer than 32 arguments")
        .WithPosition(pos);
  }
  auto e = std::make_unique<BoundExpr>();
  e->kind = BoundKind::kAggregate;
  e->agg = AggFunc::kGrouping;
  e->name = "grouping";
  e->position = pos;
  e->type = Type::Integer();
  for (const ast::ExprPtr& child : expr.children) {
    MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr arg, BindExpr(*child));
    e->children.push_back(std::move(arg));
  }
  return e;
}

Result<BoundExprPtr> Binder::BindAggregate(const ast::Expr& expr) {
  const uint32_t pos = expr.loc.position;
  if (expr.name == "grouping") return BindGrouping(expr);
  if (!rules_.aggregates) {
    return Status::Error(sqlstate::kGroupingError,
                         std::string("aggregate functions are not allowed in ") + rules_.clause)
        .WithPosition(pos);
  }
  if (in_aggregate_) {
    return Status::Error(sqlstate::kGroupingError, "aggregate function calls cannot be nested")
        .WithPosition(pos);
  }
  if (IsJsonAggregateName(expr.name)) return BindJsonAggregate(expr);
  return ResolveAggregate(expr, /*window=*/false);
}

Result<BoundExprPtr> Binder::ResolveAggregate(const ast::Expr& expr, bool window) {
  const uint32_t pos = expr.loc.position;
  const std::string& name = expr.name;
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
    MERIDIAN_RETURN_IF_ERROR(BindAggregateExtras(expr, e.get(), window));
    return e;
  }
  if (name == "string_agg") {
    MERIDIAN_ASSIGN_OR_RETURN(e, BindStringAgg(expr, std::move(e), window));
    MERIDIAN_RETURN_IF_ERROR(BindAggregateExtras(expr, e.get(), window));
    return e;
  }
  if (IsHypotheticalSetName(name)) {
    // rank(args) WITHIN GROUP (ORDER BY keys): one direct argument per key (outside the
    // aggregate, evaluated once per group), each with its key brought to their common type.
    std::vector<BoundExprPtr> args;
    for (const ast::ExprPtr& d : expr.children) {
      MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr arg, BindExpr(*d));
      args.push_back(std::move(arg));
    }
    const size_t n = args.size();
    e->children = std::move(args);
    MERIDIAN_RETURN_IF_ERROR(BindAggregateExtras(expr, e.get(), window));
    std::vector<BoundExprPtr>& c = e->children;
    bool fits = n == e->agg_order.size();
    std::vector<Type> common;
    for (size_t i = 0; fits && i < n; ++i) {
      const Type a = c[i]->type, k = c[n + i]->type;
      const std::optional<Type> t = a.id == TypeId::kUnknown   ? std::optional<Type>(k)
                                    : k.id == TypeId::kUnknown ? std::optional<Type>(a)
                                                               : CommonType(a, k);
      fits = t.has_value();
      if (fits) common.push_back(t->id == TypeId::kUnknown ? Type::Text() : *t);
    }
    if (!fits) {
      std::vector<BoundExprPtr> shown;
      for (size_t i = 0; i < n + e->agg_order.size(); ++i) shown.push_back(std::move(c[i]));
      return NoFunction(name, shown, pos);
    }
    for (size_t i = 0; i < n; ++i) {
      if (c[i]->type != common[i]) {
        MERIDIAN_ASSIGN_OR_RETURN(c[i], Coerce(std::move(c[i]), common[i], false, ""));
      }
      if (c[n + i]->type != common[i]) {
        MERIDIAN_ASSIGN_OR_RETURN(c[n + i], Coerce(std::move(c[n + i]), common[i], false, ""));
      }
    }
    e->agg = name == "rank"           ? AggFunc::kHypoRank
             : name == "dense_rank"   ? AggFunc::kHypoDenseRank
             : name == "percent_rank" ? AggFunc::kHypoPercentRank
                                      : AggFunc::kHypoCumeDist;
    e->type = name == "rank" || name == "dense_rank" ? Type::BigInt() : Type::Double();
    return e;
  }
  if (name == "percentile_cont" || name == "percentile_disc" || name == "mode") {
    // Ordered-set aggregates (the parser allowed them only with WITHIN GROUP, whose one key is
    // expr.agg_order): children[0] the key's value, children[1] the fraction (a direct
    // argument: outside the aggregate, evaluated once per group), then BindAggregateExtras
    // adds the key again as the sort key.
    const size_t direct = name == "mode" ? 0 : 1;
    in_aggregate_ = !window;
    auto key = expr.agg_order.size() == 1 ? BindExpr(*expr.agg_order[0].expr)
                                          : Result<BoundExprPtr>(BoundExprPtr());
    in_aggregate_ = false;
    if (!key.ok()) return key.status();
    BoundExprPtr k = std::move(key).value();
    std::vector<BoundExprPtr> args;
    for (const ast::ExprPtr& d : expr.children) {
      MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr arg, BindExpr(*d));
      args.push_back(std::move(arg));
    }
    const bool numeric_key =
        k != nullptr && (k->type.IsNumeric() || k->type.id == TypeId::kUnknown);
    if (k == nullptr || args.size() != direct ||
        (direct == 1 && !args[0]->type.IsNumeric() && args[0]->type.id != TypeId::kUnknown) ||
        (name == "percentile_cont" && !numeric_key)) {
      if (k != nullptr) args.push_back(std::move(k));
      return NoFunction(name, args, pos);
    }
    if (name == "percentile_cont") {
      MERIDIAN_ASSIGN_OR_RETURN(k, Coerce(std::move(k), Type::Double(), false, ""));
      e->agg = AggFunc::kPercentileCont;
      e->type = Type::Double();
    } else {
      if (k->type.id == TypeId::kUnknown) {
        MERIDIAN_ASSIGN_OR_RETURN(k, Coerce(std::move(k), Type::Text(), false, ""));
      }
      if (name == "mode" && NoEqualityType(k->type)) return NoEquality(k->type, pos);
      e->agg = name == "mode" ? AggFunc::kMode : AggFunc::kPercentileDisc;
      e->type = k->type;
    }
    e->children.push_back(std::move(k));
    if (direct == 1) {
      MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr fraction,
                                Coerce(std::move(args[0]), Type::Double(), false, ""));
      e->children.push_back(std::move(fraction));
    }
    MERIDIAN_RETURN_IF_ERROR(BindAggregateExtras(expr, e.get(), window));
    return e;
  }
  AggFunc stat = AggFunc::kCount;
  if (RegressionAggregate(name, &stat)) {
    MERIDIAN_ASSIGN_OR_RETURN(e, BindRegression(expr, std::move(e), stat, window));
    MERIDIAN_RETURN_IF_ERROR(BindAggregateExtras(expr, e.get(), window));
    return e;
  }
  if (expr.children.size() != 1) {
    std::vector<BoundExprPtr> none;
    return NoFunction(name, none, pos);
  }
  in_aggregate_ = !window;
  auto arg = BindExpr(*expr.children[0]);
  in_aggregate_ = false;
  if (!arg.ok()) return arg.status();
  BoundExprPtr a = std::move(arg).value();
  if (expr.distinct && NoEqualityType(a->type)) return NoEquality(a->type, pos);
  std::vector<BoundExprPtr> args;
  Type t = a->type;
  if (name == "count") {
    e->agg = AggFunc::kCount;
    e->type = Type::BigInt();
  } else if (name == "array_agg") {  // the values in input order, or the call's ORDER BY
    if (t.IsArray()) {
      return Status::NotSupported("multidimensional arrays are not supported yet")
          .WithPosition(pos);
    }
    if (t.id == TypeId::kUnknown) {
      MERIDIAN_ASSIGN_OR_RETURN(a, Coerce(std::move(a), Type::Text(), false, ""));
      t = Type::Text();
    }
    e->agg = AggFunc::kArrayAgg;
    e->type = Type::Array(t);
  } else if (name == "bool_and" || name == "bool_or" || name == "every") {
    if (t.id == TypeId::kUnknown) {
      MERIDIAN_ASSIGN_OR_RETURN(a, Coerce(std::move(a), Type::Boolean(), false, ""));
    } else if (t.id != TypeId::kBoolean) {
      args.push_back(std::move(a));
      return NoFunction(name, args, pos);
    }
    e->agg = name == "bool_or" ? AggFunc::kBoolOr : AggFunc::kBoolAnd;
    e->type = Type::Boolean();
  } else if (name == "bit_and" || name == "bit_or" || name == "bit_xor") {
    if (t.id == TypeId::kUnknown) {
      return Status::Error(sqlstate::kAmbiguousFunction,
                           "function " + name + "(unknown) is not unique")
          .WithPosition(pos);
    }
    if (!t.IsIntegral()) {
      args.push_back(std::move(a));
      return NoFunction(name, args, pos);
    }
    e->agg = name == "bit_and"  ? AggFunc::kBitAnd
             : name == "bit_or" ? AggFunc::kBitOr
                                : AggFunc::kBitXor;
    e->type = Type{t.id, -1};
  } else if (StatAggregate(name, &stat)) {
    if (t.id == TypeId::kUnknown) {
      MERIDIAN_ASSIGN_OR_RETURN(a, Coerce(std::move(a), Type::Double(), false, ""));
      t = Type::Double();
    }
    if (!t.IsNumeric()) {
      args.push_back(std::move(a));
      return NoFunction(name, args, pos);
    }
    // PostgreSQL: numeric for integer and numeric inputs, double precision for floats.
    e->agg = stat;
    e->type = t.IsFloat() ? Type::Double() : Type::Numeric();
  } else if ((name == "sum" || name == "avg") && t.id == TypeId::kInterval) {
    e->agg = name == "sum" ? AggFunc::kSum : AggFunc::kAvg;
    e->type = Type::Interval();
  } else if (name == "sum" || name == "avg") {
    if (!t.IsNumeric()) {
      args.push_back(std::move(a));
      return NoFunction(name, args, pos);
    }
    e->agg = name == "sum" ? AggFunc::kSum : AggFunc::kAvg;
    // PostgreSQL: sum(smallint/integer) bigint, sum(bigint/numeric) numeric, sum(real) real,
    // avg of an integer or numeric numeric, avg of a float double precision.
    if (t.IsFloat()) {
      e->type = name == "sum" ? Type{t.id, -1} : Type::Double();
    } else if (name == "sum" && (t.id == TypeId::kInteger || t.id == TypeId::kSmallInt)) {
      e->type = Type::BigInt();
    } else {
      e->type = Type::Numeric();
    }
  } else {
    if (t.id == TypeId::kUnknown) {
      MERIDIAN_ASSIGN_OR_RETURN(a, Coerce(std::move(a), Type::Text(), false, ""));
    }
    if (t.id == TypeId::kUuid || t.id == TypeId::kBytea) {  // PostgreSQL 15 has neither
      args.push_back(std::move(a));
      return NoFunction(name, args, pos);
    }
    e->agg = name == "min" ? AggFunc::kMin : AggFunc::kMax;
    e->type = a->type;
  }
  e->children.push_back(std::move(a));
  MERIDIAN_RETURN_IF_ERROR(BindAggregateExtras(expr, e.get(), window));
  return e;
}

}  // namespace meridian::exec
