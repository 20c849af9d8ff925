// EXPLAIN text rendering, expression printing and the EXPLAIN ANALYZE instrumentation.
#include "planner/explain.h"

#include <cstdio>

#include "binder/json_operators.h"

namespace meridian::exec {

namespace {

using Clock = std::chrono::steady_clock;

double MsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

std::string Fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.*f", digits, v);
  return buf;
}

const char* FuncName(Func f) {
  switch (f) {
    case Func::kAbs:
      return "abs";
    case Func::kCoalesce:
      return "COALESCE";
    case Func::kNullIf:
      return "NULLIF";
    case Func::kLength:
      return "length";
    case Func::kLower:
      return "lower";
    case Func::kUpper:
      return "upper";
    default:
      break;
  }
  return nullptr;  // the session and catalog functions: the name as called
}

const char* AggName(AggFunc f) {
  switch (f) {
    case AggFunc::kCount:
      return "count";
    case AggFunc::kSum:
      return "sum";
    case AggFunc::kAvg:
      return "avg";
    case AggFunc::kMin:
      return "min";
    case AggFunc::kMax:
      return "max";
    case AggFunc::kStringAgg:
      return "string_agg";
    case AggFunc::kArrayAgg:
      return "array_agg";
    case AggFunc::kBoolAnd:
      return "bool_and";
    case AggFunc::kBoolOr:
      return "bool_or";
    case AggFunc::kGrouping:
      return "grouping";
    case AggFunc::kVarSamp:
      return "var_samp";
    case AggFunc::kVarPop:
      return "var_pop";
    case AggFunc::kStddevSamp:
      return "stddev_samp";
    case AggFunc::kStddevPop:
      return "stddev_pop";
    case AggFunc::kCorr:
      return "corr";
    case AggFunc::kCovarPop:
      return "covar_pop";
    case AggFunc::kCovarSamp:
      return "covar_samp";
    case AggFunc::kRegrSlope:
      return "regr_slope";
    case AggFunc::kRegrIntercept:
      return "regr_intercept";
  }
  return "?";
}

std::string Join(const std::vector<BoundExprPtr>& list, size_t from,
                 size_t to = static_cast<size_t>(-1)) {
  std::string out;
  for (size_t i = from; i < list.size() && i < to; ++i) {
    if (i > from) out += ", ";
    out += ExprToString(*list[i]);
  }
  return out;
}

struct RenderOptions {
  bool analyze = false;
  bool costs = true;
  bool timing = true;
};

void Render(const PlanNode& node, const RenderOptions& o, int depth,
            std::vector<std::string>* out) {
  const bool analyze = o.analyze;
  std::string indent = depth == 0 ? "" : std::string(static_cast<size_t>(depth - 1) * 6 + 2, ' ');
  std::string line = indent + (depth == 0 ? "" : "->  ") + node.label;
  if (o.costs) {
    line += "  (cost=" + Fixed(node.startup_cost, 2) + ".." + Fixed(node.total_cost, 2) +
            " rows=" + Fixed(node.modify ? 0.0 : std::max(1.0, node.rows), 0) +
            " width=" + std::to_string(node.width) + ")";
  }
  if (analyze) {
    if (node.actual.loops == 0) {
      line += " (never executed)";
    } else {
      const double loops = static_cast<double>(node.actual.loops);
      line += " (actual ";
      if (o.timing) {
        line += "time=" + Fixed(node.actual.first_row_ms / loops, 3) + ".." +
                Fixed(node.actual.total_ms / loops, 3) + " ";
      }
      line += "rows=" + Fixed(static_cast<double>(node.actual.rows) / loops, 0) +
              " loops=" + std::to_string(node.actual.loops) + ")";
    }
  }
  out->push_back(line);
  std::string detail_indent = depth == 0 ? "  " : indent + "      ";
  for (const std::string& d : node.details) out->push_back(detail_indent + d);
  if (analyze && !node.actual.detail.empty()) out->push_back(detail_indent + node.actual.detail);
  for (const auto& child : node.children) Render(*child, o, depth + 1, out);
}

}  // namespace

Status InstrumentOp::Open(const EvalContext* outer, ExecContext* exec) {
  Clock::time_point start = Clock::now();
  loop_base_ms_ = actual_->total_ms;
  Status st = child_->Open(outer, exec);
  ++actual_->loops;
  first_pending_ = true;
  actual_->total_ms += MsSince(start);
  return st;
}

Result<bool> InstrumentOp::Next(Row* row) {
  Clock::time_point start = Clock::now();
  Result<bool> more = child_->Next(row);
  const double ms = MsSince(start);
  actual_->total_ms += ms;
  if (first_pending_) {
    actual_->first_row_ms += actual_->total_ms - loop_base_ms_;  // this loop's first row
    first_pending_ = false;
    actual_->detail = child_->AnalyzeDetail();
  } else if (more.ok() && !*more) {
    actual_->detail = child_->AnalyzeDetail();  // what it knows once done (batches, iterations)
  }
  if (more.ok() && *more) ++actual_->rows;
  return more;
}

std::string ExprToString(const BoundExpr& e) {
  switch (e.kind) {
    case BoundKind::kConst:
      if (e.value.IsNull()) return "NULL";
      if (e.value.IsDate() || e.value.IsTimestamp() || e.value.IsTimestampTz() ||
          e.value.IsTime() || e.value.IsInterval() || e.value.IsUuid() || e.value.IsBytea()) {
        return "'" + e.value.ToString() + "'::" + e.type.Name();
      }
      if (e.value.IsString()) {
        std::string out = "'";
        for (char c : e.value.AsString()) out += c == '\'' ? std::string("''") : std::string(1, c);
        return out + "'::" + e.type.Name();
      }
      if (e.value.IsBool()) return e.value.AsBool() ? "true" : "false";
      if (e.value.IsArray()) {
        std::string out = "'";
        for (char c : e.value.ToString()) out += c == '\'' ? std::string("''") : std::string(1, c);
        return out + "'::" + e.type.Name();
      }
      return e.value.ToString();
    case BoundKind::kColumn:
      return e.name;
    case BoundKind::kParam:
      return "$" + std::to_string(e.index + 1);
    case BoundKind::kUnary:
      return std::string("(") + (e.unary_op == ast::UnaryOp::kNot ? "NOT " : "- ") +
             ExprToString(*e.children[0]) + ")";
    case BoundKind::kBinary: {
      // A jsonb comparison is jsonb_cmp(a, b) op 0 (bind_json.cc): shown as a op b.
      const BoundExpr* cmp = JsonbComparisonCall(e);
      const BoundExpr& l = cmp != nullptr ? *cmp->children[0] : *e.children[0];
      const BoundExpr& r = cmp != nullptr ? *cmp->children[1] : *e.children[1];
      return "(" + ExprToString(l) + " " + ast::OperatorName(e.binary_op) + " " +
             ExprToString(r) + ")";
    }
    case BoundKind::kIsNull:
      return "(" + ExprToString(*e.children[0]) + (e.negated ? " IS NOT NULL)" : " IS NULL)");
    case BoundKind::kFunction:
      if (const char* op = e.children.size() == 2 ? JsonOperatorSymbol(e.name) : nullptr) {
        return "(" + ExprToString(*e.children[0]) + " " + op + " " +
               ExprToString(*e.children[1]) + ")";
      }
      return std::string(FuncName(e.func) != nullptr ? FuncName(e.func) : e.name.c_str()) + "(" +
             Join(e.children, 0) + ")";
    case BoundKind::kAggregate: {
      const size_t args = e.AggArgCount();
      // stddev / variance: the name as called (PostgreSQL's aggregates of their own).
      const bool as_called = e.agg >= AggFunc::kVarSamp && !e.name.empty();
      std::string out = (as_called ? e.name : std::string(AggName(e.agg))) + "(" +
                        (e.distinct ? "DISTINCT " : "");
      for (size_t i = 0; i < args; ++i) out += (i ? ", " : "") + ExprToString(*e.children[i]);
      if (e.star) out += "*";
      for (size_t k = 0; k < e.agg_order.size(); ++k) {
        out += (k ? ", " : " ORDER BY ") + ExprToString(*e.children[args + k]) +
               (e.agg_order[k].descending ? " DESC" : "");
      }
      out += ")";
      if (e.has_filter) out += " FILTER (WHERE " + ExprToString(*e.children.back()) + ")";
      return out;
    }
    case BoundKind::kCast:
      return "(" + ExprToString(*e.children[0]) + ")::" + e.type.Name();
    case BoundKind::kCase:
      return "CASE ... END";
    case BoundKind::kInList:
      return "(" + ExprToString(*e.children[0]) + (e.negated ? " NOT IN (" : " IN (") +
             Join(e.children, 1) + "))";
    case BoundKind::kSubquery:
      return "(SubPlan)";
    case BoundKind::kExists: {
      // A hashed form says after how many per-row runs it takes over.
      std::string sub = "SubPlan";
      if (e.subquery != nullptr && e.subquery->hashed != nullptr) {
        sub += ", hashed after " + std::to_string(e.subquery->hashed->switch_after) + " rows";
      }
      return e.negated ? "(NOT EXISTS(" + sub + "))" : "EXISTS(" + sub + ")";
    }
    case BoundKind::kInSubquery:
      if (e.all || e.binary_op != ast::BinaryOp::kEq) {
        return "(" + ExprToString(*e.children[0]) + " " + ast::OperatorName(e.binary_op) +
               (e.all ? " ALL (SubPlan))" : " ANY (SubPlan))");
      }
      return "(" + ExprToString(*e.children[0]) +
             (e.negated ? " NOT IN (SubPlan))" : " IN (SubPlan))");
    case BoundKind::kArray:
      return e.subquery != nullptr ? "ARRAY(SubPlan)" : "ARRAY[" + Join(e.children, 0) + "]";
    case BoundKind::kQuantifiedArray:
      return "(" + ExprToString(*e.children[0]) + " " + ast::OperatorName(e.binary_op) +
             (e.all ? " ALL (" : " ANY (") + ExprToString(*e.children[1]) + "))";
    case BoundKind::kSubscript:
      return "(" + ExprToString(*e.children[0]) + ")[" + ExprToString(*e.children[1]) +
             (e.children.size() > 2 ? ":" + ExprToString(*e.children[2]) : std::string()) + "]";
    case BoundKind::kWindow: {  // PostgreSQL's non-verbose form: the window is not shown
      const size_t args = e.window->num_args - (e.has_filter ? 1 : 0);
      std::string out = e.name + "(" + (e.star ? "*" : Join(e.children, 0, args)) + ")";
      if (e.has_filter) out += " FILTER (WHERE " + ExprToString(*e.children[args]) + ")";
      return out + " OVER (?)";
    }
  }
  return "?";
}

int RowWidth(const std::vector<Type>& types) {
  int w = 0;
  for (const Type& t : types) {
    switch (t.id) {
      case TypeId::kBoolean:
        w += 1;
        break;
      case TypeId::kInteger:
        w += 4;
        break;
      case TypeId::kBigInt:
      case TypeId::kDouble:
        w += 8;
        break;
      default:
        w += t.modifier > 0 ? std::min(t.modifier, 32) : 32;
        break;
    }
  }
  return w;
}

std::vector<std::string> RenderPlan(const PlanNode& root, bool analyze, bool costs, bool timing) {
  std::vector<std::string> out;
  Render(root, RenderOptions{analyze, costs, timing}, 0, &out);
  return out;
}

}  // namespace meridian::exec
