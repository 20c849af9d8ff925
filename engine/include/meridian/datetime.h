// DATE, TIMESTAMP [WITHOUT TIME ZONE], TIMESTAMP WITH TIME ZONE, TIME and INTERVAL values as
// PostgreSQL represents them: days and microseconds since 2000-01-01 (proleptic Gregorian
// calendar; a timestamptz counts UTC microseconds), 'infinity'/'-infinity' as the extreme
// values; an interval is months, days and microseconds. Text input is ISO 8601 (YYYY-MM-DD,
// optional time with 'T' or blank, optional fraction; a zone suffix is ignored by timestamp
// without time zone and honoured by timestamptz; a trailing BC; the words epoch, infinity,
// -infinity, now, today, tomorrow, yesterday). Output is DateStyle ISO, IntervalStyle
// postgres. Time zones are IANA names read from the system's tzdata (TZif files).
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <string_view>

#include "meridian/status.h"

namespace meridian {

struct Date {
  int32_t days = 0;  // since 2000-01-01; INT32_MIN / INT32_MAX are -infinity / infinity
  friend bool operator==(const Date&, const Date&) = default;
};

struct Timestamp {
  int64_t micros = 0;  // since 2000-01-01 00:00:00; INT64_MIN / INT64_MAX are -/+infinity
  friend bool operator==(const Timestamp&, const Timestamp&) = default;
};

// TIMESTAMP WITH TIME ZONE: an instant, UTC microseconds since 2000-01-01 00:00:00 UTC.
struct TimestampTz {
  int64_t micros = 0;  // INT64_MIN / INT64_MAX are -/+infinity
  friend bool operator==(const TimestampTz&, const TimestampTz&) = default;
};

// TIME [WITHOUT TIME ZONE]: microseconds since midnight, 0 .. 24:00:00 inclusive.
struct TimeOfDay {
  int64_t micros = 0;
  friend bool operator==(const TimeOfDay&, const TimeOfDay&) = default;
};

// INTERVAL as PostgreSQL stores it: the three fields are independent (a month is not a fixed
// number of days, nor a day of hours across DST); == is field-wise, ordering compares
// months * 30 + days days plus micros (CompareIntervals).
struct Interval {
  int32_t months = 0;
  int32_t days = 0;
  int64_t micros = 0;
  friend bool operator==(const Interval&, const Interval&) = default;
};

class TimeZone;

namespace datetime {

inline constexpr int32_t kDateNegInfinity = std::numeric_limits<int32_t>::min();
inline constexpr int32_t kDatePosInfinity = std::numeric_limits<int32_t>::max();
inline constexpr int64_t kTsNegInfinity = std::numeric_limits<int64_t>::min();
inline constexpr int64_t kTsPosInfinity = std::numeric_limits<int64_t>::max();
inline constexpr int64_t kMicrosPerDay = 86400LL * 1000000;

bool IsFinite(Date d);
bool IsFinite(Timestamp t);

// Days since 2000-01-01 of a proleptic Gregorian date (astronomical year: 0 = 1 BC).
int64_t DaysFromCivil(int64_t year, int month, int day);
void CivilFromDays(int64_t days, int64_t* year, int* month, int* day);
int DaysInMonth(int64_t year, int month);  // month 1..12
int64_t FloorDiv(int64_t a, int64_t b);
// A finite timestamp's microseconds within PostgreSQL's range (22008 "timestamp out of range"
// outside it).
Status CheckTimestampRange(int64_t micros);

// Current wall-clock time (UTC) as a timestamp.
Timestamp Now();

// date_in / timestamp_in. 22007 "invalid input syntax for type date: \"...\"", 22008
// "date/time field value out of range: \"...\"" or "date out of range: \"...\"".
Result<Date> ParseDate(std::string_view text);
// precision < 0: microseconds; 0..6 rounds the fraction (timestamp(p)).
Result<Timestamp> ParseTimestamp(std::string_view text, int precision = -1);
std::string ToString(Date d);
std::string ToString(Timestamp t);

// date ± days; 22008 "date out of range" beyond PostgreSQL's range.
Result<Date> AddDays(Date d, int64_t days);
Timestamp ToTimestamp(Date d);
// 22008 "timestamp out of range" outside the timestamp range.
Result<Timestamp> CheckedToTimestamp(Date d);
Date ToDate(Timestamp t);  // the day of t
// Rounds the fraction of seconds to precision digits (0..6).
Result<Timestamp> RoundTimestamp(Timestamp t, int precision);

// Fields of a finite timestamp for EXTRACT / date_part.
struct Fields {
  int64_t year;
  int month, day, hour, minute;
  int64_t micros_of_minute;  // seconds * 10^6 + fraction
  int day_of_week;           // 0 = Sunday
  int day_of_year;           // 1..366
};
Fields Split(Timestamp t);

// ---- intervals (interval.cc)
// interval_in: PostgreSQL's formats ('1 day 02:00', '-1 year +2 mons', '1 week ago', '@ 1
// hour', 'P1Y2M3DT4H5M6S', 'P0001-02-03T04:05:06', '1.5 days'); 22007 bad syntax, 22015
// "interval field value out of range" / "interval out of range".
Result<Interval> ParseInterval(std::string_view text);
// interval_out, IntervalStyle postgres: "1 year 2 mons 3 days 04:05:06.5", "-00:30:00".
std::string ToString(Interval i);
// interval_cmp: months as 30 days, days as 24 hours. -1, 0, 1.
int CompareIntervals(Interval a, Interval b);
// The span CompareIntervals orders by: micros + (months * 30 + days) * a day's micros.
__int128 IntervalSpan(Interval i);
// Field-wise; 22008 "interval out of range" on overflow.
Result<Interval> AddIntervals(Interval a, Interval b);
Result<Interval> NegateInterval(Interval i);
// interval * / float8 with PostgreSQL's cascade of fractional months and days; 22012 for / 0.
Result<Interval> MultiplyInterval(Interval i, double factor);
Result<Interval> DivideInterval(Interval i, double divisor);
Interval JustifyHours(Interval i);
Interval JustifyDays(Interval i);
Interval JustifyInterval(Interval i);
// timestamp + interval: months (day clamped to the month's end), then days, then micros;
// 22008 "timestamp out of range". Infinite timestamps stay as they are.
Result<Timestamp> AddInterval(Timestamp t, Interval i);
// timestamp - timestamp: justify_hours of the microsecond difference; 22008 for infinities.
Result<Interval> Subtract(Timestamp a, Timestamp b);
// age(a, b): symbolic years, months and days, as timestamp_age.
Result<Interval> Age(Timestamp a, Timestamp b);

// ---- time of day (interval.cc)
// time_in: HH:MM[:SS[.f]] (an optional date and zone before/after are ignored), 'allballs'.
Result<TimeOfDay> ParseTime(std::string_view text, int precision = -1);
std::string ToString(TimeOfDay t);
Result<TimeOfDay> RoundTime(TimeOfDay t, int precision);
// time + interval wraps around midnight (only the interval's micros count).
TimeOfDay AddInterval(TimeOfDay t, Interval i);

// ---- time zones (timezone.cc)
// An IANA zone read from /usr/share/zoneinfo (TZif v2+, with its POSIX rule for times after
// the last transition), a fixed UTC offset ('+05:30', 'UTC+3' as POSIX reads it), or UTC.
// Immutable once made; shared between sessions.
class TimeZone {
 public:
  virtual ~TimeZone() = default;
  // The name SET TimeZone shows.
  virtual const std::string& name() const = 0;
  // Seconds east of UTC at the UTC instant utc_micros (since 2000-01-01).
  virtual int64_t OffsetAtUtc(int64_t utc_micros) const = 0;
};
// The zone called name (case-insensitive for UTC/GMT/Z and the fixed forms; IANA names as the
// files are called), or nullptr when there is no such zone.
std::shared_ptr<const TimeZone> FindTimeZone(std::string_view name);
const TimeZone& UtcZone();
// The zone of the session running on this thread (UTC unless a ScopedTimeZone set it):
// timestamptz text input/output and casts use it.
const TimeZone& CurrentZone();
class ScopedTimeZone {
 public:
  explicit ScopedTimeZone(std::shared_ptr<const TimeZone> zone);
  ~ScopedTimeZone();
  ScopedTimeZone(const ScopedTimeZone&) = delete;
  ScopedTimeZone& operator=(const ScopedTimeZone&) = delete;

 private:
  std::shared_ptr<const TimeZone> zone_;
  const TimeZone* previous_;
};
// Offset (seconds east) of the local time local_micros in zone: PostgreSQL's rule for a
// skipped or repeated local time (DST gaps take the offset before the transition).
int64_t OffsetForLocal(const TimeZone& zone, int64_t local_micros);
bool IsFinite(TimestampTz t);
Timestamp ToLocal(TimestampTz t, const TimeZone& zone);
Result<TimestampTz> FromLocal(Timestamp t, const TimeZone& zone);
// timestamptz_in: an explicit offset ('+02', '-05:30', 'Z') or zone name in the text wins over
// zone.
Result<TimestampTz> ParseTimestampTz(std::string_view text, const TimeZone& zone,
                                     int precision = -1);
// timestamptz + interval: months and days added to the local time in zone (so a day across a
// DST change is 23 or 25 hours), then micros to the instant.
Result<TimestampTz> AddInterval(TimestampTz t, Interval i, const TimeZone& zone);
// timestamptz_out: local time in zone and its offset ("2024-01-01 09:00:00+01", "+05:30").
std::string ToString(TimestampTz t, const TimeZone& zone);

}  // namespace datetime
}  // namespace meridian
