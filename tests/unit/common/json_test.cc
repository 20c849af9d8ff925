// JSON/JSONB text forms and operations (meridian/json.h): json_in's validation and its
// PostgreSQL details, jsonb normalisation (key order, duplicates, numbers, escapes), the text
// scans behind -> / ->>, containment and jsonb's order.
#include "meridian/json.h"

#include <gtest/gtest.h>

#include <string>

namespace meridian::json {
namespace {

// jsonb_in then jsonb_out, or "ERROR <sqlstate>: <detail>".
std::string Jb(std::string_view text) {
  Result<Node> n = Parse(text, true);
  if (!n.ok()) return "ERROR " + n.status().sqlstate() + ": " + n.status().error().detail;
  return ToJsonb(*n);
}

std::string Invalid(std::string_view text) {
  Status st = Validate(text);
  return st.ok() ? "ok" : st.sqlstate() + ": " + st.error().detail;
}

TEST(JsonTest, JsonbNormalises) {
  EXPECT_EQ(Jb(R"({"b":1, "aa":2, "a":{"z":1.50e1,"y":1e-2}, "b":3})"),
            R"({"a": {"y": 0.01, "z": 15.0}, "b": 3, "aa": 2})");
  EXPECT_EQ(Jb("  [ 1 , \"x\" , true , false , null ]  "), R"([1, "x", true, false, null])");
  EXPECT_EQ(Jb(R"("\u0041\n\t\"\\\/")"), R"("A\n\t\"\\/")");
  EXPECT_EQ(Jb(R"("\ud83d\ude00")"), "\"\xF0\x9F\x98\x80\"");
  EXPECT_EQ(Jb(R"("\u001f")"), R"("\u001f")");
  EXPECT_EQ(Jb("{}"), "{}");
  EXPECT_EQ(Jb("[]"), "[]");
}

TEST(JsonTest, Numbers) {
  EXPECT_EQ(NormalizeNumber("-0"), "0");
  EXPECT_EQ(NormalizeNumber("-0.0"), "0.0");
  EXPECT_EQ(NormalizeNumber("1E+2"), "100");
  EXPECT_EQ(NormalizeNumber("0.000"), "0.000");
  EXPECT_EQ(NormalizeNumber("-12.5e-3"), "-0.0125");
  EXPECT_EQ(NormalizeNumber("1.50"), "1.50");
  EXPECT_EQ(NormalizeNumber("1e+20"), "100000000000000000000");
  EXPECT_EQ(Jb("1e131071").size(), 131072u);
  EXPECT_EQ(Jb("-1e-16383").size(), 16386u);
  EXPECT_EQ(Jb("[1e131072]").substr(0, 11), "ERROR 22003");
  EXPECT_EQ(Jb("1e-16384").substr(0, 11), "ERROR 22003");
  EXPECT_EQ(Jb("0.5e999999999999").substr(0, 11), "ERROR 22003");
  EXPECT_EQ(Invalid("1e100000000000"), "ok");  // json keeps the text
  EXPECT_EQ(CompareNumbers("1.0", "1"), 0);
  EXPECT_EQ(CompareNumbers("-2", "1"), -1);
  EXPECT_EQ(CompareNumbers("10", "9.99"), 1);
  EXPECT_EQ(CompareNumbers("-10", "-9.99"), -1);
  EXPECT_EQ(CompareNumbers("0.01", "1e-2"), 0);
}

TEST(JsonTest, ErrorsCarryPostgresDetails) {
  EXPECT_EQ(Invalid(R"({"a":})"), R"(22P02: Expected JSON value, but found "}".)");
  EXPECT_EQ(Invalid("[1,2"), "22P02: The input string ended unexpectedly.");
  EXPECT_EQ(Invalid("01"), R"(22P02: Token "01" is invalid.)");
  EXPECT_EQ(Invalid("nul"), R"(22P02: Token "nul" is invalid.)");
  EXPECT_EQ(Invalid(R"({"a" 1})"), R"(22P02: Expected ":", but found "1".)");
  EXPECT_EQ(Invalid(""), "22P02: The input string ended unexpectedly.");
  EXPECT_EQ(Invalid("[1,]"), R"(22P02: Expected JSON value, but found "]".)");
  EXPECT_EQ(Invalid(R"({"a":1}x)"), R"(22P02: Token "x" is invalid.)");
  EXPECT_EQ(Invalid(R"("\x")"), R"(22P02: Escape sequence "\x" is invalid.)");
  // json_in checks the syntax only; de-escaping (jsonb, json's field functions) checks pairs.
  EXPECT_EQ(Invalid(R"("\ud83d")"), "ok");
  EXPECT_EQ(Jb(R"("\ud83d")"), "ERROR 22P02: Unicode low surrogate must follow a high surrogate.");
  EXPECT_EQ(Validate(R"(["\ud83d."])", /*strict=*/true).error().detail,
            "Unicode low surrogate must follow a high surrogate.");
  EXPECT_EQ(Jb(R"("\udc00")"), "ERROR 22P02: Unicode low surrogate must follow a high surrogate.");
  EXPECT_EQ(Jb(R"("\ud83d\ud83d")"),
            "ERROR 22P02: Unicode high surrogate must not follow a high surrogate.");
  EXPECT_EQ(Invalid("\"a\nb\""), "22P02: Character with value 0x0a must be escaped.");
  EXPECT_EQ(Invalid(R"("\u0000")"), "ok");  // json keeps it; jsonb cannot
  EXPECT_EQ(Jb(R"("\u0000")"), R"(ERROR 22P05: \u0000 cannot be converted to text.)");
  EXPECT_EQ(Invalid(std::string(10000, '[') + std::string(10000, ']')).substr(0, 5), "54001");
}

TEST(JsonTest, FindFieldAndElementScanTheText) {
  std::string_view v;
  const std::string doc = R"({"a" : 1, "b":{"c":"}"}, "a\"q":[1,2], "a": "last"})";
  ASSERT_TRUE(FindField(doc, "a", &v));
  EXPECT_EQ(v, R"("last")");
  ASSERT_TRUE(FindField(doc, "b", &v));
  EXPECT_EQ(v, R"({"c":"}"})");
  ASSERT_TRUE(FindField(doc, "a\"q", &v));
  EXPECT_EQ(v, "[1,2]");
  EXPECT_FALSE(FindField(doc, "c", &v));
  EXPECT_FALSE(FindField("[1]", "a", &v));
  ASSERT_TRUE(FindElement("[ 1 , [2 , 3] , \"]\" ]", 1, &v));
  EXPECT_EQ(v, "[2 , 3]");
  ASSERT_TRUE(FindElement("[1, 2, 3]", -1, &v));
  EXPECT_EQ(v, "3");
  EXPECT_FALSE(FindElement("[1, 2, 3]", 3, &v));
  EXPECT_FALSE(FindElement("[1, 2, 3]", -4, &v));
  EXPECT_FALSE(FindElement("[]", 0, &v));
}

bool C(std::string_view a, std::string_view b) {
  Node x = *Parse(a, true), y = *Parse(b, true);
  const bool tree = Contains(x, y);
  EXPECT_EQ(*ContainsText(a, y), tree) << a << " @> " << b;
  return tree;
}

TEST(JsonTest, Containment) {
  EXPECT_TRUE(C(R"({"a":1,"b":2})", R"({"b":2})"));
  EXPECT_TRUE(C("[1,2,[3,4]]", "[[3]]"));
  EXPECT_TRUE(C("[1,2]", "1"));
  EXPECT_FALSE(C("1", "[1]"));
  EXPECT_TRUE(C(R"({"a":{"b":1,"c":2}})", R"({"a":{"c":2}})"));
  EXPECT_FALSE(C(R"({"a":1})", "[1]"));
  EXPECT_FALSE(C(R"([{"a":1}])", R"({"a":1})"));
  EXPECT_TRUE(C(R"({"a":1.0})", R"({"a":1})"));
  EXPECT_FALSE(C(R"({"a":{"b":[1]}})", R"({"a":{"b":2}})"));
  EXPECT_FALSE(C(R"({"a":"x"})", R"({"a":"x","b":null})"));
}

int Cmp(std::string_view a, std::string_view b) {
  return Compare(*Parse(a, true), *Parse(b, true));
}

TEST(JsonTest, JsonbOrder) {
  EXPECT_EQ(Cmp(R"({"a":1})", R"({"a":1.0})"), 0);
  EXPECT_LT(Cmp("null", "\"a\""), 0);
  EXPECT_LT(Cmp("\"a\"", "1"), 0);
  EXPECT_LT(Cmp("1", "false"), 0);
  EXPECT_LT(Cmp("false", "true"), 0);
  EXPECT_LT(Cmp("[]", "null"), 0);     // top level: a scalar is a one-element array
  EXPECT_LT(Cmp("true", "[3]"), 0);    // ... before a real one-element array
  EXPECT_LT(Cmp("[3]", "[1,2]"), 0);   // fewer elements first
  EXPECT_LT(Cmp("[true]", "[[]]"), 0);  // inside: by kind
  EXPECT_LT(Cmp("[9]", "[1,2]"), 0);
  EXPECT_LT(Cmp("[1,2,3]", "{}"), 0);
  EXPECT_GT(Cmp(R"({"a":1,"b":2})", R"({"c":1})"), 0);
}

TEST(JsonTest, SortKeyOrdersAsCompare) {
  const char* values[] = {
      "null", "\"\"", "\"a\"", "\"a\\u0001b\"", "\"ab\"", "\"b\"", "-1e10", "-10", "-9.99",
      "-1", "-0.5", "-0.05", "0", "0.05", "0.5", "1", "1.5", "9", "10", "100.25", "1e20",
      "false", "true", "[]", "[9]", "[null]", "[[]]", "[[1, 2]]", "[1, 2]", "[1, 3]", "[[1], 2]",
      "{}", "{\"a\": 1}",
      "{\"a\": 2}", "{\"b\": 0}", "{\"a\": 1, \"b\": 2}", "{\"a\": 1, \"bb\": 0}"};
  for (const char* a : values) {
    for (const char* b : values) {
      const Node x = *Parse(a, true), y = *Parse(b, true);
      const int c = Compare(x, y);
      const int k = SortKey(x).compare(SortKey(y));
      EXPECT_EQ(c < 0, k < 0) << a << " vs " << b;
      EXPECT_EQ(c == 0, k == 0) << a << " vs " << b;
    }
  }
  EXPECT_EQ(SortKey(*Parse("1.0", true)), SortKey(*Parse("1", true)));
}

TEST(JsonTest, Pretty) {
  EXPECT_EQ(Pretty(*Parse(R"({"a":[1,{"b":null}],"c":{}})", true)),
            "{\n    \"a\": [\n        1,\n        {\n            \"b\": null\n        }\n    ],\n"
            "    \"c\": {\n    }\n}");
}

}  // namespace
}  // namespace meridian::json
