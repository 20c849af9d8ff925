// DATE and TIMESTAMP [WITHOUT TIME ZONE] values as PostgreSQL represents them: days and
// microseconds since 2000-01-01 (proleptic Gregorian calendar), 'infinity'/'-infinity' as the
// extreme values. Text input is ISO 8601 (YYYY-MM-DD, optional time with 'T' or blank, optional
// fraction; a zone suffix is ignored as PostgreSQL does for timestamp without time zone; a
// trailing BC; the words epoch, infinity, -infinity, now, today, tomorrow, yesterday).
// Output is DateStyle ISO. No INTERVAL, TIME or time-zone-aware type.
#pragma once

#include <cstdint>
#include <limits>
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

}  // namespace datetime
}  // namespace meridian
