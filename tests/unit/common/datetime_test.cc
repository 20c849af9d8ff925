// DATE/TIMESTAMP input and output as PostgreSQL 15 (DateStyle ISO): calendar edges, fractions,
// BC years, infinities, error codes, and the civil-day conversion over a wide range.
#include "meridian/datetime.h"

#include <gtest/gtest.h>

#include <string>

namespace meridian::datetime {
namespace {

std::string D(const char* text) {
  Result<Date> d = ParseDate(text);
  return d.ok() ? ToString(*d) : "ERROR " + d.status().sqlstate();
}

std::string T(const char* text, int precision = -1) {
  Result<Timestamp> t = ParseTimestamp(text, precision);
  return t.ok() ? ToString(*t) : "ERROR " + t.status().sqlstate();
}

TEST(DateTimeTest, Dates) {
  EXPECT_EQ(D("2026-11-22"), "2026-11-22");
  EXPECT_EQ(D(" 2024-02-29 "), "2024-02-29");
  EXPECT_EQ(D("2026-11-22 10:11:12"), "2026-11-22");
  EXPECT_EQ(D("0044-03-15 BC"), "0044-03-15 BC");
  EXPECT_EQ(D("infinity"), "infinity");
  EXPECT_EQ(D("-infinity"), "-infinity");
  EXPECT_EQ(D("epoch"), "1970-01-01");
  EXPECT_EQ(D("4714-11-24 BC"), "4714-11-24 BC");
  EXPECT_EQ(D("4714-11-23 BC"), "ERROR 22008");
  EXPECT_EQ(D("2026-02-29"), "ERROR 22008");
  EXPECT_EQ(D("2026-13-01"), "ERROR 22008");
  EXPECT_EQ(D("0000-01-01"), "ERROR 22008");
  EXPECT_EQ(D("abc"), "ERROR 22007");
  EXPECT_EQ(D("2026-11"), "ERROR 22007");
  Result<Date> bad = ParseDate("abc");
  EXPECT_EQ(bad.status().message(), "invalid input syntax for type date: \"abc\"");
}

TEST(DateTimeTest, Timestamps) {
  EXPECT_EQ(T("2026-11-22 10:11:12.123456"), "2026-11-22 10:11:12.123456");
  EXPECT_EQ(T("2026-11-22T10:11:12"), "2026-11-22 10:11:12");
  EXPECT_EQ(T("2026-11-22"), "2026-11-22 00:00:00");
  EXPECT_EQ(T("2026-11-22 10:11"), "2026-11-22 10:11:00");
  EXPECT_EQ(T("2026-11-22 10:11:12.5"), "2026-11-22 10:11:12.5");
  EXPECT_EQ(T("2026-11-22 10:11:12.1234567"), "2026-11-22 10:11:12.123457");
  EXPECT_EQ(T("2026-11-22 10:11:12+02:00"), "2026-11-22 10:11:12");
  EXPECT_EQ(T("2026-11-22 24:00:00"), "2026-11-23 00:00:00");
  EXPECT_EQ(T("2026-11-22 10:11:12.56", 1), "2026-11-22 10:11:12.6");
  EXPECT_EQ(T("2026-11-22 10:11:12.5", 0), "2026-11-22 10:11:13");
  EXPECT_EQ(T("1999-12-31 23:59:59.999999"), "1999-12-31 23:59:59.999999");
  EXPECT_EQ(T("0001-01-01 00:00:00 BC"), "0001-01-01 00:00:00 BC");
  EXPECT_EQ(T("294276-12-31 23:59:59.999999"), "294276-12-31 23:59:59.999999");
  EXPECT_EQ(T("294277-01-01 00:00:00"), "ERROR 22008");
  EXPECT_EQ(T("2026-11-22 25:00:00"), "ERROR 22008");
  EXPECT_EQ(T("2026-11-22 10:60:00"), "ERROR 22008");
  EXPECT_EQ(T("2026-11-22 10:11:12 xyz"), "ERROR 22007");
}

TEST(DateTimeTest, CivilDaysRoundTrip) {
  EXPECT_EQ(DaysFromCivil(2000, 1, 1), 0);
  EXPECT_EQ(DaysFromCivil(1970, 1, 1), -10957);
  EXPECT_EQ(DaysFromCivil(-4713, 11, 24), -2451545);  // julian day 0
  for (int64_t d = -2451545; d < 3000000; d += 997) {
    int64_t y = 0;
    int m = 0, day = 0;
    CivilFromDays(d, &y, &m, &day);
    ASSERT_EQ(DaysFromCivil(y, m, day), d);
  }
}

TEST(DateTimeTest, Arithmetic) {
  EXPECT_EQ(ToString(*AddDays(*ParseDate("2026-02-28"), 1)), "2026-03-01");
  EXPECT_EQ(ToString(*AddDays(*ParseDate("2024-02-28"), 1)), "2024-02-29");
  EXPECT_FALSE(AddDays(*ParseDate("5874897-12-31"), 1).ok());
  EXPECT_EQ(ToString(ToDate(*ParseTimestamp("1999-12-31 23:59:59"))), "1999-12-31");
  EXPECT_EQ(ToString(ToDate(*ParseTimestamp("1969-12-31 23:59:59"))), "1969-12-31");
  const Fields f = Split(*ParseTimestamp("2026-11-22 10:11:12.5"));
  EXPECT_EQ(f.day_of_week, 0);  // a Sunday
  EXPECT_EQ(f.day_of_year, 326);
  EXPECT_EQ(f.micros_of_minute, 12500000);
}

}  // namespace
}  // namespace meridian::datetime
