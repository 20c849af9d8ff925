// ALTER TABLE, CHECK / REFERENCES / FOREIGN KEY constraints, CREATE TABLE AS and VALUES as a
// query: their ASTs, source texts kept for the catalog, syntax errors, and the new unreserved
// keywords still usable as names.

#include "parser_test_util.h"

namespace meridian::parser::testing {
namespace {

using Kind = ast::AlterTableCmd::Kind;

std::string StateOf(std::string_view sql) {
  auto r = Parse(sql);
  return r.ok() ? "ok" : r.status().sqlstate();
}

TEST(ParserDdl, AlterTableActions) {
  ast::Statement s = ParseOne(
      "ALTER TABLE IF EXISTS T ADD COLUMN IF NOT EXISTS c INT DEFAULT 1 + 2 NOT NULL CHECK (c > "
      "0), ADD d TEXT, DROP COLUMN IF EXISTS e CASCADE, DROP f, ALTER COLUMN g SET DEFAULT 'x', "
      "ALTER h DROP DEFAULT, ALTER i SET NOT NULL, ALTER COLUMN j DROP NOT NULL, ADD CONSTRAINT "
      "k CHECK (a <> b), DROP CONSTRAINT IF EXISTS l RESTRICT");
  ASSERT_EQ(s.kind, ast::StatementKind::kAlterTable);
  const ast::AlterTableStmt& a = *s.alter_table;
  EXPECT_EQ(a.table, "t");
  EXPECT_TRUE(a.if_exists);
  ASSERT_EQ(a.cmds.size(), 10u);
  EXPECT_EQ(a.cmds[0].kind, Kind::kAddColumn);
  EXPECT_TRUE(a.cmds[0].missing_ok);
  EXPECT_EQ(a.cmds[0].column.name, "c");
  EXPECT_EQ(a.cmds[0].column.default_text, "1 + 2");
  EXPECT_TRUE(a.cmds[0].column.not_null);
  ASSERT_EQ(a.cmds[0].column.checks.size(), 1u);
  EXPECT_EQ(a.cmds[0].column.checks[0].text, "c > 0");
  EXPECT_EQ(a.cmds[1].kind, Kind::kAddColumn);
  EXPECT_FALSE(a.cmds[1].missing_ok);
  EXPECT_EQ(a.cmds[2].kind, Kind::kDropColumn);
  EXPECT_TRUE(a.cmds[2].missing_ok);
  EXPECT_TRUE(a.cmds[2].cascade);
  EXPECT_EQ(a.cmds[3].name, "f");
  EXPECT_EQ(a.cmds[4].kind, Kind::kSetDefault);
  EXPECT_EQ(a.cmds[4].default_text, "'x'");
  EXPECT_EQ(a.cmds[5].kind, Kind::kDropDefault);
  EXPECT_EQ(a.cmds[6].kind, Kind::kSetNotNull);
  EXPECT_EQ(a.cmds[7].kind, Kind::kDropNotNull);
  EXPECT_EQ(a.cmds[8].kind, Kind::kAddConstraint);
  EXPECT_EQ(a.cmds[8].check.name, "k");
  EXPECT_EQ(a.cmds[8].check.text, "a <> b");
  EXPECT_EQ(a.cmds[9].kind, Kind::kDropConstraint);
  EXPECT_TRUE(a.cmds[9].missing_ok);
}

TEST(ParserDdl, AlterTableRenames) {
  ast::Statement s = ParseOne("ALTER TABLE t RENAME COLUMN a TO \"B\"");
  ASSERT_EQ(s.alter_table->cmds.size(), 1u);
  EXPECT_EQ(s.alter_table->cmds[0].kind, Kind::kRenameColumn);
  EXPECT_EQ(s.alter_table->cmds[0].name, "a");
  EXPECT_EQ(s.alter_table->cmds[0].new_name, "B");
  EXPECT_EQ(ParseOne("ALTER TABLE t RENAME a TO b").alter_table->cmds[0].kind, Kind::kRenameColumn);
  EXPECT_EQ(ParseOne("ALTER TABLE t RENAME TO u").alter_table->cmds[0].kind, Kind::kRenameTable);
  EXPECT_EQ(ParseOne("ALTER TABLE t RENAME CONSTRAINT c TO d").alter_table->cmds[0].kind,
            Kind::kRenameConstraint);
  EXPECT_EQ(StateOf("ALTER TABLE t RENAME TO u, ADD x INT"), "42601");
  EXPECT_EQ(StateOf("ALTER TABLE t"), "42601");
  const ast::Statement pk = ParseOne("ALTER TABLE ONLY public.t ADD CONSTRAINT k PRIMARY KEY (a, b)");
  ASSERT_EQ(pk.alter_table->cmds.size(), 1u);
  EXPECT_EQ(pk.alter_table->table, ast::QualifyName("public", "t"));
  EXPECT_TRUE(pk.alter_table->cmds[0].primary_key);
  EXPECT_EQ(pk.alter_table->cmds[0].key_columns, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(pk.alter_table->cmds[0].name, "k");
  const ast::Statement uq = ParseOne("ALTER TABLE t ADD UNIQUE (c)");
  EXPECT_FALSE(uq.alter_table->cmds[0].primary_key);
  EXPECT_EQ(uq.alter_table->cmds[0].key_columns, (std::vector<std::string>{"c"}));
  // Any schema parses (the engine resolves it: 3F000 when it does not exist).
  EXPECT_EQ(ParseOne("ALTER TABLE other.t ADD UNIQUE (c)").alter_table->table,
            ast::QualifyName("other", "t"));
  EXPECT_EQ(StateOf("ALTER TABLE pg_catalog.pg_class ADD UNIQUE (c)"), "42501");
}

TEST(ParserDdl, CheckAndForeignKeyConstraints) {
  ast::Statement s = ParseOne(
      "CREATE TABLE t (a INT CONSTRAINT pos CHECK (a > 0) REFERENCES p (id) ON DELETE CASCADE, "
      "b INT CHECK (b IS NOT NULL), CHECK ((a < b)), CONSTRAINT two FOREIGN KEY (a, b) "
      "REFERENCES q MATCH FULL ON UPDATE SET NULL ON DELETE NO ACTION)");
  const ast::CreateTableStmt& c = *s.create_table;
  ASSERT_EQ(c.columns.size(), 2u);
  ASSERT_EQ(c.columns[0].checks.size(), 1u);
  EXPECT_EQ(c.columns[0].checks[0].name, "pos");
  EXPECT_EQ(c.columns[0].checks[0].text, "a > 0");
  ASSERT_EQ(c.columns[0].references.size(), 1u);
  EXPECT_EQ(c.columns[0].references[0].table, "p");
  EXPECT_EQ(c.columns[1].checks[0].text, "b IS NOT NULL");
  ASSERT_EQ(c.checks.size(), 1u);
  EXPECT_EQ(c.checks[0].text, "(a < b)");
  ASSERT_EQ(c.foreign_keys.size(), 1u);
  EXPECT_EQ(c.foreign_keys[0].table, "q");
  EXPECT_EQ(StateOf("CREATE TABLE t (a INT CHECK a > 0)"), "42601");
  EXPECT_EQ(StateOf("CREATE TABLE t (a INT REFERENCES)"), "42601");
}

TEST(ParserDdl, CreateTableAs) {
  ast::Statement s = ParseOne("CREATE TABLE IF NOT EXISTS t (x, y) AS SELECT 1, 2 WITH NO DATA");
  ASSERT_EQ(s.kind, ast::StatementKind::kCreateTableAs);
  EXPECT_TRUE(s.create_table_as->if_not_exists);
  EXPECT_EQ(s.create_table_as->columns, (std::vector<std::string>{"x", "y"}));
  EXPECT_FALSE(s.create_table_as->with_data);
  ASSERT_NE(s.create_table_as->query, nullptr);
  EXPECT_TRUE(ParseOne("CREATE TABLE t AS SELECT 1 WITH DATA").create_table_as->with_data);
  EXPECT_TRUE(ParseOne("CREATE TABLE t AS (SELECT 1) UNION SELECT 2").create_table_as->with_data);
}

TEST(ParserDdl, ValuesAsAQuery) {
  ast::Statement s = ParseOne("SELECT * FROM (VALUES (1, 'a'), (2, 'b'), (3, 'c')) AS v (n, s)");
  const ast::SelectStmt& q = *s.select->from[0].subquery;
  EXPECT_EQ(q.set_op, ast::SetOp::kUnion);
  EXPECT_TRUE(q.set_all);
  EXPECT_EQ(q.set_left->set_op, ast::SetOp::kUnion);  // (1 UNION ALL 2) UNION ALL 3
  EXPECT_EQ(q.set_left->set_left->items[1].alias, "column2");
  EXPECT_EQ(StateOf("VALUES (1), (2, 3)"), "42601");
  EXPECT_EQ(StateOf("SELECT * FROM (VALUES (DEFAULT)) v"), "42601");
  // INSERT ... VALUES keeps its own rows (DEFAULT allowed there).
  ast::Statement ins = ParseOne("INSERT INTO t VALUES (1, DEFAULT)");
  ASSERT_EQ(ins.insert->values.size(), 1u);
  EXPECT_EQ(ins.insert->select, nullptr);
  // A long list stays shallow (balanced): no depth error.
  std::string many = "VALUES (0)";
  for (int i = 1; i < 5000; ++i) many += ", (" + std::to_string(i) + ")";
  EXPECT_EQ(StateOf(many), "ok");
}

// A VALUES item that is a bare literal takes the grammar's short path (valueItem: literal);
// it must give the same expression, with the same position, as the full expression path, and
// a literal followed by an operator must still be an expression.
TEST(ParserDdl, ValuesLiteralItemsMatchTheExpressionPath) {
  const std::string items =
      "1, 'a', NULL, TRUE, 2.50, -3, 1 + 2, 'x' || 'y', 4::text, NULL IS NULL";
  ast::Statement ins = ParseOne("INSERT INTO t VALUES (" + items + ")");
  ast::Statement sel = ParseOne("SELECT " + items);
  ASSERT_EQ(ins.insert->values.size(), 1u);
  const auto& row = ins.insert->values[0];
  ASSERT_EQ(row.size(), sel.select->items.size());
  for (size_t i = 0; i < row.size(); ++i) {
    EXPECT_EQ(Dump(row[i].get()), Dump(sel.select->items[i].expr.get())) << i;
    // The same place in the text: "INSERT INTO t VALUES (" is 15 characters longer than "SELECT ".
    EXPECT_EQ(row[i]->loc.position, sel.select->items[i].expr->loc.position + 15) << i;
  }
  EXPECT_EQ(Dump(row[6].get()), "(+ 1 2)");
  // VALUES as a query too.
  ast::Statement v = ParseOne("VALUES (" + items + ")");
  EXPECT_EQ(Dump(v.select->items[7].expr.get()), Dump(sel.select->items[7].expr.get()));
}

TEST(ParserDdl, NewUnreservedKeywordsAreNames) {
  EXPECT_EQ(StateOf("CREATE TABLE data (action INT, add INT, alter INT, cascade INT, match INT, "
                    "partial INT, rename INT, restrict INT, simple INT)"),
            "ok");
  EXPECT_EQ(StateOf("SELECT action, data FROM rename WHERE match = 1"), "ok");
  EXPECT_EQ(StateOf("ALTER TABLE data RENAME action TO add"), "ok");
  EXPECT_EQ(StateOf("CREATE TABLE t (check INT)"), "42601");  // reserved, as in PostgreSQL
  EXPECT_EQ(StateOf("CREATE TABLE t (\"column\" INT)"), "ok");
  EXPECT_EQ(StateOf("CREATE TABLE vacuum (verbose INT, freeze INT)"), "ok");
  EXPECT_EQ(StateOf("VACUUM (ANALYZE, VERBOSE off) verbose, public.freeze"), "ok");
}

TEST(ParserDdl, CreateAndDropView) {
  ast::Statement s = ParseOne(
      "CREATE OR REPLACE TEMP VIEW V (a, \"B\") AS SELECT x, y FROM t /* c */ WHERE x > 1");
  ASSERT_EQ(s.kind, ast::StatementKind::kCreateView);
  const ast::CreateViewStmt& v = *s.create_view;
  EXPECT_EQ(v.name, "v");
  EXPECT_TRUE(v.or_replace);
  EXPECT_TRUE(v.temporary);
  EXPECT_EQ(v.columns, (std::vector<std::string>{"a", "B"}));
  EXPECT_EQ(v.query_text, "SELECT x, y FROM t /* c */ WHERE x > 1");  // the exact source
  ASSERT_NE(v.query, nullptr);
  EXPECT_EQ(v.query->items.size(), 2u);
  ast::Statement plain = ParseOne("CREATE TEMPORARY VIEW w AS VALUES (1)");
  EXPECT_TRUE(plain.create_view->temporary);
  EXPECT_FALSE(plain.create_view->or_replace);
  EXPECT_EQ(plain.create_view->query_text, "VALUES (1)");
  ast::Statement d = ParseOne("DROP VIEW IF EXISTS a, b CASCADE");
  ASSERT_EQ(d.kind, ast::StatementKind::kDropView);
  EXPECT_EQ(d.drop_table->tables, (std::vector<std::string>{"a", "b"}));
  EXPECT_TRUE(d.drop_table->if_exists);
  EXPECT_TRUE(d.drop_table->cascade);
  EXPECT_FALSE(ParseOne("DROP TABLE t RESTRICT").drop_table->cascade);
  EXPECT_TRUE(ParseOne("DROP TABLE t, u CASCADE").drop_table->cascade);
  EXPECT_EQ(StateOf("CREATE VIEW v AS"), "42601");
  EXPECT_EQ(StateOf("CREATE VIEW v (a) SELECT 1"), "42601");
  const ast::Statement tt = ParseOne("CREATE TEMP TABLE t (a INT) ON COMMIT DELETE ROWS");
  EXPECT_TRUE(tt.create_table->temp);
  EXPECT_EQ(tt.create_table->on_commit, ast::OnCommit::kDeleteRows);
  EXPECT_EQ(ParseOne("CREATE TEMPORARY TABLE t (a INT)").create_table->on_commit,
            ast::OnCommit::kPreserveRows);
  EXPECT_EQ(ParseOne("CREATE TEMP TABLE t ON COMMIT DROP AS SELECT 1").create_table_as->on_commit,
            ast::OnCommit::kDrop);
  EXPECT_EQ(StateOf("CREATE TABLE t (a INT) ON COMMIT DROP"), "42P16");
  // CREATE / DROP / ALTER SCHEMA.
  const ast::Statement cs = ParseOne("CREATE SCHEMA IF NOT EXISTS app AUTHORIZATION bob");
  ASSERT_EQ(cs.kind, ast::StatementKind::kCreateSchema);
  EXPECT_EQ(cs.schema->names, (std::vector<std::string>{"app"}));
  EXPECT_EQ(cs.schema->role, "bob");
  EXPECT_TRUE(cs.schema->missing_ok);
  EXPECT_EQ(ParseOne("CREATE SCHEMA AUTHORIZATION bob").schema->names,
            (std::vector<std::string>{"bob"}));
  const ast::Statement ds = ParseOne("DROP SCHEMA IF EXISTS a, b CASCADE");
  ASSERT_EQ(ds.kind, ast::StatementKind::kDropSchema);
  EXPECT_EQ(ds.schema->names, (std::vector<std::string>{"a", "b"}));
  EXPECT_TRUE(ds.schema->cascade);
  const ast::Statement as = ParseOne("ALTER SCHEMA a RENAME TO b");
  ASSERT_EQ(as.kind, ast::StatementKind::kAlterSchema);
  EXPECT_EQ(as.schema->new_name, "b");
  EXPECT_EQ(StateOf("CREATE SCHEMA"), "42601");
  EXPECT_EQ(StateOf("DROP VIEW"), "42601");
  // t AS x (a, b) in FROM.
  ast::Statement q = ParseOne("SELECT * FROM t AS x (a, b)");
  EXPECT_EQ(q.select->from[0].alias, "x");
  EXPECT_EQ(q.select->from[0].column_aliases, (std::vector<std::string>{"a", "b"}));
  // The new keywords stay names (and replace() a function).
  EXPECT_EQ(StateOf("CREATE TABLE view (temp INT, temporary INT, replace TEXT)"), "ok");
  EXPECT_EQ(StateOf("SELECT replace(replace, 'a', 'b'), temp FROM view"), "ok");
  EXPECT_EQ(StateOf("CREATE VIEW view AS SELECT 1"), "ok");
}

}  // namespace
}  // namespace meridian::parser::testing
