// Set-returning calls: SetFunctionIterator (one call's values), FunctionScanOp (a call in
// FROM) and ProjectSetOp (the calls of a select list, in lockstep per input row).
#include "execution/evaluator.h"
#include "execution/operators.h"

namespace meridian::exec {

Status SetFunctionIterator::Start(const BoundExpr& call, std::vector<Value> args) {
  func_ = call.func;
  args_ = std::move(args);
  next_ = 0;
  done_ = false;
  for (const Value& v : args_) {
    if (v.IsNull()) done_ = true;  // strict: no values for a NULL argument
  }
  if (done_) return Status::Ok();
  switch (func_) {
    case Func::kGenerateSeries:
      if (args_[0].IsTimestamp() || args_[0].IsTimestampTz()) {
        // Timestamps by an interval (PostgreSQL's generate_series(timestamp[tz], ..., interval)):
        // current_ and stop_ are microseconds, step_ the step's sign; args_[2] the step.
        const bool tz = args_[0].IsTimestampTz();
        current_ = tz ? args_[0].AsTimestampTz().micros : args_[0].AsTimestamp().micros;
        stop_ = tz ? args_[1].AsTimestampTz().micros : args_[1].AsTimestamp().micros;
        step_ = datetime::CompareIntervals(args_[2].AsInterval(), Interval{});
        if (step_ == 0) {
          done_ = true;
          return Status::Error(sqlstate::kInvalidParameterValue, "step size cannot equal zero");
        }
        break;
      }
      current_ = args_[0].AsInt();
      stop_ = args_[1].AsInt();
      step_ = args_.size() == 3 ? args_[2].AsInt() : 1;
      if (step_ == 0) {
        done_ = true;
        return Status::Error(sqlstate::kInvalidParameterValue, "step size cannot equal zero");
      }
      break;
    case Func::kGenerateSubscripts: {
      // One-dimensional arrays with lower bound 1: dimension 1 has subscripts 1..n.
      const auto n = static_cast<int64_t>(args_[0].AsArray().size());
      const bool reverse = args_.size() == 3 && args_[2].AsBool();
      if (args_[1].AsInt() != 1 || n == 0) {
        done_ = true;
        break;
      }
      current_ = reverse ? n : 1;
      stop_ = reverse ? 1 : n;
      step_ = reverse ? -1 : 1;
      break;
    }
    default:
      break;
  }
  return Status::Ok();
}

bool SetFunctionIterator::Next(Value* v) {
  if (done_) return false;
  if (func_ == Func::kUnnest) {
    const std::vector<Value>& elements = args_[0].AsArray();
    if (next_ >= elements.size()) {
      done_ = true;
      return false;
    }
    *v = elements[next_++];
    return true;
  }
  if (step_ > 0 ? current_ > stop_ : current_ < stop_) {
    done_ = true;
    return false;
  }
  if (args_[0].IsTimestamp() || args_[0].IsTimestampTz()) {
    const Interval step = args_[2].AsInterval();
    if (args_[0].IsTimestamp()) {
      *v = Value::TimestampVal(Timestamp{current_});
      auto next = datetime::AddInterval(Timestamp{current_}, step);
      if (next.ok() && datetime::IsFinite(*next)) {
        current_ = next->micros;
      } else {
        done_ = true;  // past the last representable time
      }
    } else {
      *v = Value::TimestampTzVal(TimestampTz{current_});
      auto next = datetime::AddInterval(TimestampTz{current_}, step, datetime::CurrentZone());
      if (next.ok() && datetime::IsFinite(*next)) {
        current_ = next->micros;
      } else {
        done_ = true;
      }
    }
    return true;
  }
  *v = Value::Int(current_);
  if (__builtin_add_overflow(current_, step_, &current_)) done_ = true;  // ended at the limit
  return true;
}

namespace {

Result<std::vector<Value>> EvalArguments(const BoundExpr& call, const EvalContext& ctx) {
  std::vector<Value> args;
  args.reserve(call.children.size());
  for (const BoundExprPtr& a : call.children) {
    MERIDIAN_ASSIGN_OR_RETURN(Value v, Eval(*a, ctx));
    args.push_back(std::move(v));
  }
  return args;
}

Status CheckControl(uint64_t produced, ExecContext* exec) {
  if ((produced & (kCheckInterval - 1)) == 0 && exec != nullptr && exec->ctl != nullptr) {
    return exec->ctl->Check();
  }
  return Status::Ok();
}

}  // namespace

Status FunctionScanOp::Open(const EvalContext* outer, ExecContext* exec) {
  exec_ = exec;
  produced_ = 0;
  Row empty;
  EvalContext ctx{&empty, outer, exec};
  MERIDIAN_ASSIGN_OR_RETURN(std::vector<Value> args, EvalArguments(*call_, ctx));
  return values_.Start(*call_, std::move(args));
}

Result<bool> FunctionScanOp::Next(Row* row) {
  MERIDIAN_RETURN_IF_ERROR(CheckControl(produced_++, exec_));
  Value v;
  if (!values_.Next(&v)) return false;
  row->clear();
  if (v.IsArray() && !call_->type.IsArray()) {
    // A record per value (json_each's (key, value)): its fields are the row's columns.
    for (const Value& f : v.AsArray()) row->push_back(f);
    return true;
  }
  row->push_back(std::move(v));
  return true;
}

Status ProjectSetOp::Open(const EvalContext* outer, ExecContext* exec) {
  ctx_ = EvalContext{nullptr, outer, exec};
  have_input_ = false;
  produced_ = 0;
  return child_->Open(outer, exec);
}

Result<bool> ProjectSetOp::Next(Row* row) {
  while (true) {
    MERIDIAN_RETURN_IF_ERROR(CheckControl(produced_++, ctx_.exec));
    if (!have_input_) {
      MERIDIAN_ASSIGN_OR_RETURN(bool more, child_->Next(&input_));
      if (!more) return false;
      ctx_.row = &input_;
      for (size_t j = 0; j < calls_.size(); ++j) {
        MERIDIAN_ASSIGN_OR_RETURN(std::vector<Value> args, EvalArguments(*calls_[j], ctx_));
        MERIDIAN_RETURN_IF_ERROR(values_[j].Start(*calls_[j], std::move(args)));
      }
      have_input_ = true;
    }
    row->assign(input_.begin(), input_.end());
    bool any = false;
    for (SetFunctionIterator& it : values_) {
      Value v;
      if (it.Next(&v)) any = true;
      row->push_back(std::move(v));  // NULL once this call is done
    }
    if (any) return true;
    have_input_ = false;  // every call is done: the next input row
  }
}

void ProjectSetOp::PruneColumns(const std::vector<bool>& needed) {
  std::vector<bool> used;
  bool all = false;
  for (const BoundExprPtr& c : calls_) c->MarkColumnsRead(&used, &all);
  if (all) return;
  // The input columns the consumer reads pass through unchanged (the calls' columns follow).
  const size_t input = needed.size() >= calls_.size() ? needed.size() - calls_.size() : 0;
  for (size_t i = 0; i < input; ++i) {
    if (!needed[i]) continue;
    if (used.size() <= i) used.resize(i + 1, false);
    used[i] = true;
  }
  child_->PruneColumns(used);
}

}  // namespace meridian::exec
