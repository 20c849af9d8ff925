// LimitOp: OFFSET then LIMIT; the counts are evaluated once at Open.
#include "execution/evaluator.h"
#include "execution/operators.h"

namespace meridian::exec {

namespace {

Result<int64_t> EvalCount(const BoundExpr* e, const EvalContext& ctx, const char* what,
                          const char* code, int64_t if_null) {
  if (e == nullptr) return if_null;
  MERIDIAN_ASSIGN_OR_RETURN(Value v, Eval(*e, ctx));
  if (v.IsNull()) return if_null;
  int64_t n = v.IsInt() ? v.AsInt() : static_cast<int64_t>(v.AsNumber());
  if (n < 0) return Status::Error(code, std::string(what) + " must not be negative");
  return n;
}

}  // namespace

Status LimitOp::Open(const EvalContext* outer, ExecContext* exec) {
  Row empty;
  EvalContext ctx{&empty, outer, exec};
  MERIDIAN_ASSIGN_OR_RETURN(remaining_, EvalCount(limit_.get(), ctx, "LIMIT",
                                                  sqlstate::kInvalidRowCountInLimitClause, -1));
  MERIDIAN_ASSIGN_OR_RETURN(skip_, EvalCount(offset_.get(), ctx, "OFFSET",
                                             sqlstate::kInvalidRowCountInResultOffsetClause, 0));
  return child_->Open(outer, exec);
}

Result<bool> LimitOp::Next(Row* row) {
  if (remaining_ == 0) return false;
  while (skip_ > 0) {
    MERIDIAN_ASSIGN_OR_RETURN(bool more, child_->Next(row));
    if (!more) return false;
    --skip_;
  }
  MERIDIAN_ASSIGN_OR_RETURN(bool more, child_->Next(row));
  if (!more) return false;
  if (remaining_ > 0) --remaining_;
  return true;
}

void LimitOp::PruneColumns(const std::vector<bool>& needed) { child_->PruneColumns(needed); }

}  // namespace meridian::exec
