// B+tree indexes through SQL: PRIMARY KEY / UNIQUE / CREATE [UNIQUE] INDEX enforcement and
// names, DROP INDEX, maintenance by INSERT/UPDATE/DELETE (index answers checked against heap
// scans of an unindexed twin table), plan shapes in EXPLAIN (asserted structurally), EXPLAIN
// ANALYZE, ANALYZE, and indexes across clean and unclean reopen.
#include <filesystem>
#include <random>

#include "sql_test_util.h"

namespace meridian::testing {
namespace {

using Strings = std::vector<std::string>;

class IndexTest : public SqlTest {
 protected:
  // The EXPLAIN output of sql as one string.
  std::string Plan(const std::string& sql) {
    std::string out;
    for (const std::string& line : Rows("EXPLAIN " + sql)) out += line + "\n";
    return out;
  }
  // Fills t (indexed) and u (no index) with the same n rows.
  void FillTwins(int n) {
    ASSERT_TRUE(Q("CREATE TABLE t (id INT PRIMARY KEY, k INT, s TEXT)").status.ok());
    ASSERT_TRUE(Q("CREATE TABLE u (id INT, k INT, s TEXT)").status.ok());
    std::mt19937 rng(7);
    for (int base = 0; base < n; base += 500) {
      std::string values;
      for (int i = base; i < std::min(n, base + 500); ++i) {
        if (!values.empty()) values += ",";
        int k = static_cast<int>(rng() % 1000);
        std::string kv = rng() % 50 == 0 ? "NULL" : std::to_string(k);
        values += "(" + std::to_string(i) + "," + kv + ",'s" + std::to_string(i % 97) + "')";
      }
      ASSERT_TRUE(Q("INSERT INTO t VALUES " + values).status.ok());
      ASSERT_TRUE(Q("INSERT INTO u VALUES " + values).status.ok());
    }
  }
  void ExpectSame(const std::string& where, const std::string& order = "ORDER BY id") {
    EXPECT_EQ(Rows("SELECT * FROM t WHERE " + where + " " + order),
              Rows("SELECT * FROM u WHERE " + where + " " + order))
        << where;
  }
};

TEST_F(IndexTest, ConstraintsAreEnforcedWithPostgresNames) {
  ASSERT_TRUE(Q("CREATE TABLE p (a INT PRIMARY KEY, b TEXT UNIQUE, c INT, d INT, "
                "UNIQUE (c, d))")
                  .status.ok());
  ASSERT_TRUE(Q("INSERT INTO p VALUES (1, 'x', 1, 1), (2, NULL, 1, NULL)").status.ok());
  auto e = Err("INSERT INTO p VALUES (1, 'y', 2, 2)", "23505");
  EXPECT_EQ(e.message(), "duplicate key value violates unique constraint \"p_pkey\"");
  EXPECT_EQ(e.error().detail, "Key (a)=(1) already exists.");
  e = Err("INSERT INTO p VALUES (3, 'x', 3, 3)", "23505");
  EXPECT_EQ(e.message(), "duplicate key value violates unique constraint \"p_b_key\"");
  e = Err("INSERT INTO p VALUES (3, 'z', 1, 1)", "23505");
  EXPECT_EQ(e.message(), "duplicate key value violates unique constraint \"p_c_d_key\"");
  EXPECT_EQ(e.error().detail, "Key (c, d)=(1, 1) already exists.");
  // NULLs never conflict in a unique index.
  ASSERT_TRUE(Q("INSERT INTO p VALUES (4, NULL, 1, NULL), (5, NULL, NULL, NULL)").status.ok());
  // Duplicates inside one statement, and an UPDATE that would collide.
  Err("INSERT INTO p VALUES (10, 'q', 9, 9), (11, 'q', 8, 8)", "23505");
  Err("UPDATE p SET b = 'x' WHERE a = 4", "23505");
  // Keys may shift within one statement.
  ASSERT_TRUE(Q("UPDATE p SET a = a + 1").status.ok());
  EXPECT_EQ(Rows("SELECT a FROM p ORDER BY a"), (Strings{"2", "3", "5", "6"}));
  EXPECT_EQ(Rows("SELECT count(*) FROM p WHERE a = 6"), (Strings{"1"}));
}

TEST_F(IndexTest, CreateAndDropIndex) {
  ASSERT_TRUE(Q("CREATE TABLE r (a INT PRIMARY KEY, b INT)").status.ok());
  ASSERT_TRUE(Q("INSERT INTO r VALUES (1, 5), (2, 5), (3, 6)").status.ok());
  auto e = Err("CREATE UNIQUE INDEX r_b_u ON r (b)", "23505");
  EXPECT_EQ(e.message(), "could not create unique index \"r_b_u\"");
  EXPECT_EQ(e.error().detail, "Key (b)=(5) is duplicated.");
  ASSERT_TRUE(Q("CREATE INDEX ON r (b DESC)").status.ok());
  EXPECT_EQ(Q("CREATE INDEX IF NOT EXISTS r_b_idx ON r (b)").notice,
            "relation \"r_b_idx\" already exists, skipping");
  Err("CREATE INDEX r_b_idx ON r (a)", "42P07");
  Err("CREATE INDEX r ON r (a)", "42P07");
  Err("CREATE INDEX x ON r (nope)", "42703");
  Err("CREATE INDEX x ON nope (a)", "42P01");
  Err("CREATE INDEX x ON r USING hash (a)", "42704");
  Err("DROP INDEX r_pkey", "2BP01");
  Err("DROP INDEX nope", "42704");
  EXPECT_EQ(Q("DROP INDEX IF EXISTS nope").notice, "index \"nope\" does not exist, skipping");
  std::string values;
  for (int i = 10; i < 3000; ++i)
    values +=
        (i > 10 ? "," : "") + std::string("(") + std::to_string(i) + "," + std::to_string(i) + ")";
  ASSERT_TRUE(Q("INSERT INTO r VALUES " + values).status.ok());
  EXPECT_NE(Plan("SELECT b FROM r WHERE b = 5").find("Index Only Scan using r_b_idx"),
            std::string::npos);
  ASSERT_TRUE(Q("DROP INDEX r_b_idx").status.ok());
  EXPECT_EQ(Plan("SELECT b FROM r WHERE b = 5").find("r_b_idx"), std::string::npos);
  EXPECT_EQ(Rows("SELECT a FROM r WHERE b = 5 ORDER BY a"), (Strings{"1", "2"}));
}

TEST_F(IndexTest, IndexAnswersMatchHeapScans) {
  FillTwins(5000);
  ASSERT_TRUE(Q("CREATE INDEX t_k ON t (k)").status.ok());
  ASSERT_TRUE(Q("CREATE INDEX t_sk ON t (s, k DESC)").status.ok());
  ASSERT_TRUE(Q("ANALYZE").status.ok());
  const Strings wheres = {"id = 42",
                          "id = -1",
                          "id IN (3, 1, 4, 1, 5)",
                          "id < 10",
                          "id <= 10",
                          "id > 4990",
                          "id >= 4990",
                          "id BETWEEN 100 AND 120",
                          "id > 10 AND id < 5",
                          "k = 500",
                          "k IS NULL",
                          "k < 3",
                          "k >= 998",
                          "k BETWEEN 10 AND 12 AND id > 2000",
                          "s = 's5'",
                          "s = 's5' AND k > 900",
                          "s = 's5' AND k <= 100",
                          "s IN ('s1', 's2') AND k < 50",
                          "k = NULL",
                          "k IN (1, NULL)"};
  for (const std::string& w : wheres) ExpectSame(w);
  // Changes keep every index in step with the heap.
  for (const char* change :
       {"UPDATE t SET k = k + 1 WHERE id % 3 = 0", "DELETE FROM t WHERE k BETWEEN 100 AND 200",
        "UPDATE t SET s = 's5' WHERE id < 100", "DELETE FROM t WHERE id > 4500"}) {
    ASSERT_TRUE(Q(change).status.ok()) << change;
    std::string twin = change;
    twin.replace(twin.find(" t "), 3, " u ");
    ASSERT_TRUE(Q(twin).status.ok()) << twin;
  }
  for (const std::string& w : wheres) ExpectSame(w);
  ExpectSame("k > 500", "ORDER BY k, id");
  EXPECT_EQ(Rows("SELECT id FROM t ORDER BY id DESC LIMIT 3"),
            Rows("SELECT id FROM u ORDER BY id DESC LIMIT 3"));
  EXPECT_EQ(Rows("SELECT k FROM t WHERE k > 990 ORDER BY k"),
            Rows("SELECT k FROM u WHERE k > 990 ORDER BY k"));
}

TEST_F(IndexTest, PlanShapes) {
  FillTwins(20000);
  ASSERT_TRUE(Q("CREATE INDEX t_k ON t (k)").status.ok());
  ASSERT_TRUE(Q("ANALYZE t").status.ok());
  std::string p = Plan("SELECT * FROM t WHERE id = 42");
  EXPECT_EQ(p.rfind("Index Scan using t_pkey on t", 0), 0u) << p;
  EXPECT_NE(p.find("Index Cond: (t.id = 42)"), std::string::npos) << p;
  p = Plan("SELECT * FROM u WHERE id = 42");
  EXPECT_EQ(p.rfind("Seq Scan on u", 0), 0u) << p;
  p = Plan("SELECT k FROM t WHERE k BETWEEN 1 AND 3");
  EXPECT_EQ(p.rfind("Index Only Scan using t_k on t", 0), 0u) << p;
  p = Plan("SELECT * FROM t ORDER BY id DESC LIMIT 5");
  EXPECT_EQ(p.find("Sort"), std::string::npos) << p;
  EXPECT_NE(p.find("Index Scan Backward using t_pkey"), std::string::npos) << p;
  p = Plan("SELECT * FROM t ORDER BY s LIMIT 5");
  EXPECT_NE(p.find("Sort"), std::string::npos) << p;
  // A predicate that keeps most rows reads the heap.
  p = Plan("SELECT * FROM t WHERE k > 10");
  EXPECT_EQ(p.rfind("Seq Scan on t", 0), 0u) << p;
  p = Plan("SELECT * FROM t WHERE id = 3 OR id BETWEEN 10 AND 12 OR id > 19990");
  EXPECT_EQ(p.rfind("Index Scan using t_pkey on t", 0), 0u) << p;
  EXPECT_EQ(Rows("SELECT count(*) FROM t WHERE id = 3 OR id BETWEEN 10 AND 12 OR id > 19990 "
                 "OR id = 11"),
            Strings{"13"});
  p = Plan("SELECT * FROM t WHERE id = 3 OR k = 5");  // OR across columns: no single index
  EXPECT_EQ(p.rfind("Seq Scan on t", 0), 0u) << p;
  p = Plan("SELECT * FROM t WHERE id IN (1, 2, 3)");
  EXPECT_NE(p.find("Index Scan using t_pkey"), std::string::npos) << p;
  // Pushed down through a join: each side uses its own access path.
  p = Plan("SELECT * FROM t, u WHERE t.id = 7 AND u.id = t.k");
  EXPECT_NE(p.find("Join"), std::string::npos) << p;
  EXPECT_NE(p.find("Index Scan using t_pkey on t"), std::string::npos) << p;
  // Joins: an index nested-loop join when the inner side has an index on the join key, a hash
  // join for an equi-join of two large inputs.
  ASSERT_TRUE(Q("ANALYZE u").status.ok());
  p = Plan("SELECT * FROM u JOIN t ON t.id = u.k WHERE u.id < 3");
  EXPECT_NE(p.find("Nested Loop"), std::string::npos) << p;
  EXPECT_NE(p.find("Index Scan using t_pkey on t"), std::string::npos) << p;
  EXPECT_NE(p.find("Index Cond: (t.id = u.k)"), std::string::npos) << p;
  p = Plan("SELECT count(*) FROM t JOIN u ON u.s = t.s");
  EXPECT_NE(p.find("Hash Join"), std::string::npos) << p;
  EXPECT_NE(p.find("Hash Cond: (u.s = t.s)"), std::string::npos) << p;
  p = Plan("SELECT * FROM u LEFT JOIN t ON t.id = u.k");
  EXPECT_NE(p.find("Left Join"), std::string::npos) << p;
  EXPECT_EQ(Rows("SELECT count(*) FROM u LEFT JOIN t ON t.id = u.k"), Strings{"20000"});
  EXPECT_EQ(Rows("SELECT count(*) FROM t JOIN u ON t.id = u.k WHERE u.id < 100"),
            Rows("SELECT count(*) FROM u WHERE id < 100 AND k IS NOT NULL"));
  p = Plan("UPDATE t SET s = 'x' WHERE id = 3");
  EXPECT_NE(p.find("Index Scan using t_pkey on t"), std::string::npos) << p;
  Strings analyze = Rows("EXPLAIN ANALYZE SELECT * FROM t WHERE id = 42");
  ASSERT_GE(analyze.size(), 3u);
  EXPECT_NE(analyze[0].find("rows=1 loops=1)"), std::string::npos) << analyze[0];
  EXPECT_NE(analyze[0].find("(actual time="), std::string::npos) << analyze[0];
  EXPECT_EQ(analyze.back().rfind("Execution Time: ", 0), 0u);
}

TEST_F(IndexTest, JoinMethodsAgreeWithNestedLoops) {
  // Hash joins and index nested-loop joins (t has indexes) must return exactly what plain
  // nested loops return; `OR false` hides the equality from the planner, forcing a nested loop.
  FillTwins(3000);
  ASSERT_TRUE(Q("CREATE INDEX t_k ON t (k)").status.ok());
  ASSERT_TRUE(Q("CREATE TABLE small (id INT, k INT)").status.ok());
  ASSERT_TRUE(Q("INSERT INTO small VALUES (1, 5), (2, NULL), (3, 999), (4, 5), (5, -1), (42, 7)")
                  .status.ok());
  ASSERT_TRUE(Q("ANALYZE").status.ok());
  const Strings joins = {"JOIN", "LEFT JOIN", "RIGHT JOIN", "FULL JOIN"};
  const std::vector<std::pair<std::string, std::string>> conds = {
      {"t.k = small.k", "(t.k = small.k OR false)"},
      {"t.id = small.k", "(t.id = small.k OR false)"},
      {"t.id = small.id AND t.k > 100", "(t.id = small.id OR false) AND t.k > 100"},
  };
  for (const std::string& j : joins) {
    for (const auto& [fast, slow] : conds) {
      const std::string cols = "SELECT small.id, small.k, t.id, t.k, t.s FROM small ";
      const std::string order = " ORDER BY 1, 2, 3";
      EXPECT_EQ(Rows(cols + j + " t ON " + fast + order), Rows(cols + j + " t ON " + slow + order))
          << j << " ON " << fast;
    }
  }
  // The same joins with the big table on the left (hash join builds on the small side).
  EXPECT_EQ(
      Rows("SELECT count(*), sum(t.id), sum(small.id) FROM t LEFT JOIN small ON small.k = t.k"),
      Rows("SELECT count(*), sum(t.id), sum(small.id) FROM t LEFT JOIN small ON "
           "(small.k = t.k OR false)"));
}

TEST_F(IndexTest, IndexesSurviveReopenAndAreRebuiltAfterUncleanStop) {
  FillTwins(3000);
  ASSERT_TRUE(Q("CREATE INDEX t_k ON t (k)").status.ok());
  Reopen();
  ExpectSame("k = 77");
  ExpectSame("id BETWEEN 5 AND 50");
  Err("INSERT INTO t VALUES (5, 1, 'x')", "23505");
  ASSERT_TRUE(Q("DELETE FROM t WHERE id < 1000").status.ok());
  ASSERT_TRUE(Q("DELETE FROM u WHERE id < 1000").status.ok());
  // Without the clean-shutdown marker every index is rebuilt from its heap.
  session_.reset();
  ASSERT_TRUE(db_->Close().ok());
  db_.reset();
  ASSERT_TRUE(std::filesystem::remove(dir_.path() + "/data/clean_shutdown"));
  Reopen();
  ExpectSame("k = 77");
  ExpectSame("id BETWEEN 900 AND 1100");
  ASSERT_TRUE(Q("INSERT INTO t VALUES (5, 1, 'x')").status.ok());
}

// R-tree indexes (USING rtree / gist): errors, the plan for a selective box on 100,000 rows (the
// R-tree) and for an unselective one (the heap), and box answers equal to an unindexed twin's
// through inserts, updates that move points and deletes.
class RTreeIndexTest : public IndexTest {
 protected:
  // t and u get the same n rows (id, x DOUBLE, y INT, z BIGINT), a NULL x now and then.
  void FillPoints(int n, int from = 0) {
    std::mt19937 rng(11 + from);
    for (int base = from; base < from + n; base += 2000) {
      std::string values;
      for (int i = base; i < std::min(from + n, base + 2000); ++i) {
        if (!values.empty()) values += ",";
        const std::string x = rng() % 100 == 0 ? "NULL" : std::to_string(rng() % 100000 / 100.0);
        values += "(" + std::to_string(i) + "," + x + "," + std::to_string(rng() % 1000) + "," +
                  std::to_string(rng() % 5000000000ULL) + ")";
      }
      ASSERT_TRUE(Q("INSERT INTO t VALUES " + values).status.ok());
      ASSERT_TRUE(Q("INSERT INTO u VALUES " + values).status.ok());
    }
  }
  void CreateTwins() {
    ASSERT_TRUE(Q("CREATE TABLE t (id INT PRIMARY KEY, x FLOAT8, y INT, z BIGINT)").status.ok());
    ASSERT_TRUE(Q("CREATE TABLE u (id INT, x FLOAT8, y INT, z BIGINT)").status.ok());
  }
};

TEST_F(RTreeIndexTest, CreateIndexChecksColumnsAndMethod) {
  CreateTwins();
  ASSERT_TRUE(Q("ALTER TABLE t ADD COLUMN s TEXT").status.ok());
  auto e = Err("CREATE INDEX t_s ON t USING rtree (x, s)", "42704");
  EXPECT_EQ(e.message(), "data type text has no default operator class for access method \"rtree\"");
  e = Err("CREATE UNIQUE INDEX t_u ON t USING gist (x, y)", "0A000");
  EXPECT_EQ(e.message(), "access method \"gist\" does not support unique indexes");
  Err("CREATE INDEX t_d ON t USING rtree (x DESC, y)", "0A000");
  Err("CREATE INDEX t_9 ON t USING rtree (x, y, z, id, x, y, z, id, x)", "54000");
  ASSERT_TRUE(Q("CREATE INDEX ON t USING rtree (x, y, z)").status.ok());
  EXPECT_EQ(Rows("SELECT indexdef FROM pg_indexes WHERE indexname = 't_x_y_z_idx'"),
            (Strings{"CREATE INDEX t_x_y_z_idx ON public.t USING rtree (x, y, z)"}));
  EXPECT_EQ(Rows("SELECT a.amname FROM pg_class c JOIN pg_am a ON a.oid = c.relam "
                 "WHERE c.relname = 't_x_y_z_idx'"),
            (Strings{"rtree"}));
  // The index goes with a column it covers, as a B+tree index does.
  ASSERT_TRUE(Q("ALTER TABLE t DROP COLUMN z").status.ok());
  EXPECT_EQ(Rows("SELECT count(*) FROM pg_indexes WHERE indexname = 't_x_y_z_idx'"),
            (Strings{"0"}));
}

TEST_F(RTreeIndexTest, PlanPicksTheRTreeOnlyForSelectiveBoxes) {
  CreateTwins();
  FillPoints(100000);
  ASSERT_TRUE(Q("CREATE INDEX t_xy ON t USING rtree (x, y)").status.ok());
  ASSERT_TRUE(Q("CREATE INDEX t_y ON t (y)").status.ok());
  ASSERT_TRUE(Q("ANALYZE").status.ok());
  // About 0.02% of the rows: the R-tree, with the whole box as its condition.
  const std::string selective = "x BETWEEN 100 AND 110 AND y BETWEEN 500 AND 520";
  std::string plan = Plan("SELECT * FROM t WHERE " + selective);
  EXPECT_NE(plan.find("Index Scan using t_xy on t"), std::string::npos) << plan;
  EXPECT_NE(plan.find("Index Cond: ((t.x >= 100) AND (t.x <= 110) AND (t.y >= 500) AND "
                      "(t.y <= 520))"),
            std::string::npos)
      << plan;
  // Half the table: the heap.
  const std::string unselective = "x > 100 AND y < 500";
  plan = Plan("SELECT * FROM t WHERE " + unselective);
  EXPECT_NE(plan.find("Seq Scan on t"), std::string::npos) << plan;
  // One bounded column of two: no box; a narrow y range goes to the B+tree on y instead.
  plan = Plan("SELECT * FROM t WHERE y = 7");
  EXPECT_EQ(plan.find("t_xy"), std::string::npos) << plan;
  // Strict bounds and another filter: the box's conditions plus a Filter line.
  plan = Plan("SELECT * FROM t WHERE x > 100 AND x < 110 AND y > 500 AND y < 520 AND z > 7");
  EXPECT_NE(plan.find("Index Scan using t_xy on t"), std::string::npos) << plan;
  EXPECT_NE(plan.find("Filter: (t.z > 7)"), std::string::npos) << plan;
  // Nearest neighbours: ORDER BY distance LIMIT k as a best-first scan, no Sort node; the
  // rows equal a full sort's (u has no index). A filter that passes few rows makes the scan
  // search again in larger batches.
  const std::string knn = " ORDER BY cube_distance(cube(ARRAY[x, y]), cube(ARRAY[500.5, 500]))";
  plan = Plan("SELECT id FROM t WHERE x IS NOT NULL" + knn + " LIMIT 10");
  EXPECT_NE(plan.find("Index Scan using t_xy on t"), std::string::npos) << plan;
  EXPECT_NE(plan.find("Order By: (cube_distance("), std::string::npos) << plan;
  EXPECT_EQ(plan.find("Sort"), std::string::npos) << plan;
  for (const std::string& tail :
       {std::string(" LIMIT 10"), std::string(" LIMIT 300 OFFSET 20"), std::string(" LIMIT 1")}) {
    for (const std::string& filter : {std::string(""), std::string(" AND z < 40000000")}) {
      const std::string q = "SELECT id, x, y FROM %s WHERE x IS NOT NULL" + filter + knn + tail;
      auto on = [&](const char* table) {
        std::string sql = q;
        sql.replace(sql.find("%s"), 2, table);
        return Rows(sql);
      };
      EXPECT_EQ(on("t"), on("u")) << q;
    }
  }
  // Without a LIMIT, or descending, it is a sort.
  EXPECT_NE(Plan("SELECT id FROM t WHERE x IS NOT NULL" + knn).find("Sort"), std::string::npos);
  EXPECT_NE(Plan("SELECT id FROM t WHERE x IS NOT NULL" + knn + " DESC LIMIT 3").find("Sort"),
            std::string::npos);
  ExpectSame(selective);
  ExpectSame(unselective);
  ExpectSame("x > 100 AND x < 110 AND y > 500 AND y < 520 AND z > 7");
}

TEST_F(RTreeIndexTest, AnswersMatchAnUnindexedTwinThroughChanges) {
  CreateTwins();
  FillPoints(20000);
  ASSERT_TRUE(Q("CREATE INDEX t_xyz ON t USING gist (x, y, z)").status.ok());  // bulk load
  ASSERT_TRUE(Q("ANALYZE").status.ok());
  const Strings wheres = {"x BETWEEN 100 AND 110 AND y BETWEEN 500 AND 600",
                          "x < 5 AND y > 990",
                          "x = 500.5 AND y >= 0",
                          "x >= 10 AND x <= 10 AND y < 1000",
                          "x BETWEEN 10 AND 30 AND y BETWEEN 1 AND 300 AND z < 2500000000",
                          "y = 17 AND z > 4000000000",
                          "x > 990.5 AND y < 100.5",
                          "x BETWEEN 20 AND 10 AND y < 5",
                          "x IS NULL AND y < 3"};
  auto check = [&] {
    for (const std::string& w : wheres) ExpectSame(w);
  };
  check();
  // A box that leaves the nullable x open cannot use the index (rows with a NULL x have no
  // entry); with x bounded too it does.
  EXPECT_EQ(Plan("SELECT * FROM t WHERE y = 17 AND z > 4000000000").find("t_xyz"),
            std::string::npos);
  EXPECT_NE(Plan("SELECT * FROM t WHERE y = 17 AND z > 4000000000 AND x < 500").find("t_xyz"),
            std::string::npos);
  FillPoints(3000, 50000);  // inserts one by one into the tree
  ASSERT_TRUE(Q("UPDATE t SET x = y / 10.0, y = 999 - y WHERE id % 5 = 0").status.ok());
  ASSERT_TRUE(Q("UPDATE u SET x = y / 10.0, y = 999 - y WHERE id % 5 = 0").status.ok());
  ASSERT_TRUE(Q("UPDATE t SET x = NULL WHERE id % 17 = 0").status.ok());
  ASSERT_TRUE(Q("UPDATE u SET x = NULL WHERE id % 17 = 0").status.ok());
  ASSERT_TRUE(Q("DELETE FROM t WHERE id % 3 = 0").status.ok());
  ASSERT_TRUE(Q("DELETE FROM u WHERE id % 3 = 0").status.ok());
  check();
  // DELETE and UPDATE find their rows through the R-tree too.
  const std::string box = "x BETWEEN 200 AND 300 AND y BETWEEN 100 AND 200 AND z >= 0";
  EXPECT_NE(Plan("DELETE FROM t WHERE " + box).find("t_xyz"), std::string::npos);
  ASSERT_TRUE(Q("DELETE FROM t WHERE " + box).status.ok());
  ASSERT_TRUE(Q("DELETE FROM u WHERE " + box).status.ok());
  ASSERT_TRUE(Q("UPDATE t SET y = y + 1 WHERE x BETWEEN 50 AND 60 AND y < 400").status.ok());
  ASSERT_TRUE(Q("UPDATE u SET y = y + 1 WHERE x BETWEEN 50 AND 60 AND y < 400").status.ok());
  check();
  EXPECT_EQ(Rows("SELECT count(*) FROM t WHERE " + box), (Strings{"0"}));
}

// GiST (R-tree) indexes on point and box columns: the plan uses them for selective && @> <@ ~=
// conditions and for ORDER BY p <-> point LIMIT k (no Sort), the heap for unselective ones,
// and the answers equal an unindexed twin's for random boxes and points, through updates and
// deletes.
TEST_F(RTreeIndexTest, PointAndBoxColumns) {
  ASSERT_TRUE(Q("CREATE TABLE t (id INT PRIMARY KEY, p POINT, b BOX)").status.ok());
  ASSERT_TRUE(Q("CREATE TABLE u (id INT, p POINT, b BOX)").status.ok());
  std::mt19937 rng(23);
  auto coord = [&] { return std::to_string(rng() % 1000000 / 1000.0); };
  for (int base = 0; base < 40000; base += 2000) {
    std::string values;
    for (int i = base; i < base + 2000; ++i) {
      if (!values.empty()) values += ",";
      const std::string p = rng() % 200 == 0 ? "NULL" : "'(" + coord() + "," + coord() + ")'";
      values += "(" + std::to_string(i) + "," + p + ",box(point(" + std::to_string(i % 1000) +
                "," + std::to_string(i / 40) + "),point(" + std::to_string(i % 1000 + 3) + "," +
                std::to_string(i / 40 + rng() % 5) + ")))";
    }
    ASSERT_TRUE(Q("INSERT INTO t VALUES " + values).status.ok());
    ASSERT_TRUE(Q("INSERT INTO u VALUES " + values).status.ok());
  }
  ASSERT_TRUE(Q("CREATE INDEX t_p ON t USING gist (p)").status.ok());
  ASSERT_TRUE(Q("CREATE INDEX t_b ON t USING rtree (b)").status.ok());
  ASSERT_TRUE(Q("ANALYZE").status.ok());
  std::string plan = Plan("SELECT * FROM t WHERE p <@ box '(10,10),(12,12)'");
  EXPECT_NE(plan.find("Index Scan using t_p on t"), std::string::npos) << plan;
  EXPECT_NE(plan.find("Index Cond: (t.p <@ '(12,12),(10,10)'::box)"), std::string::npos) << plan;
  plan = Plan("SELECT * FROM t WHERE box '(10,10),(12,12)' @> p AND id > 5");
  EXPECT_NE(plan.find("Index Cond: ('(12,12),(10,10)'::box @> t.p)"), std::string::npos) << plan;
  EXPECT_NE(plan.find("Filter: (t.id > 5)"), std::string::npos) << plan;
  plan = Plan("SELECT * FROM t WHERE p <@ box '(0,0),(900,900)'");
  EXPECT_NE(plan.find("Seq Scan on t"), std::string::npos) << plan;
  plan = Plan("SELECT * FROM t WHERE b && box '(100,100),(110,120)'");
  EXPECT_NE(plan.find("Index Scan using t_b on t"), std::string::npos) << plan;
  plan = Plan("SELECT id FROM t ORDER BY p <-> point '(500,500)' LIMIT 10");
  EXPECT_NE(plan.find("Index Scan using t_p on t"), std::string::npos) << plan;
  EXPECT_NE(plan.find("Order By: (t.p <-> '(500,500)'::point)"), std::string::npos) << plan;
  EXPECT_EQ(plan.find("Sort"), std::string::npos) << plan;
  plan = Plan("SELECT id FROM t ORDER BY b <-> point '(500,500)' LIMIT 10");
  EXPECT_NE(plan.find("Index Scan using t_b on t"), std::string::npos) << plan;
  auto check = [&] {
    std::mt19937 q(5);
    for (int i = 0; i < 12; ++i) {
      const double x = q() % 1000, y = q() % 1000, w = q() % 40 + 0.5, h = q() % 40 + 0.25;
      const std::string box = "box '(" + std::to_string(x) + "," + std::to_string(y) + "),(" +
                              std::to_string(x + w) + "," + std::to_string(y + h) + ")'";
      const std::string pt = "point '(" + std::to_string(x) + "," + std::to_string(y) + ")'";
      for (const std::string& where :
           {"p <@ " + box, box + " @> p", "b && " + box, "b <@ " + box, "b @> " + pt,
            "b @> box(" + pt + ")", "p ~= " + pt}) {
        ExpectSame(where);
      }
      const std::string k = std::to_string(1 + q() % 50);
      EXPECT_EQ(Rows("SELECT id FROM t ORDER BY p <-> " + pt + " LIMIT " + k),
                Rows("SELECT id FROM u ORDER BY p <-> " + pt + " LIMIT " + k))
          << pt;
      EXPECT_EQ(Rows("SELECT id, b <-> " + pt + " FROM t ORDER BY b <-> " + pt + ", id LIMIT " + k),
                Rows("SELECT id, b <-> " + pt + " FROM u ORDER BY b <-> " + pt + ", id LIMIT " + k))
          << pt;
    }
  };
  check();
  for (const char* table : {"t", "u"}) {
    const std::string n = table;
    ASSERT_TRUE(Q("UPDATE " + n + " SET p = point(p[1], p[0]) WHERE id % 7 = 0").status.ok());
    ASSERT_TRUE(Q("UPDATE " + n + " SET b = box(point(id % 997, 3), point(id % 997 + 1, 9)) "
                  "WHERE id % 11 = 0").status.ok());
    ASSERT_TRUE(Q("DELETE FROM " + n + " WHERE id % 5 = 0").status.ok());
  }
  check();
}

}  // namespace
}  // namespace meridian::testing
