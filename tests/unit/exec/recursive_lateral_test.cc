// WITH RECURSIVE and LATERAL plans through SQL: EXPLAIN shows a Recursive Union over a
// WorkTable Scan (an index nested loop when the walked column is indexed), EXPLAIN ANALYZE its
// iterations and a working table spilled beyond work_mem; an endless recursion ends at
// statement_timeout and at the daemon's memory limit; a LATERAL item that reads earlier items
// is a nested loop re-running its plan per row, one that reads none an ordinary join.
#include <string>
#include <vector>

#include "meridian/memory_guard.h"
#include "sql_test_util.h"

namespace meridian::testing {
namespace {

class RecursiveLateralTest : public SqlTest {
 protected:
  std::string Plan(const std::string& sql) {
    std::string out;
    for (const std::string& line : Rows(sql)) out += line + "\n";
    return out;
  }
  void MakeChain(int n) {
    ASSERT_TRUE(Q("CREATE TABLE chain (id INTEGER PRIMARY KEY, next INTEGER)").status.ok());
    ASSERT_TRUE(Q("INSERT INTO chain SELECT g, g + 1 FROM generate_series(1, " +
                  std::to_string(n) + ") g")
                    .status.ok());
    ASSERT_TRUE(Q("ANALYZE chain").status.ok());
  }
};

constexpr auto npos = std::string::npos;

TEST_F(RecursiveLateralTest, RecursiveUnionWalksAnIndexedChain) {
  MakeChain(20000);
  const std::string walk =
      "WITH RECURSIVE w(id) AS (SELECT 1 UNION ALL SELECT c.next FROM chain c JOIN w ON c.id = "
      "w.id) SELECT count(*), max(id) FROM w";
  EXPECT_EQ(Rows(walk), std::vector<std::string>{"20001|20001"});
  const std::string plan = Plan("EXPLAIN " + walk);
  EXPECT_NE(plan.find("Recursive Union"), npos) << plan;
  EXPECT_NE(plan.find("WorkTable Scan on w"), npos) << plan;
  // One row per iteration: the index on chain.id, not a scan of chain per iteration.
  EXPECT_NE(plan.find("Index Scan using chain_pkey on chain c"), npos) << plan;
  EXPECT_EQ(plan.find("Seq Scan on chain"), npos) << plan;
  const std::string analyzed = Plan("EXPLAIN ANALYZE " + walk);
  EXPECT_NE(analyzed.find("Iterations: 20001"), npos) << analyzed;
}

TEST_F(RecursiveLateralTest, WorkingTableBeyondWorkMemSpills) {
  ASSERT_TRUE(Q("SET work_mem = '64kB'").status.ok());
  const std::string q =
      "WITH RECURSIVE r(n, pad) AS (SELECT g, repeat('x', 200) FROM generate_series(1, 2000) g "
      "UNION ALL SELECT n + 2000, pad FROM r WHERE n <= 6000) SELECT count(*), sum(n) FROM r";
  EXPECT_EQ(Rows(q), std::vector<std::string>{"8000|32004000"});
  const std::string analyzed = Plan("EXPLAIN ANALYZE " + q);
  EXPECT_NE(analyzed.find("Working Table Disk:"), npos) << analyzed;
  // UNION over spilled working tables: every row once.
  EXPECT_EQ(Rows("WITH RECURSIVE r(n, pad) AS (SELECT g, repeat('y', 200) FROM "
                 "generate_series(1, 3000) g UNION SELECT n % 1500, pad FROM r) SELECT count(*) "
                 "FROM r"),
            std::vector<std::string>{"3001"});
}

TEST_F(RecursiveLateralTest, EndlessRecursionEndsAtTimeoutAndMemoryLimit) {
  const std::string endless =
      "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r";
  ASSERT_TRUE(Q("SET statement_timeout = '100ms'").status.ok());
  Err(endless, "57014");
  ASSERT_TRUE(Q("RESET statement_timeout").status.ok());
  // The daemon's memory sampler raising its flag ends it too.
  MemoryGuard::SetExceeded(true);
  SqlResult r = Q(endless);
  MemoryGuard::SetExceeded(false);
  EXPECT_EQ(r.status.sqlstate(), "53200") << r.status.ToString();
  // LIMIT above ends it with rows.
  EXPECT_EQ(Rows("WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT n "
                 "FROM r LIMIT 3"),
            (std::vector<std::string>{"1", "2", "3"}));
}

TEST_F(RecursiveLateralTest, LateralRerunsItsPlanPerRow) {
  ASSERT_TRUE(Q("CREATE TABLE p (id INTEGER PRIMARY KEY)").status.ok());
  ASSERT_TRUE(Q("CREATE TABLE c (id INTEGER PRIMARY KEY, pid INTEGER, v INTEGER)").status.ok());
  ASSERT_TRUE(Q("INSERT INTO p SELECT g FROM generate_series(1, 50) g").status.ok());
  ASSERT_TRUE(
      Q("INSERT INTO c SELECT g, g % 50 + 1, g % 7 FROM generate_series(1, 500) g").status.ok());
  const std::string top =
      "SELECT p.id, t.v FROM p, LATERAL (SELECT c.v FROM c WHERE c.pid = p.id ORDER BY c.v DESC, "
      "c.id LIMIT 2) t";
  // 571 as in PostgreSQL 15.
  EXPECT_EQ(Rows("SELECT count(*), sum(v) FROM (" + top + ") x"),
            std::vector<std::string>{"100|571"});
  const std::string plan = Plan("EXPLAIN ANALYZE " + top);
  EXPECT_NE(plan.find("Nested Loop"), npos) << plan;
  EXPECT_NE(plan.find("Limit"), npos) << plan;
  EXPECT_NE(plan.find("loops=50"), npos) << plan;  // the subquery ran once per row of p
  // Reading no earlier item: an ordinary subquery, which a hash join may take.
  const std::string plain = Plan(
      "EXPLAIN SELECT p.id FROM p, LATERAL (SELECT pid FROM c WHERE v = 3) t WHERE t.pid = p.id");
  EXPECT_NE(plain.find("Hash Join"), npos) << plain;
}

}  // namespace
}  // namespace meridian::testing
