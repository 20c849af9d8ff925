// Statement forms and their options: SELECT, INSERT, UPDATE, DELETE, CREATE TABLE, DROP TABLE;
// WITH before INSERT / UPDATE / DELETE and data-modifying WITH queries (0A000 below the top
// level); identifiers, comments, and multi-statement requests with text and positions.

#include "parser_test_util.h"

namespace meridian::parser::testing {
namespace {

TEST(ParserSelect, Minimal) {
  ast::Statement s = ParseOne("SELECT 1");
  ASSERT_EQ(s.kind, ast::StatementKind::kSelect);
  ASSERT_NE(s.select, nullptr);
  EXPECT_TRUE(s.select->from.empty());
  ASSERT_EQ(s.select->items.size(), 1u);
  EXPECT_EQ(Dump(s.select->items[0].expr.get()), "1");
  EXPECT_FALSE(s.select->distinct);
  EXPECT_EQ(s.select->limit, nullptr);
}

TEST(ParserSelect, AllClauses) {
  ast::Statement s = ParseOne(
      "select distinct a, t.b AS bee, c cee, count(*) from t1 as t, t2 x, t3 "
      "where a > 1 group by a, t.b having count(*) > 2 "
      "order by 1, b desc, c asc nulls first, d nulls last limit 10 offset 5");
  const ast::SelectStmt& q = *s.select;
  EXPECT_TRUE(q.distinct);
  ASSERT_EQ(q.items.size(), 4u);
  EXPECT_EQ(q.items[1].alias, "bee");
  EXPECT_EQ(q.items[2].alias, "cee");
  EXPECT_EQ(Dump(q.items[3].expr.get()), "count(*)");
  ASSERT_EQ(q.from.size(), 3u);
  EXPECT_EQ(q.from[0].name, "t1");
  EXPECT_EQ(q.from[0].alias, "t");
  EXPECT_EQ(q.from[1].alias, "x");
  EXPECT_EQ(q.from[2].alias, "");
  EXPECT_EQ(Dump(q.where.get()), "(> a 1)");
  ASSERT_EQ(q.group_by.size(), 2u);
  EXPECT_EQ(Dump(q.group_by[1].get()), "t.b");
  EXPECT_EQ(Dump(q.having.get()), "(> count(*) 2)");
  ASSERT_EQ(q.order_by.size(), 4u);
  EXPECT_EQ(Dump(q.order_by[0].expr.get()), "1");
  EXPECT_FALSE(q.order_by[0].descending);
  EXPECT_FALSE(q.order_by[0].nulls_first.has_value());
  EXPECT_TRUE(q.order_by[1].descending);
  EXPECT_EQ(q.order_by[2].nulls_first, std::optional<bool>(true));
  EXPECT_EQ(q.order_by[3].nulls_first, std::optional<bool>(false));
  EXPECT_EQ(Dump(q.limit.get()), "10");
  EXPECT_EQ(Dump(q.offset.get()), "5");
}

TEST(ParserSelect, StarsAliasesAndLimitForms) {
  ast::Statement s = ParseOne("SELECT *, t.*, a AS \"Select\", b AS from FROM t LIMIT ALL");
  const ast::SelectStmt& q = *s.select;
  EXPECT_EQ(q.items[0].expr->kind, ast::ExprKind::kStar);
  EXPECT_EQ(q.items[0].expr->table, "");
  EXPECT_EQ(q.items[1].expr->kind, ast::ExprKind::kStar);
  EXPECT_EQ(q.items[1].expr->table, "t");
  EXPECT_EQ(q.items[2].alias, "Select");
  EXPECT_EQ(q.items[3].alias, "from");  // any keyword is a label after AS
  EXPECT_EQ(q.limit, nullptr);

  ast::Statement s2 = ParseOne("SELECT a FROM t OFFSET 2 LIMIT 3");
  EXPECT_EQ(Dump(s2.select->limit.get()), "3");
  EXPECT_EQ(Dump(s2.select->offset.get()), "2");
  ast::Statement s3 = ParseOne("SELECT ALL a FROM t");
  EXPECT_FALSE(s3.select->distinct);
}

TEST(ParserSelect, Locations) {
  ast::Statement s = ParseOne("SELECT a,\n       b\nFROM t1 x");
  EXPECT_EQ(s.select->items[1].loc.line, 2u);
  EXPECT_EQ(s.select->items[1].loc.column, 8u);
  EXPECT_EQ(s.select->items[1].loc.position, 18u);
  EXPECT_EQ(s.select->from[0].loc.line, 3u);
  EXPECT_EQ(s.select->from[0].loc.column, 6u);
}

TEST(ParserSelect, JoinsAreALeftDeepChain) {
  ast::Statement s = ParseOne(
      "SELECT * FROM a JOIN b ON a.x = b.x LEFT OUTER JOIN c USING (y, z) CROSS JOIN d, "
      "e FULL JOIN f ON true RIGHT JOIN g ON g.k = 1");
  const ast::SelectStmt& q = *s.select;
  ASSERT_EQ(q.from.size(), 7u);
  EXPECT_EQ(q.from[0].join, ast::JoinType::kComma);
  EXPECT_EQ(q.from[1].join, ast::JoinType::kInner);
  EXPECT_EQ(Dump(q.from[1].on.get()), "(= a.x b.x)");
  EXPECT_EQ(q.from[2].join, ast::JoinType::kLeft);
  EXPECT_EQ(q.from[2].using_columns, (std::vector<std::string>{"y", "z"}));
  EXPECT_EQ(q.from[3].join, ast::JoinType::kCross);
  EXPECT_EQ(q.from[4].join, ast::JoinType::kComma);
  EXPECT_EQ(q.from[5].join, ast::JoinType::kFull);
  EXPECT_EQ(q.from[6].join, ast::JoinType::kRight);
  EXPECT_EQ(Parse("SELECT * FROM a JOIN b").status().sqlstate(), "42601");
  EXPECT_EQ(Parse("SELECT * FROM a LEFT b ON true").status().sqlstate(), "42601");
}

TEST(ParserSelect, SetOperationsPrecedence) {
  // INTERSECT binds tighter: a UNION (b INTERSECT c), then EXCEPT d, left to right.
  ast::Statement s =
      ParseOne("SELECT 1 UNION SELECT 2 INTERSECT ALL SELECT 3 EXCEPT SELECT 4 ORDER BY 1 LIMIT 2");
  const ast::SelectStmt& q = *s.select;
  EXPECT_EQ(q.set_op, ast::SetOp::kExcept);
  EXPECT_FALSE(q.set_all);
  ASSERT_EQ(q.order_by.size(), 1u);
  ASSERT_NE(q.limit, nullptr);
  const ast::SelectStmt& u = *q.set_left;
  EXPECT_EQ(u.set_op, ast::SetOp::kUnion);
  EXPECT_EQ(u.set_right->set_op, ast::SetOp::kIntersect);
  EXPECT_TRUE(u.set_right->set_all);
  EXPECT_EQ(Dump(u.set_right->set_right->items[0].expr.get()), "3");
  // Parentheses group; clauses inside merge with those outside unless given twice.
  ast::Statement p = ParseOne("(SELECT 1 UNION SELECT 2) INTERSECT SELECT 2");
  EXPECT_EQ(p.select->set_op, ast::SetOp::kIntersect);
  EXPECT_EQ(p.select->set_left->set_op, ast::SetOp::kUnion);
  ast::Statement m = ParseOne("(SELECT a FROM t ORDER BY a) LIMIT 1");
  EXPECT_EQ(m.select->order_by.size(), 1u);
  EXPECT_NE(m.select->limit, nullptr);
  EXPECT_EQ(Parse("(SELECT 1 LIMIT 1) LIMIT 2").status().sqlstate(), "42601");
}

TEST(ParserInsert, ValuesWithColumnsAndDefault) {
  ast::Statement s = ParseOne("INSERT INTO t1(e, c) VALUES (1, DEFAULT), (-2, 'x')");
  ASSERT_EQ(s.kind, ast::StatementKind::kInsert);
  const ast::InsertStmt& ins = *s.insert;
  EXPECT_EQ(ins.table, "t1");
  EXPECT_EQ(ins.table_loc.position, 13u);
  EXPECT_EQ(ins.columns, (std::vector<std::string>{"e", "c"}));
  EXPECT_EQ(ins.column_locs[1].position, 19u);
  ASSERT_EQ(ins.values.size(), 2u);
  EXPECT_EQ(Dump(ins.values[0][0].get()), "1");
  EXPECT_EQ(ins.values[0][1], nullptr);
  EXPECT_EQ(Dump(ins.values[1][0].get()), "-2");
  EXPECT_EQ(ins.select, nullptr);
}

TEST(ParserInsert, Select) {
  ast::Statement s = ParseOne("insert into T select a, b from u where a > 0");
  EXPECT_EQ(s.insert->table, "t");
  EXPECT_TRUE(s.insert->columns.empty());
  EXPECT_TRUE(s.insert->values.empty());
  ASSERT_NE(s.insert->select, nullptr);
  EXPECT_EQ(s.insert->select->items.size(), 2u);
  ast::Statement s2 = ParseOne("insert into t (a) (select 1)");
  ASSERT_NE(s2.insert->select, nullptr);
  EXPECT_EQ(s2.insert->columns.size(), 1u);
}

TEST(ParserUpdate, SetAndWhere) {
  ast::Statement s = ParseOne("UPDATE t SET a = a + 1, b = DEFAULT WHERE c IS NULL");
  ASSERT_EQ(s.kind, ast::StatementKind::kUpdate);
  EXPECT_EQ(s.update->table, "t");
  ASSERT_EQ(s.update->assignments.size(), 2u);
  EXPECT_EQ(s.update->assignments[0].column, "a");
  EXPECT_EQ(Dump(s.update->assignments[0].value.get()), "(+ a 1)");
  EXPECT_EQ(s.update->assignments[1].value, nullptr);
  EXPECT_EQ(s.update->assignments[1].loc.position, 25u);
  EXPECT_EQ(Dump(s.update->where.get()), "(ISNULL c)");
  ast::Statement s2 = ParseOne("update t set value = 'v'");
  EXPECT_EQ(s2.update->assignments[0].column, "value");
  EXPECT_EQ(s2.update->where, nullptr);
}

TEST(ParserDelete, WithAndWithoutWhere) {
  ast::Statement s = ParseOne("DELETE FROM t WHERE a = 1");
  ASSERT_EQ(s.kind, ast::StatementKind::kDelete);
  EXPECT_EQ(s.del->table, "t");
  EXPECT_EQ(s.del->table_loc.position, 13u);
  EXPECT_EQ(Dump(s.del->where.get()), "(= a 1)");
  ast::Statement s2 = ParseOne("delete from t");
  EXPECT_EQ(s2.del->where, nullptr);
}

TEST(ParserUpdate, FromUsingAndAliases) {
  ast::Statement s = ParseOne(
      "UPDATE t AS x SET v = u.w FROM u JOIN p ON p.id = u.id, (SELECT 1 AS k) s WHERE x.id = "
      "u.id");
  EXPECT_EQ(s.update->table, "t");
  EXPECT_EQ(s.update->alias, "x");
  ASSERT_EQ(s.update->from.size(), 3u);
  EXPECT_EQ(s.update->from[1].join, ast::JoinType::kInner);
  EXPECT_EQ(s.update->from[2].alias, "s");
  EXPECT_EQ(Dump(s.update->where.get()), "(= x.id u.id)");
  // SET after the table is never its alias (as PostgreSQL); a bare alias works.
  EXPECT_EQ(ParseOne("UPDATE t SET set = 1").update->alias, "");
  EXPECT_EQ(ParseOne("UPDATE t y SET a = 1").update->alias, "y");
  ast::Statement d = ParseOne("DELETE FROM t x USING u, v WHERE x.id = u.id RETURNING *");
  EXPECT_EQ(d.del->alias, "x");
  ASSERT_EQ(d.del->using_from.size(), 2u);
  EXPECT_EQ(d.del->using_from[1].name, "v");
  EXPECT_EQ(d.del->returning.size(), 1u);
}

TEST(ParserAggregate, FilterAndOrderByInCalls) {
  ast::Statement s = ParseOne(
      "SELECT count(*) FILTER (WHERE id > 0), string_agg(DISTINCT v, ',' ORDER BY v DESC NULLS "
      "LAST, w) FILTER (WHERE true), filter FROM filter");
  const ast::Expr& c = *s.select->items[0].expr;
  EXPECT_TRUE(c.star);
  EXPECT_EQ(Dump(c.filter.get()), "(> id 0)");
  const ast::Expr& a = *s.select->items[1].expr;
  EXPECT_TRUE(a.distinct);
  EXPECT_EQ(a.children.size(), 2u);
  ASSERT_EQ(a.agg_order.size(), 2u);
  EXPECT_TRUE(a.agg_order[0].descending);
  EXPECT_EQ(a.agg_order[0].nulls_first, std::optional<bool>(false));
  EXPECT_EQ(Dump(a.agg_order[1].expr.get()), "w");
  ASSERT_NE(a.filter, nullptr);
  EXPECT_EQ(Dump(s.select->items[2].expr.get()), "filter");
}

TEST(ParserCreateTable, ColumnsAndConstraints) {
  ast::Statement s = ParseOne(
      "CREATE TABLE IF NOT EXISTS accounts (\n"
      "  id BIGINT PRIMARY KEY,\n"
      "  name VARCHAR(40) NOT NULL UNIQUE,\n"
      "  balance DOUBLE PRECISION DEFAULT  -0.5 * 2 NULL,\n"
      "  flag bool CONSTRAINT nn NOT NULL DEFAULT (true),\n"
      "  note text\n"
      ")");
  ASSERT_EQ(s.kind, ast::StatementKind::kCreateTable);
  const ast::CreateTableStmt& ct = *s.create_table;
  EXPECT_EQ(ct.table, "accounts");
  EXPECT_TRUE(ct.if_not_exists);
  ASSERT_EQ(ct.columns.size(), 5u);
  EXPECT_EQ(ct.columns[0].name, "id");
  EXPECT_EQ(ct.columns[0].type.name, "bigint");
  EXPECT_TRUE(ct.columns[0].primary_key);
  EXPECT_EQ(ct.columns[1].type.name, "varchar");
  EXPECT_EQ(ct.columns[1].type.modifier, 40);
  EXPECT_TRUE(ct.columns[1].not_null);
  EXPECT_TRUE(ct.columns[1].unique);
  EXPECT_EQ(ct.columns[2].type.name, "double precision");
  EXPECT_FALSE(ct.columns[2].not_null);
  EXPECT_EQ(Dump(ct.columns[2].default_expr.get()), "(* -0.5f 2)");
  EXPECT_EQ(ct.columns[2].default_text, "-0.5 * 2");
  EXPECT_EQ(ct.columns[3].type.name, "boolean");
  EXPECT_TRUE(ct.columns[3].not_null);
  EXPECT_EQ(ct.columns[3].default_text, "(true)");
  EXPECT_EQ(ct.columns[4].default_expr, nullptr);
  EXPECT_EQ(ct.columns[4].default_text, "");
  EXPECT_EQ(ct.columns[1].loc.line, 3u);
  EXPECT_EQ(ct.columns[1].loc.column, 3u);
  EXPECT_TRUE(ct.primary_key.empty());
}

TEST(ParserCreateTable, TableConstraints) {
  ast::Statement s = ParseOne(
      "create table t (a int, b int, c text, primary key (a, B), unique (c), "
      "constraint u2 unique (a, c))");
  const ast::CreateTableStmt& ct = *s.create_table;
  EXPECT_FALSE(ct.if_not_exists);
  EXPECT_EQ(ct.primary_key, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(ct.primary_key_loc.position, 39u);
  ASSERT_EQ(ct.unique_keys.size(), 2u);
  EXPECT_EQ(ct.unique_keys[1].columns, (std::vector<std::string>{"a", "c"}));
}

TEST(ParserCreateTable, DefaultTextKeepsExactSource) {
  ast::Statement s = ParseOne("CREATE TABLE t (a text DEFAULT 'it''s' || 'x', b int default 1)");
  EXPECT_EQ(s.create_table->columns[0].default_text, "'it''s' || 'x'");
  EXPECT_EQ(s.create_table->columns[1].default_text, "1");
  auto reparsed = ParseExpression(s.create_table->columns[0].default_text);
  ASSERT_TRUE(reparsed.ok());
  EXPECT_EQ(Dump(reparsed->get()), "(|| 'it's' 'x')");
}

TEST(ParserCreateTable, Rejections) {
  auto dup_pk = Parse("CREATE TABLE t (a int PRIMARY KEY, b int, PRIMARY KEY (b))");
  ASSERT_FALSE(dup_pk.ok());
  EXPECT_EQ(dup_pk.status().sqlstate(), "42P16");
  EXPECT_EQ(dup_pk.status().position(), 43u);
  auto conflict = Parse("CREATE TABLE t (a int NULL NOT NULL)");
  ASSERT_FALSE(conflict.ok());
  EXPECT_EQ(conflict.status().message(),
            "conflicting NULL/NOT NULL declarations for column \"a\" of table \"t\"");
  auto two_defaults = Parse("CREATE TABLE t (a int DEFAULT 1 DEFAULT 2)");
  ASSERT_FALSE(two_defaults.ok());
  EXPECT_EQ(two_defaults.status().message(),
            "multiple default values specified for column \"a\" of table \"t\"");
  auto bad_type = Parse("CREATE TABLE t (a blob)");
  ASSERT_FALSE(bad_type.ok());
  EXPECT_EQ(bad_type.status().sqlstate(), "42704");
  EXPECT_EQ(bad_type.status().message(), "type \"blob\" does not exist");
  EXPECT_EQ(bad_type.status().position(), 19u);
  EXPECT_FALSE(Parse("CREATE TABLE t ()").ok());
}

TEST(ParserDropTable, Forms) {
  ast::Statement s = ParseOne("DROP TABLE IF EXISTS a, \"B\"");
  ASSERT_EQ(s.kind, ast::StatementKind::kDropTable);
  EXPECT_TRUE(s.drop_table->if_exists);
  EXPECT_EQ(s.drop_table->tables, (std::vector<std::string>{"a", "B"}));
  EXPECT_EQ(s.drop_table->table_locs[1].position, 25u);
  ast::Statement s2 = ParseOne("drop table t");
  EXPECT_FALSE(s2.drop_table->if_exists);
}

TEST(ParserIdentifiers, CaseFoldingAndQuoting) {
  ast::Statement s =
      ParseOne("SELECT MyCol, \"MyCol\", \"with \"\"quote\"\"\", \"select\" FROM \"T\"");
  const ast::SelectStmt& q = *s.select;
  EXPECT_EQ(q.items[0].expr->name, "mycol");
  EXPECT_EQ(q.items[1].expr->name, "MyCol");
  EXPECT_EQ(q.items[2].expr->name, "with \"quote\"");
  EXPECT_EQ(q.items[3].expr->name, "select");
  EXPECT_EQ(q.from[0].name, "T");
  ast::Statement s2 = ParseOne("SeLeCt ÄBC FROM t");  // only ASCII letters fold
  EXPECT_EQ(s2.select->items[0].expr->name, "Äbc");
  auto empty = Parse("SELECT \"\" FROM t");
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.status().message(), "zero-length delimited identifier at or near \"\"\"\"");
  EXPECT_EQ(empty.status().position(), 8u);
}

TEST(ParserIdentifiers, CommonWordsAsNames) {
  ast::Statement s = ParseOne(
      "CREATE TABLE key (name text, text text, key int, value int, date text, first int, "
      "last int, nulls int, \"if\" int, by int, set int, values int, character int)");
  EXPECT_EQ(s.create_table->table, "key");
  EXPECT_EQ(s.create_table->columns.size(), 13u);
  EXPECT_EQ(s.create_table->columns[1].name, "text");
  EXPECT_EQ(s.create_table->columns[1].type.name, "text");
  ParseOne("SELECT name, text, key, value, date FROM key WHERE value > 1 ORDER BY name");
  ParseOne("INSERT INTO key (name, value) VALUES ('a', 1)");
}

TEST(ParserComments, LineBlockAndNested) {
  auto r = Parse(
      "-- leading comment\n"
      "SELECT /* inline */ 1 -- trailing\n"
      ", /* nested /* inner */ still comment */ 2");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->size(), 1u);
  EXPECT_EQ((*r)[0].select->items.size(), 2u);
  EXPECT_EQ((*r)[0].loc.line, 2u);
  EXPECT_EQ((*r)[0].loc.position, 20u);
}

TEST(ParserComments, CommentMarkersInsideQuotesAreText) {
  ast::Statement s = ParseOne("SELECT '/*--' /* x */, \"/*\", 1 -- /* not a comment start");
  ASSERT_EQ(s.select->items.size(), 3u);
  EXPECT_EQ(s.select->items[0].expr->text, "/*--");
  EXPECT_EQ(s.select->items[1].expr->name, "/*");
  EXPECT_EQ(s.text, "SELECT '/*--' /* x */, \"/*\", 1");
}

TEST(ParserScript, MultipleStatementsTextAndPositions) {
  std::string sql = "SELECT 1;  INSERT INTO t VALUES (1) ;;\n  DELETE FROM t;";
  auto r = Parse(sql);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->size(), 3u);
  EXPECT_EQ((*r)[0].text, "SELECT 1");
  EXPECT_EQ((*r)[0].loc.position, 1u);
  EXPECT_EQ((*r)[1].kind, ast::StatementKind::kInsert);
  EXPECT_EQ((*r)[1].text, "INSERT INTO t VALUES (1)");
  EXPECT_EQ((*r)[1].loc.position, 12u);
  EXPECT_EQ((*r)[2].text, "DELETE FROM t");
  EXPECT_EQ((*r)[2].loc.position, 42u);
  EXPECT_EQ((*r)[2].loc.line, 2u);
  EXPECT_EQ((*r)[2].loc.column, 3u);
  EXPECT_EQ((*r)[2].del->table_loc.position, 54u);
}

TEST(ParserScript, TextKeepsMultibyteCharacters) {
  auto r = Parse("SELECT 'é' AS ü; SELECT 2");
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->size(), 2u);
  EXPECT_EQ((*r)[0].text, "SELECT 'é' AS ü");
  EXPECT_EQ((*r)[0].select->items[0].alias, "ü");
  EXPECT_EQ((*r)[1].loc.position, 18u);  // characters, not bytes
}

TEST(ParserScript, EmptyRequests) {
  for (const char* sql : {"", "   ", ";", " ; ;; ", "-- only a comment", "/* c */ ; -- x\n"}) {
    auto r = Parse(sql);
    ASSERT_TRUE(r.ok()) << sql;
    EXPECT_TRUE(r->empty()) << sql;
  }
}

TEST(ParserScript, LargeInsertBatch) {
  std::string sql;
  while (sql.size() < 100 * 1024) {
    sql.append("INSERT INTO t1(a,b,c,d,e) VALUES(");
    sql.append(std::to_string(sql.size()));
    sql.append(", 2, 'some text', -4.5, NULL);\n");
  }
  auto r = Parse(sql);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_GT(r->size(), 1000u);
}

TEST(ParserSelect, GroupingSets) {
  using Kind = ast::GroupingElement::Kind;
  ast::Statement s = ParseOne(
      "SELECT 1 FROM t GROUP BY DISTINCT x, ROLLUP (a, (b, c)), CUBE (d), "
      "GROUPING SETS ((e, f), (), g, ROLLUP (h))");
  const ast::SelectStmt& q = *s.select;
  EXPECT_TRUE(q.group_distinct);
  ASSERT_EQ(q.grouping.size(), 4u);
  EXPECT_EQ(q.grouping[0].kind, Kind::kExpr);
  EXPECT_EQ(q.grouping[1].kind, Kind::kRollup);
  ASSERT_EQ(q.grouping[1].children.size(), 2u);
  EXPECT_EQ(q.grouping[1].children[1].kind, Kind::kList);
  EXPECT_EQ(q.grouping[1].children[1].exprs.size(), 2u);
  EXPECT_EQ(q.grouping[2].kind, Kind::kCube);
  const ast::GroupingElement& sets = q.grouping[3];
  EXPECT_EQ(sets.kind, Kind::kSets);
  ASSERT_EQ(sets.children.size(), 4u);
  EXPECT_EQ(sets.children[0].kind, Kind::kList);
  EXPECT_EQ(sets.children[1].kind, Kind::kEmpty);
  EXPECT_EQ(sets.children[3].kind, Kind::kRollup);
  ASSERT_EQ(q.group_by.size(), 9u);
  EXPECT_EQ(Dump(q.group_by[sets.children[2].exprs[0]].get()), "g");
  // a plain list stays in group_by only; grouping(a) and rollup(x) outside GROUP BY are calls
  ast::Statement plain = ParseOne("SELECT grouping(a), rollup(b) FROM t GROUP BY a, b");
  EXPECT_TRUE(plain.select->grouping.empty());
  EXPECT_EQ(plain.select->group_by.size(), 2u);
  EXPECT_EQ(Dump(plain.select->items[0].expr.get()), "grouping( a)");
}

TEST(ParserWith, BeforeInsertUpdateDelete) {
  ast::Statement ins = ParseOne("WITH q AS (SELECT 1) INSERT INTO t SELECT * FROM q");
  ASSERT_EQ(ins.kind, ast::StatementKind::kInsert);
  ASSERT_EQ(ins.insert->with.size(), 1u);
  EXPECT_EQ(ins.insert->with[0].name, "q");
  ASSERT_NE(ins.insert->with[0].query, nullptr);
  EXPECT_EQ(ins.insert->with[0].statement, nullptr);
  ast::Statement upd = ParseOne(
      "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 3) "
      "UPDATE t SET v = 1 FROM r WHERE t.id = r.n RETURNING t.id");
  ASSERT_EQ(upd.kind, ast::StatementKind::kUpdate);
  ASSERT_EQ(upd.update->with.size(), 1u);
  EXPECT_TRUE(upd.update->with[0].recursive);
  EXPECT_EQ(upd.update->with[0].columns, std::vector<std::string>{"n"});
  ast::Statement del = ParseOne("WITH a AS (SELECT 1), b AS (SELECT 2) DELETE FROM t USING a");
  ASSERT_EQ(del.kind, ast::StatementKind::kDelete);
  EXPECT_EQ(del.del->with.size(), 2u);
  auto twice = Parse("WITH a AS (SELECT 1), a AS (SELECT 2) DELETE FROM t");
  ASSERT_FALSE(twice.ok());
  EXPECT_EQ(twice.status().sqlstate(), "42712");
}

TEST(ParserWith, DataModifyingOnlyAtTopLevel) {
  ast::Statement s = ParseOne(
      "WITH d AS (DELETE FROM a RETURNING *), i AS (INSERT INTO b SELECT * FROM d RETURNING id) "
      "SELECT id FROM i");
  ASSERT_EQ(s.select->with.size(), 2u);
  ASSERT_NE(s.select->with[0].statement, nullptr);
  EXPECT_EQ(s.select->with[0].query, nullptr);
  EXPECT_EQ(s.select->with[0].statement->kind, ast::StatementKind::kDelete);
  EXPECT_EQ(s.select->with[1].statement->kind, ast::StatementKind::kInsert);
  EXPECT_EQ(s.select->with[1].statement->insert->table, "b");
  ast::Statement u = ParseOne("WITH u AS (UPDATE t SET v = 2 RETURNING v) DELETE FROM t2");
  EXPECT_EQ(u.del->with[0].statement->kind, ast::StatementKind::kUpdate);
  // EXPLAIN's and PREPARE's statement are top-level too
  EXPECT_TRUE(Parse("EXPLAIN WITH d AS (DELETE FROM a) SELECT 1").ok());
  EXPECT_TRUE(Parse("PREPARE p AS WITH d AS (DELETE FROM a) SELECT 1").ok());
  // Anywhere else: 0A000 at the WITH query's name, as PostgreSQL.
  const char* nested[] = {
      "SELECT * FROM (WITH d AS (DELETE FROM a RETURNING *) SELECT * FROM d) s",
      "WITH x AS (WITH d AS (DELETE FROM a RETURNING *) SELECT * FROM d) SELECT * FROM x",
      "SELECT 1 WHERE EXISTS (WITH d AS (DELETE FROM a RETURNING *) SELECT 1 FROM d)",
      "INSERT INTO b WITH d AS (DELETE FROM a RETURNING *) SELECT * FROM d",
      "WITH i AS (WITH d AS (DELETE FROM a) INSERT INTO b VALUES (1)) SELECT 1",
      "CREATE TABLE c AS WITH d AS (DELETE FROM a RETURNING *) SELECT * FROM d",
  };
  for (const char* sql : nested) {
    auto r = Parse(sql);
    ASSERT_FALSE(r.ok()) << sql;
    EXPECT_EQ(r.status().sqlstate(), "0A000") << sql;
    EXPECT_EQ(r.status().position(), std::string_view(sql).find("d AS (DELETE") + 1) << sql;
  }
}

}  // namespace
}  // namespace meridian::parser::testing
