// Aggregates with GROUP BY/HAVING, and scalar/IN/EXISTS subqueries (uncorrelated and
// correlated), in the shapes the sqllogictest select1-3 files use.
#include "sql_test_util.h"

namespace meridian::testing {
namespace {

using Strings = std::vector<std::string>;

class AggregateTest : public SqlTest {
 protected:
  void SetUp() override {
    SqlTest::SetUp();
    ASSERT_TRUE(
        Q("CREATE TABLE t1(a INTEGER, b INTEGER, c INTEGER, d INTEGER, e INTEGER)").status.ok());
    ASSERT_TRUE(Q("INSERT INTO t1(e,c,b,d,a) VALUES(103,102,100,101,104);"
                  "INSERT INTO t1(a,c,d,e,b) VALUES(107,106,108,109,105);"
                  "INSERT INTO t1(e,d,b,a,c) VALUES(110,114,112,111,113);"
                  "INSERT INTO t1(d,c,e,a,b) VALUES(116,119,117,115,118);"
                  "INSERT INTO t1(c,d,b,e,a) VALUES(123,122,124,120,121);"
                  "INSERT INTO t1(a,d,b,e,c) VALUES(127,128,129,126,125);"
                  "INSERT INTO t1(e,c,a,d,b) VALUES(132,134,131,133,130);"
                  "INSERT INTO t1(a,d,b,e,c) VALUES(138,136,139,135,137);"
                  "INSERT INTO t1(e,c,d,a,b) VALUES(144,141,140,142,143);"
                  "INSERT INTO t1(b,a,e,d,c) VALUES(145,149,146,148,147)")
                    .status.ok());
  }
};

TEST_F(AggregateTest, GroupByHaving) {
  EXPECT_EQ(Rows("SELECT count(*), sum(a), min(b), max(c), avg(d) FROM t1"),
            (Strings{"10|1245|100|147|124.6000000000000000"}));
  EXPECT_EQ(Rows("SELECT a % 2, count(*) FROM t1 GROUP BY a % 2 ORDER BY 1"),
            (Strings{"0|3", "1|7"}));
  EXPECT_EQ(Rows("SELECT a % 2 AS p, count(*) AS n FROM t1 GROUP BY p HAVING count(*) > 3"),
            (Strings{"1|7"}));
  EXPECT_EQ(Rows("SELECT a % 3, sum(b) FROM t1 GROUP BY 1 ORDER BY sum(b) DESC"),
            (Strings{"1|514", "2|480", "0|251"}));
  EXPECT_EQ(Rows("SELECT count(*) FROM t1 WHERE a > 1000"), (Strings{"0"}));
  EXPECT_EQ(Rows("SELECT a FROM t1 WHERE a > 1000 GROUP BY a"), (Strings{}));
  EXPECT_EQ(Rows("SELECT count(*) FROM t1 HAVING count(*) > 100"), (Strings{}));
}

TEST_F(AggregateTest, ScalarSubqueries) {
  EXPECT_EQ(Rows("SELECT CASE WHEN c>(SELECT avg(c) FROM t1) THEN a*2 ELSE b*10 END FROM t1 "
                 "ORDER BY 1"),
            (Strings{"254", "262", "276", "284", "298", "1000", "1050", "1120", "1180", "1240"}));
  // Correlated: rank of b.
  EXPECT_EQ(Rows("SELECT (SELECT count(*) FROM t1 AS x WHERE x.b<t1.b) FROM t1 ORDER BY 1"),
            (Strings{"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"}));
  EXPECT_EQ(Rows("SELECT a FROM t1 WHERE EXISTS (SELECT 1 FROM t1 AS x WHERE x.a = t1.a + 4) "
                 "ORDER BY a"),
            (Strings{"107", "111", "127", "138"}));
  EXPECT_EQ(Rows("SELECT a FROM t1 WHERE NOT EXISTS (SELECT 1 FROM t1 AS x WHERE x.a > t1.a)"),
            (Strings{"149"}));
  EXPECT_EQ(Rows("SELECT count(*) FROM t1 WHERE a IN (SELECT b + 1 FROM t1)"), (Strings{"1"}));
  EXPECT_EQ(Rows("SELECT (SELECT max(a) FROM t1 WHERE a < 0)"), (Strings{"NULL"}));
}

TEST_F(AggregateTest, SelectTestShapes) {
  EXPECT_EQ(Rows("SELECT a+b*2+c*3+d*4+e*5, (a+b+c+d+e)/5 FROM t1 WHERE a BETWEEN b-2 AND "
                 "c+2 ORDER BY 1"),
            (Strings{"1529|102", "1612|107", "1680|112", "1902|127", "1985|132", "2046|137",
                     "2131|142", "2202|147"}));
  EXPECT_EQ(Rows("SELECT abs(b-c), CASE a+1 WHEN b THEN 111 WHEN c THEN 222 ELSE 333 END FROM "
                 "t1 WHERE d NOT BETWEEN 110 AND 150 ORDER BY 1"),
            (Strings{"1|333", "2|333"}));
}

// GROUPING SETS / ROLLUP / CUBE: PostgreSQL's EXPLAIN layout (a Hash Key line per set,
// Group Key: () for the empty one), the set rows and GROUPING's mask.
TEST_F(AggregateTest, GroupingSetsExplainAndRows) {
  EXPECT_EQ(Rows("EXPLAIN (COSTS OFF) SELECT a % 2, b % 2, count(*) FROM t1 "
                 "GROUP BY ROLLUP (a % 2, b % 2)"),
            (Strings{"MixedAggregate", "  Hash Key: (t1.a % 2), (t1.b % 2)",
                     "  Hash Key: (t1.a % 2)", "  Group Key: ()", "  ->  Seq Scan on t1"}));
  EXPECT_EQ(Rows("EXPLAIN (COSTS OFF) SELECT count(*) FROM t1 GROUP BY GROUPING SETS (a, b)"),
            (Strings{"HashAggregate", "  Hash Key: t1.a", "  Hash Key: t1.b",
                     "  ->  Seq Scan on t1"}));
  EXPECT_EQ(Rows("SELECT a % 2, count(*), grouping(a % 2) FROM t1 GROUP BY ROLLUP (a % 2) "
                 "ORDER BY 1"),
            (Strings{"0|3|0", "1|7|0", "NULL|10|1"}));
  EXPECT_EQ(Rows("SELECT count(*) FROM t1 WHERE a > 1000 GROUP BY CUBE (a, b)"),
            (Strings{"0"}));
}

}  // namespace
}  // namespace meridian::testing
