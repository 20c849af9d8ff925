// Tests of psql-style error display: SQLSTATE, LINE n, caret, DETAIL/HINT, long-line cuts.
#include "shell/error_format.h"

#include <gtest/gtest.h>

namespace meridian::shell {
namespace {

client::ClientError Error(std::string sqlstate, std::string message, uint32_t position) {
  client::ClientError e;
  e.sqlstate = std::move(sqlstate);
  e.message = std::move(message);
  e.position = position;
  return e;
}

TEST(ErrorFormatTest, CaretOnFirstLine) {
  EXPECT_EQ(FormatError(Error("42601", "syntax error at or near \"SELEC\"", 1), "SELEC 1;"),
            "ERROR:  42601: syntax error at or near \"SELEC\"\n"
            "LINE 1: SELEC 1;\n"
            "        ^\n");
}

TEST(ErrorFormatTest, CaretOnLaterLine) {
  // psql: select 1,\n nosuchcol from t -> LINE 2:  nosuchcol from t
  std::string sql = "select 1,\n nosuchcol from t";
  EXPECT_EQ(FormatError(Error("42703", "column \"nosuchcol\" does not exist", 12), sql),
            "ERROR:  42703: column \"nosuchcol\" does not exist\n"
            "LINE 2:  nosuchcol from t\n"
            "         ^\n");
}

TEST(ErrorFormatTest, PositionCountsCharactersNotBytes) {
  std::string sql = "select 'é', nosuch";  // nosuch is character 13, byte 14
  EXPECT_EQ(FormatErrorPosition(sql, 13), "LINE 1: select 'é', nosuch\n                    ^\n");
}

TEST(ErrorFormatTest, DetailHintAndNoPosition) {
  client::ClientError e = Error("23505", "duplicate key value violates unique constraint", 0);
  e.detail = "Key (a)=(1) already exists.";
  e.hint = "Use another key.";
  EXPECT_EQ(FormatError(e, "insert into t values (1)"),
            "ERROR:  23505: duplicate key value violates unique constraint\n"
            "DETAIL:  Key (a)=(1) already exists.\n"
            "HINT:  Use another key.\n");
}

TEST(ErrorFormatTest, LineAndColumnWithoutPosition) {
  client::ClientError e = Error("42601", "bad", 0);
  e.line = 2;
  e.column = 3;
  EXPECT_EQ(FormatError(e, "select\n  xx"), "ERROR:  42601: bad\nLINE 2:   xx\n          ^\n");
}

TEST(ErrorFormatTest, PositionAtEndOfInput) {
  EXPECT_EQ(FormatErrorPosition("select (", 9), "LINE 1: select (\n                ^\n");
  EXPECT_EQ(FormatErrorPosition("select (", 10), "");
  EXPECT_EQ(FormatErrorPosition("", 1), "");
}

TEST(ErrorFormatTest, LongLinesAreCutLikeLibpq) {
  // Both expectations were printed by psql 15.
  std::string sql =
      "select 1 from nosuch where x = 1 and "
      "yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy = 2 and "
      "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz = 3";
  EXPECT_EQ(FormatErrorPosition(sql, 15),
            "LINE 1: select 1 from nosuch where x = 1 and yyyyyyyyyyyyyyyyyyyyyyy...\n"
            "                      ^\n");
  std::string far = std::string(100, 'a') + " nosuch " + std::string(100, 'b');
  std::string shown = FormatErrorPosition(far, 102);
  EXPECT_EQ(shown.substr(0, 11), "LINE 1: ...");
  // The caret sits under the 'n' of nosuch.
  size_t caret = shown.find('^');
  size_t line_end = shown.find('\n');
  EXPECT_EQ(shown[caret - line_end - 1], 'n');
}

}  // namespace
}  // namespace meridian::shell
