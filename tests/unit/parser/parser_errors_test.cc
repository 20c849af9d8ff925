// Error paths: exact SQLSTATE, message, position, line and column for syntax errors, lexical
// errors (unterminated strings, identifiers, comments, stray characters, bad UTF-8), and the
// 54001 guards against inputs nested or chained too deeply.

#include "parser_test_util.h"

namespace meridian::parser::testing {
namespace {

struct Expected {
  const char* sql;
  const char* sqlstate;
  const char* message;
  uint32_t position;
  const char* detail;
};

void ExpectError(const Expected& want) {
  auto r = Parse(want.sql);
  ASSERT_FALSE(r.ok()) << want.sql;
  const ErrorInfo& err = r.status().error();
  EXPECT_EQ(err.sqlstate, want.sqlstate) << want.sql;
  EXPECT_EQ(err.message, want.message) << want.sql;
  EXPECT_EQ(err.position, want.position) << want.sql;
  EXPECT_EQ(err.detail, want.detail) << want.sql;
}

TEST(ParserErrors, SyntaxErrors) {
  const Expected cases[] = {
      {"SELEC 1", "42601", "syntax error at or near \"SELEC\"", 1, "line 1, column 1"},
      {"SELECT 1 FROM", "42601", "syntax error at end of input", 14, "line 1, column 14"},
      {"SELECT 1 2", "42601", "syntax error at or near \"2\"", 10, "line 1, column 10"},
      {"SELECT (1", "42601", "syntax error at end of input", 10, "line 1, column 10"},
      {"SELECT 1)", "42601", "syntax error at or near \")\"", 9, "line 1, column 9"},
      {"SELECT a FROM t WHERE", "42601", "syntax error at end of input", 22, "line 1, column 22"},
      {"SELECT * FROM select", "42601", "syntax error at or near \"select\"", 15,
       "line 1, column 15"},
      {"INSERT INTO t VALUES", "42601", "syntax error at end of input", 21, "line 1, column 21"},
      {"INSERT t VALUES (1)", "42601", "syntax error at or near \"t\"", 8, "line 1, column 8"},
      {"UPDATE t SET a 1", "42601", "syntax error at or near \"1\"", 16, "line 1, column 16"},
      {"DELETE t", "42601", "syntax error at or near \"t\"", 8, "line 1, column 8"},
      {"CREATE TABLE t (a)", "42601", "syntax error at end of input", 19, "line 1, column 19"},
      {"DROP TABLE", "42601", "syntax error at end of input", 11, "line 1, column 11"},
      {"SELECT 1 + ", "42601", "syntax error at end of input", 12, "line 1, column 12"},
      {"SELECT CASE END", "42601", "syntax error at or near \"END\"", 13, "line 1, column 13"},
      {"SELECT a IN ()", "42601", "syntax error at or near \")\"", 14, "line 1, column 14"},
      {"SELECT 1 # 2", "42601", "syntax error at or near \"#\"", 10, "line 1, column 10"},
      {"SELECT 1; SELEC 2", "42601", "syntax error at or near \"SELEC\"", 11, "line 1, column 11"},
      {"SELECT 1 SELECT 2", "42601", "syntax error at or near \"SELECT\"", 10, "line 1, column 10"},
      {"SELECT count(*, a)", "42601", "syntax error at or near \",\"", 15, "line 1, column 15"},
  };
  for (const Expected& c : cases) ExpectError(c);
}

TEST(ParserErrors, MultiLinePositions) {
  ExpectError({"SELECT a,\n       b\n  FROM t\n WHERE a = = 1", "42601",
               "syntax error at or near \"=\"", 40, "line 4, column 12"});
  ExpectError({"-- comment\n/* block\n comment */ SELECT\n\tfrom", "42601",
               "syntax error at or near \"from\"", 41, "line 4, column 2"});
  ExpectError({"SELECT 'ü',\n  'é' 'x'", "42601", "syntax error at or near \"'x'\"", 19,
               "line 2, column 7"});
  ExpectError(
      {"SELECT 1 /* é\n */ +", "42601", "syntax error at end of input", 20, "line 2, column 6"});
}

TEST(ParserErrors, LexicalErrors) {
  ExpectError({"SELECT 'abc", "42601", "unterminated quoted string at or near \"'abc\"", 8,
               "line 1, column 8"});
  ExpectError({"SELECT 'it''s", "42601", "unterminated quoted string at or near \"'it''s\"", 8,
               "line 1, column 8"});
  ExpectError({"SELECT 1,\n \"Abc", "42601", "unterminated quoted identifier at or near \"\"Abc\"",
               12, "line 2, column 2"});
  ExpectError({"SELECT 1 /* never closed", "42601",
               "unterminated /* comment at or near \"/* never closed\"", 10, "line 1, column 10"});
  ExpectError({"SELECT 1 /* outer /* inner */ still open", "42601",
               "unterminated /* comment at or near \"/* outer /* inner */ still open\"", 10,
               "line 1, column 10"});
  ExpectError({"SELECT 'ä',\n /* a\n /* b */", "42601",
               "unterminated /* comment at or near \"/* a\n /* b */\"", 14, "line 2, column 2"});
  ExpectError({"SELECT 1 @", "42601", "syntax error at or near \"@\"", 10, "line 1, column 10"});
}

TEST(ParserErrors, InvalidUtf8) {
  auto r = Parse(std::string("SELECT 'a\xff'"));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().sqlstate(), "22021");
  EXPECT_EQ(r.status().message(), "invalid byte sequence for encoding \"UTF8\": 0xff");
  EXPECT_EQ(r.status().position(), 10u);
  auto nul = Parse(std::string("SELECT 1\0", 9));
  ASSERT_FALSE(nul.ok());
  EXPECT_EQ(nul.status().sqlstate(), "22021");
  EXPECT_FALSE(Parse(std::string("SELECT '\xed\xa0\x80'")).ok());  // surrogate
  EXPECT_FALSE(Parse(std::string("SELECT '\xc0\xaf'")).ok());      // overlong
}

TEST(ParserErrors, DeepParenthesesAreRejectedNotCrashed) {
  std::string sql = "SELECT " + std::string(100000, '(');
  auto r = Parse(sql);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().sqlstate(), "54001");
  EXPECT_EQ(r.status().message(), "statement is too complex");
  EXPECT_EQ(r.status().position(), 8u + 200u);

  std::string balanced = "SELECT " + std::string(5000, '(') + "1" + std::string(5000, ')');
  EXPECT_EQ(Parse(balanced).status().sqlstate(), "54001");
  auto expr = ParseExpression(std::string(100000, '('));
  ASSERT_FALSE(expr.ok());
  EXPECT_EQ(expr.status().sqlstate(), "54001");
}

TEST(ParserErrors, ModerateNestingIsFine) {
  std::string sql = "SELECT " + std::string(150, '(') + "1" + std::string(150, ')');
  auto r = Parse(sql);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  std::string cases = "SELECT ";
  for (int i = 0; i < 50; ++i) cases += "CASE WHEN a THEN ";
  cases += "1";
  for (int i = 0; i < 50; ++i) cases += " END";
  EXPECT_TRUE(Parse(cases).ok());
}

TEST(ParserErrors, LongPrefixChainsAreRejected) {
  std::string nots = "SELECT ";
  for (int i = 0; i < 100000; ++i) nots += "NOT ";
  nots += "a";
  EXPECT_EQ(Parse(nots).status().sqlstate(), "54001");
  std::string minus = "SELECT ";
  for (int i = 0; i < 100000; ++i) minus += "- ";
  minus += "1";
  EXPECT_EQ(Parse(minus).status().sqlstate(), "54001");
  std::string cases = "SELECT ";
  for (int i = 0; i < 100000; ++i) cases += "CASE WHEN a THEN ";
  EXPECT_EQ(Parse(cases).status().sqlstate(), "54001");
}

TEST(ParserErrors, LongOperatorChainsAreRejectedNotCrashed) {
  std::string sql = "SELECT 1";
  for (int i = 0; i < 100000; ++i) sql += "+1";
  auto r = Parse(sql);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().sqlstate(), "54001");
  EXPECT_EQ(r.status().position(), 1u);

  std::string ok_sql = "SELECT 1";
  for (int i = 0; i < 500; ++i) ok_sql += " AND a";
  EXPECT_TRUE(Parse(ok_sql).ok());
  // Long but flat lists are not deep.
  std::string in_list = "SELECT a IN (0";
  for (int i = 1; i < 20000; ++i) {
    in_list += ',';
    in_list += std::to_string(i);
  }
  in_list += ")";
  EXPECT_TRUE(Parse(in_list).ok());
}

}  // namespace
}  // namespace meridian::parser::testing
