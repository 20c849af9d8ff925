// Expression and partial indexes (issue 18): the planner uses an expression index for
// conditions on the same expression (equality, range, IN, ORDER BY ... LIMIT) and a partial
// index only when the query's conditions imply its predicate; EXPLAIN shows PostgreSQL's
// "Index Scan using" and "Index Cond" lines; the indexes survive a restart (re-bound from the
// catalog's SQL text) and keep being maintained after it.
#include <string>
#include <vector>

#include "sql_test_util.h"

namespace meridian::testing {
namespace {

class ExpressionIndexTest : public SqlTest {
 protected:
  void SetUp() override {
    SqlTest::SetUp();
    ASSERT_TRUE(Q("CREATE TABLE users (id INT PRIMARY KEY, email TEXT, active BOOL, j JSONB, "
                  "x INT)")
                    .status.ok());
    ASSERT_TRUE(Q("INSERT INTO users SELECT g, 'User' || g || '@Example.com', g % 10 = 0, "
                  "('{\"k\": \"v' || g || '\", \"n\": ' || (g % 100) || '}')::jsonb, g % 100 "
                  "FROM generate_series(1, 20000) g")
                    .status.ok());
    ASSERT_TRUE(Q("CREATE UNIQUE INDEX users_lower ON users (lower(email))").status.ok());
    ASSERT_TRUE(Q("CREATE INDEX users_k ON users ((j->>'k'))").status.ok());
    ASSERT_TRUE(Q("CREATE INDEX users_x_partial ON users (upper(email)) WHERE x > 90").status.ok());
    ASSERT_TRUE(Q("CREATE INDEX users_active ON users (id) WHERE active").status.ok());
    ASSERT_TRUE(Q("ANALYZE users").status.ok());
  }
  std::string Plan(const std::string& sql) {
    std::string out;
    for (const std::string& line : Rows("EXPLAIN " + sql)) out += line + "\n";
    return out;
  }
  static bool Has(const std::string& plan, const std::string& what) {
    return plan.find(what) != std::string::npos;
  }
};

TEST_F(ExpressionIndexTest, EqualityOnTheExpressionUsesTheIndex) {
  const std::string q = "SELECT id FROM users WHERE lower(email) = 'user42@example.com'";
  const std::string p = Plan(q);
  EXPECT_TRUE(Has(p, "Index Scan using users_lower on users")) << p;
  EXPECT_TRUE(Has(p, "Index Cond: (lower(users.email) = 'user42@example.com'::text)")) << p;
  EXPECT_EQ(Rows(q), std::vector<std::string>{"42"});
  // Another expression over the same column does not match the index.
  EXPECT_FALSE(Has(Plan("SELECT id FROM users WHERE upper(email) = 'X'"), "users_lower"));
}

TEST_F(ExpressionIndexTest, JsonbKeyRangeInAndOrderByLimit) {
  std::string p = Plan("SELECT id FROM users WHERE j->>'k' = 'v77'");
  EXPECT_TRUE(Has(p, "Index Scan using users_k on users")) << p;
  EXPECT_TRUE(Has(p, "Index Cond: ((users.j ->> 'k'::text) = 'v77'::text)")) << p;
  EXPECT_EQ(Rows("SELECT id FROM users WHERE j->>'k' = 'v77'"), std::vector<std::string>{"77"});
  const std::string range = "SELECT id FROM users WHERE j->>'k' >= 'v1999' AND j->>'k' < 'v2'";
  p = Plan(range);
  EXPECT_TRUE(Has(p, "Index Scan using users_k on users")) << p;
  EXPECT_EQ(SortedRows(range), SortedRows("SELECT id FROM users WHERE (j->>'k') || '' >= 'v1999' "
                                          "AND (j->>'k') || '' < 'v2'"));
  const std::string in =
      "SELECT id FROM users WHERE lower(email) IN ('user1@example.com', "
      "'user3@example.com')";
  EXPECT_TRUE(Has(Plan(in), "Index Scan using users_lower on users")) << Plan(in);
  EXPECT_EQ(SortedRows(in), (std::vector<std::string>{"1", "3"}));
  const std::string ordered =
      "SELECT id FROM users WHERE lower(email) > 'user19990' ORDER BY lower(email) LIMIT 3";
  p = Plan(ordered);
  EXPECT_TRUE(Has(p, "Index Scan using users_lower on users")) << p;
  EXPECT_EQ(Rows(ordered), (std::vector<std::string>{"19990", "19991", "19992"}));
}

TEST_F(ExpressionIndexTest, PartialIndexOnlyWhenThePredicateIsImplied) {
  // x > 95 implies the index's x > 90 (and x = 99 does): the partial expression index serves.
  const std::string implied =
      "SELECT id FROM users WHERE upper(email) = 'USER99@EXAMPLE.COM' "
      "AND x > 95";
  std::string p = Plan(implied);
  EXPECT_TRUE(Has(p, "Index Scan using users_x_partial on users")) << p;
  EXPECT_TRUE(Has(p, "Filter: (users.x > 95)")) << p;
  EXPECT_EQ(Rows(implied), std::vector<std::string>{"99"});
  p = Plan("SELECT id FROM users WHERE upper(email) = 'USER99@EXAMPLE.COM' AND x = 99");
  EXPECT_TRUE(Has(p, "Index Scan using users_x_partial on users")) << p;
  // x = 50 or no condition on x does not imply x > 90: the partial index would miss rows.
  const std::string not_implied = "SELECT id FROM users WHERE upper(email) = 'USER50@EXAMPLE.COM'";
  p = Plan(not_implied);
  EXPECT_FALSE(Has(p, "users_x_partial")) << p;
  EXPECT_EQ(Rows(not_implied), std::vector<std::string>{"50"});
  p = Plan("SELECT id FROM users WHERE upper(email) = 'USER50@EXAMPLE.COM' AND x = 50");
  EXPECT_FALSE(Has(p, "users_x_partial")) << p;
  // The predicate repeated as a conjunct is no filter of the partial index's scan.
  const std::string active = "SELECT id FROM users WHERE active AND id < 100";
  p = Plan(active);
  EXPECT_TRUE(Has(p, "Index Scan using users_active on users")) << p;
  EXPECT_FALSE(Has(p, "Filter")) << p;
  EXPECT_EQ(Rows(active).size(), 9u);
  p = Plan("SELECT id FROM users WHERE id < 100");
  EXPECT_FALSE(Has(p, "users_active")) << p;
}

TEST_F(ExpressionIndexTest, SurvivesRestartAndStaysMaintained) {
  ASSERT_TRUE(Q("UPDATE users SET email = 'Moved@Example.com' WHERE id = 5").status.ok());
  Reopen();
  const std::string q = "SELECT id FROM users WHERE lower(email) = 'moved@example.com'";
  EXPECT_TRUE(Has(Plan(q), "Index Scan using users_lower on users")) << Plan(q);
  EXPECT_EQ(Rows(q), std::vector<std::string>{"5"});
  EXPECT_TRUE(Rows("SELECT id FROM users WHERE lower(email) = 'user5@example.com'").empty());
  EXPECT_EQ(Err("INSERT INTO users VALUES (30000, 'MOVED@example.com', true, '{}', 1)", "23505")
                .error()
                .detail,
            "Key (lower(email))=(moved@example.com) already exists.");
  ASSERT_TRUE(
      Q("INSERT INTO users VALUES (30001, 'New@x', true, '{\"k\": \"new\"}', 96)").status.ok());
  EXPECT_EQ(Rows("SELECT id FROM users WHERE j->>'k' = 'new'"), std::vector<std::string>{"30001"});
  EXPECT_EQ(Rows("SELECT count(*) FROM users WHERE x > 95"), std::vector<std::string>{"801"});
  EXPECT_EQ(Rows("SELECT id FROM users WHERE upper(email) = 'NEW@X' AND x > 91"),
            std::vector<std::string>{"30001"});
  EXPECT_EQ(Rows("SELECT indexdef FROM pg_indexes WHERE indexname = 'users_x_partial'"),
            std::vector<std::string>{"CREATE INDEX users_x_partial ON public.users USING btree "
                                     "(upper(email)) WHERE (x > 90)"});
  // DROP COLUMN takes the expression index with it; RENAME of a column an expression reads is
  // refused (the index stores its expressions as SQL text).
  EXPECT_EQ(Err("ALTER TABLE users RENAME COLUMN email TO mail", "0A000").sqlstate(), "0A000");
  ASSERT_TRUE(Q("ALTER TABLE users DROP COLUMN j").status.ok());
  EXPECT_TRUE(Rows("SELECT indexname FROM pg_indexes WHERE indexname = 'users_k'").empty());
  Reopen();
  EXPECT_EQ(Rows("SELECT count(*) FROM users WHERE lower(email) LIKE 'user1%'"),
            std::vector<std::string>{"11111"});
}

}  // namespace
}  // namespace meridian::testing
