// SQL NULL semantics: three-valued AND/OR/NOT, comparisons, IN lists and subqueries with
// NULLs, IS [NOT] NULL, and WHERE keeping only TRUE rows.
#include "sql_test_util.h"

namespace meridian::testing {
namespace {

using Strings = std::vector<std::string>;

class NullLogicTest : public SqlTest {};

TEST_F(NullLogicTest, KleeneLogic) {
  EXPECT_EQ(Rows("SELECT NULL AND false, NULL AND true, NULL OR true, NULL OR false, NOT NULL"),
            (Strings{"f|NULL|t|NULL|NULL"}));
  EXPECT_EQ(Rows("SELECT 1 = NULL, NULL <> NULL, NULL IS NULL, 1 IS NOT NULL, NULL + 1"),
            (Strings{"NULL|NULL|t|t|NULL"}));
  EXPECT_EQ(Rows("SELECT 1 IN (2, NULL), 1 IN (1, NULL), 1 NOT IN (2, NULL), NULL IN (1)"),
            (Strings{"NULL|t|NULL|NULL"}));
  EXPECT_EQ(Rows("SELECT CASE WHEN NULL THEN 1 ELSE 2 END, coalesce(NULL, NULL)"),
            (Strings{"2|NULL"}));
}

TEST_F(NullLogicTest, WhereKeepsOnlyTrue) {
  ASSERT_TRUE(Q("CREATE TABLE t (a INT, b INT)").status.ok());
  ASSERT_TRUE(Q("INSERT INTO t VALUES (1, 1), (2, NULL), (NULL, 3), (NULL, NULL)").status.ok());
  EXPECT_EQ(Rows("SELECT count(*) FROM t WHERE a = b"), (Strings{"1"}));
  EXPECT_EQ(Rows("SELECT count(*) FROM t WHERE NOT (a = b)"), (Strings{"0"}));
  EXPECT_EQ(Rows("SELECT count(*) FROM t WHERE a = 2 OR b = 3"), (Strings{"2"}));
  EXPECT_EQ(Rows("SELECT count(*) FROM t WHERE a IS NULL"), (Strings{"2"}));
  EXPECT_EQ(Rows("SELECT count(*) FROM t WHERE a NOT IN (5, NULL)"), (Strings{"0"}));
  EXPECT_EQ(Rows("SELECT count(a), count(b), count(*), sum(a), min(b), max(b), avg(a) FROM t"),
            (Strings{"2|2|4|3|1|3|1.5000000000000000"}));
  EXPECT_EQ(Rows("SELECT sum(a), max(a), count(a) FROM t WHERE a > 100"), (Strings{"NULL|NULL|0"}));
  EXPECT_EQ(Rows("SELECT count(*) FROM t WHERE a IN (SELECT b FROM t)"), (Strings{"1"}));
  EXPECT_EQ(Rows("SELECT count(*) FROM t WHERE a NOT IN (SELECT b FROM t)"), (Strings{"0"}));
  EXPECT_EQ(Rows("SELECT count(*) FROM t WHERE a NOT IN (SELECT b FROM t WHERE b IS NOT NULL)"),
            (Strings{"1"}));
}

}  // namespace
}  // namespace meridian::testing
