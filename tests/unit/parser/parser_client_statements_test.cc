// What PostgreSQL clients send beyond plain DML: SET / SHOW / RESET, COPY with its option
// forms and checks, qualified names in FROM, regular-expression operators, OPERATOR(), COLLATE,
// SQL value functions (current_user) and ARRAY(...) being refused.

#include "parser_test_util.h"

namespace meridian::parser::testing {
namespace {

// "ok" or the SQLSTATE of the parse.
std::string StateOf(std::string_view sql) {
  auto r = Parse(sql);
  return r.ok() ? "ok" : r.status().sqlstate();
}

TEST(ParserSet, Forms) {
  ast::Statement s = ParseOne("SET search_path TO public, \"$user\"");
  ASSERT_EQ(s.kind, ast::StatementKind::kSet);
  EXPECT_EQ(s.variable->name, "search_path");
  EXPECT_EQ(s.variable->values, (std::vector<std::string>{"public", "$user"}));
  s = ParseOne("SET SESSION statement_timeout = -5");
  EXPECT_EQ(s.variable->values, (std::vector<std::string>{"-5"}));
  EXPECT_FALSE(s.variable->local);
  s = ParseOne("set local DateStyle to 'ISO, DMY'");
  EXPECT_TRUE(s.variable->local);
  EXPECT_EQ(s.variable->name, "datestyle");
  EXPECT_EQ(s.variable->values, (std::vector<std::string>{"ISO, DMY"}));
  s = ParseOne("SET TIME ZONE 'UTC'");
  EXPECT_EQ(s.variable->name, "timezone");
  EXPECT_EQ(s.variable->values, (std::vector<std::string>{"UTC"}));
  s = ParseOne("SET x.y = on");
  EXPECT_EQ(s.variable->name, "x.y");
  EXPECT_EQ(s.variable->values, (std::vector<std::string>{"on"}));
  s = ParseOne("SET application_name TO DEFAULT");
  EXPECT_TRUE(s.variable->to_default);
  s = ParseOne("SHOW ALL");
  ASSERT_EQ(s.kind, ast::StatementKind::kShow);
  EXPECT_TRUE(s.variable->all);
  s = ParseOne("SHOW TIME ZONE");
  EXPECT_EQ(s.variable->name, "timezone");
  s = ParseOne("RESET statement_timeout");
  ASSERT_EQ(s.kind, ast::StatementKind::kReset);
  EXPECT_EQ(s.variable->name, "statement_timeout");
  EXPECT_EQ(StateOf("SET x"), "42601");
}

TEST(ParserCopy, OptionForms) {
  ast::Statement s = ParseOne("COPY public.t (a, b) FROM STDIN");
  ASSERT_EQ(s.kind, ast::StatementKind::kCopy);
  const ast::CopyStmt& c = *s.copy;
  EXPECT_EQ(c.schema, "public");
  EXPECT_EQ(c.table, "t");
  EXPECT_EQ(c.columns, (std::vector<std::string>{"a", "b"}));
  EXPECT_TRUE(c.from);
  EXPECT_FALSE(c.csv);
  EXPECT_EQ(c.delimiter, '\t');
  EXPECT_EQ(c.null_string, "\\N");
  s = ParseOne("COPY t TO STDOUT WITH (FORMAT csv, HEADER, DELIMITER ';', NULL 'nil', QUOTE '''')");
  EXPECT_FALSE(s.copy->from);
  EXPECT_TRUE(s.copy->csv);
  EXPECT_TRUE(s.copy->header);
  EXPECT_EQ(s.copy->delimiter, ';');
  EXPECT_EQ(s.copy->null_string, "nil");
  EXPECT_EQ(s.copy->quote, '\'');
  EXPECT_EQ(s.copy->escape, '\'');
  s = ParseOne("COPY t FROM STDIN WITH CSV HEADER DELIMITER AS '|' NULL AS ''");
  EXPECT_TRUE(s.copy->csv);
  EXPECT_TRUE(s.copy->header);
  EXPECT_EQ(s.copy->delimiter, '|');
  s = ParseOne("COPY (SELECT 1) TO STDOUT");
  ASSERT_NE(s.copy->query, nullptr);
  EXPECT_EQ(s.copy->delimiter, '\t');
}

TEST(ParserCopy, Errors) {
  EXPECT_EQ(StateOf("COPY t FROM '/etc/passwd'"), "0A000");
  EXPECT_EQ(StateOf("COPY t FROM STDIN (FORMAT binary)"), "0A000");
  EXPECT_EQ(StateOf("COPY t FROM STDIN (FORMAT xml)"), "22023");
  EXPECT_EQ(StateOf("COPY t FROM STDIN (DELIMITER ',,')"), "0A000");
  EXPECT_EQ(StateOf("COPY t FROM STDIN (QUOTE '\"')"), "0A000");
  EXPECT_EQ(StateOf("COPY t FROM STDIN (FORMAT csv, FORMAT text)"), "42601");
  EXPECT_EQ(StateOf("COPY t FROM STDIN (bogus 1)"), "42601");
  EXPECT_EQ(StateOf("COPY t FROM STDOUT"), "42601");
  EXPECT_EQ(StateOf("COPY (SELECT 1) FROM STDIN"), "42601");
  EXPECT_EQ(StateOf("COPY t FROM STDIN (DELIMITER ',', NULL 'a,b')"), "22023");
}

TEST(ParserClientSql, QualifiedNamesOperatorsCollate) {
  ast::Statement s = ParseOne(
      "SELECT c.relname FROM pg_catalog.pg_class c LEFT JOIN pg_catalog.pg_namespace n ON "
      "n.oid = c.relnamespace WHERE c.relname OPERATOR(pg_catalog.~) '^(t)$' COLLATE "
      "pg_catalog.default AND n.nspname !~ '^pg_toast' AND pg_catalog.pg_table_is_visible(c.oid)");
  const ast::SelectStmt& q = *s.select;
  ASSERT_EQ(q.from.size(), 2u);
  EXPECT_EQ(q.from[0].schema, "pg_catalog");
  EXPECT_EQ(q.from[0].name, "pg_class");
  EXPECT_EQ(q.from[0].alias, "c");
  EXPECT_EQ(Dump(q.where.get()),
            "(AND (AND (~ c.relname '^(t)$') (!~ n.nspname '^pg_toast')) "
            "pg_table_is_visible( c.oid))");
  EXPECT_EQ(DumpExpr("a ~* b || c"), "(|| (~* a b) c)");  // one level, left to right
  EXPECT_EQ(
      DumpExpr("x::pg_catalog.regclass::pg_catalog.text").find("regclass") != std::string::npos,
      true);
  EXPECT_EQ(StateOf("SELECT 'a' COLLATE \"de_DE\""), "42704");
  EXPECT_EQ(StateOf("SELECT 1 OPERATOR(myschema.+) 2"), "3F000");
  EXPECT_EQ(StateOf("SELECT ARRAY[[1, 2], [3, 4]]"), "0A000");  // one dimension only
  EXPECT_EQ(StateOf("SELECT ARRAY[1"), "42601");
  EXPECT_EQ(StateOf("SELECT 1::myschema.int4"), "42704");
}

TEST(ParserClientSql, SqlValueFunctions) {
  ast::Statement s = ParseOne("SELECT current_user, user, \"user\", current_schema()");
  const auto& items = s.select->items;
  EXPECT_EQ(items[0].expr->kind, ast::ExprKind::kFunction);
  EXPECT_EQ(items[1].expr->kind, ast::ExprKind::kFunction);
  EXPECT_EQ(items[2].expr->kind, ast::ExprKind::kColumnRef);  // quoted: a column
  EXPECT_EQ(items[3].expr->kind, ast::ExprKind::kFunction);
  EXPECT_EQ(items[3].expr->name, "current_schema");
}

// Arrays: constructors, quantified comparisons with an array, subscripts and slices, array
// types in casts, functions in FROM (psql's \d queries use all of them).
TEST(ParserClientSql, Arrays) {
  EXPECT_EQ(DumpExpr("ARRAY[1, 'a', NULL]"), "(ARRAY 1 'a' NULL)");
  EXPECT_EQ(DumpExpr("ARRAY[]"), "(ARRAY)");
  EXPECT_EQ(DumpExpr("ARRAY(SELECT 1)"), "(ARRAYSUB)");
  EXPECT_EQ(DumpExpr("oid = any (pol.polroles)"), "(= ANY oid pol.polroles)");
  EXPECT_EQ(DumpExpr("x <> ALL (ARRAY[1])"), "(<> ALL x (ARRAY 1))");
  EXPECT_EQ(DumpExpr("a[1]"), "(SUBSCRIPT a 1)");
  EXPECT_EQ(DumpExpr("a[1:2][3]"), "(SUBSCRIPT (SLICE a 1 2) 3)");
  EXPECT_EQ(DumpExpr("(t).arr[2]"), "(SUBSCRIPT (FIELD arr t) 2)");
  EXPECT_EQ(DumpExpr("((t).r).f1"), "(FIELD f1 (FIELD r t))");
  EXPECT_EQ(DumpExpr("(t).r.f1"), "(FIELD f1 (FIELD r t))");
  EXPECT_EQ(DumpExpr("x::pg_catalog.int2[]"), "(CAST x smallint[])");
  EXPECT_EQ(DumpExpr("CAST(x AS text[3])"), "(CAST x text[])");
  EXPECT_EQ(DumpExpr("x::integer ARRAY"), "(CAST x integer[])");
  EXPECT_EQ(DumpExpr("'{1}'::int[] || 2"), "(|| (CAST '{1}' integer[]) 2)");
  ast::Statement s =
      ParseOne("SELECT x FROM pg_catalog.unnest(a) x, generate_series(1, 3), unnest(b) AS u (v)");
  const auto& from = s.select->from;
  ASSERT_EQ(from.size(), 3u);
  ASSERT_NE(from[0].function, nullptr);
  EXPECT_EQ(Dump(from[0].function.get()), "unnest( a)");
  EXPECT_EQ(from[0].alias, "x");
  EXPECT_EQ(from[1].alias, "generate_series");
  EXPECT_EQ(from[1].function->children.size(), 2u);
  EXPECT_EQ(from[2].alias, "u");
  EXPECT_EQ(from[2].column_aliases, std::vector<std::string>{"v"});
}

}  // namespace
}  // namespace meridian::parser::testing
