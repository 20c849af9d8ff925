// Binding of window function calls: f(args) OVER w / OVER ([w] PARTITION BY ... ORDER BY ...
// frame), the WINDOW clause's named windows (PostgreSQL's copy rules and 42P20 messages), the
// window functions' signatures and types, and the extraction of the calls from a SELECT core's
// projections into BoundSelect::windows (each becomes a column of the window row).
#include <algorithm>

#include "binder/binder.h"
#include "binder/type_rules.h"

namespace meridian::exec {

namespace {

struct WindowFunctionDef {
  const char* name;
  WindowFunc func;
  size_t min_args, max_args;
};

constexpr WindowFunctionDef kWindowFunctions[] = {
    {"row_number", WindowFunc::kRowNumber, 0, 0},
    {"rank", WindowFunc::kRank, 0, 0},
    {"dense_rank", WindowFunc::kDenseRank, 0, 0},
    {"percent_rank", WindowFunc::kPercentRank, 0, 0},
    {"cume_dist", WindowFunc::kCumeDist, 0, 0},
    {"ntile", WindowFunc::kNtile, 1, 1},
    {"lag", WindowFunc::kLag, 1, 3},
    {"lead", WindowFunc::kLead, 1, 3},
    {"first_value", WindowFunc::kFirstValue, 1, 1},
    {"last_value", WindowFunc::kLastValue, 1, 1},
    {"nth_value", WindowFunc::kNthValue, 2, 2},
};

const WindowFunctionDef* FindWindowFunction(const std::string& name) {
  for (const WindowFunctionDef& def : kWindowFunctions) {
    if (name == def.name) return &def;
  }
  return nullptr;
}

Status WindowingError(const std::string& message, uint32_t position) {
  return Status::Error(sqlstate::kWindowingError, message).WithPosition(position);
}

// PostgreSQL's name of a clause in "window functions are not allowed in ...".
std::string ClauseName(const std::string& clause) {
  if (clause == "JOIN/ON") return "JOIN conditions";
  if (clause == "DEFAULT") return "DEFAULT expressions";
  if (clause == "FROM") return "functions in FROM";
  return clause;
}

}  // namespace

bool Binder::IsWindowFunctionName(const std::string& name) {
  return FindWindowFunction(name) != nullptr;
}

Result<Binder::ResolvedWindow> Binder::ResolveWindow(const ast::WindowSpec& spec,
                                                     size_t visible_defs) {
  const std::vector<ast::WindowSpec>& defs = *windows_;
  auto find = [&](const std::string& name) -> Result<size_t> {
    for (size_t i = 0; i < visible_defs; ++i) {
      if (defs[i].name == name) return i;
    }
    return Status::Error(sqlstate::kUndefinedObject, "window \"" + name + "\" does not exist")
        .WithPosition(spec.loc.position);
  };
  ResolvedWindow out{&spec.partition_by, &spec.order_by, spec.frame.get()};
  if (spec.existing.empty()) return out;
  MERIDIAN_ASSIGN_OR_RETURN(size_t i, find(spec.existing));
  MERIDIAN_ASSIGN_OR_RETURN(ResolvedWindow base, ResolveWindow(defs[i], i));
  if (spec.reference_only) return base;  // OVER w: that window exactly
  const std::string quoted = "\"" + spec.existing + "\"";
  if (!spec.partition_by.empty()) {
    return WindowingError("cannot override PARTITION BY clause of window " + quoted,
                          spec.loc.position);
  }
  out.partition = base.partition;
  if (!spec.order_by.empty() && !base.order->empty()) {
    return WindowingError("cannot override ORDER BY clause of window " + quoted, spec.loc.position);
  }
  if (spec.order_by.empty()) out.order = base.order;
  if (base.frame != nullptr) {
    Status st = WindowingError("cannot copy window " + quoted + " because it has a frame clause",
                               spec.loc.position);
    if (spec.name.empty() && spec.order_by.empty() && spec.frame == nullptr) {
      st = std::move(st).WithHint("Omit the parentheses in this OVER clause.");
    }
    return st;
  }
  return out;
}

Status Binder::CheckWindowDefinitions(const std::vector<ast::WindowSpec>& defs) {
  for (size_t i = 0; i < defs.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (defs[j].name == defs[i].name) {
        return WindowingError("window \"" + defs[i].name + "\" is already defined",
                              defs[i].loc.position);
      }
    }
    MERIDIAN_RETURN_IF_ERROR(ResolveWindow(defs[i], i).status());
  }
  return Status::Ok();
}

Result<Type> Binder::ValueArgumentsType(const std::string& name, std::vector<BoundExprPtr>* args,
                                        uint32_t position) {
  // PostgreSQL's anycompatible: the common type of the value and the default, without a type
  // modifier (lag(varchar(5) column, 1, 'longer default') is varchar and keeps the default).
  std::vector<BoundExprPtr>& a = *args;
  std::optional<Type> common = a[0]->type;
  if (a.size() > 2) common = CommonType(a[0]->type, a[2]->type);
  if (!common) return NoFunction(name, a, position);
  Type type = common->id == TypeId::kUnknown ? Type::Text() : *common;
  type.modifier = -1;
  MERIDIAN_ASSIGN_OR_RETURN(a[0], Coerce(std::move(a[0]), type, false, ""));
  if (a.size() > 2) {
    MERIDIAN_ASSIGN_OR_RETURN(a[2], Coerce(std::move(a[2]), type, false, ""));
  }
  return type;
}

Result<BoundExprPtr> Binder::BindFrameOffset(const ast::Expr& expr) {
  ExprRules saved = rules_;
  rules_ = ExprRules{"ROWS", false, false, false, false};
  auto bound = BindExpr(expr);
  rules_ = saved;
  if (!bound.ok()) return bound.status();
  BoundExprPtr e = std::move(bound).value();
  // Any number is cast to bigint (1.5 PRECEDING is 2 PRECEDING, as in PostgreSQL).
  if (e->type.id != TypeId::kUnknown && !e->type.IsNumeric()) {
    return Status::Error(sqlstate::kDatatypeMismatch,
                         "argument of ROWS must be type bigint, not type " + e->type.Name())
        .WithPosition(e->position);
  }
  const bool number = e->type.IsNumeric() && !e->type.IsIntegral();
  return Coerce(std::move(e), Type::BigInt(), /*assignment=*/number, "");
}

Result<BoundExprPtr> Binder::BindWindowFunction(const ast::Expr& expr) {
  const uint32_t pos = expr.loc.position;
  const std::string& name = expr.name;
  if (in_window_ != nullptr) return WindowingError(in_window_, pos);
  if (in_aggregate_) {
    return Status::Error(sqlstate::kGroupingError,
                         "aggregate function calls cannot contain window function calls")
        .WithPosition(pos);
  }
  if (!rules_.windows) {
    return WindowingError("window functions are not allowed in " + ClauseName(rules_.clause), pos);
  }
  if (windows_ == nullptr) return WindowingError("window functions are not allowed here", pos);
  if (name == "grouping") {  // PostgreSQL's GROUPING(...) is syntax of its own: no OVER
    return Status::Error(sqlstate::kSyntaxError, "syntax error at or near \"OVER\"")
        .WithPosition(pos);
  }
  const WindowFunctionDef* def = FindWindowFunction(name);
  const bool aggregate = IsAggregateFunctionName(name);
  if (def == nullptr && !aggregate) {
    // An existing function that is neither: PostgreSQL's 42809 (an unknown one stays 42883).
    MERIDIAN_RETURN_IF_ERROR(BindFunction(expr, /*ignore_over=*/true).status());
    return Status::Error(sqlstate::kWrongObjectType,
                         "OVER specified, but " + name +
                             " is not a window function nor an aggregate function")
        .WithPosition(pos);
  }
  if (expr.distinct) {
    return Status::NotSupported("DISTINCT is not implemented for window functions")
        .WithPosition(pos);
  }
  // PostgreSQL 15's refusals; an aggregate's FILTER (WHERE ...) applies to each frame's rows.
  if (!expr.agg_order.empty()) {
    return Status::NotSupported("aggregate ORDER BY is not implemented for window functions")
        .WithPosition(pos);
  }
  if (expr.filter != nullptr && !aggregate) {
    return Status::NotSupported("FILTER is not implemented for non-aggregate window functions")
        .WithPosition(pos);
  }
  MERIDIAN_ASSIGN_OR_RETURN(ResolvedWindow spec, ResolveWindow(*expr.over, windows_->size()));
  auto clause = std::make_unique<WindowClause>();
  const ast::WindowFrame* frame = spec.frame;
  if (frame != nullptr) {
    using Mode = ast::WindowFrame::Mode;
    if (frame->mode == Mode::kGroups) {
      return Status::NotSupported("frame mode GROUPS is not supported yet")
          .WithPosition(frame->loc.position);
    }
    if (frame->mode == Mode::kRange &&
        (frame->start_offset != nullptr || frame->end_offset != nullptr)) {
      return Status::NotSupported("RANGE with offset PRECEDING/FOLLOWING is not supported yet")
          .WithPosition(frame->loc.position);
    }
    if (frame->exclusion) {
      return Status::NotSupported("frame exclusion (EXCLUDE) is not supported yet")
          .WithPosition(frame->loc.position);
    }
    clause->rows = frame->mode == Mode::kRows;
    clause->start = frame->start;
    clause->end = frame->end;
  }

  // The arguments: an aggregate's as the aggregate binds them, a window function's here.
  BoundExprPtr e;
  in_window_ = "window function calls cannot be nested";
  auto bind_args = [&]() -> Result<BoundExprPtr> {
    if (aggregate) return ResolveAggregate(expr, /*window=*/true);
    if (expr.star) {
      return Status::Error(sqlstate::kSyntaxError,
                           name + "(*) specified, but " + name + " is not an aggregate function")
          .WithPosition(pos);
    }
    auto call = BoundExpr::Make(BoundKind::kWindow, Type::Unknown(), pos);
    call->name = name;
    for (const ast::ExprPtr& c : expr.children) {
      MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr a, BindExpr(*c));
      call->children.push_back(std::move(a));
    }
    return call;
  };
  auto bound_args = bind_args();
  in_window_ = nullptr;
  MERIDIAN_ASSIGN_OR_RETURN(e, std::move(bound_args));
  std::vector<BoundExprPtr>& args = e->children;
  if (aggregate) {
    clause->func = WindowFunc::kAggregate;
  } else {
    clause->func = def->func;
    if (args.size() < def->min_args || args.size() > def->max_args) {
      return NoFunction(name, args, pos);
    }
    // An integer argument (ntile's buckets, lag/lead's offset, nth_value's n).
    auto integer_arg = [&](size_t i) -> Status {
      const TypeId t = args[i]->type.id;
      if (t != TypeId::kUnknown && t != TypeId::kSmallInt && t != TypeId::kInteger) {
        return NoFunction(name, args, pos);
      }
      MERIDIAN_ASSIGN_OR_RETURN(args[i], Coerce(std::move(args[i]), Type::Integer(), false, ""));
      return Status::Ok();
    };
    switch (def->func) {
      case WindowFunc::kRowNumber:
      case WindowFunc::kRank:
      case WindowFunc::kDenseRank:
        e->type = Type::BigInt();
        break;
      case WindowFunc::kPercentRank:
      case WindowFunc::kCumeDist:
        e->type = Type::Double();
        break;
      case WindowFunc::kNtile:
        MERIDIAN_RETURN_IF_ERROR(integer_arg(0));
        e->type = Type::Integer();
        break;
      case WindowFunc::kLag:
      case WindowFunc::kLead: {
        if (args.size() > 1) MERIDIAN_RETURN_IF_ERROR(integer_arg(1));
        MERIDIAN_ASSIGN_OR_RETURN(e->type, ValueArgumentsType(name, &args, pos));
        break;
      }
      case WindowFunc::kNthValue:
        MERIDIAN_RETURN_IF_ERROR(integer_arg(1));
        [[fallthrough]];
      default: {
        MERIDIAN_ASSIGN_OR_RETURN(e->type, ValueArgumentsType(name, &args, pos));
        break;
      }
    }
  }
  e->kind = BoundKind::kWindow;
  e->name = name;
  e->position = pos;
  clause->num_args = args.size();

  // PARTITION BY and ORDER BY: over the same row as the arguments, no window calls.
  in_window_ = "window functions are not allowed in window definitions";
  auto bind_key = [&](const ast::Expr& x) -> Status {
    MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr k, BindExpr(x));
    if (k->type.id == TypeId::kUnknown) {
      MERIDIAN_ASSIGN_OR_RETURN(k, Coerce(std::move(k), Type::Text(), false, ""));
    }
    if (k->type.id == TypeId::kJsonb) {
      // jsonb's equality and order, not its text's (bind_json.cc's jsonb_sortkey).
      std::vector<BoundExprPtr> one;
      one.push_back(std::move(k));
      MERIDIAN_ASSIGN_OR_RETURN(
          k, MakeJsonCall("jsonb_sortkey", std::move(one), Type::Bytea(), x.loc.position));
    }
    e->children.push_back(std::move(k));
    return Status::Ok();
  };
  Status keys = Status::Ok();
  for (const ast::ExprPtr& p : *spec.partition) {
    if (keys.ok()) keys = bind_key(*p);
  }
  for (const ast::OrderItem& o : *spec.order) {
    if (keys.ok()) keys = bind_key(*o.expr);
    clause->descending.push_back(o.descending);
    clause->nulls_first.push_back(o.nulls_first.value_or(o.descending));
  }
  if (keys.ok() && frame != nullptr) {
    if (frame->start_offset != nullptr) {
      auto offset = BindFrameOffset(*frame->start_offset);
      if (offset.ok())
        clause->start_offset = std::move(offset).value();
      else
        keys = offset.status();
    }
    if (keys.ok() && frame->end_offset != nullptr) {
      auto offset = BindFrameOffset(*frame->end_offset);
      if (offset.ok())
        clause->end_offset = std::move(offset).value();
      else
        keys = offset.status();
    }
  }
  in_window_ = nullptr;
  MERIDIAN_RETURN_IF_ERROR(keys);
  clause->num_partition = spec.partition->size();
  e->window = std::move(clause);
  return e;
}

void Binder::ExtractWindows(BoundExprPtr* expr, BoundSelect* out) {
  BoundExpr& e = **expr;
  if (e.kind != BoundKind::kWindow) {
    for (BoundExprPtr& c : e.children) ExtractWindows(&c, out);
    return;
  }
  size_t j = 0;
  while (j < out->windows.size() && !out->windows[j]->Equals(e)) ++j;
  auto ref = BoundExpr::Column(0, out->window_input + static_cast<int>(j), e.type, e.name);
  ref->position = e.position;
  if (j == out->windows.size()) out->windows.push_back(std::move(*expr));
  *expr = std::move(ref);
}

}  // namespace meridian::exec
