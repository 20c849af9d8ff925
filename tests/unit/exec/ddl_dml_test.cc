// DDL and DML round trips through the public API: command tags, notices, defaults, output
// column names, UPDATE/DELETE, INSERT ... SELECT, expressions and casts.
#include "sql_test_util.h"

namespace meridian::testing {
namespace {

using Strings = std::vector<std::string>;

class DdlDmlTest : public SqlTest {};

TEST_F(DdlDmlTest, CreateInsertSelectRoundTrip) {
  SqlResult r = Q("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, score DOUBLE PRECISION)");
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.tag, "CREATE TABLE");
  r = Q("INSERT INTO t VALUES (1, 'a', 1.5), (2, 'b', NULL), (3, NULL, 2)");
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.tag, "INSERT 0 3");
  r = Q("SELECT id, name, score FROM t ORDER BY id");
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.tag, "SELECT 3");
  EXPECT_EQ(r.rows, (Strings{"1|a|1.5", "2|b|NULL", "3|NULL|2"}));
  ASSERT_EQ(r.columns.size(), 3u);
  EXPECT_EQ(r.columns[0].name, "id");
  EXPECT_EQ(r.columns[0].type, Type::Integer());
  EXPECT_FALSE(r.columns[0].nullable);  // a PRIMARY KEY column is NOT NULL
  EXPECT_EQ(r.columns[2].type, Type::Double());
}

TEST_F(DdlDmlTest, CommandTagsAndNotices) {
  ASSERT_TRUE(Q("CREATE TABLE t (a INT)").status.ok());
  SqlResult r = Q("CREATE TABLE IF NOT EXISTS t (a INT)");
  ASSERT_TRUE(r.status.ok());
  EXPECT_EQ(r.notice, "relation \"t\" already exists, skipping");
  EXPECT_EQ(r.tag, "CREATE TABLE");
  r = Q("DROP TABLE IF EXISTS nosuch");
  ASSERT_TRUE(r.status.ok());
  EXPECT_EQ(r.notice, "table \"nosuch\" does not exist, skipping");
  EXPECT_EQ(r.tag, "DROP TABLE");
  EXPECT_EQ(Q("INSERT INTO t VALUES (1), (2), (3)").tag, "INSERT 0 3");
  EXPECT_EQ(Q("UPDATE t SET a = a * 10 WHERE a >= 2").tag, "UPDATE 2");
  EXPECT_EQ(Q("DELETE FROM t WHERE a = 20").tag, "DELETE 1");
  EXPECT_EQ(Rows("SELECT a FROM t ORDER BY a"), (Strings{"1", "30"}));
  EXPECT_EQ(Q("DELETE FROM t").tag, "DELETE 2");
  EXPECT_EQ(Q("DROP TABLE t").tag, "DROP TABLE");
  Err("SELECT * FROM t", "42P01");
}

TEST_F(DdlDmlTest, MultiStatementRequest) {
  SqlResult r = Q("CREATE TABLE t (a INT); INSERT INTO t VALUES (7); SELECT a + 1 FROM t");
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.rows, (Strings{"8"}));
}

TEST_F(DdlDmlTest, SelectWithoutFromAndOutputNames) {
  SqlResult r =
      Q("SELECT 1, 1 + 2 AS three, abs(-4), 'x', CAST(5 AS TEXT), CASE WHEN true THEN 1 END, "
        "coalesce(NULL, 2), 2147483647 + 0");
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.rows, (Strings{"1|3|4|x|5|1|2|2147483647"}));
  Strings names;
  for (const ColumnInfo& c : r.columns) names.push_back(c.name);
  EXPECT_EQ(names, (Strings{"?column?", "three", "abs", "?column?", "text", "case", "coalesce",
                            "?column?"}));
  EXPECT_EQ(r.columns[3].type, Type::Text());
  ASSERT_TRUE(Q("CREATE TABLE t (a INT, b INT)").status.ok());
  ASSERT_TRUE(Q("INSERT INTO t VALUES (1, 2)").status.ok());
  r = Q("SELECT count(*), a, t.b, a AS z, (SELECT max(b) FROM t) FROM t GROUP BY a, t.b");
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  names.clear();
  for (const ColumnInfo& c : r.columns) names.push_back(c.name);
  EXPECT_EQ(names, (Strings{"count", "a", "b", "z", "max"}));
  EXPECT_EQ(r.columns[0].type, Type::BigInt());
}

TEST_F(DdlDmlTest, DefaultsAndColumnLists) {
  ASSERT_TRUE(Q("CREATE TABLE t (id INT, label TEXT DEFAULT 'none', n INT DEFAULT 40 + 2, "
                "v VARCHAR(3))")
                  .status.ok());
  ASSERT_TRUE(Q("INSERT INTO t (id) VALUES (1)").status.ok());
  ASSERT_TRUE(Q("INSERT INTO t (v, id) VALUES ('ab', 2)").status.ok());
  ASSERT_TRUE(Q("INSERT INTO t VALUES (3, DEFAULT, DEFAULT, DEFAULT)").status.ok());
  ASSERT_TRUE(Q("INSERT INTO t VALUES (4)").status.ok());
  ASSERT_TRUE(Q("UPDATE t SET label = 'x', n = DEFAULT WHERE id = 4").status.ok());
  EXPECT_EQ(Rows("SELECT * FROM t ORDER BY id"),
            (Strings{"1|none|42|NULL", "2|none|42|ab", "3|none|42|NULL", "4|x|42|NULL"}));
  auto desc = db_->DescribeTables("t");
  ASSERT_TRUE(desc.ok());
  ASSERT_EQ(desc->size(), 1u);
  EXPECT_EQ((*desc)[0].columns[1].default_expr, "'none'");
  EXPECT_EQ((*desc)[0].columns[3].type, Type::Varchar(3));
  EXPECT_EQ(db_->DescribeTables("nosuch").status().sqlstate(), "42P01");
}

TEST_F(DdlDmlTest, StringLiteralCoercion) {
  ASSERT_TRUE(
      Q("CREATE TABLE t (a INT, b BIGINT, c DOUBLE PRECISION, d BOOLEAN, e TEXT)").status.ok());
  ASSERT_TRUE(Q("INSERT INTO t VALUES ('42', '9000000000', '1.25', 'true', 5)").status.ok());
  EXPECT_EQ(Rows("SELECT a, b, c, d, e FROM t WHERE a = '42'"),
            (Strings{"42|9000000000|1.25|t|5"}));
  EXPECT_EQ(Rows("SELECT a + '1', e || 1, 1 || e FROM t"), (Strings{"43|51|15"}));
  EXPECT_EQ(Rows("SELECT '7'::integer * 2, CAST('2.5' AS DOUBLE PRECISION), 3.7::integer, "
                 "true::text, 'abcdef'::varchar(3)"),
            (Strings{"14|2.5|4|true|abc"}));
}

TEST_F(DdlDmlTest, ArithmeticAndFunctions) {
  EXPECT_EQ(Rows("SELECT 7 / 2, -7 / 2, 7 % 3, -7 % 3, 7.0 / 2, 2 * 3.5, 1 + 2 * 3"),
            (Strings{"3|-3|1|-1|3.5000000000000000|7.0|7"}));
  EXPECT_EQ(Rows("SELECT nullif(1, 1), nullif(1, 2), coalesce(NULL, NULL, 3), abs(-2.5)"),
            (Strings{"NULL|1|3|2.5"}));
  EXPECT_EQ(Rows("SELECT 'abc' LIKE 'a%', 'abc' LIKE '_b_', 'abc' NOT LIKE 'b%', 'a' || 'b'"),
            (Strings{"t|t|t|ab"}));
  EXPECT_EQ(Rows("SELECT 5 BETWEEN 1 AND 10, 5 NOT BETWEEN 1 AND 4, 3 IN (1, 2, 3), 4 IN (1, 2)"),
            (Strings{"t|t|t|f"}));
  EXPECT_EQ(Rows("SELECT CASE 2 WHEN 1 THEN 'one' WHEN 2 THEN 'two' ELSE 'many' END"),
            (Strings{"two"}));
  EXPECT_EQ(Rows("SELECT 9223372036854775807, -2147483648, 2147483648"),
            (Strings{"9223372036854775807|-2147483648|2147483648"}));
}

TEST_F(DdlDmlTest, InsertSelectAndHalloween) {
  ASSERT_TRUE(Q("CREATE TABLE t (a INT)").status.ok());
  ASSERT_TRUE(Q("INSERT INTO t VALUES (1), (2)").status.ok());
  // INSERT ... SELECT from the same table reads a snapshot of the rows before it writes.
  for (int i = 0; i < 10; ++i) ASSERT_TRUE(Q("INSERT INTO t SELECT a + 2 FROM t").status.ok());
  EXPECT_EQ(Rows("SELECT count(*), sum(a) FROM t"), (Strings{"2048|23552"}));
  // Every row is updated exactly once even though updated rows may move in the heap.
  SqlResult r = Q("UPDATE t SET a = a + 1");
  ASSERT_TRUE(r.status.ok());
  EXPECT_EQ(r.tag, "UPDATE 2048");
  EXPECT_EQ(Rows("SELECT count(*), sum(a) FROM t"), (Strings{"2048|25600"}));
}

TEST_F(DdlDmlTest, HalloweenWithGrowingRows) {
  ASSERT_TRUE(Q("CREATE TABLE t (id INT, s TEXT)").status.ok());
  ASSERT_TRUE(Q("INSERT INTO t VALUES (1, 'x')").status.ok());
  for (int i = 0; i < 9; ++i) ASSERT_TRUE(Q("INSERT INTO t SELECT id + 1, s FROM t").status.ok());
  // Growing tuples force moves to other pages; each row must still be updated once.
  ASSERT_TRUE(
      Q("UPDATE t SET s = s || 'yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy'").status.ok());
  EXPECT_EQ(Rows("SELECT count(*), min(length(s)), max(length(s)) FROM t"), (Strings{"512|51|51"}));
}

TEST_F(DdlDmlTest, CommaJoin) {
  ASSERT_TRUE(Q("CREATE TABLE a (x INT); CREATE TABLE b (y INT, x INT)").status.ok());
  ASSERT_TRUE(Q("INSERT INTO a VALUES (1), (2); INSERT INTO b VALUES (10, 1), (20, 2), (30, 2)")
                  .status.ok());
  EXPECT_EQ(Rows("SELECT a.x, b.y FROM a, b WHERE a.x = b.x ORDER BY b.y"),
            (Strings{"1|10", "2|20", "2|30"}));
  Err("SELECT x FROM a, b", "42702");
}

}  // namespace
}  // namespace meridian::testing

namespace meridian::testing {
namespace {

// EXPLAIN of INSERT ... ON CONFLICT prints PostgreSQL's lines (rows=0 on the Insert node, as
// PostgreSQL prints a ModifyTable): the action, the arbiter indexes
// (not for a DO NOTHING without target) and the DO UPDATE filter.
TEST_F(DdlDmlTest, ExplainOfOnConflict) {
  ASSERT_TRUE(Q("CREATE TABLE kv (k INT PRIMARY KEY, v TEXT, u INT UNIQUE)").status.ok());
  EXPECT_EQ(Rows("EXPLAIN INSERT INTO kv AS t VALUES (1, 'a', 1) ON CONFLICT (k) DO UPDATE SET "
                 "v = excluded.v WHERE t.k = 3"),
            (std::vector<std::string>{"Insert on kv t  (cost=0.00..0.00 rows=0 width=0)",
                                      "  Conflict Resolution: UPDATE",
                                      "  Conflict Arbiter Indexes: kv_pkey",
                                      "  Conflict Filter: (t.k = 3)"}));
  EXPECT_EQ(Rows("EXPLAIN INSERT INTO kv VALUES (1, 'a', 1) ON CONFLICT DO NOTHING"),
            (std::vector<std::string>{"Insert on kv  (cost=0.00..0.00 rows=0 width=0)",
                                      "  Conflict Resolution: NOTHING"}));
  EXPECT_EQ(Rows("EXPLAIN INSERT INTO kv VALUES (1, 'a', 1) ON CONFLICT ON CONSTRAINT kv_u_key "
                 "DO NOTHING")[2],
            "  Conflict Arbiter Indexes: kv_u_key");
  // EXPLAIN binds: a target no unique index has is the same 42P10 as running it.
  Err("EXPLAIN INSERT INTO kv VALUES (1, 'a', 1) ON CONFLICT (v) DO NOTHING", "42P10");
}

}  // namespace
}  // namespace meridian::testing
