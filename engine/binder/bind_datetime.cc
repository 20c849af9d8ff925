// Binding of the date/time functions: extract/date_part, date_trunc, justify_days/hours/
// interval, make_interval, age and timezone (AT TIME ZONE), with PostgreSQL's argument types.
// Evaluated by function/datetime_functions.cc.
#include "binder/binder.h"

namespace meridian::exec {

namespace {

bool IsUnknownType(const BoundExprPtr& e) { return e->type.id == TypeId::kUnknown; }

}  // namespace

bool Binder::IsDateTimeFunction(const std::string& name) {
  return name == "extract" || name == "date_part" || name == "date_trunc" ||
         name == "justify_days" || name == "justify_hours" || name == "justify_interval" ||
         name == "make_interval" || name == "age" || name == "timezone";
}

Result<bool> Binder::BindDateTimeFunction(const std::string& name,
                                          std::vector<BoundExprPtr>* args_in, BoundExpr* e) {
  std::vector<BoundExprPtr>& args = *args_in;
  auto coerce = [&](size_t i, Type to) -> Status {
    MERIDIAN_ASSIGN_OR_RETURN(args[i], Coerce(std::move(args[i]), to, false, ""));
    return Status::Ok();
  };
  auto id = [&](size_t i) { return args[i]->type.id; };
  if (name == "extract" || name == "date_part" || name == "date_trunc") {
    // extract(field FROM x) gives numeric, date_part(field, x) double precision,
    // date_trunc(unit, x) x's type (a date becomes timestamptz, as PostgreSQL's implicit cast).
    if (args.size() != 2) return false;
    if (IsUnknownType(args[0])) MERIDIAN_RETURN_IF_ERROR(coerce(0, Type::Text()));
    if (IsUnknownType(args[1])) MERIDIAN_RETURN_IF_ERROR(coerce(1, Type::Timestamp()));
    if (!args[0]->type.IsString()) return false;
    const TypeId t = id(1);
    if (name == "date_trunc") {
      if (t == TypeId::kDate) MERIDIAN_RETURN_IF_ERROR(coerce(1, Type::TimestampTz()));
      if (id(1) != TypeId::kTimestamp && id(1) != TypeId::kTimestampTz &&
          id(1) != TypeId::kInterval) {
        return false;
      }
      e->func = Func::kDateTrunc;
      e->type = Type{id(1), -1};
      return true;
    }
    if (!args[1]->type.IsDateTime() && t != TypeId::kTime && t != TypeId::kInterval) return false;
    e->func = Func::kDatePart;
    e->type = name == "extract" ? Type::Numeric() : Type::Double();
    return true;
  }
  if (name == "justify_days" || name == "justify_hours" || name == "justify_interval") {
    if (args.size() != 1) return false;
    if (IsUnknownType(args[0])) MERIDIAN_RETURN_IF_ERROR(coerce(0, Type::Interval()));
    if (id(0) != TypeId::kInterval) return false;
    e->func = name == "justify_days"    ? Func::kJustifyDays
              : name == "justify_hours" ? Func::kJustifyHours
                                        : Func::kJustifyInterval;
    e->type = Type::Interval();
    return true;
  }
  if (name == "make_interval") {
    if (args.size() > 7) return false;
    for (size_t i = 0; i < args.size(); ++i) {
      const Type want = i == 6 ? Type::Double() : Type::Integer();
      if (!IsUnknownType(args[i]) && !args[i]->type.IsNumeric()) return false;
      if (i < 6 && !IsUnknownType(args[i]) && !args[i]->type.IsIntegral()) return false;
      MERIDIAN_RETURN_IF_ERROR(coerce(i, want));
    }
    e->func = Func::kMakeInterval;
    e->type = Type::Interval();
    return true;
  }
  if (name == "age") {
    if (args.empty() || args.size() > 2) return false;
    bool tz = false;
    for (size_t i = 0; i < args.size(); ++i) {
      if (!IsUnknownType(args[i]) && !args[i]->type.IsDateTime()) return false;
      tz = tz || id(i) == TypeId::kTimestampTz;
    }
    for (size_t i = 0; i < args.size(); ++i) {
      MERIDIAN_RETURN_IF_ERROR(coerce(i, tz ? Type::TimestampTz() : Type::Timestamp()));
    }
    e->func = Func::kAge;
    e->type = Type::Interval();
    return true;
  }
  if (name == "timezone") {  // timezone(zone, x) is x AT TIME ZONE zone
    if (args.size() != 2) return false;
    if (IsUnknownType(args[0])) MERIDIAN_RETURN_IF_ERROR(coerce(0, Type::Text()));
    if (IsUnknownType(args[1])) MERIDIAN_RETURN_IF_ERROR(coerce(1, Type::TimestampTz()));
    if (id(1) == TypeId::kDate) MERIDIAN_RETURN_IF_ERROR(coerce(1, Type::TimestampTz()));
    if (!args[0]->type.IsString()) return false;
    if (id(1) != TypeId::kTimestamp && id(1) != TypeId::kTimestampTz) return false;
    e->func = Func::kTimezone;
    e->type = id(1) == TypeId::kTimestamp ? Type::TimestampTz() : Type::Timestamp();
    return true;
  }
  return false;
}

}  // namespace meridian::exec
