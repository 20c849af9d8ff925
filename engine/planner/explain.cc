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
    case AggFunc::kBitAnd:
      return "bit_and";
    case AggFunc::kBitOr:
      return "bit_or";
    case AggFunc::kBitXor:
      return "bit_xor";
    case AggFunc::kPercentileCont:
      return "percentile_cont";
    case AggFunc::kPercentileDisc:
      return "percentile_disc";
    case AggFunc::kMode:
      return "mode";
    case AggFunc::kHypoRank:
      return "rank";
    case AggFunc::kHypoDenseRank:
      return "dense_rank";
    case AggFunc::kHypoPercentRank:
      return "percent_rank";
    case AggFunc::kHypoCumeDist:
      return "cume_dist";
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

// "SubPlan N" / "InitPlan N" while EXPLAIN collects subplans, "SubPlan" otherwise.
std::string SubplanName(const BoundExpr& e, bool in_list) {
  ExplainSubplans* c = ExplainSubplans::Active();
  if (c == nullptr || e.subquery == nullptr) return "SubPlan";
  return c->Name(*e.subquery, in_list);
}

// A subquery's hashed form (planner/decorrelate.cc) says after how many per-row runs it
// takes over.
std::string HashedNote(const BoundExpr& e) {
  if (e.subquery == nullptr || e.subquery->hashed == nullptr) return "";
  return ", hashed after " + std::to_string(e.subquery->hashed->switch_after) + " rows";
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
  const ExplainSubplans* subplans = nullptr;
  std::vector<bool>* printed = nullptr;  // per subplans entry
};

thread_local ExplainSubplans* active_subplans = nullptr;

// The subplan numbers that "SubPlan N" / "InitPlan N" in these lines name, in order.
std::vector<size_t> NamedSubplans(const std::vector<std::string>& lines) {
  std::vector<size_t> out;
  for (const std::string& line : lines) {
    for (const char* word : {"SubPlan ", "InitPlan "}) {
      for (size_t at = line.find(word); at != std::string::npos; at = line.find(word, at + 1)) {
        size_t i = at + std::char_traits<char>::length(word);
        size_t n = 0;
        bool digits = false;
        while (i < line.size() && line[i] >= '0' && line[i] <= '9') {
          n = n * 10 + static_cast<size_t>(line[i++] - '0');
          digits = true;
        }
        if (digits && n >= 1) out.push_back(n);
      }
    }
  }
  return out;
}

void Render(const PlanNode& node, const RenderOptions& o, int depth, std::vector<std::string>* out);

// Prints the subplans numbered in `numbers` whose kind is init, not yet printed, each as a
// "SubPlan N" line at indent with its plan below.
void RenderSubplans(const std::vector<size_t>& numbers, bool init, const std::string& indent,
                    const RenderOptions& o, std::vector<std::string>* out) {
  if (o.subplans == nullptr) return;
  const auto& entries = o.subplans->entries();
  for (size_t n : numbers) {
    if (n > entries.size() || (*o.printed)[n - 1] || entries[n - 1].init != init) continue;
    (*o.printed)[n - 1] = true;
    out->push_back(indent + (init ? "InitPlan " : "SubPlan ") + std::to_string(n));
    std::vector<std::string> lines;
    Render(*entries[n - 1].node, o, 1, &lines);
    for (std::string& line : lines) out->push_back(indent + line);
  }
}

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
  std::vector<size_t> named = NamedSubplans(node.details);
  RenderSubplans(named, /*init=*/true, detail_indent, o, out);
  for (const auto& child : node.children) Render(*child, o, depth + 1, out);
  if (depth == 0 && o.subplans != nullptr) {
    // Subplans no node's details name (select-list ones) are printed under the top node.
    for (size_t n = 1; n <= o.subplans->entries().size(); ++n) named.push_back(n);
    RenderSubplans(named, /*init=*/true, detail_indent, o, out);
  }
  RenderSubplans(named, /*init=*/false, detail_indent, o, out);
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
      if (IsBooleanTest(e)) return "(" + ExprToString(*e.children[0]) + " " + e.name + ")";
      // A jsonb comparison is jsonb_cmp(a, b) op 0 (bind_json.cc): shown as a op b.
      const BoundExpr* cmp = JsonbComparisonCall(e);
      const BoundExpr& l = cmp != nullptr ? *cmp->children[0] : *e.children[0];
      const BoundExpr& r = cmp != nullptr ? *cmp->children[1] : *e.children[1];
      return "(" + ExprToString(l) + " " + ast::OperatorName(e.binary_op) + " " + ExprToString(r) +
             ")";
    }
    case BoundKind::kIsNull:
      if (!e.name.empty()) return "(" + ExprToString(*e.children[0]) + " " + e.name + ")";
      return "(" + ExprToString(*e.children[0]) + (e.negated ? " IS NOT NULL)" : " IS NULL)");
    case BoundKind::kFunction:
      if (e.func == Func::kRecordField) return "(" + ExprToString(*e.children[0]) + ")." + e.name;
      if (const char* op = e.children.size() == 2 ? JsonOperatorSymbol(e.name) : nullptr) {
        return "(" + ExprToString(*e.children[0]) + " " + op + " " + ExprToString(*e.children[1]) +
               ")";
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
      return "(" + SubplanName(e, false) + HashedNote(e) + ")";
    case BoundKind::kExists: {
      const std::string sub = SubplanName(e, false) + HashedNote(e);
      return e.negated ? "(NOT EXISTS(" + sub + "))" : "EXISTS(" + sub + ")";
    }
    case BoundKind::kInSubquery:
      if (e.all || e.binary_op != ast::BinaryOp::kEq) {
        return "(" + ExprToString(*e.children[0]) + " " + ast::OperatorName(e.binary_op) +
               (e.all ? " ALL (" : " ANY (") + SubplanName(e, true) + "))";
      }
      return "(" + ExprToString(*e.children[0]) + (e.negated ? " NOT IN (" : " IN (") +
             SubplanName(e, true) + HashedNote(e) + "))";
    case BoundKind::kArray:
      return e.subquery != nullptr ? "ARRAY(" + SubplanName(e, false) + ")"
                                   : "ARRAY[" + Join(e.children, 0) + "]";
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

std::vector<std::string> RenderPlan(const PlanNode& root, bool analyze, bool costs, bool timing,
                                    const ExplainSubplans* subplans) {
  std::vector<std::string> out;
  std::vector<bool> printed(subplans != nullptr ? subplans->entries().size() : 0, false);
  Render(root, RenderOptions{analyze, costs, timing, subplans, &printed}, 0, &out);
  return out;
}

ExplainSubplans::Scope::Scope(ExplainSubplans* c) : saved_(active_subplans) { active_subplans = c; }

void ExplainSubplans::Scope::Stop() {
  if (!active_) return;
  active_ = false;
  active_subplans = saved_;
}

ExplainSubplans* ExplainSubplans::Active() { return active_subplans; }

std::string ExplainSubplans::Name(const SubqueryPlan& plan, bool in_list) {
  if (plan.explain == nullptr) return "SubPlan";
  size_t n = 0;
  // Known by its PlanNode, which the entry keeps alive (a SubqueryPlan's address may be
  // reused once a discarded binding freed it).
  while (n < entries_.size() && entries_[n].node != plan.explain) ++n;
  const bool init = !plan.correlated && !in_list;
  if (n == entries_.size()) entries_.push_back({plan.explain, init});
  return (init ? "InitPlan " : "SubPlan ") + std::to_string(n + 1);
}

}  // namespace meridian::exec
