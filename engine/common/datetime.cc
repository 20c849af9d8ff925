// DATE / TIMESTAMP input, output and calendar arithmetic (see meridian/datetime.h). Calendar
// conversion after Howard Hinnant's days_from_civil / civil_from_days.
#include "meridian/datetime.h"

#include <chrono>
#include <cstdio>

namespace meridian::datetime {
namespace {

constexpr int64_t kUnixEpochDays = 10957;  // 1970-01-01 → 2000-01-01
// PostgreSQL's ranges: julian day 0 (4714-11-24 BC) up to 5874897-12-31 for dates and up to
// 294276-12-31 for timestamps.
constexpr int64_t kMinDays = -2451545;
constexpr int64_t kMaxDateDays = 2145031948;  // 5874897-12-31
constexpr int64_t kMaxTsDays = 106751982;     // 294276-12-31
constexpr int64_t kMinTsMicros = kMinDays * kMicrosPerDay;
constexpr int64_t kEndTsMicros = (kMaxTsDays + 1) * kMicrosPerDay;  // exclusive

Status BadSyntax(const char* type, std::string_view text) {
  return Status::Error(
      sqlstate::kInvalidDatetimeFormat,
      std::string("invalid input syntax for type ") + type + ": \"" + std::string(text) + "\"");
}

Status FieldOutOfRange(std::string_view text) {
  return Status::Error(sqlstate::kDatetimeFieldOverflow,
                       "date/time field value out of range: \"" + std::string(text) + "\"");
}

Status OutOfRange(const char* type, std::string_view text) {
  return Status::Error(sqlstate::kDatetimeFieldOverflow,
                       std::string(type) + " out of range: \"" + std::string(text) + "\"");
}

bool IsLeap(int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

// The parsed pieces of an ISO date/time string.
struct Parsed {
  enum Special { kNone, kNegInf, kPosInf, kEpoch, kNow, kToday, kTomorrow, kYesterday };
  Special special = kNone;
  int64_t year = 0;
  int month = 0, day = 0;
  bool has_time = false;
  int hour = 0, minute = 0;
  int64_t micros = 0;  // seconds * 10^6 + fraction, rounded to microseconds
  bool has_offset = false;  // an explicit +hh[:mm[:ss]] or Z: offset_secs east of UTC
  int64_t offset_secs = 0;
  std::string zone_name;  // a zone written by name ('Europe/Berlin', 'UTC')
};

std::string Lower(std::string_view s) {
  std::string out;
  for (char c : s) out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  return out;
}

// Reads 1..max_digits digits at s[*p].
bool Number(std::string_view s, size_t* p, int max_digits, int64_t* out) {
  size_t start = *p;
  int64_t v = 0;
  while (*p < s.size() && s[*p] >= '0' && s[*p] <= '9' &&
         static_cast<int>(*p - start) < max_digits) {
    v = v * 10 + (s[(*p)++] - '0');
  }
  *out = v;
  return *p > start;
}

// 1 = syntax error, 2 = field out of range, 0 = ok.
int ParseIso(std::string_view text, Parsed* out) {
  size_t b = 0, e = text.size();
  while (b < e && std::isspace(static_cast<unsigned char>(text[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(text[e - 1]))) --e;
  std::string_view s = text.substr(b, e - b);
  const std::string l = Lower(s);
  if (l == "infinity" || l == "+infinity") return out->special = Parsed::kPosInf, 0;
  if (l == "-infinity") return out->special = Parsed::kNegInf, 0;
  if (l == "epoch") return out->special = Parsed::kEpoch, 0;
  if (l == "now") return out->special = Parsed::kNow, 0;
  if (l == "today") return out->special = Parsed::kToday, 0;
  if (l == "tomorrow") return out->special = Parsed::kTomorrow, 0;
  if (l == "yesterday") return out->special = Parsed::kYesterday, 0;
  size_t p = 0;
  int64_t y = 0, m = 0, d = 0;
  if (!Number(s, &p, 9, &y) || p >= s.size() || s[p] != '-') return 1;
  const size_t first_digits = p;
  bool two_digit_year = false;
  ++p;
  if (!Number(s, &p, 2, &m) || p >= s.size() || s[p] != '-') return 1;
  ++p;
  const size_t third = p;
  if (!Number(s, &p, first_digits <= 2 ? 9 : 2, &d)) return 1;
  if (first_digits <= 2) {
    // A first field of one or two digits is no year: MM-DD-YY[YY], as PostgreSQL reads it
    // under DateStyle MDY (the default); a year of one or two digits is 1970..2069 (AD).
    const int64_t month = y, day = m;
    y = d;
    two_digit_year = p - third <= 2;
    m = month;
    d = day;
  }
  if (p < s.size() && (s[p] == 'T' || s[p] == 't' || s[p] == ' ')) {
    size_t q = p + 1;
    while (q < s.size() && s[q] == ' ') ++q;
    int64_t hh = 0, mi = 0, ss = 0;
    if (q < s.size() && s[q] >= '0' && s[q] <= '9') {
      p = q;
      if (!Number(s, &p, 2, &hh) || p >= s.size() || s[p] != ':') return 1;
      ++p;
      if (!Number(s, &p, 2, &mi)) return 1;
      int64_t frac = 0;
      if (p < s.size() && s[p] == ':') {
        ++p;
        if (!Number(s, &p, 2, &ss)) return 1;
        if (p < s.size() && s[p] == '.') {
          ++p;
          int digits = 0;
          int64_t v = 0;
          bool round_up = false;
          while (p < s.size() && s[p] >= '0' && s[p] <= '9') {
            if (digits < 6) {
              v = v * 10 + (s[p] - '0');
            } else if (digits == 6) {
              round_up = s[p] >= '5';
            }
            ++digits;
            ++p;
          }
          for (int i = digits; i < 6; ++i) v *= 10;
          frac = v + (round_up ? 1 : 0);
        }
      }
      if (hh > 24 || mi > 59 || ss > 60 || (hh == 24 && (mi != 0 || ss != 0 || frac != 0))) {
        return 2;
      }
      out->has_time = true;
      out->hour = static_cast<int>(hh);
      out->minute = static_cast<int>(mi);
      out->micros = ss * 1000000 + frac;
    }
  }
  // An optional zone (an offset or a name; timestamp without time zone ignores it), then an
  // optional era.
  while (p < s.size() && s[p] == ' ') ++p;
  if (p < s.size() && (s[p] == 'Z' || s[p] == 'z') &&
      (p + 1 == s.size() || !std::isalpha(static_cast<unsigned char>(s[p + 1])))) {
    ++p;
    out->has_offset = true;
  } else if (p < s.size() && (s[p] == '+' || s[p] == '-') && out->has_time) {
    const int64_t sign = s[p] == '-' ? -1 : 1;
    ++p;
    const size_t start = p;
    int64_t zh = 0, zm = 0, zs = 0;
    if (!Number(s, &p, 4, &zh)) return 1;
    if (p - start > 2) {  // +hhmm
      zm = zh % 100;
      zh /= 100;
    } else if (p < s.size() && s[p] == ':') {
      ++p;
      if (!Number(s, &p, 2, &zm)) return 1;
      if (p < s.size() && s[p] == ':') {
        ++p;
        if (!Number(s, &p, 2, &zs)) return 1;
      }
    }
    if (zh > 15 || zm > 59 || zs > 59) return 3;
    out->has_offset = true;
    out->offset_secs = sign * (zh * 3600 + zm * 60 + zs);
  } else if (p < s.size() && std::isalpha(static_cast<unsigned char>(s[p]))) {
    size_t q = p;
    while (q < s.size() && (std::isalnum(static_cast<unsigned char>(s[q])) || s[q] == '/' ||
                            s[q] == '_' || s[q] == '+' || s[q] == '-')) {
      ++q;
    }
    const std::string word = Lower(s.substr(p, q - p));
    if (word != "bc" && word != "ad") {
      out->zone_name = std::string(s.substr(p, q - p));
      p = q;
    }
  }
  while (p < s.size() && s[p] == ' ') ++p;
  bool bc = false;
  if (p + 2 <= s.size() && Lower(s.substr(p, 2)) == "bc") {
    bc = true;
    p += 2;
  } else if (p + 2 <= s.size() && Lower(s.substr(p, 2)) == "ad") {
    p += 2;
  }
  if (p != s.size()) return 1;
  if (m < 1 || m > 12 || d < 1) return 2;
  if (two_digit_year && !bc) y += y < 70 ? 2000 : 1900;
  if (y == 0) return 2;  // there is no year 0
  if (bc) y = 1 - y;
  if (d > DaysInMonth(y, static_cast<int>(m))) return 2;
  out->year = y;
  out->month = static_cast<int>(m);
  out->day = static_cast<int>(d);
  return 0;
}

std::string YearText(int64_t year, bool* bc) {
  *bc = year <= 0;
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%04lld", static_cast<long long>(*bc ? 1 - year : year));
  return buf;
}

}  // namespace

int DaysInMonth(int64_t y, int m) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && IsLeap(y) ? 29 : kDays[m - 1];
}

int64_t FloorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

Status CheckTimestampRange(int64_t micros) {
  if (micros < kMinTsMicros || micros >= kEndTsMicros) {
    return Status::Error(sqlstate::kDatetimeFieldOverflow, "timestamp out of range");
  }
  return Status::Ok();
}

bool IsFinite(Date d) { return d.days != kDateNegInfinity && d.days != kDatePosInfinity; }
bool IsFinite(Timestamp t) { return t.micros != kTsNegInfinity && t.micros != kTsPosInfinity; }

int64_t DaysFromCivil(int64_t y, int m, int d) {
  y -= m <= 2;
  const int64_t era = FloorDiv(y, 400);
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468 - kUnixEpochDays;
}

void CivilFromDays(int64_t days, int64_t* year, int* month, int* day) {
  const int64_t z = days + kUnixEpochDays + 719468;
  const int64_t era = FloorDiv(z, 146097);
  const int64_t doe = z - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  *day = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
  *month = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
  *year = yoe + era * 400 + (*month <= 2 ? 1 : 0);
}

Timestamp Now() {
  const auto since_epoch = std::chrono::duration_cast<std::chrono::microseconds>(
      std::chrono::system_clock::now().time_since_epoch());
  return Timestamp{since_epoch.count() - kUnixEpochDays * kMicrosPerDay};
}

namespace {

// type: the input's type for 22007. An unknown zone word is bad syntax ('xyz', 'Foo_Bar')
// unless its first punctuation is '/', '+' or '-' ('Mars/Olympus': an unknown zone, 22023), as
// PostgreSQL's ParseDateTime tells abbreviations from zone names.
Status BadZone(int rc, const Parsed& p, std::string_view text, const char* type) {
  if (rc == 3) {
    return Status::Error(sqlstate::kInvalidTimeZoneDisplacementValue,
                         "time zone displacement out of range: \"" + std::string(text) + "\"");
  }
  if (!p.zone_name.empty() && FindTimeZone(p.zone_name) == nullptr) {
    const size_t punct = p.zone_name.find_first_of("/+-_:");
    if (punct == std::string::npos || p.zone_name[punct] == '_' || p.zone_name[punct] == ':') {
      return BadSyntax(type, text);
    }
    return Status::Error(sqlstate::kInvalidParameterValue,
                         "time zone \"" + p.zone_name + "\" not recognized");
  }
  return Status::Ok();
}

// The local date and time p spells, as a timestamp without time zone.
Result<Timestamp> LocalOf(const Parsed& p, std::string_view text) {
  const int64_t days = DaysFromCivil(p.year, p.month, p.day);
  if (days < kMinDays || days > kMaxTsDays) return OutOfRange("timestamp", text);
  Timestamp t{days * kMicrosPerDay + (p.hour * 60LL + p.minute) * 60000000LL + p.micros};
  if (t.micros >= kEndTsMicros) return OutOfRange("timestamp", text);
  return t;
}

}  // namespace

Result<Date> ParseDate(std::string_view text) {
  Parsed p;
  int rc = ParseIso(text, &p);
  if (rc == 1) return BadSyntax("date", text);
  MERIDIAN_RETURN_IF_ERROR(BadZone(rc, p, text, "date"));
  if (rc == 2) return FieldOutOfRange(text);
  const int32_t today = ToDate(Now()).days;
  switch (p.special) {
    case Parsed::kPosInf:
      return Date{kDatePosInfinity};
    case Parsed::kNegInf:
      return Date{kDateNegInfinity};
    case Parsed::kEpoch:
      return Date{static_cast<int32_t>(-kUnixEpochDays)};
    case Parsed::kNow:
    case Parsed::kToday:
      return Date{today};
    case Parsed::kTomorrow:
      return Date{today + 1};
    case Parsed::kYesterday:
      return Date{today - 1};
    case Parsed::kNone:
      break;
  }
  const int64_t days = DaysFromCivil(p.year, p.month, p.day);
  if (days < kMinDays || days > kMaxDateDays) return OutOfRange("date", text);
  return Date{static_cast<int32_t>(days)};
}

Result<Timestamp> ParseTimestamp(std::string_view text, int precision) {
  Parsed p;
  int rc = ParseIso(text, &p);
  if (rc == 1) return BadSyntax("timestamp", text);
  MERIDIAN_RETURN_IF_ERROR(BadZone(rc, p, text, "timestamp"));
  if (rc == 2) return FieldOutOfRange(text);
  const int64_t today = ToDate(Now()).days * kMicrosPerDay;
  Timestamp t;
  switch (p.special) {
    case Parsed::kPosInf:
      return Timestamp{kTsPosInfinity};
    case Parsed::kNegInf:
      return Timestamp{kTsNegInfinity};
    case Parsed::kEpoch:
      return Timestamp{-kUnixEpochDays * kMicrosPerDay};
    case Parsed::kNow:
      t = Now();
      break;
    case Parsed::kToday:
      return Timestamp{today};
    case Parsed::kTomorrow:
      return Timestamp{today + kMicrosPerDay};
    case Parsed::kYesterday:
      return Timestamp{today - kMicrosPerDay};
    case Parsed::kNone: {
      MERIDIAN_ASSIGN_OR_RETURN(t, LocalOf(p, text));
      break;
    }
  }
  if (precision >= 0) return RoundTimestamp(t, precision);
  return t;
}

bool IsFinite(TimestampTz t) { return t.micros != kTsNegInfinity && t.micros != kTsPosInfinity; }

Timestamp ToLocal(TimestampTz t, const TimeZone& zone) {
  if (!IsFinite(t)) return Timestamp{t.micros};
  return Timestamp{t.micros + zone.OffsetAtUtc(t.micros) * 1000000};
}

Result<TimestampTz> FromLocal(Timestamp t, const TimeZone& zone) {
  if (!IsFinite(t)) return TimestampTz{t.micros};
  const int64_t utc = t.micros - OffsetForLocal(zone, t.micros) * 1000000;
  MERIDIAN_RETURN_IF_ERROR(CheckTimestampRange(utc));
  return TimestampTz{utc};
}

Result<TimestampTz> ParseTimestampTz(std::string_view text, const TimeZone& zone, int precision) {
  Parsed p;
  int rc = ParseIso(text, &p);
  if (rc == 1) return BadSyntax("timestamp with time zone", text);
  MERIDIAN_RETURN_IF_ERROR(BadZone(rc, p, text, "timestamp with time zone"));
  if (rc == 2) return FieldOutOfRange(text);
  std::shared_ptr<const TimeZone> named;
  if (!p.zone_name.empty()) named = FindTimeZone(p.zone_name);
  const TimeZone& z = named != nullptr ? *named : zone;
  TimestampTz t;
  switch (p.special) {
    case Parsed::kPosInf:
      return TimestampTz{kTsPosInfinity};
    case Parsed::kNegInf:
      return TimestampTz{kTsNegInfinity};
    case Parsed::kEpoch:
      return TimestampTz{-kUnixEpochDays * kMicrosPerDay};
    case Parsed::kNow:
      t.micros = Now().micros;
      break;
    case Parsed::kToday:
    case Parsed::kTomorrow:
    case Parsed::kYesterday: {
      const int64_t today = ToDate(ToLocal(TimestampTz{Now().micros}, z)).days;
      const int64_t d = today + (p.special == Parsed::kTomorrow    ? 1
                                 : p.special == Parsed::kYesterday ? -1
                                                                   : 0);
      MERIDIAN_ASSIGN_OR_RETURN(t, FromLocal(Timestamp{d * kMicrosPerDay}, z));
      break;
    }
    case Parsed::kNone: {
      MERIDIAN_ASSIGN_OR_RETURN(Timestamp local, LocalOf(p, text));
      if (p.has_offset) {
        t.micros = local.micros - p.offset_secs * 1000000;
        if (t.micros < kMinTsMicros || t.micros >= kEndTsMicros) {
          return OutOfRange("timestamp", text);
        }
      } else {
        MERIDIAN_ASSIGN_OR_RETURN(t, FromLocal(local, z));
      }
      break;
    }
  }
  if (precision >= 0) {
    MERIDIAN_ASSIGN_OR_RETURN(Timestamp r, RoundTimestamp(Timestamp{t.micros}, precision));
    t.micros = r.micros;
  }
  return t;
}

Result<TimestampTz> AddInterval(TimestampTz t, Interval i, const TimeZone& zone) {
  if (!IsFinite(t)) return t;
  int64_t micros = t.micros;
  if (i.months != 0 || i.days != 0) {
    MERIDIAN_ASSIGN_OR_RETURN(Timestamp local,
                              AddInterval(ToLocal(t, zone), Interval{i.months, i.days, 0}));
    MERIDIAN_ASSIGN_OR_RETURN(TimestampTz back, FromLocal(local, zone));
    micros = back.micros;
  }
  if (__builtin_add_overflow(micros, i.micros, &micros)) {
    return Status::Error(sqlstate::kDatetimeFieldOverflow, "timestamp out of range");
  }
  MERIDIAN_RETURN_IF_ERROR(CheckTimestampRange(micros));
  return TimestampTz{micros};
}

std::string ToString(TimestampTz t, const TimeZone& zone) {
  if (!IsFinite(t)) return ToString(Timestamp{t.micros});
  const int64_t offset = zone.OffsetAtUtc(t.micros);
  std::string out = ToString(Timestamp{t.micros + offset * 1000000});
  const bool bc = out.size() > 3 && out.compare(out.size() - 3, 3, " BC") == 0;
  if (bc) out.resize(out.size() - 3);
  const int64_t a = offset < 0 ? -offset : offset;
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%c%02lld", offset < 0 ? '-' : '+',
                static_cast<long long>(a / 3600));
  out += buf;
  if (a % 3600 != 0) {
    std::snprintf(buf, sizeof(buf), ":%02lld", static_cast<long long>(a % 3600 / 60));
    out += buf;
    if (a % 60 != 0) {
      std::snprintf(buf, sizeof(buf), ":%02lld", static_cast<long long>(a % 60));
      out += buf;
    }
  }
  if (bc) out += " BC";
  return out;
}

std::string ToString(Date d) {
  if (d.days == kDatePosInfinity) return "infinity";
  if (d.days == kDateNegInfinity) return "-infinity";
  int64_t y = 0;
  int m = 0, day = 0;
  CivilFromDays(d.days, &y, &m, &day);
  bool bc = false;
  std::string out = YearText(y, &bc);
  char buf[16];
  std::snprintf(buf, sizeof(buf), "-%02d-%02d", m, day);
  out += buf;
  if (bc) out += " BC";
  return out;
}

std::string ToString(Timestamp t) {
  if (t.micros == kTsPosInfinity) return "infinity";
  if (t.micros == kTsNegInfinity) return "-infinity";
  const Fields f = Split(t);
  bool bc = false;
  std::string out = YearText(f.year, &bc);
  char buf[64];
  std::snprintf(buf, sizeof(buf), "-%02d-%02d %02d:%02d:%02d", f.month, f.day, f.hour, f.minute,
                static_cast<int>(f.micros_of_minute / 1000000));
  out += buf;
  int frac = static_cast<int>(f.micros_of_minute % 1000000);
  if (frac != 0) {
    std::snprintf(buf, sizeof(buf), ".%06d", frac);
    std::string s = buf;
    while (s.back() == '0') s.pop_back();
    out += s;
  }
  if (bc) out += " BC";
  return out;
}

Result<Date> AddDays(Date d, int64_t days) {
  if (!IsFinite(d)) return d;
  const int64_t r = static_cast<int64_t>(d.days) + days;
  if (r < kMinDays || r > kMaxDateDays)
    return Status::Error(sqlstate::kDatetimeFieldOverflow, "date out of range");
  return Date{static_cast<int32_t>(r)};
}

Timestamp ToTimestamp(Date d) {
  if (d.days == kDatePosInfinity) return Timestamp{kTsPosInfinity};
  if (d.days == kDateNegInfinity) return Timestamp{kTsNegInfinity};
  return Timestamp{static_cast<int64_t>(d.days) * kMicrosPerDay};
}

Result<Timestamp> CheckedToTimestamp(Date d) {
  if (IsFinite(d) && d.days > kMaxTsDays) {
    return Status::Error(sqlstate::kDatetimeFieldOverflow, "date out of range for timestamp");
  }
  return ToTimestamp(d);
}

Date ToDate(Timestamp t) {
  if (t.micros == kTsPosInfinity) return Date{kDatePosInfinity};
  if (t.micros == kTsNegInfinity) return Date{kDateNegInfinity};
  return Date{static_cast<int32_t>(FloorDiv(t.micros, kMicrosPerDay))};
}

Result<Timestamp> RoundTimestamp(Timestamp t, int precision) {
  if (!IsFinite(t) || precision >= 6 || precision < 0) return t;
  int64_t unit = 1;
  for (int i = precision; i < 6; ++i) unit *= 10;
  // Half away from zero, as PostgreSQL's AdjustTimestampForTypmod.
  int64_t r =
      t.micros >= 0 ? (t.micros + unit / 2) / unit * unit : -((-t.micros + unit / 2) / unit * unit);
  if (r >= kEndTsMicros || r < kMinTsMicros)
    return Status::Error(sqlstate::kDatetimeFieldOverflow, "timestamp out of range");
  return Timestamp{r};
}

Fields Split(Timestamp t) {
  Fields f{};
  const int64_t days = FloorDiv(t.micros, kMicrosPerDay);
  int64_t rest = t.micros - days * kMicrosPerDay;
  CivilFromDays(days, &f.year, &f.month, &f.day);
  f.hour = static_cast<int>(rest / 3600000000LL);
  rest %= 3600000000LL;
  f.minute = static_cast<int>(rest / 60000000LL);
  f.micros_of_minute = rest % 60000000LL;
  f.day_of_week = static_cast<int>(((days + 6) % 7 + 7) % 7);  // 2000-01-01 was a Saturday
  f.day_of_year = static_cast<int>(days - DaysFromCivil(f.year, 1, 1) + 1);
  return f;
}

}  // namespace meridian::datetime
