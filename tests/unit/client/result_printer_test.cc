// Tests of the shell's aligned / CSV / JSON printers and the \dt, \d tables.
#include "shell/result_printer.h"

#include <gtest/gtest.h>

#include <sstream>

#include "shell/catalog_format.h"

namespace meridian::shell {
namespace {

using client::ColumnInfo;
using client::Row;
using client::StatementResult;
using client::Value;

std::vector<ColumnInfo> Columns() {
  return {ColumnInfo{"a", "integer", -1, client::kOidInt4, true},
          ColumnInfo{"bb", "text", -1, client::kOidText, true},
          ColumnInfo{"c", "double precision", -1, client::kOidFloat8, true},
          ColumnInfo{"d", "boolean", -1, client::kOidBool, true}};
}

std::vector<Row> Rows() {
  return {{Value::Int(1), Value::Text("x"), Value::Double(1.5), Value::Bool(true)},
          {Value::Int(22), Value::Null(), Value::Double(-2e20), Value::Bool(false)}};
}

// Feeds a select result and a DDL tag through a printer.
std::string Print(OutputFormat format, std::string* err_text = nullptr) {
  std::ostringstream out;
  std::ostringstream err;
  auto printer = ResultPrinter::Create(format, out, err);
  StatementResult summary;
  summary.columns = Columns();
  summary.command_tag = "SELECT 2";
  printer->OnStatementStart(0, summary.columns);
  for (const auto& r : Rows()) printer->OnRow(0, r);
  printer->OnStatementEnd(0, summary);
  printer->OnNotice("something happened");
  StatementResult ddl;
  ddl.command_tag = "INSERT 0 1";
  printer->OnStatementStart(1, {});
  printer->OnStatementEnd(1, ddl);
  if (err_text != nullptr) *err_text = err.str();
  return out.str();
}

TEST(ResultPrinterTest, AlignedMatchesPsql) {
  std::string err;
  // Byte for byte what psql 15 prints for the same result.
  EXPECT_EQ(Print(OutputFormat::kAligned, &err),
            " a  | bb |   c    | d \n"
            "----+----+--------+---\n"
            "  1 | x  |    1.5 | t\n"
            " 22 |    | -2e+20 | f\n"
            "(2 rows)\n"
            "\n"
            "INSERT 0 1\n");
  EXPECT_EQ(err, "NOTICE:  something happened\n");
}

TEST(ResultPrinterTest, AlignedEmptyAndOneRow) {
  TextTable t;
  t.headers = {"x"};
  t.right_align = {true};
  std::ostringstream out;
  PrintAlignedTable(t, out);
  EXPECT_EQ(out.str(), " x \n---\n(0 rows)\n\n");
  t.rows = {{"1"}};
  std::ostringstream out2;
  PrintAlignedTable(t, out2);
  EXPECT_EQ(out2.str(), " x \n---\n 1\n(1 row)\n\n");
}

TEST(ResultPrinterTest, AlignedMultiLineAndUtf8) {
  TextTable t;
  t.headers = {"m", "n", "o"};
  t.right_align = {false, true, false};
  t.rows = {{"l1\nlonger2", "2", "a\nb"}};
  std::ostringstream out;
  PrintAlignedTable(t, out);
  EXPECT_EQ(out.str(),
            "    m    | n | o \n"
            "---------+---+---\n"
            " l1     +| 2 | a+\n"
            " longer2 |   | b\n"
            "(1 row)\n\n");
  TextTable u;
  u.headers = {"x", "ümlaut"};
  u.right_align = {false, false};
  u.rows = {{"é", "abc"}};
  std::ostringstream out3;
  PrintAlignedTable(u, out3);
  EXPECT_EQ(out3.str(), " x | ümlaut \n---+--------\n é | abc\n(1 row)\n\n");
}

TEST(ResultPrinterTest, Csv) {
  EXPECT_EQ(Print(OutputFormat::kCsv),
            "a,bb,c,d\n"
            "1,x,1.5,t\n"
            "22,,-2e+20,f\n"
            "INSERT 0 1\n");
  EXPECT_EQ(CsvField("plain"), "plain");
  EXPECT_EQ(CsvField("a,b"), "\"a,b\"");
  EXPECT_EQ(CsvField("q\"x"), "\"q\"\"x\"");
  EXPECT_EQ(CsvField("l1\nl2"), "\"l1\nl2\"");
  EXPECT_EQ(CsvField(""), "\"\"");
  EXPECT_EQ(CsvField(" sp"), " sp");
}

TEST(ResultPrinterTest, Json) {
  EXPECT_EQ(Print(OutputFormat::kJson),
            "[{\"a\":1,\"bb\":\"x\",\"c\":1.5,\"d\":true},\n"
            "{\"a\":22,\"bb\":null,\"c\":-2e+20,\"d\":false}]\n"
            "INSERT 0 1\n");
  ColumnInfo numeric{"n", "numeric", -1, client::kOidNumeric, true};
  ColumnInfo text{"t", "text", -1, client::kOidText, true};
  EXPECT_EQ(JsonValue(Value::Text("12.50"), numeric), "12.50");
  EXPECT_EQ(JsonValue(Value::Text("12"), text), "\"12\"");
  EXPECT_EQ(JsonValue(Value::Double(std::numeric_limits<double>::quiet_NaN()), numeric), "\"NaN\"");
  EXPECT_EQ(JsonString("a\"b\\c\n\x01"), "\"a\\\"b\\\\c\\n\\u0001\"");
}

TEST(ResultPrinterTest, JsonEmptyResult) {
  std::ostringstream out;
  std::ostringstream err;
  auto printer = ResultPrinter::Create(OutputFormat::kJson, out, err);
  StatementResult summary;
  summary.columns = Columns();
  printer->OnStatementStart(0, summary.columns);
  printer->OnStatementEnd(0, summary);
  EXPECT_EQ(out.str(), "[]\n");
}

TEST(ResultPrinterTest, ParseFormat) {
  OutputFormat f;
  EXPECT_TRUE(ParseOutputFormat("csv", &f));
  EXPECT_EQ(f, OutputFormat::kCsv);
  EXPECT_TRUE(ParseOutputFormat("json", &f));
  EXPECT_EQ(f, OutputFormat::kJson);
  EXPECT_TRUE(ParseOutputFormat("aligned", &f));
  EXPECT_EQ(f, OutputFormat::kAligned);
  EXPECT_FALSE(ParseOutputFormat("html", &f));
}

TEST(CatalogFormatTest, DescribeTable) {
  client::TableDescription t;
  t.name = "t";
  client::ColumnDescription a;
  a.name = "a";
  a.type = ColumnInfo{"a", "integer", -1, client::kOidInt4, false};
  a.not_null = true;
  client::ColumnDescription b;
  b.name = "b";
  b.type = ColumnInfo{"b", "character varying", 10, client::kOidVarchar, true};
  b.default_expr = "'x'";
  t.columns = {a, b};
  t.primary_key = {"a"};
  std::ostringstream out;
  PrintAlignedTable(TableDetailTable(t), out);
  EXPECT_EQ(out.str(),
            "                      Table \"t\"\n"
            " Column |         Type          | Nullable | Default \n"
            "--------+-----------------------+----------+---------\n"
            " a      | integer               | not null | \n"
            " b      | character varying(10) |          | 'x'\n"
            "Primary key: (a)\n"
            "\n");
  std::ostringstream list;
  PrintAlignedTable(TableListTable({t}), list);
  EXPECT_EQ(list.str(),
            "   List of relations\n"
            " Name | Type  | Columns \n"
            "------+-------+---------\n"
            " t    | table |       2\n"
            "(1 row)\n\n");
}

}  // namespace
}  // namespace meridian::shell
