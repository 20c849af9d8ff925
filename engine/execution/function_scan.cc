// FunctionScanOp: the rows of unnest(array) and generate_series(a, b [, step]) in FROM.
#include "execution/evaluator.h"
#include "execution/operators.h"

namespace meridian::exec {

Status FunctionScanOp::Open(const EvalContext* outer, ExecContext* exec) {
  exec_ = exec;
  Row empty;
  EvalContext ctx{&empty, outer, exec};
  args_.clear();
  for (const BoundExprPtr& a : call_->children) {
    MERIDIAN_ASSIGN_OR_RETURN(Value v, Eval(*a, ctx));
    args_.push_back(std::move(v));
  }
  next_ = 0;
  done_ = false;
  for (const Value& v : args_) {
    if (v.IsNull()) done_ = true;  // both functions are strict: no rows for a NULL argument
  }
  if (done_) return Status::Ok();
  if (call_->func == Func::kGenerateSeries) {
    current_ = args_[0].AsInt();
    if (args_.size() == 3 && args_[2].AsInt() == 0) {
      done_ = true;
      return Status::Error("22023", "step size cannot equal zero");
    }
  }
  return Status::Ok();
}

Result<bool> FunctionScanOp::Next(Row* row) {
  if (done_) return false;
  if ((next_ & (kCheckInterval - 1)) == 0 && exec_ != nullptr && exec_->ctl != nullptr) {
    MERIDIAN_RETURN_IF_ERROR(exec_->ctl->Check());
  }
  row->clear();
  if (call_->func == Func::kUnnest) {
    const std::vector<Value>& elements = args_[0].AsArray();
    if (next_ >= elements.size()) {
      done_ = true;
      return false;
    }
    row->push_back(elements[next_++]);
    return true;
  }
  const int64_t stop = args_[1].AsInt();
  const int64_t step = args_.size() == 3 ? args_[2].AsInt() : 1;
  if (step > 0 ? current_ > stop : current_ < stop) {
    done_ = true;
    return false;
  }
  row->push_back(Value::Int(current_));
  ++next_;
  if (__builtin_add_overflow(current_, step, &current_)) done_ = true;  // ended at the limit
  return true;
}

}  // namespace meridian::exec
