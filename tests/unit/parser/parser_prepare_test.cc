// SQL-level prepared statements: PREPARE name [(types)] AS statement (SELECT, INSERT, UPDATE,
// DELETE only), EXECUTE name [(args)], DEALLOCATE [PREPARE] {name | ALL}; their syntax errors as
// PostgreSQL reports them, and PREPARE / EXECUTE / DEALLOCATE still usable as names.

#include "parser_test_util.h"

namespace meridian::parser::testing {
namespace {

std::string StateOf(std::string_view sql) {
  auto r = Parse(sql);
  return r.ok() ? "ok" : r.status().sqlstate();
}

std::string ErrorOf(std::string_view sql) {
  auto r = Parse(sql);
  if (r.ok()) return "ok";
  return r.status().sqlstate() + " " + r.status().message() + " @" +
         std::to_string(r.status().position());
}

TEST(ParserPrepare, PrepareSelectWithTypes) {
  ast::Statement s =
      ParseOne("PREPARE q1 (int, VARCHAR(5), double precision) AS SELECT $1 + 1, $2");
  ASSERT_EQ(s.kind, ast::StatementKind::kPrepare);
  ASSERT_NE(s.prepare, nullptr);
  EXPECT_EQ(s.prepare->name, "q1");
  EXPECT_EQ(s.prepare->name_loc.position, 9u);
  ASSERT_EQ(s.prepare->param_types.size(), 3u);
  EXPECT_EQ(s.prepare->param_types[0].name, "integer");
  EXPECT_EQ(s.prepare->param_types[1].name, "varchar");
  EXPECT_EQ(s.prepare->param_types[1].modifier, 5);
  EXPECT_EQ(s.prepare->param_types[2].name, "double precision");
  const ast::Statement& inner = *s.prepare->statement;
  EXPECT_EQ(inner.kind, ast::StatementKind::kSelect);
  EXPECT_EQ(inner.text, "SELECT $1 + 1, $2");
  EXPECT_EQ(inner.loc.position, 51u);  // positions stay those of the whole request
  ASSERT_EQ(inner.select->items.size(), 2u);
  EXPECT_EQ(Dump(inner.select->items[0].expr.get()), "(+ $1 1)");
  EXPECT_EQ(s.text, "PREPARE q1 (int, VARCHAR(5), double precision) AS SELECT $1 + 1, $2");
}

TEST(ParserPrepare, PrepareEveryPreparableStatement) {
  struct Case {
    const char* sql;
    ast::StatementKind kind;
  };
  const Case cases[] = {
      {"PREPARE p AS SELECT * FROM t WHERE a = $1", ast::StatementKind::kSelect},
      {"PREPARE p AS WITH w AS (SELECT 1) SELECT * FROM w", ast::StatementKind::kSelect},
      {"PREPARE p AS (SELECT 1) UNION SELECT 2", ast::StatementKind::kSelect},
      {"PREPARE p AS SELECT * FROM t FOR UPDATE", ast::StatementKind::kSelect},
      {"PREPARE p (int) AS INSERT INTO t VALUES ($1)", ast::StatementKind::kInsert},
      {"PREPARE p AS INSERT INTO t SELECT * FROM u", ast::StatementKind::kInsert},
      {"PREPARE p AS UPDATE t SET a = $1 WHERE b = $2", ast::StatementKind::kUpdate},
      {"PREPARE p AS DELETE FROM t WHERE a = $1", ast::StatementKind::kDelete},
  };
  for (const Case& c : cases) {
    ast::Statement s = ParseOne(c.sql);
    ASSERT_EQ(s.kind, ast::StatementKind::kPrepare) << c.sql;
    ASSERT_NE(s.prepare->statement, nullptr) << c.sql;
    EXPECT_EQ(s.prepare->statement->kind, c.kind) << c.sql;
    EXPECT_TRUE(s.prepare->param_types.empty() || c.kind == ast::StatementKind::kInsert);
  }
  ast::Statement s = ParseOne("prepare \"Mixed Case\" as delete from t");
  EXPECT_EQ(s.prepare->name, "Mixed Case");
  EXPECT_EQ(s.prepare->statement->del->table, "t");
}

TEST(ParserPrepare, Execute) {
  ast::Statement s = ParseOne("EXECUTE q1 (1, 'two', $1, abs(-3) + 1)");
  ASSERT_EQ(s.kind, ast::StatementKind::kExecute);
  EXPECT_EQ(s.execute->name, "q1");
  EXPECT_EQ(s.execute->name_loc.position, 9u);
  ASSERT_EQ(s.execute->args.size(), 4u);
  EXPECT_EQ(Dump(s.execute->args[0].get()), "1");
  EXPECT_EQ(Dump(s.execute->args[1].get()), "'two'");
  EXPECT_EQ(Dump(s.execute->args[2].get()), "$1");
  EXPECT_EQ(Dump(s.execute->args[3].get()), "(+ abs( -3) 1)");
  EXPECT_EQ(s.execute->args[1]->loc.position, 16u);

  s = ParseOne("execute Q2");
  EXPECT_EQ(s.execute->name, "q2");
  EXPECT_TRUE(s.execute->args.empty());
}

TEST(ParserPrepare, Deallocate) {
  ast::Statement s = ParseOne("DEALLOCATE q1");
  ASSERT_EQ(s.kind, ast::StatementKind::kDeallocate);
  EXPECT_EQ(s.deallocate->name, "q1");
  EXPECT_FALSE(s.deallocate->all);
  EXPECT_EQ(s.deallocate->name_loc.position, 12u);

  s = ParseOne("DEALLOCATE PREPARE q1");
  EXPECT_EQ(s.deallocate->name, "q1");
  EXPECT_FALSE(s.deallocate->all);

  for (const char* sql : {"DEALLOCATE ALL", "deallocate prepare all", "DEALLOCATE ALL;"}) {
    s = ParseOne(sql);
    ASSERT_EQ(s.kind, ast::StatementKind::kDeallocate) << sql;
    EXPECT_TRUE(s.deallocate->all) << sql;
    EXPECT_EQ(s.deallocate->name, "") << sql;
  }
  // PREPARE is not reserved: DEALLOCATE prepare drops the statement called "prepare".
  s = ParseOne("DEALLOCATE prepare");
  EXPECT_FALSE(s.deallocate->all);
  EXPECT_EQ(s.deallocate->name, "prepare");
  s = ParseOne("DEALLOCATE PREPARE prepare");
  EXPECT_EQ(s.deallocate->name, "prepare");
  s = ParseOne("DEALLOCATE \"ALL\"");  // quoted: a name
  EXPECT_FALSE(s.deallocate->all);
  EXPECT_EQ(s.deallocate->name, "ALL");
  // psycopg's statement names.
  s = ParseOne("DEALLOCATE _pg3_12");
  EXPECT_EQ(s.deallocate->name, "_pg3_12");
}

TEST(ParserPrepare, MultiStatementRequest) {
  auto r = Parse("PREPARE p (int) AS SELECT $1; EXECUTE p (2); DEALLOCATE p");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->size(), 3u);
  EXPECT_EQ((*r)[0].kind, ast::StatementKind::kPrepare);
  EXPECT_EQ((*r)[0].text, "PREPARE p (int) AS SELECT $1");
  EXPECT_EQ((*r)[0].prepare->statement->text, "SELECT $1");
  EXPECT_EQ((*r)[1].kind, ast::StatementKind::kExecute);
  EXPECT_EQ((*r)[1].loc.position, 31u);
  EXPECT_EQ((*r)[2].kind, ast::StatementKind::kDeallocate);
}

TEST(ParserPrepare, Errors) {
  // Only SELECT, INSERT, UPDATE and DELETE can be prepared (PostgreSQL's PreparableStmt).
  EXPECT_EQ(ErrorOf("PREPARE f AS CREATE TABLE x (a int)"),
            "42601 syntax error at or near \"CREATE\" @14");
  EXPECT_EQ(StateOf("PREPARE f AS BEGIN"), "42601");
  EXPECT_EQ(StateOf("PREPARE f AS PREPARE g AS SELECT 1"), "42601");
  EXPECT_EQ(StateOf("PREPARE f AS EXECUTE g"), "42601");
  EXPECT_EQ(StateOf("PREPARE f AS EXPLAIN SELECT 1"), "42601");
  EXPECT_EQ(StateOf("PREPARE f AS SET a = 1"), "42601");
  EXPECT_EQ(StateOf("PREPARE f SELECT 1"), "42601");  // AS is required
  EXPECT_EQ(StateOf("PREPARE AS SELECT 1"), "42601");
  EXPECT_EQ(StateOf("PREPARE f () AS SELECT 1"), "42601");
  EXPECT_EQ(StateOf("PREPARE f (int,) AS SELECT 1"), "42601");
  EXPECT_EQ(StateOf("PREPARE f AS"), "42601");
  EXPECT_EQ(ErrorOf("PREPARE h(foo) AS SELECT 1"), "42704 type \"foo\" does not exist @11");
  EXPECT_EQ(ErrorOf("EXECUTE c()"), "42601 syntax error at or near \")\" @11");
  EXPECT_EQ(StateOf("EXECUTE"), "42601");
  EXPECT_EQ(StateOf("EXECUTE c(1,)"), "42601");
  EXPECT_EQ(StateOf("EXECUTE c 1"), "42601");
  EXPECT_EQ(StateOf("DEALLOCATE"), "42601");
  EXPECT_EQ(StateOf("DEALLOCATE PREPARE"), "ok");  // the statement named "prepare"
  EXPECT_EQ(StateOf("DEALLOCATE a b"), "42601");
  EXPECT_EQ(StateOf("DEALLOCATE ALL x"), "42601");
  // PostgreSQL cannot EXPLAIN a PREPARE or a DEALLOCATE either.
  EXPECT_EQ(ErrorOf("EXPLAIN PREPARE z AS SELECT 1"),
            "42601 syntax error at or near \"PREPARE\" @9");
  EXPECT_EQ(ErrorOf("EXPLAIN DEALLOCATE z"), "42601 syntax error at or near \"DEALLOCATE\" @9");
  // Two-phase commit stays unsupported.
  EXPECT_EQ(StateOf("PREPARE TRANSACTION 'x'"), "42601");
  // The parser's depth guard covers the prepared statement and EXECUTE's arguments.
  std::string deep = "PREPARE d AS SELECT 1";
  for (int i = 0; i < 1500; ++i) deep += "+1";
  EXPECT_EQ(StateOf(deep), "54001");
  std::string deep_args = "EXECUTE d (1";
  for (int i = 0; i < 1500; ++i) deep_args += "+1";
  EXPECT_EQ(StateOf(deep_args + ")"), "54001");
}

// PREPARE, EXECUTE and DEALLOCATE are non-reserved, as in PostgreSQL.
TEST(ParserPrepareKeywords, UsableAsNames) {
  for (const char* w : {"prepare", "execute", "deallocate"}) {
    const std::string id(w);
    for (const std::string& sql : {
             "CREATE TABLE " + id + " (" + id + " int, b text)",
             "SELECT " + id + ", " + id + "." + id + ", b " + id + ", b AS " + id + " FROM " + id +
                 " " + id + " WHERE " + id + " > 1 ORDER BY " + id,
             "INSERT INTO " + id + " (" + id + ", b) VALUES (1, 'x')",
             "UPDATE " + id + " SET " + id + " = " + id + " + 1 WHERE " + id + " IS NULL",
             "DELETE FROM " + id + " WHERE " + id + " = 1",
             "SELECT " + id + "(1), " + id + "::int FROM t",
             "CREATE INDEX " + id + " ON " + id + " (" + id + ")",
             "DROP TABLE " + id,
             "PREPARE " + id + " AS SELECT " + id + " FROM " + id,
             "EXECUTE " + id + " (" + id + ")",
             "DEALLOCATE " + id,
             "SAVEPOINT " + id,
         }) {
      auto r = Parse(sql);
      EXPECT_TRUE(r.ok()) << sql << " -> " << r.status().ToString();
    }
  }
  ast::Statement s = ParseOne("SELECT prepare, execute FROM deallocate");
  EXPECT_EQ(s.kind, ast::StatementKind::kSelect);
  EXPECT_EQ(Dump(s.select->items[1].expr.get()), "execute");
  EXPECT_EQ(s.select->from[0].name, "deallocate");
  s = ParseOne("PREPARE execute AS SELECT 1");
  EXPECT_EQ(s.prepare->name, "execute");
  s = ParseOne("EXECUTE prepare");
  EXPECT_EQ(s.execute->name, "prepare");
}

}  // namespace
}  // namespace meridian::parser::testing
