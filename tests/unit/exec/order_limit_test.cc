// ORDER BY (multi-key, ASC/DESC, NULLS FIRST/LAST, by position, alias, expression, hidden
// columns), DISTINCT and LIMIT/OFFSET.
#include "sql_test_util.h"

namespace meridian::testing {
namespace {

using Strings = std::vector<std::string>;

class OrderLimitTest : public SqlTest {
 protected:
  void SetUp() override {
    SqlTest::SetUp();
    ASSERT_TRUE(Q("CREATE TABLE t (a INT, b TEXT)").status.ok());
    ASSERT_TRUE(
        Q("INSERT INTO t VALUES (3, 'x'), (1, 'y'), (NULL, 'z'), (2, 'x'), (1, 'x')").status.ok());
  }
};

TEST_F(OrderLimitTest, NullsSortAsLargest) {
  EXPECT_EQ(Rows("SELECT a FROM t ORDER BY a"), (Strings{"1", "1", "2", "3", "NULL"}));
  EXPECT_EQ(Rows("SELECT a FROM t ORDER BY a DESC"), (Strings{"NULL", "3", "2", "1", "1"}));
  EXPECT_EQ(Rows("SELECT a FROM t ORDER BY a NULLS FIRST"), (Strings{"NULL", "1", "1", "2", "3"}));
  EXPECT_EQ(Rows("SELECT a FROM t ORDER BY a DESC NULLS LAST"),
            (Strings{"3", "2", "1", "1", "NULL"}));
}

TEST_F(OrderLimitTest, MultiKeyPositionAliasExpression) {
  EXPECT_EQ(Rows("SELECT a, b FROM t ORDER BY b DESC, a"),
            (Strings{"NULL|z", "1|y", "1|x", "2|x", "3|x"}));
  EXPECT_EQ(Rows("SELECT b, a FROM t ORDER BY 1, 2 DESC"),
            (Strings{"x|3", "x|2", "x|1", "y|1", "z|NULL"}));
  EXPECT_EQ(Rows("SELECT a * -1 AS neg FROM t WHERE a IS NOT NULL ORDER BY neg"),
            (Strings{"-3", "-2", "-1", "-1"}));
  // By an expression that is not in the select list (a hidden sort column).
  EXPECT_EQ(Rows("SELECT b FROM t WHERE a IS NOT NULL ORDER BY a * 10 DESC, b"),
            (Strings{"x", "x", "x", "y"}));
  SqlResult r = Q("SELECT b FROM t ORDER BY a NULLS FIRST, b");
  ASSERT_TRUE(r.status.ok());
  EXPECT_EQ(r.columns.size(), 1u);
  EXPECT_EQ(r.rows, (Strings{"z", "x", "y", "x", "x"}));
}

TEST_F(OrderLimitTest, LimitOffset) {
  EXPECT_EQ(Rows("SELECT a FROM t ORDER BY a LIMIT 2"), (Strings{"1", "1"}));
  EXPECT_EQ(Rows("SELECT a FROM t ORDER BY a LIMIT 2 OFFSET 2"), (Strings{"2", "3"}));
  EXPECT_EQ(Rows("SELECT a FROM t ORDER BY a OFFSET 4"), (Strings{"NULL"}));
  EXPECT_EQ(Rows("SELECT a FROM t ORDER BY a LIMIT 1 + 1 OFFSET 10"), (Strings{}));
  EXPECT_EQ(Rows("SELECT a FROM t LIMIT 0"), (Strings{}));
  EXPECT_EQ(Rows("SELECT a FROM t ORDER BY a LIMIT NULL"), (Strings{"1", "1", "2", "3", "NULL"}));
  EXPECT_EQ(Q("SELECT a FROM t LIMIT 3").tag, "SELECT 3");
}

TEST_F(OrderLimitTest, Distinct) {
  EXPECT_EQ(Rows("SELECT DISTINCT b FROM t ORDER BY b"), (Strings{"x", "y", "z"}));
  EXPECT_EQ(Rows("SELECT DISTINCT a FROM t ORDER BY 1 DESC"), (Strings{"NULL", "3", "2", "1"}));
  EXPECT_EQ(Rows("SELECT count(DISTINCT b), count(DISTINCT a) FROM t"), (Strings{"3|3"}));
}

TEST_F(OrderLimitTest, SmallFetchBatches) {
  SqlResult r = RunSql(*session_, "SELECT a FROM t ORDER BY a", nullptr, /*fetch_rows=*/1);
  ASSERT_TRUE(r.status.ok());
  EXPECT_EQ(r.rows, (Strings{"1", "1", "2", "3", "NULL"}));
  EXPECT_EQ(r.tag, "SELECT 5");
}

}  // namespace
}  // namespace meridian::testing
