// Expression and partial indexes: binding their SQL text over the table's row, the
// immutability rule, and evaluation for key extraction (see index_exprs.h).
#include "execution/index_exprs.h"

#include <algorithm>

#include "binder/binder.h"
#include "binder/deparse.h"
#include "binder/function_registry.h"
#include "execution/evaluator.h"
#include "meridian/parser/parser.h"

namespace meridian::exec {

namespace {

// PostgreSQL refuses any function not marked IMMUTABLE in an index expression or predicate:
// the clock, random values, sequences, session and catalog lookups, and the casts whose result
// depends on the session's time zone (timestamptz to and from the other date/time types and
// text).
bool IsImmutable(const BoundExpr& e) {
  switch (e.kind) {
    case BoundKind::kParam:
    case BoundKind::kSubquery:
    case BoundKind::kExists:
    case BoundKind::kInSubquery:
    case BoundKind::kAggregate:
    case BoundKind::kWindow:
      return false;
    case BoundKind::kFunction:
      switch (e.func) {
        case Func::kNow:
        case Func::kLocalTimestamp:
        case Func::kCurrentDate:
        case Func::kSerialSequence:
        case Func::kPgTypeof:
          return false;
        case Func::kAge:
          if (e.children.size() < 2) return false;  // age(x): against the current date
          break;
        default:
          if (IsVolatileCall(e)) return false;
          if (e.func == Func::kRegistered && e.scalar != nullptr && e.scalar->is_stable) {
            return false;
          }
          // The session and system-catalog functions (kVersion .. kRegNamespaceOut).
          if (e.func >= Func::kVersion && e.func <= Func::kRegNamespaceOut) return false;
          break;
      }
      break;
    case BoundKind::kCast: {
      const Type& from = e.children[0]->type;
      const bool tz_from = from.id == TypeId::kTimestampTz;
      const bool tz_to = e.type.id == TypeId::kTimestampTz;
      if (tz_from != tz_to &&
          (from.IsDateTime() || e.type.IsDateTime() || from.IsString() || e.type.IsString() ||
           from.id == TypeId::kTime || e.type.id == TypeId::kTime)) {
        return false;
      }
      break;
    }
    default:
      break;
  }
  if (e.subquery != nullptr) return false;
  for (const BoundExprPtr& c : e.children) {
    if (c != nullptr && !IsImmutable(*c)) return false;
  }
  return true;
}

// pg_get_indexdef's looks_like_function: a function call printed as one (not an operator).
bool LooksLikeFunction(const BoundExpr& e, const std::string& text) {
  return e.kind == BoundKind::kFunction && !text.empty() && text.front() != '(' &&
         text.back() == ')';
}

}  // namespace

bool IsVolatileCall(const BoundExpr& e) {
  if (e.kind != BoundKind::kFunction) return false;
  switch (e.func) {
    case Func::kClockTimestamp:
    case Func::kRandom:
    case Func::kNextval:
    case Func::kCurrval:
    case Func::kSetval:
    case Func::kLastval:
      return true;
    case Func::kRegistered:
      return e.scalar != nullptr && e.scalar->is_volatile;
    default:
      return false;
  }
}

Result<BoundExprPtr> BindIndexExpression(const ast::Expr& expr, const catalog::TableSchema& table,
                                         bool predicate, std::string* text) {
  catalog::LockSet no_locks;
  Binder binder(nullptr, &no_locks);
  MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr bound, binder.BindIndexExpr(expr, table, predicate));
  if (!IsImmutable(*bound)) {
    return Status::Error(sqlstate::kInvalidObjectDefinition,
                         std::string("functions in index ") +
                             (predicate ? "predicate" : "expression") + " must be marked IMMUTABLE")
        .WithPosition(expr.loc.position);
  }
  *text = DeparseExpr(*bound, /*pretty=*/false);
  return bound;
}

Result<Value> BoundIndexExprs::Key(size_t k, const Row& row) const {
  if (k >= keys_.size() || keys_[k] == nullptr) {
    return Status::Internal("index key " + std::to_string(k) + " is no expression");
  }
  EvalContext ctx{&row, nullptr, nullptr};
  return Eval(*keys_[k], ctx);
}

Result<bool> BoundIndexExprs::Matches(const Row& row) const {
  if (predicate_expr_ == nullptr) return true;
  EvalContext ctx{&row, nullptr, nullptr};
  return EvalPredicate(*predicate_expr_, ctx);
}

std::string BoundIndexExprs::Display(size_t k, bool pretty) const {
  if (k >= keys_.size() || keys_[k] == nullptr) return std::string();
  const std::string& text = pretty ? pretty_[k] : plain_[k];
  return function_like_[k] ? text : "(" + text + ")";
}

Result<std::shared_ptr<const catalog::IndexExprs>> CompileIndexExpressions(
    const catalog::TableSchema& table, const catalog::IndexSchema& index) {
  auto out = std::make_shared<BoundIndexExprs>();
  catalog::LockSet no_locks;
  Binder binder(nullptr, &no_locks);
  std::vector<bool> used;
  bool all = false;
  const size_t n = index.columns.size();
  out->keys_.resize(n);
  out->plain_.resize(n);
  out->pretty_.resize(n);
  out->function_like_.assign(n, false);
  for (size_t k = 0; k < n; ++k) {
    std::string name;
    if (index.columns[k] != catalog::kExpressionKey) {
      name = table.columns[index.columns[k]].name;
    }
    const std::string& sql = k < index.expressions.size() ? index.expressions[k] : std::string();
    ast::ExprPtr parsed;
    if (name.empty()) {
      MERIDIAN_ASSIGN_OR_RETURN(parsed, parser::ParseExpression(sql));
      name = Binder::IndexColumnName(*parsed);
    }
    // ChooseIndexColumnNames: a name already taken gets 1, 2, ... appended.
    std::string unique = name;
    for (int i = 1; std::find(out->names_.begin(), out->names_.end(), unique) != out->names_.end();
         ++i) {
      unique = name + std::to_string(i);
    }
    out->names_.push_back(std::move(unique));
    if (parsed == nullptr) continue;
    MERIDIAN_ASSIGN_OR_RETURN(out->keys_[k], binder.BindIndexExpr(*parsed, table, false));
    out->plain_[k] = DeparseExpr(*out->keys_[k], false);
    out->pretty_[k] = DeparseExpr(*out->keys_[k], true);
    out->function_like_[k] = LooksLikeFunction(*out->keys_[k], out->plain_[k]);
    out->keys_[k]->MarkColumnsRead(&used, &all);
  }
  if (index.IsPartial()) {
    MERIDIAN_ASSIGN_OR_RETURN(ast::ExprPtr parsed, parser::ParseExpression(index.predicate));
    MERIDIAN_ASSIGN_OR_RETURN(out->predicate_expr_, binder.BindIndexExpr(*parsed, table, true));
    out->predicate_expr_->MarkColumnsRead(&used, &all);
    out->predicate_plain_ = DeparseExpr(*out->predicate_expr_, false);
    out->predicate_pretty_ = DeparseExpr(*out->predicate_expr_, true);
    // Its conjuncts bound one by one, for the planner's implication test.
    MERIDIAN_ASSIGN_OR_RETURN(out->predicate_, binder.BindPredicateConjuncts(*parsed, table));
  }
  for (size_t c = 0; c < used.size(); ++c) {
    if (used[c]) out->columns_.push_back(static_cast<int>(c));
  }
  return std::shared_ptr<const catalog::IndexExprs>(std::move(out));
}

}  // namespace meridian::exec
