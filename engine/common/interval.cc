// INTERVAL and TIME: input, output and arithmetic as PostgreSQL 15's interval_in/out,
// interval_mul/div, justify_*, timestamp_pl_interval, timestamp_mi and timestamp_age
// (see meridian/datetime.h).
#include <cctype>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "meridian/datetime.h"

namespace meridian::datetime {
namespace {

constexpr int64_t kMicrosPerHour = 3600LL * 1000000;
constexpr int64_t kMicrosPerMinute = 60LL * 1000000;
constexpr int64_t kMicrosPerSecond = 1000000;
constexpr int kDaysPerMonth = 30;

Status BadInterval(std::string_view text) {
  return Status::Error(sqlstate::kInvalidDatetimeFormat,
                       "invalid input syntax for type interval: \"" + std::string(text) + "\"");
}

Status IntervalFieldOutOfRange(std::string_view text) {
  return Status::Error(sqlstate::kIntervalFieldOverflow,
                       "interval field value out of range: \"" + std::string(text) + "\"");
}

Status IntervalOutOfRange() {
  return Status::Error(sqlstate::kDatetimeFieldOverflow, "interval out of range");
}

bool FitsInt32(int64_t v) {
  return v >= std::numeric_limits<int32_t>::min() && v <= std::numeric_limits<int32_t>::max();
}

// What an interval's text adds up to before it is checked against the fields' ranges.
struct Sum {
  long double months = 0;
  long double days = 0;
  long double micros = 0;
  unsigned fields = 0;  // kField* bits of the units written (each at most once)
};

enum : unsigned {
  kFieldMicro = 1 << 0, kFieldMilli = 1 << 1, kFieldSecond = 1 << 2, kFieldMinute = 1 << 3,
  kFieldHour = 1 << 4, kFieldDay = 1 << 5, kFieldWeek = 1 << 6, kFieldMonth = 1 << 7,
  kFieldYear = 1 << 8, kFieldDecade = 1 << 9, kFieldCentury = 1 << 10,
  kFieldMillennium = 1 << 11,
};

// Marks field as written; false when it already was (PostgreSQL: '1 day 2 days' is 22007).
bool Mark(unsigned field, Sum* sum) {
  if ((sum->fields & field) != 0) return false;
  sum->fields |= field;
  return true;
}

// Adds value units of `unit` (a lower-case unit word) to sum, cascading the fraction of months
// and days down as PostgreSQL does (a month is 30 days, a day 24 hours). false: no such unit.
bool AddUnit(long double value, std::string_view unit, Sum* sum) {
  auto is = [&](std::initializer_list<const char*> names) {
    for (const char* n : names) {
      if (unit == n) return true;
    }
    return false;
  };
  long double whole = std::trunc(value);
  long double frac = value - whole;
  auto add_days = [&](long double whole_days, long double frac_days) {
    long double extra = std::trunc(frac_days);
    sum->days += whole_days + extra;
    sum->micros += (frac_days - extra) * 86400.0L * kMicrosPerSecond;
  };
  auto add_months = [&](long double n) {  // n months: whole months, the rest as 30-day days
    long double w = std::trunc(n);
    sum->months += w;
    add_days(0, (n - w) * kDaysPerMonth);
  };
  unsigned field = 0;
  if (is({"microsecond", "microseconds", "usec", "usecs", "us", "usecond", "useconds"})) {
    field = kFieldMicro;
    sum->micros += value;
  } else if (is({"millisecond", "milliseconds", "msec", "msecs", "ms", "msecond",
                 "mseconds"})) {
    field = kFieldMilli;
    sum->micros += value * 1000.0L;
  } else if (is({"second", "seconds", "sec", "secs", "s"})) {
    field = kFieldSecond;
    sum->micros += value * kMicrosPerSecond;
  } else if (is({"minute", "minutes", "min", "mins", "m"})) {
    field = kFieldMinute;
    sum->micros += value * kMicrosPerMinute;
  } else if (is({"hour", "hours", "hr", "hrs", "h"})) {
    field = kFieldHour;
    sum->micros += value * kMicrosPerHour;
  } else if (is({"day", "days", "d"})) {
    field = kFieldDay;
    add_days(whole, frac);
  } else if (is({"week", "weeks", "w"})) {
    field = kFieldWeek;
    add_days(whole * 7, frac * 7);
  } else if (is({"month", "months", "mon", "mons"})) {
    field = kFieldMonth;
    add_months(value);
  } else if (is({"year", "years", "yr", "yrs", "y"})) {
    field = kFieldYear;
    sum->months += whole * 12 + std::rint(frac * 12);
  } else if (is({"decade", "decades", "dec", "decs"})) {
    field = kFieldDecade;
    sum->months += whole * 120 + std::rint(frac * 120);
  } else if (is({"century", "centuries", "cent", "c"})) {
    field = kFieldCentury;
    sum->months += whole * 1200 + std::rint(frac * 1200);
  } else if (is({"millennium", "millennia", "mil", "mils"})) {
    field = kFieldMillennium;
    sum->months += whole * 12000 + std::rint(frac * 12000);
  } else {
    return false;
  }
  return Mark(field, sum);
  return true;
}

// Reads an optionally signed decimal number at s[*p].
bool ReadNumber(std::string_view s, size_t* p, long double* out) {
  size_t q = *p;
  bool neg = false;
  if (q < s.size() && (s[q] == '+' || s[q] == '-')) neg = s[q++] == '-';
  const size_t digits_start = q;
  long double v = 0;
  while (q < s.size() && std::isdigit(static_cast<unsigned char>(s[q]))) v = v * 10 + (s[q++] - '0');
  bool any = q > digits_start;
  if (q < s.size() && s[q] == '.') {
    ++q;
    long double scale = 0.1L;
    while (q < s.size() && std::isdigit(static_cast<unsigned char>(s[q]))) {
      v += (s[q++] - '0') * scale;
      scale /= 10;
      any = true;
    }
  }
  if (!any) return false;
  *out = neg ? -v : v;
  *p = q;
  return true;
}

// A time field [+-]H:M[:S[.f]] (or M:S.f when it has a fraction and two parts) in micros.
bool ParseTimeField(std::string_view tok, long double* micros) {
  bool neg = false;
  size_t p = 0;
  if (p < tok.size() && (tok[p] == '+' || tok[p] == '-')) neg = tok[p++] == '-';
  std::vector<long double> parts;
  while (true) {
    long double v = 0;
    if (p >= tok.size() || !std::isdigit(static_cast<unsigned char>(tok[p]))) return false;
    if (!ReadNumber(tok, &p, &v)) return false;
    parts.push_back(v);
    if (p == tok.size()) break;
    if (tok[p] != ':') return false;
    ++p;
  }
  if (parts.size() < 2 || parts.size() > 3) return false;
  for (size_t i = 0; i + 1 < parts.size(); ++i) {
    if (parts[i] != std::trunc(parts[i])) return false;
  }
  long double m = 0;
  if (parts.size() == 2 && parts[1] != std::trunc(parts[1])) {  // MM:SS.fff
    if (parts[1] >= 60) return false;
    m = parts[0] * kMicrosPerMinute + parts[1] * kMicrosPerSecond;
  } else {
    if (parts[1] >= 60 || (parts.size() == 3 && parts[2] >= 60)) return false;
    m = parts[0] * kMicrosPerHour + parts[1] * kMicrosPerMinute +
        (parts.size() == 3 ? parts[2] * kMicrosPerSecond : 0);
  }
  *micros = neg ? -m : m;
  return true;
}

// ISO 8601 "format with designators": P[nY][nM][nW][nD][T[nH][nM][nS]].
bool ParseIso8601(std::string_view s, Sum* sum) {
  size_t p = 1;
  bool time = false;
  if (p == s.size()) return false;
  while (p < s.size()) {
    if (s[p] == 't') {
      if (time) return false;
      time = true;
      ++p;
      continue;
    }
    long double v = 0;
    if (!ReadNumber(s, &p, &v) || p >= s.size()) return false;
    const char unit = s[p++];
    const char* name = nullptr;
    switch (unit) {
      case 'y':
        name = time ? nullptr : "year";
        break;
      case 'm':
        name = time ? "minute" : "month";
        break;
      case 'w':
        name = time ? nullptr : "week";
        break;
      case 'd':
        name = time ? nullptr : "day";
        break;
      case 'h':
        name = time ? "hour" : nullptr;
        break;
      case 's':
        name = time ? "second" : nullptr;
        break;
      default:
        break;
    }
    if (name == nullptr || !AddUnit(v, name, sum)) return false;
  }
  return true;
}

bool IsUnitStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }

// The postgres-style input: numbers with units, time fields, 'ago', '@', Y-M fields.
bool ParsePostgres(std::string_view s, Sum* sum) {
  std::vector<std::string> tokens;
  std::string cur;
  for (char c : s) {
    if (std::isspace(static_cast<unsigned char>(c)) || c == ',') {
      if (!cur.empty()) tokens.push_back(std::move(cur));
      cur.clear();
    } else {
      cur.push_back(c);
    }
  }
  if (!cur.empty()) tokens.push_back(std::move(cur));
  bool ago = false;
  bool any = false;
  for (size_t i = 0; i < tokens.size(); ++i) {
    std::string_view tok = tokens[i];
    if (tok == "@" && i == 0) continue;
    if (tok == "ago") {
      if (i + 1 != tokens.size() || !any) return false;
      ago = true;
      continue;
    }
    if (tok.find(':') != std::string_view::npos) {
      long double m = 0;
      if (!ParseTimeField(tok, &m) || !Mark(kFieldHour | kFieldMinute | kFieldSecond, sum)) {
        return false;
      }
      sum->micros += m;
      any = true;
      continue;
    }
    size_t p = 0;
    long double v = 0;
    if (!ReadNumber(tok, &p, &v)) return false;
    any = true;
    if (p < tok.size() && tok[p] == '-' && p + 1 < tok.size() &&
        std::isdigit(static_cast<unsigned char>(tok[p + 1]))) {  // SQL standard Y-M
      size_t q = p + 1;
      long double mon = 0;
      if (!ReadNumber(tok, &q, &mon) || q != tok.size() || v != std::trunc(v) ||
          mon != std::trunc(mon) || mon > 11) {
        return false;
      }
      if (!Mark(kFieldYear | kFieldMonth, sum)) return false;
      sum->months += v * 12 + (v < 0 || tok[0] == '-' ? -mon : mon);
      continue;
    }
    std::string unit;
    if (p < tok.size()) {
      if (!IsUnitStart(tok[p])) return false;
      unit = std::string(tok.substr(p));
    } else if (i + 1 < tokens.size() && IsUnitStart(tokens[i + 1][0]) && tokens[i + 1] != "ago") {
      unit = tokens[++i];
    } else if (i + 1 < tokens.size() && tokens[i + 1].find(':') != std::string::npos) {
      unit = "day";  // "1 12:00:00": days then a time
    } else {
      unit = "second";  // a bare number counts seconds
    }
    if (!AddUnit(v, unit, sum)) return false;
  }
  if (!any) return false;
  if (ago) {
    sum->months = -sum->months;
    sum->days = -sum->days;
    sum->micros = -sum->micros;
  }
  return true;
}

void AppendSeconds(std::string* out, int64_t micros_of_minute) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%02lld", static_cast<long long>(micros_of_minute / 1000000));
  *out += buf;
  int64_t frac = micros_of_minute % 1000000;
  if (frac != 0) {
    std::snprintf(buf, sizeof(buf), ".%06lld", static_cast<long long>(frac));
    std::string f = buf;
    while (f.back() == '0') f.pop_back();
    *out += f;
  }
}

// interval_out's AddPostgresIntPart.
void AddPart(std::string* out, int64_t value, const char* unit, bool* is_zero, bool* is_before) {
  if (value == 0) return;
  *out += *is_zero ? "" : " ";
  if (*is_before && value > 0) *out += "+";
  *out += std::to_string(value) + " " + unit + (value != 1 ? "s" : "");
  *is_before = value < 0;
  *is_zero = false;
}

Result<Interval> Checked(int64_t months, int64_t days, int64_t micros) {
  if (!FitsInt32(months) || !FitsInt32(days)) return IntervalOutOfRange();
  return Interval{static_cast<int32_t>(months), static_cast<int32_t>(days), micros};
}

bool AddOverflows(int64_t a, int64_t b, int64_t* out) { return __builtin_add_overflow(a, b, out); }

// PostgreSQL's TSROUND: rounds to microsecond precision in seconds.
double TsRound(double v) { return std::rint(v * 1000000.0) / 1000000.0; }

}  // namespace

Result<Interval> ParseInterval(std::string_view text) {
  std::string s;
  for (char c : text) s.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  size_t b = s.find_first_not_of(" \t\n\r\f\v");
  if (b == std::string::npos) return BadInterval(text);
  size_t e = s.find_last_not_of(" \t\n\r\f\v");
  s = s.substr(b, e - b + 1);
  Sum sum;
  const bool ok = s[0] == 'p' ? ParseIso8601(s, &sum) : ParsePostgres(s, &sum);
  if (!ok) return BadInterval(text);
  const long double micros = std::rint(sum.micros);
  constexpr long double kMax = 9.2e18L;
  auto outside_int32 = [](long double v) { return v < -2147483648.0L || v > 2147483647.0L; };
  if (std::fabs(micros) > kMax || outside_int32(sum.days) || outside_int32(sum.months)) {
    return IntervalFieldOutOfRange(text);
  }
  return Interval{static_cast<int32_t>(sum.months), static_cast<int32_t>(sum.days),
                  static_cast<int64_t>(micros)};
}

std::string ToString(Interval i) {
  std::string out;
  bool is_zero = true, is_before = false;
  AddPart(&out, i.months / 12, "year", &is_zero, &is_before);
  AddPart(&out, i.months % 12, "mon", &is_zero, &is_before);
  AddPart(&out, i.days, "day", &is_zero, &is_before);
  if (is_zero || i.micros != 0) {
    const bool minus = i.micros < 0;
    // |INT64_MIN| does not fit: work on the unsigned magnitude.
    const uint64_t mag = minus ? 0 - static_cast<uint64_t>(i.micros) : static_cast<uint64_t>(i.micros);
    const uint64_t hours = mag / kMicrosPerHour;
    const uint64_t minutes = mag % kMicrosPerHour / kMicrosPerMinute;
    char buf[48];
    std::snprintf(buf, sizeof(buf), "%s%s%02llu:%02llu:", is_zero ? "" : " ",
                  minus ? "-" : (is_before ? "+" : ""), static_cast<unsigned long long>(hours),
                  static_cast<unsigned long long>(minutes));
    out += buf;
    AppendSeconds(&out, static_cast<int64_t>(mag % kMicrosPerMinute));
  }
  return out;
}

__int128 IntervalSpan(Interval i) {
  return static_cast<__int128>(i.micros) +
         (static_cast<__int128>(i.months) * kDaysPerMonth + i.days) * kMicrosPerDay;
}

int CompareIntervals(Interval a, Interval b) {
  const __int128 x = IntervalSpan(a), y = IntervalSpan(b);
  return x < y ? -1 : (x > y ? 1 : 0);
}

Result<Interval> AddIntervals(Interval a, Interval b) {
  int64_t micros = 0;
  if (AddOverflows(a.micros, b.micros, &micros)) return IntervalOutOfRange();
  return Checked(static_cast<int64_t>(a.months) + b.months, static_cast<int64_t>(a.days) + b.days,
                 micros);
}

Result<Interval> NegateInterval(Interval i) {
  if (i.micros == std::numeric_limits<int64_t>::min()) return IntervalOutOfRange();
  return Checked(-static_cast<int64_t>(i.months), -static_cast<int64_t>(i.days), -i.micros);
}

namespace {

// interval_mul / interval_div once the fields are scaled: whole months and days kept, their
// fractions cascaded down (a month as 30 days, a day as 86400 seconds).
Result<Interval> Cascade(double months, double days, double micros) {
  if (std::isnan(months) || std::isnan(days) || std::fabs(months) > 2147483647.0 ||
      std::fabs(days) > 2147483647.0) {
    return IntervalOutOfRange();
  }
  Interval r;
  r.months = static_cast<int32_t>(months);
  r.days = static_cast<int32_t>(days);
  const double month_remainder_days = TsRound((months - r.months) * kDaysPerMonth);
  double sec_remainder = TsRound(
      (days - r.days + month_remainder_days - static_cast<int>(month_remainder_days)) * 86400.0);
  if (std::fabs(sec_remainder) >= 86400.0) {
    r.days += static_cast<int>(sec_remainder / 86400.0);
    sec_remainder -= static_cast<int>(sec_remainder / 86400.0) * 86400.0;
  }
  r.days += static_cast<int32_t>(month_remainder_days);
  const double m = std::rint(micros + sec_remainder * kMicrosPerSecond);
  if (std::isnan(m) || std::fabs(m) >= 9.2233720368547758e18) return IntervalOutOfRange();
  r.micros = static_cast<int64_t>(m);
  return r;
}

// Moves the whole units of *low (unit of them make one *high) into *high.
template <typename H, typename L>
void Carry(H* high, L* low, L unit) {
  const L whole = *low / unit;
  *low -= whole * unit;
  *high += static_cast<H>(whole);
}

// Borrows one unit between *high and *low when low (counted as low_sign) has the other sign.
template <typename H, typename L>
void AlignSign(H* high, L* low, L unit, int low_sign) {
  if (*high > 0 && low_sign < 0) {
    *low += unit;
    --*high;
  } else if (*high < 0 && low_sign > 0) {
    *low -= unit;
    ++*high;
  }
}

int Sign(int64_t v) { return v > 0 ? 1 : (v < 0 ? -1 : 0); }

}  // namespace

Result<Interval> MultiplyInterval(Interval span, double factor) {
  return Cascade(span.months * factor, span.days * factor,
                 static_cast<double>(span.micros) * factor);
}

Result<Interval> DivideInterval(Interval span, double divisor) {
  if (divisor == 0.0) return Status::Error(sqlstate::kDivisionByZero, "division by zero");
  return Cascade(span.months / divisor, span.days / divisor,
                 static_cast<double>(span.micros) / divisor);
}

Interval JustifyHours(Interval i) {
  Carry(&i.days, &i.micros, kMicrosPerDay);
  AlignSign(&i.days, &i.micros, kMicrosPerDay, Sign(i.micros));
  return i;
}

Interval JustifyDays(Interval i) {
  Carry(&i.months, &i.days, kDaysPerMonth);
  AlignSign(&i.months, &i.days, kDaysPerMonth, Sign(i.days));
  return i;
}

Interval JustifyInterval(Interval i) {
  Carry(&i.days, &i.micros, kMicrosPerDay);
  Carry(&i.months, &i.days, kDaysPerMonth);
  AlignSign(&i.months, &i.days, kDaysPerMonth, i.days != 0 ? Sign(i.days) : Sign(i.micros));
  AlignSign(&i.days, &i.micros, kMicrosPerDay, Sign(i.micros));
  return i;
}

Result<Timestamp> AddInterval(Timestamp t, Interval i) {
  if (!IsFinite(t)) return t;
  int64_t micros = t.micros;
  if (i.months != 0) {
    const Fields f = Split(t);
    int64_t month_index = f.year * 12 + (f.month - 1) + i.months;
    const int64_t year = FloorDiv(month_index, 12);
    const int month = static_cast<int>(month_index - year * 12) + 1;
    const int day = std::min(f.day, DaysInMonth(year, month));
    const int64_t days = DaysFromCivil(year, month, day);
    const int64_t time_of_day = micros - FloorDiv(micros, kMicrosPerDay) * kMicrosPerDay;
    if (days < -2451545 || days > 106751982)
      return Status::Error(sqlstate::kDatetimeFieldOverflow, "timestamp out of range");
    micros = days * kMicrosPerDay + time_of_day;
  }
  if (i.days != 0) {
    int64_t add = 0;
    if (__builtin_mul_overflow(static_cast<int64_t>(i.days), kMicrosPerDay, &add) ||
        AddOverflows(micros, add, &micros)) {
      return Status::Error(sqlstate::kDatetimeFieldOverflow, "timestamp out of range");
    }
  }
  if (AddOverflows(micros, i.micros, &micros))
    return Status::Error(sqlstate::kDatetimeFieldOverflow, "timestamp out of range");
  MERIDIAN_RETURN_IF_ERROR(CheckTimestampRange(micros));
  return Timestamp{micros};
}

Result<Interval> Subtract(Timestamp a, Timestamp b) {
  if (!IsFinite(a) || !IsFinite(b)) {
    return Status::Error(sqlstate::kDatetimeFieldOverflow, "cannot subtract infinite timestamps");
  }
  int64_t diff = 0;
  if (__builtin_sub_overflow(a.micros, b.micros, &diff)) return IntervalOutOfRange();
  return JustifyHours(Interval{0, 0, diff});
}

Result<Interval> Age(Timestamp a, Timestamp b) {
  if (!IsFinite(a) || !IsFinite(b)) {
    return Status::Error(sqlstate::kDatetimeFieldOverflow, "cannot subtract infinite timestamps");
  }
  const Fields x = Split(a), y = Split(b);
  int64_t fsec = x.micros_of_minute % 1000000 - y.micros_of_minute % 1000000;
  int64_t sec = x.micros_of_minute / 1000000 - y.micros_of_minute / 1000000;
  int64_t min = x.minute - y.minute;
  int64_t hour = x.hour - y.hour;
  int64_t mday = x.day - y.day;
  int64_t mon = x.month - y.month;
  int64_t year = x.year - y.year;
  const bool before = a.micros < b.micros;
  auto flip = [&] {
    fsec = -fsec, sec = -sec, min = -min, hour = -hour, mday = -mday, mon = -mon, year = -year;
  };
  if (before) flip();
  while (fsec < 0) fsec += 1000000, sec--;
  while (sec < 0) sec += 60, min--;
  while (min < 0) min += 60, hour--;
  while (hour < 0) hour += 24, mday--;
  while (mday < 0) {
    const Fields& from = before ? x : y;
    mday += DaysInMonth(from.year, from.month);
    mon--;
  }
  while (mon < 0) mon += 12, year--;
  if (before) flip();
  const int64_t months = year * 12 + mon;
  const int64_t micros = ((hour * 60 + min) * 60 + sec) * kMicrosPerSecond + fsec;
  return Checked(months, mday, micros);
}

// ---- TIME

Result<TimeOfDay> ParseTime(std::string_view text, int precision) {
  std::string s;
  for (char c : text) s.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  size_t b = s.find_first_not_of(" \t\n\r");
  size_t e = s.find_last_not_of(" \t\n\r");
  auto bad = [&] {
    return Status::Error(sqlstate::kInvalidDatetimeFormat,
                         "invalid input syntax for type time: \"" + std::string(text) + "\"");
  };
  if (b == std::string::npos) return bad();
  s = s.substr(b, e - b + 1);
  if (s == "allballs") return TimeOfDay{0};
  // An optional leading date ("2024-01-01 10:00") is skipped.
  size_t p = 0;
  if (s.size() > 10 && s[4] == '-' && s[7] == '-' && (s[10] == ' ' || s[10] == 't')) p = 11;
  int64_t hh = 0, mi = 0, ss = 0, frac = 0;
  auto digits = [&](int64_t* out, int max) {
    size_t start = p;
    *out = 0;
    while (p < s.size() && std::isdigit(static_cast<unsigned char>(s[p])) &&
           static_cast<int>(p - start) < max) {
      *out = *out * 10 + (s[p++] - '0');
    }
    return p > start;
  };
  if (!digits(&hh, 2) || p >= s.size() || s[p] != ':') return bad();
  ++p;
  if (!digits(&mi, 2)) return bad();
  if (p < s.size() && s[p] == ':') {
    ++p;
    if (!digits(&ss, 2)) return bad();
    if (p < s.size() && s[p] == '.') {
      ++p;
      int n = 0;
      bool round_up = false;
      while (p < s.size() && std::isdigit(static_cast<unsigned char>(s[p]))) {
        if (n < 6) frac = frac * 10 + (s[p] - '0');
        if (n == 6) round_up = s[p] >= '5';
        ++n;
        ++p;
      }
      for (int k = n; k < 6; ++k) frac *= 10;
      if (round_up) ++frac;
    }
  }
  // A zone suffix (+02, -05:30, z, utc) is ignored, as time without time zone does.
  while (p < s.size() && s[p] == ' ') ++p;
  if (p < s.size() && (s[p] == '+' || s[p] == '-')) {
    ++p;
    while (p < s.size() && (std::isdigit(static_cast<unsigned char>(s[p])) || s[p] == ':')) ++p;
  } else if (s.compare(p, std::string::npos, "z") == 0 || s.compare(p, std::string::npos, "utc") == 0) {
    p = s.size();
  } else if (s.compare(p, std::string::npos, "am") == 0 || s.compare(p, std::string::npos, "pm") == 0) {
    if (hh > 12) {
      return Status::Error(sqlstate::kDatetimeFieldOverflow,
                           "date/time field value out of range: \"" + std::string(text) + "\"");
    }
    if (hh == 12) hh = 0;
    if (s[p] == 'p') hh += 12;
    p = s.size();
  }
  if (p != s.size()) return bad();
  const int64_t micros = ((hh * 60 + mi) * 60 + ss) * kMicrosPerSecond + frac;
  if (hh > 24 || mi > 59 || ss > 60 || micros > kMicrosPerDay) {
    return Status::Error(sqlstate::kDatetimeFieldOverflow,
                         "date/time field value out of range: \"" + std::string(text) + "\"");
  }
  return RoundTime(TimeOfDay{micros}, precision);
}

Result<TimeOfDay> RoundTime(TimeOfDay t, int precision) {
  if (precision < 0 || precision >= 6) return t;
  int64_t unit = 1;
  for (int i = precision; i < 6; ++i) unit *= 10;
  return TimeOfDay{(t.micros + unit / 2) / unit * unit};
}

std::string ToString(TimeOfDay t) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%02lld:%02lld:", static_cast<long long>(t.micros / kMicrosPerHour),
                static_cast<long long>(t.micros % kMicrosPerHour / kMicrosPerMinute));
  std::string out = buf;
  AppendSeconds(&out, t.micros % kMicrosPerMinute);
  return out;
}

TimeOfDay AddInterval(TimeOfDay t, Interval i) {
  int64_t r = (t.micros + i.micros % kMicrosPerDay) % kMicrosPerDay;
  if (r < 0) r += kMicrosPerDay;
  return TimeOfDay{r};
}

}  // namespace meridian::datetime
