// Tests of Value text forms (PostgreSQL float8out rules) and column helpers.
#include "meridian/client/value.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace meridian::client {
namespace {

TEST(FormatDoubleTest, MatchesPostgres) {
  EXPECT_EQ(FormatDouble(1.5), "1.5");
  EXPECT_EQ(FormatDouble(-2e20), "-2e+20");
  EXPECT_EQ(FormatDouble(1.0 / 3), "0.3333333333333333");
  EXPECT_EQ(FormatDouble(1e15), "1e+15");
  EXPECT_EQ(FormatDouble(1e14), "100000000000000");
  EXPECT_EQ(FormatDouble(123456789012345678.0), "1.2345678901234568e+17");
  EXPECT_EQ(FormatDouble(1e-5), "1e-05");
  EXPECT_EQ(FormatDouble(0.0001), "0.0001");
  EXPECT_EQ(FormatDouble(std::nan("")), "NaN");
  EXPECT_EQ(FormatDouble(-std::numeric_limits<double>::infinity()), "-Infinity");
  EXPECT_EQ(FormatDouble(std::numeric_limits<double>::infinity()), "Infinity");
  EXPECT_EQ(FormatDouble(-0.0), "-0");
  EXPECT_EQ(FormatDouble(0.0), "0");
  EXPECT_EQ(FormatDouble(2.5e-310), "2.5e-310");
  EXPECT_EQ(FormatDouble(100.0), "100");
  EXPECT_EQ(FormatDouble(12.25), "12.25");
}

TEST(ValueTest, TextForms) {
  EXPECT_EQ(Value::Null().ToText(), "");
  EXPECT_TRUE(Value::Null().is_null());
  EXPECT_EQ(Value::Bool(true).ToText(), "t");
  EXPECT_EQ(Value::Bool(false).ToText(), "f");
  EXPECT_EQ(Value::Int(-42).ToText(), "-42");
  EXPECT_EQ(Value::Text("héllo").ToText(), "héllo");
  EXPECT_EQ(Value::Bytes(std::string("\x01\xff", 2)).ToText(), "\\x01ff");
  EXPECT_EQ(Value::Int(1), Value::Int(1));
  EXPECT_NE(Value::Int(1), Value::Double(1));
}

TEST(ColumnInfoTest, DisplayTypeAndNumeric) {
  ColumnInfo c{"v", "character varying", 10, kOidVarchar, true};
  EXPECT_EQ(c.DisplayType(), "character varying(10)");
  c.type_mod = -1;
  EXPECT_EQ(c.DisplayType(), "character varying");
  EXPECT_TRUE(IsNumericOid(kOidInt4));
  EXPECT_TRUE(IsNumericOid(kOidFloat8));
  EXPECT_FALSE(IsNumericOid(kOidText));
  EXPECT_FALSE(IsNumericOid(kOidBool));
}

}  // namespace
}  // namespace meridian::client
