// Evaluation of the date/time functions bound by binder/bind_datetime.cc and of now(),
// LOCALTIMESTAMP, CURRENT_DATE, clock_timestamp() (the session's zone is
// datetime::CurrentZone()).
#pragma once

#include <vector>

#include "binder/bound_expr.h"
#include "execution/operator.h"
#include "meridian/value.h"

namespace meridian::exec {

// args: e's arguments, evaluated and non-NULL. exec: null outside a statement (now() is then
// the wall clock).
Result<Value> EvalDateTimeFunction(const BoundExpr& e, const std::vector<Value>& args,
                                   ExecContext* exec);

}  // namespace meridian::exec
