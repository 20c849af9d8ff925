// The date/time functions (see datetime_functions.h): EXTRACT/date_part and date_trunc over
// timestamp, timestamptz, time and interval, justify_*, make_interval, age, timezone (AT TIME
// ZONE), and the transaction's clock, as PostgreSQL 15 computes them.
#include "function/datetime_functions.h"

#include <cctype>
#include <cmath>

#include "binder/function_registry.h"
#include "catalog/transaction.h"
#include "function/builtin.h"

namespace meridian::exec {

namespace {

constexpr int64_t kMicrosPerHour = 3600LL * 1000000;
constexpr int64_t kMicrosPerMinute = 60LL * 1000000;

// The canonical spelling of a date/time unit (PostgreSQL's units and abbreviations), or the
// lower-cased text when it is no unit.
std::string Unit(const std::string& unit) {
  std::string u;
  for (char c : unit) u.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  struct Alias {
    const char* canonical;
    std::initializer_list<const char*> names;
  };
  static const Alias kAliases[] = {
      {"microseconds", {"microsecond", "microseconds", "usec", "usecs", "us", "useconds"}},
      {"milliseconds", {"millisecond", "milliseconds", "msec", "msecs", "ms", "mseconds"}},
      {"second", {"second", "seconds", "sec", "secs", "s"}},
      {"minute", {"minute", "minutes", "min", "mins", "m"}},
      {"hour", {"hour", "hours", "hr", "hrs", "h"}},
      {"day", {"day", "days", "d"}},
      {"week", {"week", "weeks", "w"}},
      {"month", {"month", "months", "mon", "mons"}},
      {"quarter", {"quarter", "qtr"}},
      {"year", {"year", "years", "yr", "yrs", "y"}},
      {"decade", {"decade", "decades", "dec", "decs"}},
      {"century", {"century", "centuries", "cent", "c"}},
      {"millennium", {"millennium", "millennia", "mil", "mils"}},
  };
  for (const Alias& a : kAliases) {
    for (const char* n : a.names) {
      if (u == n) return a.canonical;
    }
  }
  return u;
}

bool IsUnit(const std::string& u) {
  static const char* kUnits[] = {
      "microseconds", "milliseconds", "second",        "minute",         "hour",   "day",
      "week",         "month",        "quarter",       "year",           "decade", "century",
      "millennium",   "epoch",        "dow",           "isodow",         "doy",    "isoyear",
      "julian",       "timezone",     "timezone_hour", "timezone_minute"};
  for (const char* n : kUnits) {
    if (u == n) return true;
  }
  return false;
}

// 22023 for a word that is no unit, 0A000 for a unit the type has not.
Status BadUnit(const std::string& unit, const std::string& u, const char* type) {
  if (IsUnit(u)) {
    return Status::Error(sqlstate::kFeatureNotSupported,
                         "unit \"" + unit + "\" not supported for type " + type);
  }
  return Status::Error(sqlstate::kInvalidParameterValue,
                       "unit \"" + unit + "\" not recognized for type " + type);
}

Numeric Whole(int64_t v) { return numeric::FromInt(v); }

// EXTRACT of a finite local timestamp (seconds with 6 decimals). epoch_micros: the instant's
// microseconds since 2000-01-01 UTC (a timestamptz's own, else the local time's).
Result<Numeric> TimestampPart(const std::string& unit, Timestamp t, int64_t epoch_micros,
                              const char* type) {
  const std::string u = Unit(unit);
  const datetime::Fields f = datetime::Split(t);
  const int64_t y = f.year;                 // astronomical: 0 is 1 BC
  const int64_t year = y <= 0 ? y - 1 : y;  // there is no year 0: 1 BC is -1
  if (u == "year") return Whole(year);
  if (u == "month") return Whole(f.month);
  if (u == "day") return Whole(f.day);
  if (u == "hour") return Whole(f.hour);
  if (u == "minute") return Whole(f.minute);
  if (u == "second") return Numeric{f.micros_of_minute, 6};
  if (u == "milliseconds") return Numeric{f.micros_of_minute, 3};
  if (u == "microseconds") return Whole(f.micros_of_minute);
  if (u == "dow") return Whole(f.day_of_week);
  if (u == "isodow") return Whole(f.day_of_week == 0 ? 7 : f.day_of_week);
  if (u == "doy") return Whole(f.day_of_year);
  if (u == "quarter") return Whole((f.month - 1) / 3 + 1);
  if (u == "week" || u == "isoyear") {
    // ISO 8601: weeks start on Monday; week 1 holds the year's first Thursday.
    const int64_t days = datetime::FloorDiv(t.micros, datetime::kMicrosPerDay);
    const int64_t thursday = days - (f.day_of_week + 6) % 7 + 3;
    int64_t iso_year = 0;
    int m = 0, d = 0;
    datetime::CivilFromDays(thursday, &iso_year, &m, &d);
    if (u == "isoyear") return Whole(iso_year <= 0 ? iso_year - 1 : iso_year);
    return Whole((thursday - datetime::DaysFromCivil(iso_year, 1, 1)) / 7 + 1);
  }
  // PostgreSQL's formulas over the astronomical year.
  if (u == "decade") return Whole(y >= 0 ? y / 10 : -((8 - (y - 1)) / 10));
  if (u == "century") return Whole(y > 0 ? (y + 99) / 100 : -((99 - (y - 1)) / 100));
  if (u == "millennium") return Whole(y > 0 ? (y + 999) / 1000 : -((999 - (y - 1)) / 1000));
  if (u == "epoch") {
    // In 128 bits: a timestamp near the end of the range plus 30 years of seconds overflows
    // 64.
    return Numeric{static_cast<__int128>(epoch_micros) + 10957LL * datetime::kMicrosPerDay, 6};
  }
  return BadUnit(unit, u, type);
}

// interval2itm: fields truncated toward zero.
struct IntervalFields {
  int64_t year, month, day, hour, minute, second, fsec;
};

IntervalFields SplitInterval(Interval i) {
  IntervalFields f{};
  f.year = i.months / 12;
  f.month = i.months % 12;
  f.day = i.days;
  int64_t t = i.micros;
  f.hour = t / kMicrosPerHour;
  t -= f.hour * kMicrosPerHour;
  f.minute = t / kMicrosPerMinute;
  t -= f.minute * kMicrosPerMinute;
  f.second = t / 1000000;
  f.fsec = t - f.second * 1000000;
  return f;
}

Result<Numeric> IntervalPart(const std::string& unit, Interval i) {
  const std::string u = Unit(unit);
  const IntervalFields f = SplitInterval(i);
  if (u == "microseconds") return Whole(f.second * 1000000 + f.fsec);
  if (u == "milliseconds") return Numeric{f.second * 1000000 + f.fsec, 3};
  if (u == "second") return Numeric{f.second * 1000000 + f.fsec, 6};
  if (u == "minute") return Whole(f.minute);
  if (u == "hour") return Whole(f.hour);
  if (u == "day") return Whole(f.day);
  if (u == "month") return Whole(f.month);
  if (u == "quarter") return Whole(f.month / 3 + 1);
  if (u == "year") return Whole(f.year);
  if (u == "decade") return Whole(f.year / 10);
  if (u == "century") return Whole(f.year / 100);
  if (u == "millennium") return Whole(f.year / 1000);
  if (u == "epoch") {
    // A year counts 365.25 days, a month 30 (in quarter days, to stay in integers).
    const int64_t secs =
        (int64_t{1461} * (i.months / 12) + int64_t{120} * (i.months % 12) + int64_t{4} * i.days) *
        (86400 / 4);
    return Numeric{static_cast<__int128>(i.micros) + static_cast<__int128>(secs) * 1000000, 6};
  }
  return BadUnit(unit, u, "interval");
}

Result<Numeric> TimePart(const std::string& unit, TimeOfDay t) {
  const std::string u = Unit(unit);
  const int64_t in_minute = t.micros % kMicrosPerMinute;
  if (u == "microseconds") return Whole(in_minute);
  if (u == "milliseconds") return Numeric{in_minute, 3};
  if (u == "second") return Numeric{in_minute, 6};
  if (u == "minute") return Whole(t.micros % kMicrosPerHour / kMicrosPerMinute);
  if (u == "hour") return Whole(t.micros / kMicrosPerHour);
  if (u == "epoch") return Numeric{t.micros, 6};
  return BadUnit(unit, u, "time without time zone");
}

// date_trunc of a finite timestamp: the start of its unit (weeks start on Monday, as ISO and
// PostgreSQL; a decade, century or millennium of a year after 1 BC starts at its year 0 or 1
// as PostgreSQL's).
Result<Timestamp> TruncTimestamp(const std::string& unit, Timestamp t, const char* type) {
  const std::string u = Unit(unit);
  const datetime::Fields f = datetime::Split(t);
  const int64_t day_start =
      t.micros - (f.hour * kMicrosPerHour + f.minute * kMicrosPerMinute + f.micros_of_minute);
  auto on = [](int64_t year, int month, int day) {
    return Timestamp{datetime::DaysFromCivil(year, month, day) * datetime::kMicrosPerDay};
  };
  if (u == "microseconds") return t;
  if (u == "milliseconds") return Timestamp{t.micros - (f.micros_of_minute % 1000)};
  if (u == "second") return Timestamp{t.micros - (f.micros_of_minute % 1000000)};
  if (u == "minute") return Timestamp{t.micros - f.micros_of_minute};
  if (u == "hour") return Timestamp{day_start + f.hour * kMicrosPerHour};
  if (u == "day") return Timestamp{day_start};
  if (u == "week") {
    const int back = (f.day_of_week + 6) % 7;  // days since Monday
    return Timestamp{day_start - back * datetime::kMicrosPerDay};
  }
  if (u == "month") return on(f.year, f.month, 1);
  if (u == "quarter") return on(f.year, (f.month - 1) / 3 * 3 + 1, 1);
  if (u == "year") return on(f.year, 1, 1);
  if (f.year > 0) {
    if (u == "decade") return on(f.year - f.year % 10, 1, 1);
    if (u == "century") return on((f.year - 1) / 100 * 100 + 1, 1, 1);
    if (u == "millennium") return on((f.year - 1) / 1000 * 1000 + 1, 1, 1);
  }
  return BadUnit(unit, u, type);
}

Result<Interval> TruncInterval(const std::string& unit, Interval i) {
  const std::string u = Unit(unit);
  IntervalFields f = SplitInterval(i);
  static const char* kOrder[] = {"millennium", "century", "decade",       "year",
                                 "quarter",    "month",   "day",          "hour",
                                 "minute",     "second",  "milliseconds", "microseconds"};
  int level = -1;
  for (int k = 0; k < 12; ++k) {
    if (u == kOrder[k]) level = k;
  }
  if (level < 0) return BadUnit(unit, u, "interval");
  if (level <= 2) {
    const int64_t unit_years = level == 0 ? 1000 : level == 1 ? 100 : 10;
    f.year = f.year / unit_years * unit_years;
  }
  if (level <= 3) f.month = 0;
  if (level == 4) f.month = f.month / 3 * 3;
  if (level <= 5) f.day = 0;
  if (level <= 6) f.hour = 0;
  if (level <= 7) f.minute = 0;
  if (level <= 8) f.second = 0;
  if (level <= 9) f.fsec = 0;
  if (level == 10) f.fsec = f.fsec / 1000 * 1000;
  return Interval{static_cast<int32_t>(f.year * 12 + f.month), static_cast<int32_t>(f.day),
                  ((f.hour * 60 + f.minute) * 60 + f.second) * 1000000 + f.fsec};
}

Result<std::shared_ptr<const datetime::TimeZone>> ZoneNamed(const std::string& name) {
  std::shared_ptr<const datetime::TimeZone> zone = datetime::FindTimeZone(name);
  if (zone == nullptr) {
    return Status::Error(sqlstate::kInvalidParameterValue,
                         "time zone \"" + name + "\" not recognized");
  }
  return zone;
}

Value PartValue(const BoundExpr& e, const Numeric& n) {
  if (e.type.id == TypeId::kNumeric) return Value::Decimal(n);
  return Value::Double(numeric::ToDouble(n));
}

Result<Value> DatePart(const BoundExpr& e, const std::string& unit, const Value& v) {
  const datetime::TimeZone& zone = datetime::CurrentZone();
  if (v.IsInterval()) {
    MERIDIAN_ASSIGN_OR_RETURN(Numeric n, IntervalPart(unit, v.AsInterval()));
    return PartValue(e, n);
  }
  if (v.IsTime()) {
    MERIDIAN_ASSIGN_OR_RETURN(Numeric n, TimePart(unit, v.AsTime()));
    return PartValue(e, n);
  }
  if (v.IsTimestampTz()) {
    const TimestampTz t = v.AsTimestampTz();
    const std::string u = Unit(unit);
    if (!datetime::IsFinite(t)) return Value::Null();
    const int64_t offset = zone.OffsetAtUtc(t.micros);
    if (u == "timezone") return PartValue(e, Whole(offset));
    if (u == "timezone_hour") return PartValue(e, Whole(offset / 3600));
    if (u == "timezone_minute") return PartValue(e, Whole(offset / 60 % 60));
    MERIDIAN_ASSIGN_OR_RETURN(Numeric n, TimestampPart(unit, datetime::ToLocal(t, zone), t.micros,
                                                       "timestamp with time zone"));
    return PartValue(e, n);
  }
  if (v.IsDate()) {  // whole-day fields only; epoch in whole seconds
    if (!datetime::IsFinite(v.AsDate())) return Value::Null();
    const std::string u = Unit(unit);
    if (u == "hour" || u == "minute" || u == "second" || u == "milliseconds" ||
        u == "microseconds" || u == "timezone" || u == "timezone_hour" || u == "timezone_minute") {
      return BadUnit(unit, u, "date");
    }
    if (u == "epoch") {
      return PartValue(e, Whole((static_cast<int64_t>(v.AsDate().days) + 10957) * 86400));
    }
    // Dates after the timestamp range (294276 AD) are 22008 here; PostgreSQL answers them.
    MERIDIAN_ASSIGN_OR_RETURN(Timestamp t, datetime::CheckedToTimestamp(v.AsDate()));
    MERIDIAN_ASSIGN_OR_RETURN(Numeric n, TimestampPart(unit, t, t.micros, "date"));
    return PartValue(e, n);
  }
  const Timestamp t = v.AsTimestamp();
  if (!datetime::IsFinite(t)) return Value::Null();
  MERIDIAN_ASSIGN_OR_RETURN(Numeric n,
                            TimestampPart(unit, t, t.micros, "timestamp without time zone"));
  return PartValue(e, n);
}

Result<Value> DateTrunc(const std::string& unit, const Value& v) {
  if (v.IsInterval()) {
    MERIDIAN_ASSIGN_OR_RETURN(Interval i, TruncInterval(unit, v.AsInterval()));
    return Value::IntervalVal(i);
  }
  if (v.IsTimestampTz()) {
    if (!datetime::IsFinite(v.AsTimestampTz())) return v;
    const datetime::TimeZone& zone = datetime::CurrentZone();
    MERIDIAN_ASSIGN_OR_RETURN(Timestamp local,
                              TruncTimestamp(unit, datetime::ToLocal(v.AsTimestampTz(), zone),
                                             "timestamp with time zone"));
    MERIDIAN_ASSIGN_OR_RETURN(TimestampTz t, datetime::FromLocal(local, zone));
    return Value::TimestampTzVal(t);
  }
  if (!datetime::IsFinite(v.AsTimestamp())) return v;
  MERIDIAN_ASSIGN_OR_RETURN(Timestamp t,
                            TruncTimestamp(unit, v.AsTimestamp(), "timestamp without time zone"));
  return Value::TimestampVal(t);
}

Result<Value> MakeInterval(const std::vector<Value>& args) {
  int64_t f[6] = {0, 0, 0, 0, 0, 0};
  for (size_t i = 0; i < args.size() && i < 6; ++i) f[i] = args[i].AsInt();
  const double secs = args.size() > 6 ? args[6].AsNumber() : 0.0;
  const int64_t months = f[0] * 12 + f[1];
  const int64_t days = f[2] * 7 + f[3];
  const double micros = static_cast<double>(f[4]) * kMicrosPerHour +
                        static_cast<double>(f[5]) * kMicrosPerMinute + std::rint(secs * 1e6);
  if (months < INT32_MIN || months > INT32_MAX || days < INT32_MIN || days > INT32_MAX ||
      !std::isfinite(micros) || std::fabs(micros) >= 9.2e18) {
    return Status::Error(sqlstate::kDatetimeFieldOverflow, "interval out of range");
  }
  return Value::IntervalVal(Interval{static_cast<int32_t>(months), static_cast<int32_t>(days),
                                     f[4] * kMicrosPerHour + f[5] * kMicrosPerMinute +
                                         static_cast<int64_t>(std::rint(secs * 1e6))});
}

}  // namespace

Result<Value> EvalDateTimeFunction(const BoundExpr& e, const std::vector<Value>& args,
                                   ExecContext* exec) {
  const datetime::TimeZone& zone = datetime::CurrentZone();
  const TimestampTz start{exec != nullptr && exec->txn != nullptr ? exec->txn->start_time().micros
                                                                  : datetime::Now().micros};
  switch (e.func) {
    case Func::kNow:
      return Value::TimestampTzVal(start);
    case Func::kClockTimestamp:
      return Value::TimestampTzVal(TimestampTz{datetime::Now().micros});
    case Func::kLocalTimestamp:
      return Value::TimestampVal(datetime::ToLocal(start, zone));
    case Func::kCurrentDate:
      return Value::DateVal(datetime::ToDate(datetime::ToLocal(start, zone)));
    case Func::kDatePart:
      return DatePart(e, args[0].AsString(), args[1]);
    case Func::kDateTrunc:
      return DateTrunc(args[0].AsString(), args[1]);
    case Func::kJustifyDays:
      return Value::IntervalVal(datetime::JustifyDays(args[0].AsInterval()));
    case Func::kJustifyHours:
      return Value::IntervalVal(datetime::JustifyHours(args[0].AsInterval()));
    case Func::kJustifyInterval:
      return Value::IntervalVal(datetime::JustifyInterval(args[0].AsInterval()));
    case Func::kMakeInterval:
      return MakeInterval(args);
    case Func::kAge: {
      auto local = [&](const Value& v) {
        return v.IsTimestampTz() ? datetime::ToLocal(v.AsTimestampTz(), zone) : v.AsTimestamp();
      };
      const Timestamp midnight =
          datetime::ToTimestamp(datetime::ToDate(datetime::ToLocal(start, zone)));
      const Timestamp a = args.size() == 2 ? local(args[0]) : midnight;
      MERIDIAN_ASSIGN_OR_RETURN(Interval r, datetime::Age(a, local(args.back())));
      return Value::IntervalVal(r);
    }
    case Func::kTimezone: {
      MERIDIAN_ASSIGN_OR_RETURN(auto z, ZoneNamed(args[0].AsString()));
      if (args[1].IsTimestamp()) {
        MERIDIAN_ASSIGN_OR_RETURN(TimestampTz t, datetime::FromLocal(args[1].AsTimestamp(), *z));
        return Value::TimestampTzVal(t);
      }
      return Value::TimestampVal(datetime::ToLocal(args[1].AsTimestampTz(), *z));
    }
    default:
      return Status::Internal("not a date/time function");
  }
}

namespace {

// date_bin(stride, source, origin): the start of the stride-wide bin, counted from origin, that
// holds source (PostgreSQL's timestamp_bin / timestamptz_bin: plain microsecond arithmetic, for
// timestamptz too). An infinite source is returned as it is.
Result<int64_t> BinTimestamp(const Interval& stride, int64_t source, int64_t origin) {
  if (stride.months != 0) {
    return Status::NotSupported(
        "timestamps cannot be binned into intervals containing months or years");
  }
  int64_t stride_micros = 0;
  if (__builtin_mul_overflow(static_cast<int64_t>(stride.days), datetime::kMicrosPerDay,
                             &stride_micros) ||
      __builtin_add_overflow(stride_micros, stride.micros, &stride_micros)) {
    return Status::Error(sqlstate::kDatetimeFieldOverflow, "interval out of range");
  }
  if (stride_micros <= 0) {
    return Status::Error(sqlstate::kDatetimeFieldOverflow, "stride must be greater than zero");
  }
  int64_t diff = 0;
  if (__builtin_sub_overflow(source, origin, &diff)) {
    return Status::Error(sqlstate::kDatetimeFieldOverflow, "interval out of range");
  }
  int64_t delta = diff - diff % stride_micros;
  // The bin's start lies before source also when origin is later than source.
  if (diff < 0 && delta != diff) delta -= stride_micros;
  int64_t result = 0;
  if (__builtin_add_overflow(origin, delta, &result) ||
      !datetime::CheckTimestampRange(result).ok()) {
    return Status::Error(sqlstate::kDatetimeFieldOverflow, "timestamp out of range");
  }
  return result;
}

template <bool kWithZone>
Result<Value> DateBin(std::span<const Value> a, ExecContext*) {
  const int64_t source = kWithZone ? a[1].AsTimestampTz().micros : a[1].AsTimestamp().micros;
  const int64_t origin = kWithZone ? a[2].AsTimestampTz().micros : a[2].AsTimestamp().micros;
  if (source == datetime::kTsNegInfinity || source == datetime::kTsPosInfinity) return a[1];
  if (origin == datetime::kTsNegInfinity || origin == datetime::kTsPosInfinity) {
    return Status::Error(sqlstate::kDatetimeFieldOverflow, "origin out of range");
  }
  MERIDIAN_ASSIGN_OR_RETURN(int64_t bin, BinTimestamp(a[0].AsInterval(), source, origin));
  if constexpr (kWithZone) return Value::TimestampTzVal(TimestampTz{bin});
  return Value::TimestampVal(Timestamp{bin});
}

// timestamptz first, so untyped arguments resolve as PostgreSQL resolves them.
constexpr ScalarFunction kDateTimeFunctions[] = {
    {"date_bin", "VZZ", 3, 'Z', &DateBin<true>},
    {"date_bin", "VSS", 3, 'S', &DateBin<false>},
};

}  // namespace

void RegisterDateTimeFunctions() { RegisterScalarFunctions(kDateTimeFunctions); }

}  // namespace meridian::exec
