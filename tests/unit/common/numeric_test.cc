// NUMERIC arithmetic against PostgreSQL 15's results: parsing and text form, + - * / % with
// their result scales (select_div_scale), rounding half away from zero, typmod overflow,
// integer/double conversions and the 38-digit limit.
#include "meridian/numeric.h"

#include <gtest/gtest.h>

#include <string>

namespace meridian::numeric {
namespace {

Numeric N(const char* text) {
  Result<Numeric> n = Parse(text);
  EXPECT_TRUE(n.ok()) << text;
  return n.ok() ? *n : Numeric{};
}

std::string S(const Result<Numeric>& r) {
  if (!r.ok()) return "ERROR " + r.status().sqlstate();
  return ToString(*r);
}

TEST(NumericTest, ParseAndPrint) {
  EXPECT_EQ(S(Parse("1.50")), "1.50");
  EXPECT_EQ(S(Parse("  -0.000 ")), "0.000");
  EXPECT_EQ(S(Parse("+12")), "12");
  EXPECT_EQ(S(Parse("1.5e3")), "1500");
  EXPECT_EQ(S(Parse("1.5e-3")), "0.0015");
  EXPECT_EQ(S(Parse(".5")), "0.5");
  EXPECT_EQ(S(Parse("5.")), "5");
  EXPECT_EQ(S(Parse("abc")), "ERROR 22P02");
  EXPECT_EQ(S(Parse("1.2.3")), "ERROR 22P02");
  EXPECT_EQ(S(Parse("1e")), "ERROR 22P02");
  EXPECT_EQ(S(Parse("")), "ERROR 22P02");
  EXPECT_EQ(S(Parse("NaN")), "ERROR 0A000");
  EXPECT_EQ(S(Parse("99999999999999999999999999999999999999")),
            "99999999999999999999999999999999999999");
  EXPECT_EQ(S(Parse("999999999999999999999999999999999999999")), "ERROR 22003");
}

TEST(NumericTest, AddSubMul) {
  EXPECT_EQ(S(Add(N("1.5"), N("2.25"))), "3.75");
  EXPECT_EQ(S(Add(N("1.50"), N("1"))), "2.50");
  EXPECT_EQ(S(Sub(N("10.25"), N("0.25"))), "10.00");
  EXPECT_EQ(S(Sub(N("1"), N("3.5"))), "-2.5");
  EXPECT_EQ(S(Mul(N("1.5"), N("2.25"))), "3.375");
  EXPECT_EQ(S(Mul(N("-0.1"), N("0.1"))), "-0.01");
  EXPECT_EQ(S(Mul(N("0"), N("-1.5"))), "0.0");
  EXPECT_EQ(S(Mul(N("99999999999999999999"), N("99999999999999999999"))), "ERROR 22003");
}

TEST(NumericTest, DivisionScaleAsPostgres) {
  EXPECT_EQ(S(Div(N("1"), N("3"))), "0.33333333333333333333");
  EXPECT_EQ(S(Div(N("10"), N("4"))), "2.5000000000000000");
  EXPECT_EQ(S(Div(N("2"), N("3.0"))), "0.66666666666666666667");
  EXPECT_EQ(S(Div(N("123456789.123"), N("1000"))), "123456.789123000000");
  EXPECT_EQ(S(Div(N("1000000000000"), N("7.0"))), "142857142857.14285714");
  EXPECT_EQ(S(Div(N("-1"), N("3"))), "-0.33333333333333333333");
  EXPECT_EQ(S(Div(N("0"), N("3"))), "0.00000000000000000000");
  EXPECT_EQ(S(Div(N("1"), N("0"))), "ERROR 22012");
}

TEST(NumericTest, Mod) {
  EXPECT_EQ(S(Mod(N("7.5"), N("2"))), "1.5");
  EXPECT_EQ(S(Mod(N("-7.5"), N("2"))), "-1.5");
  EXPECT_EQ(S(Mod(N("7"), N("-3"))), "1");
  EXPECT_EQ(S(Mod(N("1"), N("0.0"))), "ERROR 22012");
}

TEST(NumericTest, RoundTruncFloorCeil) {
  EXPECT_EQ(S(Round(N("2.675"), 2)), "2.68");
  EXPECT_EQ(S(Round(N("-1.25"), 1)), "-1.3");
  EXPECT_EQ(S(Round(N("1234.5678"), -2)), "1200");
  EXPECT_EQ(S(Round(N("0.5"), 0)), "1");
  EXPECT_EQ(S(Round(N("-0.5"), 0)), "-1");
  EXPECT_EQ(S(Round(N("1.5"), 3)), "1.500");
  EXPECT_EQ(S(Round(N("49"), -2)), "0");
  EXPECT_EQ(S(Trunc(N("1.99"), 1)), "1.9");
  EXPECT_EQ(S(Trunc(N("-1.99"), 0)), "-1");
  EXPECT_EQ(S(Floor(N("-1.5"))), "-2");
  EXPECT_EQ(S(Floor(N("1.5"))), "1");
  EXPECT_EQ(S(Ceil(N("1.2"))), "2");
  EXPECT_EQ(S(Ceil(N("-1.2"))), "-1");
}

TEST(NumericTest, Typmod) {
  const int32_t t = MakeTypmod(10, 2);
  EXPECT_EQ(S(ApplyTypmod(N("1.005"), t)), "1.01");
  EXPECT_EQ(S(ApplyTypmod(N("-1.005"), t)), "-1.01");
  EXPECT_EQ(S(ApplyTypmod(N("99999999.994"), t)), "99999999.99");
  EXPECT_EQ(S(ApplyTypmod(N("99999999.995"), t)), "ERROR 22003");
  EXPECT_EQ(S(ApplyTypmod(N("7"), MakeTypmod(3, 3))), "ERROR 22003");
  EXPECT_EQ(S(ApplyTypmod(N("0.9994"), MakeTypmod(3, 3))), "0.999");
  Result<Numeric> r = ApplyTypmod(N("123456789"), t);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "numeric field overflow");
  EXPECT_EQ(r.status().error().detail,
            "A field with precision 10, scale 2 must round to an absolute value less than 10^8.");
}

TEST(NumericTest, CompareAcrossScales) {
  EXPECT_EQ(Compare(N("1.5"), N("1.50")), 0);
  EXPECT_LT(Compare(N("-2"), N("1")), 0);
  EXPECT_GT(Compare(N("0.10000001"), N("0.1")), 0);
  EXPECT_LT(Compare(N("-0.10000001"), N("-0.1")), 0);
  EXPECT_GT(Compare(N("99999999999999999999999999999999999999"), N("0.00000000000000000001")), 0);
}

TEST(NumericTest, Conversions) {
  EXPECT_EQ(S(FromDouble(0.1)), "0.1");
  EXPECT_EQ(S(FromDouble(1e20)), "100000000000000000000");
  EXPECT_EQ(S(FromDouble(-2.5)), "-2.5");
  EXPECT_DOUBLE_EQ(ToDouble(N("1.25")), 1.25);
  EXPECT_EQ(*ToInt(N("2.5"), INT32_MIN, INT32_MAX, "integer"), 3);
  EXPECT_EQ(*ToInt(N("-2.5"), INT32_MIN, INT32_MAX, "integer"), -3);
  EXPECT_FALSE(ToInt(N("32767.5"), -32768, 32767, "smallint").ok());
  EXPECT_EQ(ToString(FromInt(INT64_MIN)), "-9223372036854775808");
}

// Magnitudes above 2^64 print in blocks of 19 digits: inner zeros must survive.
TEST(NumericTest, PrintsWideMagnitudes) {
  for (const char* text :
       {"18446744073709551615", "18446744073709551616", "10000000000000000000",
        "-100000000000000000000000000000000000.01", "99999999999999999999999999999999999999",
        "1000000000000000000.5", "0.00000000000000000000000000000000000001"}) {
    EXPECT_EQ(S(Parse(text)), text);
  }
  EXPECT_EQ(S(Add(N("18446744073709551615"), N("1"))), "18446744073709551616");
}

TEST(NumericTest, MoneySumDoesNotDrift) {
  Numeric sum;
  for (int i = 0; i < 10000; ++i) sum = *Add(sum, N("0.01"));
  EXPECT_EQ(ToString(sum), "100.00");
}

}  // namespace
}  // namespace meridian::numeric
