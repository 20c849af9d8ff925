// The data type formatting functions (PostgreSQL 15's "Data Type Formatting Functions"):
// to_char of timestamps, dates, intervals and numbers, to_date and to_timestamp by a template,
// to_timestamp(epoch seconds), and make_date / make_timestamp / make_timestamptz. Template
// patterns, FM/TH modifiers, padding and error codes follow PostgreSQL's documentation; the
// differential checks against PostgreSQL 15 are tests/sql/functions/formatting.test.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "binder/function_registry.h"
#include "function/builtin.h"
#include "meridian/datetime.h"
#include "meridian/numeric.h"
#include "meridian/status.h"

namespace meridian::exec {

namespace {

using Args = std::span<const Value>;

constexpr int64_t kMicrosPerSecond = 1000000;
constexpr int64_t kMicrosPerDay = 86400LL * kMicrosPerSecond;
constexpr int64_t kJulianOf2000 = 2451545;  // julian day number of 2000-01-01

const char* const kMonths[] = {"January",   "February", "March",    "April",
                               "May",       "June",     "July",     "August",
                               "September", "October",  "November", "December"};
const char* const kDays[] = {"Sunday",   "Monday", "Tuesday", "Wednesday",
                             "Thursday", "Friday", "Saturday"};
const char* const kRoman[] = {"I",   "II",   "III", "IV", "V",  "VI",
                              "VII", "VIII", "IX",  "X",  "XI", "XII"};

// ---- template patterns

enum class Key {
  kLiteral,
  kHH,
  kHH12,
  kHH24,
  kMI,
  kSS,
  kMS,
  kUS,
  kFF1,
  kFF2,
  kFF3,
  kFF4,
  kFF5,
  kFF6,
  kSSSS,
  kAM,
  kAMDots,
  kPM,
  kPMDots,
  kBC,
  kBCDots,
  kAD,
  kADDots,
  kYCommaYYY,
  kYYYY,
  kYYY,
  kYY,
  kY,
  kIYYY,
  kIYY,
  kIY,
  kI,
  kMONTH,
  kMON,
  kMM,
  kDAY,
  kDY,
  kDDD,
  kIDDD,
  kDD,
  kD,
  kID,
  kW,
  kWW,
  kIW,
  kCC,
  kJ,
  kQ,
  kRM,
  kTZ,
  kTZH,
  kTZM,
  kOF,
};

struct Pattern {
  const char* text;  // matched without regard to case
  Key key;
};

// Longer spellings first, so "HH24" wins over "HH" and "MONTH" over "MON" and "MM".
const Pattern kPatterns[] = {
    {"Y,YYY", Key::kYCommaYYY},
    {"A.M.", Key::kAMDots},
    {"P.M.", Key::kPMDots},
    {"B.C.", Key::kBCDots},
    {"A.D.", Key::kADDots},
    {"SSSSS", Key::kSSSS},
    {"MONTH", Key::kMONTH},
    {"HH24", Key::kHH24},
    {"HH12", Key::kHH12},
    {"SSSS", Key::kSSSS},
    {"YYYY", Key::kYYYY},
    {"IYYY", Key::kIYYY},
    {"IDDD", Key::kIDDD},
    {"FF1", Key::kFF1},
    {"FF2", Key::kFF2},
    {"FF3", Key::kFF3},
    {"FF4", Key::kFF4},
    {"FF5", Key::kFF5},
    {"FF6", Key::kFF6},
    {"YYY", Key::kYYY},
    {"IYY", Key::kIYY},
    {"MON", Key::kMON},
    {"DAY", Key::kDAY},
    {"DDD", Key::kDDD},
    {"TZH", Key::kTZH},
    {"TZM", Key::kTZM},
    {"HH", Key::kHH},
    {"MI", Key::kMI},
    {"SS", Key::kSS},
    {"MS", Key::kMS},
    {"US", Key::kUS},
    {"AM", Key::kAM},
    {"PM", Key::kPM},
    {"BC", Key::kBC},
    {"AD", Key::kAD},
    {"YY", Key::kYY},
    {"IY", Key::kIY},
    {"MM", Key::kMM},
    {"DY", Key::kDY},
    {"DD", Key::kDD},
    {"ID", Key::kID},
    {"WW", Key::kWW},
    {"IW", Key::kIW},
    {"CC", Key::kCC},
    {"RM", Key::kRM},
    {"TZ", Key::kTZ},
    {"OF", Key::kOF},
    {"Y", Key::kY},
    {"I", Key::kI},
    {"D", Key::kD},
    {"W", Key::kW},
    {"J", Key::kJ},
    {"Q", Key::kQ},
};

enum class Case { kUpper, kCapitalized, kLower };

struct Node {
  Key key = Key::kLiteral;
  std::string literal;  // kLiteral
  Case letter_case = Case::kUpper;
  bool fill = false;     // FM: no padding
  bool ordinal = false;  // TH / th suffix
  bool ordinal_upper = true;
};

bool StartsWithNoCase(std::string_view s, size_t at, std::string_view word) {
  if (s.size() - at < word.size()) return false;
  for (size_t i = 0; i < word.size(); ++i) {
    if (std::toupper(static_cast<unsigned char>(s[at + i])) != word[i]) return false;
  }
  return true;
}

// The template as nodes: keywords (FM before one sets fill mode for it, TH/th after a number
// adds its ordinal suffix), double-quoted text, and every other character as itself.
std::vector<Node> ParseTemplate(std::string_view fmt) {
  std::vector<Node> nodes;
  size_t i = 0;
  while (i < fmt.size()) {
    bool fill = false;
    while (StartsWithNoCase(fmt, i, "FM") || StartsWithNoCase(fmt, i, "FX")) {
      fill = fill || std::toupper(static_cast<unsigned char>(fmt[i + 1])) == 'M';
      i += 2;
    }
    if (i >= fmt.size()) break;
    const Pattern* match = nullptr;
    for (const Pattern& p : kPatterns) {
      if (StartsWithNoCase(fmt, i, p.text)) {
        match = &p;
        break;
      }
    }
    if (match != nullptr) {
      Node n;
      n.key = match->key;
      n.fill = fill;
      const size_t len = std::string_view(match->text).size();
      const bool first_upper = std::isupper(static_cast<unsigned char>(fmt[i])) != 0;
      const bool second_upper =
          len > 1 && std::isupper(static_cast<unsigned char>(fmt[i + 1])) != 0;
      n.letter_case = !first_upper               ? Case::kLower
                      : second_upper || len == 1 ? Case::kUpper
                                                 : Case::kCapitalized;
      i += len;
      if (StartsWithNoCase(fmt, i, "TH")) {
        n.ordinal = true;
        n.ordinal_upper = fmt[i] == 'T';
        i += 2;
      }
      nodes.push_back(std::move(n));
      continue;
    }
    Node lit;
    if (fmt[i] == '"') {
      ++i;
      while (i < fmt.size() && fmt[i] != '"') {
        if (fmt[i] == '\\' && i + 1 < fmt.size()) ++i;
        lit.literal.push_back(fmt[i++]);
      }
      if (i < fmt.size()) ++i;  // the closing quote
    } else if (fmt[i] == '\\' && i + 1 < fmt.size() && fmt[i + 1] == '"') {
      lit.literal = "\"";
      i += 2;
    } else {
      lit.literal.push_back(fmt[i++]);
    }
    nodes.push_back(std::move(lit));
  }
  return nodes;
}

// The template's nodes, parsed once per distinct template on this thread: a to_char over a
// million rows passes the same template a million times. The reference stays valid until the
// thread's next call.
const std::vector<Node>& Template(std::string_view fmt) {
  thread_local std::string last;
  thread_local std::vector<Node> nodes;
  thread_local bool parsed = false;
  if (!parsed || last != fmt) {
    nodes = ParseTemplate(fmt);
    last.assign(fmt);
    parsed = true;
  }
  return nodes;
}

std::string ApplyCase(std::string_view word, Case c) {
  std::string out(word);
  for (size_t i = 0; i < out.size(); ++i) {
    const unsigned char ch = static_cast<unsigned char>(out[i]);
    const bool upper = c == Case::kUpper || (c == Case::kCapitalized && i == 0);
    out[i] = static_cast<char>(upper ? std::toupper(ch) : std::tolower(ch));
  }
  return out;
}

std::string OrdinalSuffix(int64_t n, bool upper) {
  const int64_t last2 = std::llabs(n) % 100, last = std::llabs(n) % 10;
  const char* s = (last2 >= 11 && last2 <= 13) ? "th"
                  : last == 1                  ? "st"
                  : last == 2                  ? "nd"
                  : last == 3                  ? "rd"
                                               : "th";
  return upper ? ApplyCase(s, Case::kUpper) : std::string(s);
}

// A number zero-padded to width (not in fill mode), with its ordinal suffix when asked.
std::string Number(const Node& n, int64_t v, int width) {
  char buf[32];
  if (n.fill || width <= 0) {
    std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(v));
  } else {
    std::snprintf(buf, sizeof buf, "%0*lld", v < 0 ? width + 1 : width, static_cast<long long>(v));
  }
  std::string out = buf;
  if (n.ordinal) out += OrdinalSuffix(v, n.ordinal_upper);
  return out;
}

std::string Word(const Node& n, std::string_view word, size_t pad) {
  std::string out = ApplyCase(word, n.letter_case);
  if (!n.fill && out.size() < pad) out.append(pad - out.size(), ' ');
  return out;
}

// ---- broken-down times

struct Tm {
  int64_t year = 1;  // astronomical: 0 is 1 BC
  int month = 1, day = 1;
  int64_t hour = 0;  // an interval's may pass 23
  int minute = 0, second = 0;
  int64_t micros = 0;  // fraction of the second
  int dow = 0, doy = 1;
  int64_t julian = 0;
  bool interval = false;
  bool has_zone = false;
  int64_t offset_s = 0;  // seconds east of UTC
  std::string zone_name;
};

Tm FromTimestamp(Timestamp t) {
  const datetime::Fields f = datetime::Split(t);
  Tm tm;
  tm.year = f.year;
  tm.month = f.month;
  tm.day = f.day;
  tm.hour = f.hour;
  tm.minute = f.minute;
  tm.second = static_cast<int>(f.micros_of_minute / kMicrosPerSecond);
  tm.micros = f.micros_of_minute % kMicrosPerSecond;
  tm.dow = f.day_of_week;
  tm.doy = f.day_of_year;
  tm.julian = datetime::FloorDiv(t.micros, kMicrosPerDay) + kJulianOf2000;
  return tm;
}

Tm FromInterval(Interval iv) {
  Tm tm;
  tm.interval = true;
  tm.year = iv.months / 12;
  tm.month = iv.months % 12;
  tm.day = iv.days;
  int64_t m = iv.micros;
  tm.hour = m / (3600 * kMicrosPerSecond);
  m %= 3600 * kMicrosPerSecond;
  tm.minute = static_cast<int>(m / (60 * kMicrosPerSecond));
  m %= 60 * kMicrosPerSecond;
  tm.second = static_cast<int>(m / kMicrosPerSecond);
  tm.micros = m % kMicrosPerSecond;
  return tm;
}

// ISO 8601 week-numbering year, week and day of year of a date (days since 2000-01-01).
void IsoWeek(int64_t days, int64_t* iso_year, int* week, int* iso_doy) {
  auto week1_start = [](int64_t y) {
    const int64_t jan4 = datetime::DaysFromCivil(y, 1, 4);
    const int dow = static_cast<int>(((jan4 + 5) % 7 + 7) % 7);  // 0 = Monday
    return jan4 - dow;
  };
  int64_t y;
  int m, d;
  datetime::CivilFromDays(days, &y, &m, &d);
  int64_t start = week1_start(y + 1);
  if (days >= start) {
    y += 1;
  } else {
    start = week1_start(y);
    if (days < start) {
      y -= 1;
      start = week1_start(y);
    }
  }
  *iso_year = y;
  *iso_doy = static_cast<int>(days - start + 1);
  *week = (*iso_doy - 1) / 7 + 1;
}

int64_t DisplayYear(int64_t astronomical) {
  return astronomical <= 0 ? 1 - astronomical : astronomical;
}

Result<std::string> FormatTm(const Tm& tm, std::string_view fmt) {
  std::string out;
  const int64_t days = tm.julian - kJulianOf2000;
  for (const Node& n : Template(fmt)) {
    const int64_t year = tm.interval ? tm.year : DisplayYear(tm.year);
    switch (n.key) {
      case Key::kLiteral:
        out += n.literal;
        break;
      case Key::kHH:
      case Key::kHH12: {
        const int64_t h = tm.hour % 12 == 0 ? 12 : tm.hour % 12;
        out += Number(n, h, 2);
        break;
      }
      case Key::kHH24:
        out += Number(n, tm.hour, 2);
        break;
      case Key::kMI:
        out += Number(n, tm.minute, 2);
        break;
      case Key::kSS:
        out += Number(n, tm.second, 2);
        break;
      case Key::kMS:
        out += Number(n, tm.micros / 1000, 3);
        break;
      case Key::kUS:
        out += Number(n, tm.micros, 6);
        break;
      case Key::kFF1:
      case Key::kFF2:
      case Key::kFF3:
      case Key::kFF4:
      case Key::kFF5:
      case Key::kFF6: {
        const int digits = static_cast<int>(n.key) - static_cast<int>(Key::kFF1) + 1;
        int64_t v = tm.micros;
        for (int i = digits; i < 6; ++i) v /= 10;
        out += Number(n, v, digits);
        break;
      }
      case Key::kSSSS:
        out += Number(n, tm.hour * 3600 + tm.minute * 60 + tm.second, 0);
        break;
      case Key::kAM:
      case Key::kPM:
        out += ApplyCase(tm.hour % 24 >= 12 ? "PM" : "AM",
                         n.letter_case == Case::kLower ? Case::kLower : Case::kUpper);
        break;
      case Key::kAMDots:
      case Key::kPMDots:
        out += ApplyCase(tm.hour % 24 >= 12 ? "P.M." : "A.M.",
                         n.letter_case == Case::kLower ? Case::kLower : Case::kUpper);
        break;
      case Key::kBC:
      case Key::kAD:
        out += ApplyCase(tm.year <= 0 && !tm.interval ? "BC" : "AD",
                         n.letter_case == Case::kLower ? Case::kLower : Case::kUpper);
        break;
      case Key::kBCDots:
      case Key::kADDots:
        out += ApplyCase(tm.year <= 0 && !tm.interval ? "B.C." : "A.D.",
                         n.letter_case == Case::kLower ? Case::kLower : Case::kUpper);
        break;
      case Key::kYCommaYYY: {
        char buf[48];
        std::snprintf(buf, sizeof buf, "%lld,%03lld", static_cast<long long>(year / 1000),
                      static_cast<long long>(std::llabs(year % 1000)));
        out += buf;
        if (n.ordinal) out += OrdinalSuffix(year, n.ordinal_upper);
        break;
      }
      case Key::kYYYY:
        out += Number(n, year, 4);
        break;
      case Key::kYYY:
        out += Number(n, year % 1000, 3);
        break;
      case Key::kYY:
        out += Number(n, year % 100, 2);
        break;
      case Key::kY:
        out += Number(n, year % 10, 1);
        break;
      case Key::kIYYY:
      case Key::kIYY:
      case Key::kIY:
      case Key::kI:
      case Key::kIW:
      case Key::kIDDD: {
        if (tm.interval) break;
        int64_t iso_year;
        int week, iso_doy;
        IsoWeek(days, &iso_year, &week, &iso_doy);
        iso_year = DisplayYear(iso_year);
        if (n.key == Key::kIYYY) out += Number(n, iso_year, 4);
        if (n.key == Key::kIYY) out += Number(n, iso_year % 1000, 3);
        if (n.key == Key::kIY) out += Number(n, iso_year % 100, 2);
        if (n.key == Key::kI) out += Number(n, iso_year % 10, 1);
        if (n.key == Key::kIW) out += Number(n, week, 2);
        if (n.key == Key::kIDDD) out += Number(n, iso_doy, 3);
        break;
      }
      case Key::kMONTH:
      case Key::kMON:
        if (tm.interval && tm.month == 0) break;
        out += n.key == Key::kMONTH ? Word(n, kMonths[tm.month - 1], 9)
                                    : Word(n, std::string_view(kMonths[tm.month - 1], 3), 0);
        break;
      case Key::kMM:
        out += Number(n, tm.month, 2);
        break;
      case Key::kRM:
        if (tm.interval && tm.month == 0) break;
        out += Word(n, kRoman[tm.month - 1], 4);
        break;
      case Key::kDAY:
      case Key::kDY:
        if (tm.interval) break;
        out += n.key == Key::kDAY ? Word(n, kDays[tm.dow], 9)
                                  : Word(n, std::string_view(kDays[tm.dow], 3), 0);
        break;
      case Key::kDDD:
        out += Number(n, tm.interval ? tm.day : tm.doy, 3);
        break;
      case Key::kDD:
        out += Number(n, tm.day, 2);
        break;
      case Key::kD:
        if (!tm.interval) out += Number(n, tm.dow + 1, 0);
        break;
      case Key::kID:
        if (!tm.interval) out += Number(n, tm.dow == 0 ? 7 : tm.dow, 0);
        break;
      case Key::kW:
        out += Number(n, (tm.day - 1) / 7 + 1, 0);
        break;
      case Key::kWW:
        out += Number(n, (tm.doy - 1) / 7 + 1, 2);
        break;
      case Key::kCC: {
        const int64_t cc = tm.interval   ? tm.year / 100
                           : tm.year > 0 ? (tm.year + 99) / 100
                                         : -((99 - (tm.year - 1)) / 100);
        out += Number(n, cc, 2);
        break;
      }
      case Key::kJ:
        out += Number(n, tm.julian, 0);
        break;
      case Key::kQ:
        if (!tm.interval || tm.month != 0) out += Number(n, (tm.month - 1) / 3 + 1, 0);
        break;
      case Key::kTZ:
        if (!tm.has_zone) break;
        if (tm.offset_s != 0 || (tm.zone_name != "UTC" && tm.zone_name != "Etc/UTC")) {
          return Status::NotSupported(
              "to_char's TZ pattern is supported only in time zone UTC "
              "(use OF for the offset)");
        }
        out += n.letter_case == Case::kLower ? "utc" : "UTC";
        break;
      case Key::kTZH:
      case Key::kTZM:
      case Key::kOF: {
        if (!tm.has_zone) break;
        const int64_t a = std::llabs(tm.offset_s);
        char buf[48];
        if (n.key == Key::kTZH) {
          std::snprintf(buf, sizeof buf, "%c%02lld", tm.offset_s < 0 ? '-' : '+',
                        static_cast<long long>(a / 3600));
        } else if (n.key == Key::kTZM) {
          std::snprintf(buf, sizeof buf, "%02lld", static_cast<long long>(a % 3600 / 60));
        } else if (a % 3600 == 0) {
          std::snprintf(buf, sizeof buf, "%c%02lld", tm.offset_s < 0 ? '-' : '+',
                        static_cast<long long>(a / 3600));
        } else {
          std::snprintf(buf, sizeof buf, "%c%02lld:%02lld", tm.offset_s < 0 ? '-' : '+',
                        static_cast<long long>(a / 3600), static_cast<long long>(a % 3600 / 60));
        }
        out += buf;
        break;
      }
    }
  }
  return out;
}

Result<Value> ToCharTimestamp(Args a, ExecContext*) {
  const Timestamp t = a[0].IsDate() ? datetime::ToTimestamp(a[0].AsDate()) : a[0].AsTimestamp();
  if (!datetime::IsFinite(t)) return Value::Null();
  MERIDIAN_ASSIGN_OR_RETURN(std::string s, FormatTm(FromTimestamp(t), a[1].AsString()));
  return Value::String(std::move(s));
}

Result<Value> ToCharTimestampTz(Args a, ExecContext*) {
  const TimestampTz t = a[0].AsTimestampTz();
  if (!datetime::IsFinite(t)) return Value::Null();
  const datetime::TimeZone& zone = datetime::CurrentZone();
  Tm tm = FromTimestamp(datetime::ToLocal(t, zone));
  tm.has_zone = true;
  tm.offset_s = zone.OffsetAtUtc(t.micros);
  tm.zone_name = zone.name();
  MERIDIAN_ASSIGN_OR_RETURN(std::string s, FormatTm(tm, a[1].AsString()));
  return Value::String(std::move(s));
}

Result<Value> ToCharInterval(Args a, ExecContext*) {
  MERIDIAN_ASSIGN_OR_RETURN(std::string s,
                            FormatTm(FromInterval(a[0].AsInterval()), a[1].AsString()));
  return Value::String(std::move(s));
}

// ---- numbers: 9 0 . D , G S MI PL SG PR L FM (the C locale: '.' and ',' and no currency)

Result<Value> FormatNumeric(const Numeric& value, std::string_view fmt) {
  bool fill = false, angle = false, seen_point = false, sign_code = false;
  int pre = 0, post = 0, zero_from = -1;  // zero_from: the first '0' before the point
  std::string frac_pattern;               // the fraction's '9' and '0' positions
  for (size_t i = 0; i < fmt.size(); ++i) {
    const char c = static_cast<char>(std::toupper(static_cast<unsigned char>(fmt[i])));
    if (c == '9' || c == '0') {
      if (seen_point) {
        ++post;
        frac_pattern.push_back(c);
      } else {
        if (c == '0' && zero_from < 0) zero_from = pre;
        ++pre;
      }
    } else if (c == '.' || c == 'D') {
      if (seen_point) {
        return Status::Error(sqlstate::kSyntaxError, "multiple decimal points");
      }
      seen_point = true;
    } else if (StartsWithNoCase(fmt, i, "FM")) {
      fill = true;
      ++i;
    } else if (StartsWithNoCase(fmt, i, "PR")) {
      angle = true;
      ++i;
    } else if (StartsWithNoCase(fmt, i, "MI") || StartsWithNoCase(fmt, i, "SG")) {
      sign_code = true;
      ++i;
    } else if (StartsWithNoCase(fmt, i, "PL")) {
      ++i;  // a '+' of its own; the sign column stays
    } else if (c == 'S') {
      sign_code = true;
    } else if (StartsWithNoCase(fmt, i, "EEEE") || c == 'V' || StartsWithNoCase(fmt, i, "RN")) {
      return Status::NotSupported(
          "to_char's number patterns EEEE, V and RN are not supported "
          "yet");
    }
  }
  MERIDIAN_ASSIGN_OR_RETURN(Numeric rounded, numeric::Round(value, post));
  const bool negative = numeric::Sign(rounded) < 0;
  std::string digits = numeric::Digits(rounded);  // |rounded| * 10^scale, no leading zeros
  const int scale = rounded.scale;
  while (static_cast<int>(digits.size()) <= scale) digits.insert(digits.begin(), '0');
  std::string int_digits = digits.substr(0, digits.size() - scale);
  std::string frac_digits = digits.substr(digits.size() - scale);
  frac_digits.resize(post, '0');
  if (int_digits == "0") int_digits.clear();  // printed only through a '0' pattern
  // FM drops the fraction's trailing zeros that come from '9' positions (a '0' keeps its own
  // and every one before it).
  size_t frac_shown = frac_digits.size();
  if (fill) {
    while (frac_shown > 0 && frac_pattern[frac_shown - 1] == '9' &&
           frac_digits[frac_shown - 1] == '0') {
      --frac_shown;
    }
  }
  // Without a '0', a number below 1 with no fraction digit shown (none in the template, or all
  // dropped by FM) still prints its zero: to_char(0, 'FM9.9') is "0."; a template without a
  // digit position before the point overflows for every number, as in PostgreSQL ('.9': " .#").
  if (int_digits.empty() && zero_from < 0 && (pre == 0 || post == 0 || frac_shown == 0)) {
    int_digits = "0";
  }
  const bool overflow = static_cast<int>(int_digits.size()) > pre;
  const int first_digit = pre - static_cast<int>(int_digits.size());  // pattern position
  std::string out;
  bool sign_done = false;
  bool s_leading = false;  // an S before the digits: its sign goes right before the first one
  auto put_sign_before_digits = [&]() {
    if (sign_done) return;
    if (s_leading) {
      sign_done = true;
      out += negative ? '-' : '+';
      return;
    }
    if (sign_code || angle) return;
    sign_done = true;
    if (negative) {
      out += '-';
    } else if (!fill) {
      out += ' ';
    }
  };
  int pos = 0;  // digit positions before the point seen so far
  int frac_pos = 0;
  bool after_point = false;
  bool digits_started = false;
  for (size_t i = 0; i < fmt.size(); ++i) {
    const char raw = fmt[i];
    const char c = static_cast<char>(std::toupper(static_cast<unsigned char>(raw)));
    if (StartsWithNoCase(fmt, i, "FM")) {
      ++i;
      continue;
    }
    if (StartsWithNoCase(fmt, i, "PR")) {
      ++i;
      if (negative) {  // <digits>, after any leading blanks
        out.insert(std::min(out.find_first_not_of(' '), out.size()), "<");
        out += '>';
      } else if (!fill) {
        out.insert(0, " ");
        out += ' ';
      }
      continue;
    }
    if (StartsWithNoCase(fmt, i, "MI")) {
      ++i;
      out += negative ? "-" : (fill ? "" : " ");
      continue;
    }
    if (StartsWithNoCase(fmt, i, "PL")) {
      ++i;
      out += negative ? (fill ? "" : " ") : "+";
      continue;
    }
    if (StartsWithNoCase(fmt, i, "SG")) {
      ++i;
      out += negative ? "-" : "+";
      continue;
    }
    if (c == 'L') {  // the currency symbol: the C locale's is blank
      out += ' ';
      continue;
    }
    if (c == 'S') {
      if (!after_point && pos == 0) {
        s_leading = true;
      } else {
        out += negative ? "-" : "+";
      }
      continue;
    }
    if (c == '9' || c == '0') {
      if (after_point) {
        if (overflow) {
          out += '#';
        } else if (static_cast<size_t>(frac_pos) < frac_shown) {
          out += frac_digits[frac_pos];
        }
        ++frac_pos;
        continue;
      }
      if (overflow) {
        put_sign_before_digits();
        out += '#';
      } else if (pos >= first_digit) {
        put_sign_before_digits();
        out += int_digits[pos - first_digit];
        digits_started = true;
      } else if (zero_from >= 0 && pos >= zero_from) {
        put_sign_before_digits();
        out += '0';
        digits_started = true;
      } else if (!fill) {
        out += ' ';
      }
      ++pos;
      continue;
    }
    if (c == '.' || c == 'D') {
      put_sign_before_digits();
      after_point = true;
      out += '.';
      continue;
    }
    if (c == ',' || c == 'G') {
      if (digits_started || overflow) {
        out += ',';
      } else if (!fill) {
        out += ' ';
      }
      continue;
    }
    out += raw;
  }
  if (!sign_done && !sign_code && !angle) {
    // No digit position at all: the sign goes in front.
    if (negative) out.insert(0, "-");
  }
  return Value::String(std::move(out));
}

Result<Value> ToCharNumeric(Args a, ExecContext*) {
  return FormatNumeric(a[0].AsDecimal(), a[1].AsString());
}

Result<Value> ToCharInteger(Args a, ExecContext*) {
  return FormatNumeric(numeric::FromInt(a[0].AsInt()), a[1].AsString());
}

Result<Value> ToCharDouble(Args a, ExecContext*) {
  const double d = a[0].IsReal() ? a[0].AsReal() : a[0].AsNumber();
  if (!std::isfinite(d)) {
    return Status::NotSupported("to_char of an infinite or NaN number is not supported yet");
  }
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.15g", d);
  MERIDIAN_ASSIGN_OR_RETURN(Numeric n, numeric::Parse(buf));
  return FormatNumeric(n, a[1].AsString());
}

// ---- to_number: a number read by a template (PostgreSQL's to_number, C locale)
//
// The template's nodes are visited in order while input remains. A digit position (9, 0) or
// the decimal point (., D) first skips up to two blanks; before the first digit it takes a sign
// ('-', '+', or '<' with PR); then it takes one digit (none past the template's fraction
// digits) or, for a decimal point not yet read, a '.'; right after a digit an S template takes a
// '-' or '+' that follows at once, and MI/PL templates take a sign where a digit was expected.
// The input then moves on by one character whether or not anything was taken, as it does for
// characters that are no pattern; L skips one character that is no digit; ',' and G take a ','
// only when there is one and otherwise stay (take nothing at all under FM); S, MI, PL, SG take a
// sign when one stands there; FM and V take nothing. The digits read, with the sign, are numeric
// input rounded to (digit positions before the point + fraction digits read, fraction digits read):
// an input with more integer digits than the template holds is 22003 "numeric field overflow"; n
// digit positions after V divide the result by 10^n.
enum class NumKind {
  kDigit,
  kPoint,
  kComma,
  kCurrency,
  kS,
  kMinus,
  kPlus,
  kSignAny,
  kBracket,
  kFill,
  kOther
};

struct NumNode {
  NumKind kind;
  size_t length;  // template characters
};

// A to_number template, parsed once per distinct template text (NumberTemplate).
struct NumTemplate {
  std::vector<NumNode> nodes;
  int pre = 0, post = 0, multi = 0;  // multi: digit positions after V (a power of ten)
  bool seen_point = false, lsign = false, bracket = false, minus_plus = false;
  bool fill_mode = false;
};

Result<NumTemplate> ParseNumTemplate(std::string_view fmt) {
  NumTemplate t;
  bool multi_mode = false;
  for (size_t i = 0; i < fmt.size();) {
    const char c = static_cast<char>(std::toupper(static_cast<unsigned char>(fmt[i])));
    if (StartsWithNoCase(fmt, i, "EEEE") || StartsWithNoCase(fmt, i, "RN")) {
      return Status::NotSupported(std::string(c == 'E' ? "\"EEEE\"" : "\"RN\"") +
                                  " not supported for input");
    }
    auto two = [&](std::string_view w) { return StartsWithNoCase(fmt, i, w); };
    NumNode n{NumKind::kOther, 1};
    if (c == '9' || c == '0') {
      n.kind = NumKind::kDigit;
      ++(multi_mode ? t.multi : t.seen_point ? t.post : t.pre);
    } else if (c == 'V') {
      if (t.seen_point) {
        return Status::Error(sqlstate::kSyntaxError, "cannot use \"V\" and decimal point together");
      }
      multi_mode = true;
      n.kind = NumKind::kFill;
    } else if (c == '.' || c == 'D') {
      if (t.seen_point) return Status::Error(sqlstate::kSyntaxError, "multiple decimal points");
      if (multi_mode) {
        return Status::Error(sqlstate::kSyntaxError, "cannot use \"V\" and decimal point together");
      }
      t.seen_point = true;
      n.kind = NumKind::kPoint;
    } else if (c == ',' || c == 'G') {
      n.kind = NumKind::kComma;
    } else if (c == 'L') {
      n.kind = NumKind::kCurrency;
    } else if (two("FM")) {
      n = {NumKind::kFill, 2};
      t.fill_mode = true;
    } else if (two("PR")) {
      n = {NumKind::kBracket, 2};
      t.bracket = true;
    } else if (two("MI")) {
      n = {NumKind::kMinus, 2};
      t.minus_plus = true;
    } else if (two("PL")) {
      n = {NumKind::kPlus, 2};
      t.minus_plus = true;
    } else if (two("SG")) {
      n = {NumKind::kSignAny, 2};
      t.minus_plus = true;
    } else if (two("TH")) {
      n = {NumKind::kFill, 2};  // an ordinal suffix: nothing to read
    } else if (c == 'S') {
      n.kind = NumKind::kS;
      t.lsign = true;
    } else {
      // A character that is no pattern skips one input character (a whole UTF-8 sequence).
      size_t len = 1;
      while (i + len < fmt.size() && (static_cast<unsigned char>(fmt[i + len]) & 0xC0) == 0x80) {
        ++len;
      }
      n.length = len;
    }
    t.nodes.push_back(n);
    i += n.length;
  }
  return t;
}

// The parsed template of fmt, kept per thread for the last template text seen (a column of
// to_number calls shares one template), as to_char's Template.
Result<const NumTemplate*> NumberTemplate(const std::string& fmt) {
  thread_local std::string last;
  thread_local NumTemplate parsed;
  thread_local bool valid = false;
  if (!valid || last != fmt) {
    valid = false;
    MERIDIAN_ASSIGN_OR_RETURN(parsed, ParseNumTemplate(fmt));
    last = fmt;
    valid = true;
  }
  return &parsed;
}

Result<Value> ToNumber(Args a, ExecContext*) {
  const std::string& in = a[0].AsString();
  MERIDIAN_ASSIGN_OR_RETURN(const NumTemplate* t, NumberTemplate(a[1].AsString()));
  if (t->nodes.empty()) return Value::Null();
  const int pre = t->pre, post = t->post, multi = t->multi;
  const bool seen_point = t->seen_point, lsign = t->lsign, bracket = t->bracket;
  const bool minus_plus = t->minus_plus, fill_mode = t->fill_mode;

  char sign = ' ';
  std::string digits;
  int read_pre = 0, read_post = 0;
  bool read_point = false;
  size_t p = 0;
  auto at_end = [&]() { return p >= in.size(); };
  auto is_digit = [&](size_t at) {
    return at < in.size() && std::isdigit(static_cast<unsigned char>(in[at]));
  };
  for (const NumNode& n : t->nodes) {
    if (at_end()) break;
    switch (n.kind) {
      case NumKind::kDigit:
      case NumKind::kPoint: {
        for (int k = 0; k < 2 && !at_end() && in[p] == ' '; ++k) ++p;
        if (at_end()) break;
        if (sign == ' ' && n.kind == NumKind::kDigit && read_pre + read_post == 0) {
          if (in[p] == '-' || (bracket && in[p] == '<')) {
            sign = '-';
            ++p;
          } else if (in[p] == '+') {
            sign = '+';
            ++p;
          }
        }
        if (at_end()) break;
        bool took = false;
        if (is_digit(p)) {
          if (!(read_point && read_post == post)) {
            digits.push_back(in[p]);
            ++(read_point ? read_post : read_pre);
            took = true;
          }
        } else if (seen_point && !read_point && in[p] == '.') {
          digits.push_back('.');
          read_point = true;
          took = true;
        }
        if (sign == ' ' && read_pre + read_post > 0) {
          if (lsign && took && p + 1 < in.size() && !is_digit(p + 1) &&
              (in[p + 1] == '-' || in[p + 1] == '+')) {
            ++p;
            sign = in[p];
          } else if (!took && !lsign && minus_plus && (in[p] == '-' || in[p] == '+')) {
            sign = in[p];
          }
        }
        ++p;
        break;
      }
      case NumKind::kComma:  // in fill mode (FM) a separator takes nothing
        if (!fill_mode && in[p] == ',') ++p;
        break;
      case NumKind::kS:
      case NumKind::kSignAny:
        if (sign == ' ' && (in[p] == '-' || in[p] == '+')) sign = in[p++];
        break;
      case NumKind::kMinus:
        if (sign == ' ' && in[p] == '-') {
          sign = '-';
          ++p;
        }
        break;
      case NumKind::kPlus:
        if (sign == ' ' && in[p] == '+') {
          sign = '+';
          ++p;
        }
        break;
      case NumKind::kBracket:
        if (in[p] == '>') ++p;
        break;
      case NumKind::kFill:
        break;
      case NumKind::kCurrency:  // the currency symbol: any one character that is no digit
        if (!is_digit(p)) {
          ++p;
          while (p < in.size() && (static_cast<unsigned char>(in[p]) & 0xC0) == 0x80) ++p;
        }
        break;
      case NumKind::kOther:
        p += n.length;
        break;
    }
  }
  if (!digits.empty() && digits.back() == '.') digits.pop_back();  // "5." reads as 5
  const std::string text = std::string(1, sign) + digits;
  MERIDIAN_ASSIGN_OR_RETURN(Numeric value, numeric::Parse(text));
  MERIDIAN_ASSIGN_OR_RETURN(
      Numeric typed,
      numeric::ApplyTypmod(value, numeric::MakeTypmod(pre + multi + read_post, read_post)));
  if (multi == 0) return Value::Decimal(typed);
  Numeric power = numeric::FromInt(1);
  for (int k = 0; k < multi; ++k) {
    MERIDIAN_ASSIGN_OR_RETURN(power, numeric::Mul(power, numeric::FromInt(10)));
  }
  MERIDIAN_ASSIGN_OR_RETURN(Numeric divided, numeric::Div(typed, power));
  return Value::Decimal(divided);
}

// ---- to_date / to_timestamp by a template

struct Parsed {
  int64_t year = 1;
  bool has_year = false, bc = false, pm = false, has_ampm = false, hour12 = false;
  int month = 1, day = 1, doy = 0;
  int64_t hour = 0;
  int minute = 0, second = 0;
  int64_t micros = 0;
  int64_t julian = -1;
  bool has_offset = false, offset_negative = false;
  int64_t offset_s = 0;
};

Status BadInput(std::string_view what, std::string_view input) {
  return Status::Error(
      sqlstate::kInvalidDatetimeFormat,
      "invalid value \"" + std::string(input) + "\" for \"" + std::string(what) + "\"");
}

// Reads up to max_digits digits (after blanks); a following digit field without a separator
// limits the field to its width (fixed), else it takes every digit.
Result<int64_t> ReadNumber(std::string_view in, size_t* at, int max_digits, std::string_view what,
                           bool allow_sign = false) {
  while (*at < in.size() && in[*at] == ' ') ++*at;
  bool neg = false;
  if (allow_sign && *at < in.size() && (in[*at] == '-' || in[*at] == '+')) {
    neg = in[*at] == '-';
    ++*at;
  }
  const size_t start = *at;
  int64_t v = 0;
  while (*at < in.size() && std::isdigit(static_cast<unsigned char>(in[*at])) &&
         static_cast<int>(*at - start) < max_digits) {
    v = v * 10 + (in[*at] - '0');
    ++*at;
  }
  if (*at == start) {
    return BadInput(what, in.substr(start, std::min<size_t>(in.size() - start, 10)));
  }
  return neg ? -v : v;
}

Result<int> ReadWord(std::string_view in, size_t* at, const char* const* words, int count,
                     size_t abbrev, std::string_view what) {
  while (*at < in.size() && in[*at] == ' ') ++*at;
  for (int w = 0; w < count; ++w) {
    const std::string full = ApplyCase(words[w], Case::kUpper);
    const std::string_view word =
        abbrev > 0 ? std::string_view(full).substr(0, abbrev) : std::string_view(full);
    if (StartsWithNoCase(in, *at, word)) {
      *at += word.size();
      return w;
    }
  }
  return BadInput(what, in.substr(*at, std::min<size_t>(in.size() - *at, 10)));
}

// A year given with fewer than four digits, moved near 2020 as PostgreSQL does: 0-69 into the
// 2000s, 70-99 into the 1900s, 100-519 into the 2000s, 520-999 into the 1000s.
int64_t NearestTo2020(int64_t y) {
  if (y < 70) return y + 2000;
  if (y < 100) return y + 1900;
  if (y < 520) return y + 2000;
  if (y < 1000) return y + 1000;
  return y;
}

bool IsDigitKey(Key k) {
  switch (k) {
    case Key::kLiteral:
    case Key::kAM:
    case Key::kAMDots:
    case Key::kPM:
    case Key::kPMDots:
    case Key::kBC:
    case Key::kBCDots:
    case Key::kAD:
    case Key::kADDots:
    case Key::kMONTH:
    case Key::kMON:
    case Key::kDAY:
    case Key::kDY:
    case Key::kRM:
    case Key::kTZ:
    case Key::kOF:
      return false;
    default:
      return true;
  }
}

Result<Parsed> ParseByTemplate(std::string_view in, std::string_view fmt) {
  const std::vector<Node>& nodes = Template(fmt);
  Parsed p;
  size_t at = 0;
  for (size_t k = 0; k < nodes.size(); ++k) {
    const Node& n = nodes[k];
    const bool fixed = k + 1 < nodes.size() && IsDigitKey(nodes[k + 1].key);
    auto width = [&](int w) { return fixed ? w : 18; };
    auto read_int = [&](int* field, int digits, std::string_view what) -> Status {
      auto v = ReadNumber(in, &at, digits, what);
      if (!v.ok()) return v.status();
      if (*v > 1000000) {
        return Status::Error(
            sqlstate::kDatetimeFieldOverflow,
            "value for \"" + std::string(what) + "\" in source string is out of range");
      }
      *field = static_cast<int>(*v);
      return Status::Ok();
    };
    switch (n.key) {
      case Key::kLiteral:
        for (char c : n.literal) {
          // A blank or separator in the template matches one separator of the input, or none.
          if (at < in.size() && !std::isalnum(static_cast<unsigned char>(in[at]))) {
            ++at;
          } else if (at < in.size() && std::isalpha(static_cast<unsigned char>(c)) &&
                     std::toupper(static_cast<unsigned char>(c)) ==
                         std::toupper(static_cast<unsigned char>(in[at]))) {
            ++at;
          }
        }
        break;
      case Key::kYCommaYYY: {
        MERIDIAN_ASSIGN_OR_RETURN(int64_t thousands, ReadNumber(in, &at, 6, "Y,YYY"));
        if (at < in.size() && in[at] == ',') ++at;
        MERIDIAN_ASSIGN_OR_RETURN(int64_t rest, ReadNumber(in, &at, 3, "Y,YYY"));
        p.year = thousands * 1000 + rest;
        p.has_year = true;
        break;
      }
      case Key::kYYYY:
      case Key::kIYYY: {
        MERIDIAN_ASSIGN_OR_RETURN(p.year, ReadNumber(in, &at, width(4), "YYYY"));
        p.has_year = true;
        break;
      }
      case Key::kYYY:
      case Key::kIYY:
      case Key::kYY:
      case Key::kIY:
      case Key::kY:
      case Key::kI: {
        const int digits = n.key == Key::kYYY || n.key == Key::kIYY ? 3
                           : n.key == Key::kYY || n.key == Key::kIY ? 2
                                                                    : 1;
        MERIDIAN_ASSIGN_OR_RETURN(int64_t y, ReadNumber(in, &at, digits, "YY"));
        p.year = NearestTo2020(y);
        p.has_year = true;
        break;
      }
      case Key::kMM:
        MERIDIAN_RETURN_IF_ERROR(read_int(&p.month, width(2), "MM"));
        break;
      case Key::kMONTH:
      case Key::kMON: {
        MERIDIAN_ASSIGN_OR_RETURN(int m, ReadWord(in, &at, kMonths, 12, n.key == Key::kMON ? 3 : 0,
                                                  n.key == Key::kMON ? "MON" : "MONTH"));
        p.month = m + 1;
        break;
      }
      case Key::kRM: {
        // Longest numerals first, so "XII" is not read as "X".
        static const char* const kByLength[] = {"VIII", "III", "VII", "XII", "II", "IV",
                                                "VI",   "IX",  "XI",  "I",   "V",  "X"};
        static const int kMonthOf[] = {8, 3, 7, 12, 2, 4, 6, 9, 11, 1, 5, 10};
        MERIDIAN_ASSIGN_OR_RETURN(int m, ReadWord(in, &at, kByLength, 12, 0, "RM"));
        p.month = kMonthOf[m];
        break;
      }
      case Key::kDAY:
      case Key::kDY: {
        MERIDIAN_RETURN_IF_ERROR(
            ReadWord(in, &at, kDays, 7, n.key == Key::kDY ? 3 : 0, n.key == Key::kDY ? "DY" : "DAY")
                .status());
        break;
      }
      case Key::kDD:
        MERIDIAN_RETURN_IF_ERROR(read_int(&p.day, width(2), "DD"));
        break;
      case Key::kDDD:
      case Key::kIDDD:
        MERIDIAN_RETURN_IF_ERROR(read_int(&p.doy, width(3), "DDD"));
        break;
      case Key::kHH:
      case Key::kHH12:
      case Key::kHH24: {
        MERIDIAN_ASSIGN_OR_RETURN(p.hour, ReadNumber(in, &at, width(2), "HH"));
        p.hour12 = n.key != Key::kHH24;
        break;
      }
      case Key::kMI:
        MERIDIAN_RETURN_IF_ERROR(read_int(&p.minute, width(2), "MI"));
        break;
      case Key::kSS:
        MERIDIAN_RETURN_IF_ERROR(read_int(&p.second, width(2), "SS"));
        break;
      case Key::kMS:
      case Key::kUS:
      case Key::kFF1:
      case Key::kFF2:
      case Key::kFF3:
      case Key::kFF4:
      case Key::kFF5:
      case Key::kFF6: {
        const int max = n.key == Key::kMS ? 3
                        : n.key == Key::kUS
                            ? 6
                            : static_cast<int>(n.key) - static_cast<int>(Key::kFF1) + 1;
        while (at < in.size() && in[at] == ' ') ++at;
        const size_t start = at;
        MERIDIAN_ASSIGN_OR_RETURN(int64_t v, ReadNumber(in, &at, max, "fraction"));
        p.micros = v;  // the digits read are a fraction of a second, MS's too ("25" is .25 s)
        for (size_t d = at - start; d < 6; ++d) p.micros *= 10;
        break;
      }
      case Key::kSSSS: {
        MERIDIAN_ASSIGN_OR_RETURN(int64_t v, ReadNumber(in, &at, 5, "SSSS"));
        p.hour = v / 3600;
        p.minute = static_cast<int>(v / 60 % 60);
        p.second = static_cast<int>(v % 60);
        break;
      }
      case Key::kAM:
      case Key::kPM:
      case Key::kAMDots:
      case Key::kPMDots: {
        static const char* const kMarks[] = {"A.M.", "P.M.", "AM", "PM"};
        MERIDIAN_ASSIGN_OR_RETURN(int m, ReadWord(in, &at, kMarks, 4, 0, "AM/PM"));
        p.has_ampm = true;
        p.pm = m % 2 == 1;
        break;
      }
      case Key::kBC:
      case Key::kAD:
      case Key::kBCDots:
      case Key::kADDots: {
        static const char* const kEras[] = {"B.C.", "A.D.", "BC", "AD"};
        MERIDIAN_ASSIGN_OR_RETURN(int m, ReadWord(in, &at, kEras, 4, 0, "BC/AD"));
        p.bc = m % 2 == 0;
        break;
      }
      case Key::kJ: {
        MERIDIAN_ASSIGN_OR_RETURN(p.julian, ReadNumber(in, &at, 18, "J"));
        break;
      }
      case Key::kTZH: {
        while (at < in.size() && in[at] == ' ') ++at;
        p.offset_negative = at < in.size() && in[at] == '-';  // "-00" too, for TZM's sign
        MERIDIAN_ASSIGN_OR_RETURN(int64_t h, ReadNumber(in, &at, 2, "TZH", true));
        p.has_offset = true;
        p.offset_s += h * 3600;
        break;
      }
      case Key::kTZM: {
        MERIDIAN_ASSIGN_OR_RETURN(int64_t m, ReadNumber(in, &at, 2, "TZM"));
        p.has_offset = true;
        p.offset_s += (p.offset_negative ? -m : m) * 60;
        break;
      }
      case Key::kTZ:
      case Key::kOF:
        return Status::NotSupported(std::string("formatting field \"") +
                                    (n.key == Key::kTZ ? "TZ" : "OF") +
                                    "\" is only supported in to_char");
      case Key::kD:
      case Key::kID:
      case Key::kW:
      case Key::kWW:
      case Key::kIW:
      case Key::kCC:
      case Key::kQ: {
        MERIDIAN_RETURN_IF_ERROR(ReadNumber(in, &at, width(2), "field").status());
        break;
      }
    }
  }
  if (p.hour12 && (p.hour < 1 || p.hour > 12)) {
    return Status::Error(
        sqlstate::kInvalidDatetimeFormat,
        "hour \"" + std::to_string(p.hour) + "\" is invalid for the 12-hour clock");
  }
  if (p.has_ampm) p.hour = p.hour % 12 + (p.pm ? 12 : 0);
  if (p.bc) p.year = 1 - p.year;
  return p;
}

// Days since 2000-01-01 of the parsed date, with PostgreSQL's range errors (22008).
Result<int64_t> ParsedDays(const Parsed& p) {
  if (p.julian >= 0) return p.julian - kJulianOf2000;
  if (p.doy > 0) {
    if (p.doy > (datetime::DaysInMonth(p.year, 2) == 29 ? 366 : 365)) {
      return Status::Error(sqlstate::kDatetimeFieldOverflow, "date out of range");
    }
    return datetime::DaysFromCivil(p.year, 1, 1) + p.doy - 1;
  }
  if (p.month < 1 || p.month > 12 || p.day < 1 || p.day > datetime::DaysInMonth(p.year, p.month)) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%04lld-%02d-%02d", static_cast<long long>(p.year), p.month,
                  p.day);
    return Status::Error(sqlstate::kDatetimeFieldOverflow,
                         std::string("date/time field value out of range: \"") + buf + "\"");
  }
  return datetime::DaysFromCivil(p.year, p.month, p.day);
}

Result<Value> ToDate(Args a, ExecContext*) {
  MERIDIAN_ASSIGN_OR_RETURN(Parsed p, ParseByTemplate(a[0].AsString(), a[1].AsString()));
  MERIDIAN_ASSIGN_OR_RETURN(int64_t days, ParsedDays(p));
  MERIDIAN_RETURN_IF_ERROR(datetime::CheckTimestampRange(days * kMicrosPerDay));
  return Value::DateVal(Date{static_cast<int32_t>(days)});
}

Result<Value> ToTimestampText(Args a, ExecContext*) {
  MERIDIAN_ASSIGN_OR_RETURN(Parsed p, ParseByTemplate(a[0].AsString(), a[1].AsString()));
  MERIDIAN_ASSIGN_OR_RETURN(int64_t days, ParsedDays(p));
  if (p.hour > 24 || p.minute > 59 || p.second > 60) {
    return Status::Error(sqlstate::kDatetimeFieldOverflow, "date/time field value out of range");
  }
  const int64_t local = days * kMicrosPerDay + p.hour * 3600 * kMicrosPerSecond +
                        p.minute * 60 * kMicrosPerSecond + p.second * kMicrosPerSecond + p.micros;
  MERIDIAN_RETURN_IF_ERROR(datetime::CheckTimestampRange(local));
  if (p.has_offset)
    return Value::TimestampTzVal(TimestampTz{local - p.offset_s * kMicrosPerSecond});
  MERIDIAN_ASSIGN_OR_RETURN(TimestampTz t,
                            datetime::FromLocal(Timestamp{local}, datetime::CurrentZone()));
  return Value::TimestampTzVal(t);
}

// to_timestamp(double precision): seconds since 1970-01-01 00:00:00 UTC.
Result<Value> ToTimestampEpoch(Args a, ExecContext*) {
  const double s = a[0].AsNumber();
  if (std::isinf(s)) {
    return Value::TimestampTzVal(
        TimestampTz{s > 0 ? datetime::kTsPosInfinity : datetime::kTsNegInfinity});
  }
  if (std::isnan(s)) {
    return Status::Error(sqlstate::kDatetimeFieldOverflow, "timestamp cannot be NaN");
  }
  constexpr double kEpochOf2000 = 946684800.0;
  const double micros = std::nearbyint((s - kEpochOf2000) * 1e6);
  if (!(micros > -9.2e18 && micros < 9.2e18)) {
    return Status::Error(sqlstate::kDatetimeFieldOverflow, "timestamp out of range");
  }
  MERIDIAN_RETURN_IF_ERROR(datetime::CheckTimestampRange(static_cast<int64_t>(micros)));
  return Value::TimestampTzVal(TimestampTz{static_cast<int64_t>(micros)});
}

// ---- make_date / make_timestamp / make_timestamptz

Result<int64_t> MakeDays(int64_t year, int64_t month, int64_t day) {
  if (year == 0) {
    return Status::Error(sqlstate::kDatetimeFieldOverflow,
                         "date field value out of range: " + std::to_string(year) + "-" +
                             std::to_string(month) + "-" + std::to_string(day));
  }
  const int64_t astronomical = year < 0 ? year + 1 : year;
  if (month < 1 || month > 12 || day < 1 ||
      day > datetime::DaysInMonth(astronomical, static_cast<int>(month))) {
    return Status::Error(sqlstate::kDatetimeFieldOverflow,
                         "date field value out of range: " + std::to_string(year) + "-" +
                             std::to_string(month) + "-" + std::to_string(day));
  }
  return datetime::DaysFromCivil(astronomical, static_cast<int>(month), static_cast<int>(day));
}

Result<Value> MakeDate(Args a, ExecContext*) {
  MERIDIAN_ASSIGN_OR_RETURN(int64_t days, MakeDays(a[0].AsInt(), a[1].AsInt(), a[2].AsInt()));
  MERIDIAN_RETURN_IF_ERROR(datetime::CheckTimestampRange(days * kMicrosPerDay));
  return Value::DateVal(Date{static_cast<int32_t>(days)});
}

Result<int64_t> MakeLocalMicros(Args a) {
  MERIDIAN_ASSIGN_OR_RETURN(int64_t days, MakeDays(a[0].AsInt(), a[1].AsInt(), a[2].AsInt()));
  const int64_t hour = a[3].AsInt(), minute = a[4].AsInt();
  const double sec = a[5].AsNumber();
  if (hour < 0 || hour > 24 || minute < 0 || minute > 59 || !(sec >= 0 && sec <= 60) ||
      (hour == 24 && (minute > 0 || sec > 0))) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "time field value out of range: %lld:%02lld:%02g",
                  static_cast<long long>(hour), static_cast<long long>(minute), sec);
    return Status::Error(sqlstate::kDatetimeFieldOverflow, buf);
  }
  const int64_t local = days * kMicrosPerDay + hour * 3600 * kMicrosPerSecond +
                        minute * 60 * kMicrosPerSecond +
                        static_cast<int64_t>(std::nearbyint(sec * 1e6));
  MERIDIAN_RETURN_IF_ERROR(datetime::CheckTimestampRange(local));
  return local;
}

Result<Value> MakeTimestamp(Args a, ExecContext*) {
  MERIDIAN_ASSIGN_OR_RETURN(int64_t local, MakeLocalMicros(a));
  return Value::TimestampVal(Timestamp{local});
}

Result<Value> MakeTimestampTz(Args a, ExecContext*) {
  MERIDIAN_ASSIGN_OR_RETURN(int64_t local, MakeLocalMicros(a));
  std::shared_ptr<const datetime::TimeZone> named;
  if (a.size() > 6) {
    named = datetime::FindTimeZone(a[6].AsString());
    if (named == nullptr) {
      return Status::Error(sqlstate::kInvalidParameterValue,
                           "time zone \"" + a[6].AsString() + "\" not recognized");
    }
  }
  MERIDIAN_ASSIGN_OR_RETURN(
      TimestampTz t,
      datetime::FromLocal(Timestamp{local}, named != nullptr ? *named : datetime::CurrentZone()));
  return Value::TimestampTzVal(t);
}

// isfinite(date | timestamp | timestamptz | interval): false for +-infinity (an interval is
// always finite in PostgreSQL 15).
Result<Value> IsFiniteDate(Args a, ExecContext*) {
  return Value::Bool(datetime::IsFinite(a[0].AsDate()));
}
Result<Value> IsFiniteTimestamp(Args a, ExecContext*) {
  return Value::Bool(datetime::IsFinite(a[0].AsTimestamp()));
}
Result<Value> IsFiniteTimestampTz(Args a, ExecContext*) {
  return Value::Bool(datetime::IsFinite(a[0].AsTimestampTz()));
}
Result<Value> IsFiniteInterval(Args, ExecContext*) { return Value::Bool(true); }

constexpr ScalarFunction kFormatFunctions[] = {
    {"to_char", "St", 2, 't', &ToCharTimestamp},
    {"to_char", "Zt", 2, 't', &ToCharTimestampTz, false, true, false, /*is_stable=*/true},
    {"to_char", "Vt", 2, 't', &ToCharInterval},
    {"to_char", "Nt", 2, 't', &ToCharNumeric},
    {"to_char", "lt", 2, 't', &ToCharInteger},
    {"to_char", "Ft", 2, 't', &ToCharDouble},
    {"to_number", "tt", 2, 'N', &ToNumber},
    {"to_date", "tt", 2, 'D', &ToDate},
    {"to_timestamp", "tt", 2, 'Z', &ToTimestampText, false, true, false, /*is_stable=*/true},
    {"to_timestamp", "F", 1, 'Z', &ToTimestampEpoch},
    {"make_date", "iii", 3, 'D', &MakeDate},
    {"isfinite", "D", 1, 'b', &IsFiniteDate},
    {"isfinite", "S", 1, 'b', &IsFiniteTimestamp},
    {"isfinite", "Z", 1, 'b', &IsFiniteTimestampTz},
    {"isfinite", "V", 1, 'b', &IsFiniteInterval},
    {"make_timestamp", "iiiiiF", 6, 'S', &MakeTimestamp},
    {"make_timestamptz", "iiiiiFt", 6, 'Z', &MakeTimestampTz, false, true, false,
     /*is_stable=*/true},
};

}  // namespace

void RegisterFormatFunctions() { RegisterScalarFunctions(kFormatFunctions); }

}  // namespace meridian::exec
