// Index paths that TPC-C kits need (issue 16): `= ANY(array)` is a multi-point scan, a prefix
// of the key as tuples scans the rest of it, outer rows give keys. Each plan is checked by
// EXPLAIN and its rows against the same query with the index made unusable (column + 0), on
// random tuples with duplicates, NULLs and misses. Row-value IN lists, ORs of equalities over a
// key, equalities implied by others and uncorrelated subqueries as keys:
// tests/sql/indexes/key_paths.test.
#include <random>
#include <string>
#include <vector>

#include "sql_test_util.h"

namespace meridian::testing {
namespace {

class KeyPathsTest : public SqlTest {
 protected:
  void SetUp() override {
    SqlTest::SetUp();
    ASSERT_TRUE(Q("CREATE TABLE warehouse (w_id INT PRIMARY KEY, w_tax NUMERIC(4,4))").status.ok());
    ASSERT_TRUE(Q("CREATE TABLE customer (c_w_id INT, c_d_id INT, c_id INT, c_discount INT, "
                  "PRIMARY KEY (c_w_id, c_d_id, c_id))")
                    .status.ok());
    ASSERT_TRUE(Q("CREATE TABLE stock (s_w_id INT, s_i_id INT, s_quantity INT, "
                  "PRIMARY KEY (s_w_id, s_i_id))")
                    .status.ok());
    ASSERT_TRUE(Q("INSERT INTO warehouse VALUES (1, 0.1), (2, 0.2)").status.ok());
    ASSERT_TRUE(Q("INSERT INTO customer SELECT w, d, c, (w * 7 + d * 3 + c) % 50 FROM "
                  "generate_series(1, 2) w, generate_series(1, 10) d, generate_series(1, 500) c")
                    .status.ok());
    ASSERT_TRUE(Q("INSERT INTO stock SELECT w, i, (w * 31 + i) % 100 FROM generate_series(1, 2) w, "
                  "generate_series(1, 10000) i")
                    .status.ok());
    ASSERT_TRUE(Q("ANALYZE").status.ok());
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

TEST_F(KeyPathsTest, APrefixOfTheKeyAsTuplesScansTheRestOfIt) {
  // Points over (c_w_id, c_d_id), then a range on c_id: a selective index scan.
  const std::string q =
      "SELECT c_w_id, c_d_id, c_id FROM customer WHERE (c_w_id, c_d_id) IN ((2, 10), (1, 3)) AND "
      "c_id <= 2 ORDER BY 1, 2, 3";
  EXPECT_TRUE(Has(Plan(q), "Scan using customer_pkey on customer")) << Plan(q);
  EXPECT_EQ(Rows(q), (std::vector<std::string>{"1|3|1", "1|3|2", "2|10|1", "2|10|2"}));
  // Points over a prefix alone read 10% of the table: by cost that may be a heap scan; the
  // rows are the same either way.
  const std::string all =
      "SELECT count(*), sum(c_discount) FROM customer WHERE (c_w_id, c_d_id) IN ((1, 3), (2, 10))";
  EXPECT_EQ(Rows(all), Rows("SELECT count(*), sum(c_discount) FROM customer WHERE (c_w_id + 0, "
                            "c_d_id + 0) IN ((1, 3), (2, 10))"));
  EXPECT_EQ(Rows(all)[0].substr(0, 5), "1000|");
}

// `column = ANY(array)`, as drivers send a list parameter (psycopg, pgx): one index point per
// distinct non-NULL element, on a key column alone or after an equality prefix, with a
// constant array or a parameter; random arrays answer as the same query without the index.
TEST_F(KeyPathsTest, EqualsAnyArrayIsAMultiPointIndexScan) {
  const std::string q =
      "SELECT s_i_id, s_quantity FROM stock WHERE s_w_id = 1 AND s_i_id = ANY('{77,5,5,NULL,"
      "20000}'::int[]) ORDER BY s_i_id";
  const std::string p = Plan(q);
  EXPECT_TRUE(Has(p, "Index Cond: ((stock.s_w_id = 1) AND (stock.s_i_id = ANY ")) << p;
  EXPECT_FALSE(Has(p, "Seq Scan")) << p;
  EXPECT_EQ(Rows(q), (std::vector<std::string>{"5|36", "77|8"}));
  // On the first key column, with ARRAY[...]: points (w, 5) for each w.
  const std::string q2 =
      "SELECT s_w_id, s_quantity FROM stock WHERE s_w_id = ANY(ARRAY[2, 1]) "
      "AND s_i_id = 5 ORDER BY 1";
  EXPECT_TRUE(Has(Plan(q2), "Scan using stock_pkey")) << Plan(q2);
  EXPECT_EQ(Rows(q2), (std::vector<std::string>{"1|36", "2|67"}));
  EXPECT_EQ(Rows("SELECT count(*) FROM warehouse WHERE w_id = ANY(NULL::int[])"),
            (std::vector<std::string>{"0"}));
  EXPECT_EQ(Rows("SELECT count(*) FROM warehouse WHERE w_id = ANY('{}'::int[])"),
            (std::vector<std::string>{"0"}));
  // A prepared statement with an array parameter (SQL PREPARE; the protocols' Bind alike).
  ASSERT_TRUE(Q("PREPARE sq(int[]) AS SELECT s_i_id FROM stock WHERE s_w_id = 2 AND "
                "s_i_id = ANY($1) ORDER BY s_i_id")
                  .status.ok());
  EXPECT_EQ(Rows("EXECUTE sq('{9,3,NULL,3}')"), (std::vector<std::string>{"3", "9"}));
  // <> ALL and = ALL are not points: they still answer right, by a filter.
  EXPECT_EQ(Rows("SELECT count(*) FROM warehouse WHERE w_id <> ALL('{1}'::int[])"),
            (std::vector<std::string>{"1"}));
  std::mt19937 rng(11);
  for (int round = 0; round < 30; ++round) {
    std::string list;
    for (int n = static_cast<int>(rng() % 15); n > 0; --n) {
      list += (list.empty() ? "" : ",") +
              (rng() % 10 == 0 ? std::string("NULL") : std::to_string(rng() % 10003));
    }
    const std::string arr = "'{" + list + "}'::int[]";
    ASSERT_EQ(
        Rows("SELECT s_w_id, s_i_id FROM stock WHERE s_i_id = ANY(" + arr + ") ORDER BY 1, 2"),
        Rows("SELECT s_w_id, s_i_id FROM stock WHERE s_i_id + 0 = ANY(" + arr + ") ORDER BY 1, 2"))
        << arr;
  }
}

TEST_F(KeyPathsTest, RandomTupleListsMatchASequentialScan) {
  std::mt19937 rng(7);
  for (int round = 0; round < 40; ++round) {
    std::string list;
    for (int n = 1 + static_cast<int>(rng() % 12); n > 0; --n) {
      const int w = 1 + static_cast<int>(rng() % 3);  // warehouse 3 does not exist
      const int i = static_cast<int>(rng() % 10003);  // 0 and > 10000 miss
      const std::string iv = rng() % 10 == 0 ? "NULL" : std::to_string(i);
      list += (list.empty() ? "(" : ", (") + std::to_string(w) + ", " + iv + ")";
    }
    const std::string where = "IN (" + list + ")";
    const std::string a = "SELECT s_w_id, s_i_id, s_quantity FROM stock WHERE (s_w_id, s_i_id) " +
                          where + " ORDER BY 1, 2";
    const std::string b =
        "SELECT s_w_id, s_i_id, s_quantity FROM stock WHERE (s_w_id + 0, s_i_id "
        "+ 0) " +
        where + " ORDER BY 1, 2";
    ASSERT_EQ(Rows(a), Rows(b)) << a;
    ASSERT_EQ(Rows("SELECT count(*) FROM stock WHERE NOT ((s_w_id, s_i_id) " + where + ")"),
              Rows("SELECT count(*) FROM stock WHERE NOT ((s_w_id + 0, s_i_id + 0) " + where + ")"))
        << where;
  }
}

TEST_F(KeyPathsTest, StatisticsComeBackAtTheFirstCheckpointAfterARestart) {
  // Without statistics, (c_w_id, c_d_id) looks as selective as a key and an index on
  // (c_w_id, c_d_id, c_discount) would serve `c_id IN (...)` as a filter; with them the primary
  // key takes the IN list as index points.
  ASSERT_TRUE(
      Q("CREATE INDEX customer_discount ON customer (c_w_id, c_d_id, c_discount)").status.ok());
  ASSERT_TRUE(Q("ANALYZE").status.ok());
  const std::string q =
      "SELECT c_discount FROM customer WHERE c_w_id = 1 AND c_d_id = 2 AND "
      "c_id IN (3, 40, 400)";
  auto points = [&](const std::string& plan) {
    return Has(plan, "customer_pkey") && Has(plan, "c_id IN (3, 40, 400)") && !Has(plan, "Filter");
  };
  ASSERT_TRUE(points(Plan(q))) << Plan(q);
  Reopen();
  ASSERT_TRUE(db_->Checkpoint().ok());  // the maintenance pass of the daemon, every 5 s
  EXPECT_TRUE(points(Plan(q))) << Plan(q);
  EXPECT_EQ(Rows(q).size(), 3u);
}

// A one-row outer side whose columns bound a range of the inner side's index (TPC-C's
// Stock-Level: `ol_o_id < d_next_o_id AND ol_o_id >= d_next_o_id - 20`) is an index nested
// loop with a parameterized range scan, not a join over the whole inner table.
TEST_F(KeyPathsTest, RangeBoundsFromTheOuterRowAreIndexKeys) {
  ASSERT_TRUE(Q("CREATE TABLE district (d_w_id INT, d_id INT, d_next_o_id INT, "
                "PRIMARY KEY (d_w_id, d_id))")
                  .status.ok());
  ASSERT_TRUE(Q("CREATE TABLE order_line (ol_w_id INT, ol_d_id INT, ol_o_id INT, ol_number INT, "
                "ol_i_id INT, PRIMARY KEY (ol_w_id, ol_d_id, ol_o_id, ol_number))")
                  .status.ok());
  ASSERT_TRUE(Q("INSERT INTO district SELECT w, d, 2001 FROM generate_series(1, 2) w, "
                "generate_series(1, 10) d")
                  .status.ok());
  ASSERT_TRUE(Q("INSERT INTO order_line SELECT w, d, o, n, (o * 13 + n * 7) % 10000 + 1 FROM "
                "generate_series(1, 2) w, generate_series(1, 10) d, generate_series(1, 2000) o, "
                "generate_series(1, 5) n")
                  .status.ok());
  ASSERT_TRUE(Q("ANALYZE").status.ok());
  const std::string q =
      "SELECT COUNT(DISTINCT s.s_i_id) FROM district d, order_line ol, stock s WHERE "
      "d.d_w_id = 1 AND d.d_id = 2 AND ol.ol_w_id = d.d_w_id AND ol.ol_d_id = d.d_id AND "
      "ol.ol_o_id < d.d_next_o_id AND ol.ol_o_id >= d.d_next_o_id - 20 AND "
      "s.s_w_id = ol.ol_w_id AND s.s_i_id = ol.ol_i_id AND s.s_quantity < 50";
  const std::string p = Plan(q);
  EXPECT_TRUE(Has(p, "Index Scan using order_line_pkey on order_line ol")) << p;
  EXPECT_TRUE(Has(p, "(ol.ol_o_id < d.d_next_o_id) AND (ol.ol_o_id >= (d.d_next_o_id - 20))")) << p;
  EXPECT_FALSE(Has(p, "Seq Scan on order_line")) << p;
  const std::string slow =
      "SELECT COUNT(DISTINCT s.s_i_id) FROM district d, order_line ol, stock s WHERE "
      "d.d_w_id = 1 AND d.d_id = 2 AND ol.ol_w_id + 0 = d.d_w_id AND ol.ol_d_id + 0 = d.d_id AND "
      "ol.ol_o_id + 0 < d.d_next_o_id AND ol.ol_o_id + 0 >= d.d_next_o_id - 20 AND "
      "s.s_w_id + 0 = ol.ol_w_id AND s.s_i_id + 0 = ol.ol_i_id AND s.s_quantity < 50";
  EXPECT_EQ(Rows(q), Rows(slow));
  EXPECT_NE(Rows(q), (std::vector<std::string>{"0"}));
  // The two bounds together keep a range's default selectivity (0.005 of the district's
  // lines, not a ninth), so the few lines probe stock's key instead of hashing all of stock.
  EXPECT_TRUE(Has(p, "Index Scan using stock_pkey on stock s")) << p;
  EXPECT_FALSE(Has(p, "Hash Join")) << p;
  // A LEFT JOIN whose ON clause holds the bounds: districts without lines keep their row.
  ASSERT_TRUE(Q("UPDATE district SET d_next_o_id = 1 WHERE d_id = 3").status.ok());
  const std::string left =
      "SELECT d.d_w_id, d.d_id, count(ol.ol_o_id) FROM district d LEFT JOIN order_line ol ON "
      "ol.ol_w_id = d.d_w_id AND ol.ol_d_id = d.d_id AND ol.ol_o_id < d.d_next_o_id AND "
      "ol.ol_o_id >= d.d_next_o_id - 3 GROUP BY 1, 2 ORDER BY 1, 2";
  const std::vector<std::string> rows = Rows(left);
  ASSERT_EQ(rows.size(), 20u);
  EXPECT_EQ(rows[0], "1|1|15");
  EXPECT_EQ(rows[2], "1|3|0");
}

// min(c) / max(c) alone over one table (HammerDB's Delivery `SELECT min(no_o_id) ...`): the
// first non-NULL c in index order under a Limit, forwards or backwards; the same answers as
// the aggregate over every row, NULL when no row qualifies.
TEST_F(KeyPathsTest, MinMaxReadTheFirstIndexEntry) {
  ASSERT_TRUE(Q("INSERT INTO stock VALUES (3, 1, NULL), (3, 2, 40), (3, 3, NULL)").status.ok());
  const std::string q = "SELECT max(s_i_id) FROM stock WHERE s_w_id = 2";
  const std::string p = Plan(q);
  EXPECT_TRUE(Has(p, "Limit")) << p;
  EXPECT_TRUE(Has(p, "Index Only Scan Backward using stock_pkey on stock")) << p;
  EXPECT_EQ(Rows(q), (std::vector<std::string>{"10000"}));
  const std::string p2 = Plan("SELECT min(s_i_id) FROM stock WHERE s_w_id = 2 AND s_i_id > 17");
  EXPECT_TRUE(Has(p2, "Limit")) << p2;
  EXPECT_FALSE(Has(p2, "Backward")) << p2;
  EXPECT_EQ(Rows("SELECT min(s_i_id) FROM stock WHERE s_w_id = 2 AND s_i_id > 17"),
            (std::vector<std::string>{"18"}));
  EXPECT_EQ(Rows("SELECT min(s_i_id) FROM stock WHERE s_w_id = 7"),
            (std::vector<std::string>{"NULL"}));
  // Not the key's next column: the aggregate reads every row, NULLs skipped.
  EXPECT_FALSE(Has(Plan("SELECT max(s_quantity) FROM stock WHERE s_w_id = 3"), "Limit"));
  EXPECT_EQ(Rows("SELECT max(s_quantity), min(s_quantity) FROM stock WHERE s_w_id = 3"),
            (std::vector<std::string>{"40|40"}));
  ASSERT_TRUE(Q("CREATE INDEX stock_qty ON stock (s_w_id, s_quantity DESC)").status.ok());
  for (const char* agg : {"max", "min"}) {
    const std::string m = std::string("SELECT ") + agg + "(s_quantity) FROM stock WHERE s_w_id = 3";
    EXPECT_TRUE(Has(Plan(m), "Limit")) << Plan(m);
    EXPECT_EQ(Rows(m), (std::vector<std::string>{"40"})) << m;
    const std::string all =
        std::string("SELECT ") + agg + "(s_quantity) FROM stock WHERE s_w_id = 1";
    EXPECT_EQ(Rows(all), Rows(std::string("SELECT ") + agg +
                              "(s_quantity + 0) FROM stock WHERE s_w_id + 0 = 1"));
  }
  // Two aggregates, GROUP BY, or DISTINCT: the ordinary aggregate.
  EXPECT_FALSE(Has(Plan("SELECT min(s_i_id), max(s_i_id) FROM stock WHERE s_w_id = 2"), "Limit"));
  EXPECT_FALSE(Has(Plan("SELECT max(s_i_id) FROM stock GROUP BY s_w_id"), "Limit"));
}

// A plain nested loop keeps its inner side in memory: a one-row relation (w_id = 1) is the
// inner side and the many rows of the other the outer, not the other way round (TPC-C's
// consistency condition 8, `warehouse, history WHERE h_w_id = w_id AND w_id = 1`).
TEST_F(KeyPathsTest, AOneRowRelationIsTheInnerSideOfANestedLoop) {
  const std::string q =
      "SELECT w_id, w_tax, sum(s_quantity) FROM warehouse, stock WHERE s_w_id = w_id AND "
      "w_id = 1 AND s_quantity >= 0 GROUP BY w_id, w_tax";
  const std::string p = Plan(q);
  const size_t loop = p.find("Nested Loop");
  ASSERT_NE(loop, std::string::npos) << p;
  const size_t outer = p.find("->", loop);
  ASSERT_NE(outer, std::string::npos) << p;
  EXPECT_EQ(p.substr(outer, p.find('\n', outer) - outer).find("on stock") != std::string::npos,
            true)
      << p;
  EXPECT_EQ(Rows(q),
            (std::vector<std::string>{
                "1|0.1000|" + Rows("SELECT sum(s_quantity) FROM stock WHERE s_w_id = 1")[0]}));
}

// A condition on a grouped derived table's group key goes into its WHERE (TPC-C's
// consistency condition 2: `(SELECT o_w_id, o_d_id, max(o_id) ... GROUP BY o_w_id, o_d_id) o
// ... o_w_id = d_w_id AND d_w_id = 1`), where it is an index key, instead of filtering the
// groups of the whole table; a condition on an aggregate stays above.
TEST_F(KeyPathsTest, GroupKeyConditionsGoIntoADerivedTable) {
  const std::string q =
      "SELECT w_id, top, n FROM warehouse, (SELECT s_w_id, max(s_i_id) AS top, count(*) AS n "
      "FROM stock GROUP BY s_w_id) AS g WHERE s_w_id = w_id AND w_id = 2 AND n > 0";
  const std::string p = Plan(q);
  EXPECT_TRUE(Has(p, "Index Cond: (stock.s_w_id = 2)")) << p;
  EXPECT_TRUE(Has(p, "Filter: (g.n > 0)")) << p;
  EXPECT_EQ(Rows(q), (std::vector<std::string>{"2|10000|10000"}));
  // Behind a LIMIT the condition stays outside.
  const std::string lim =
      "SELECT count(*) FROM (SELECT s_w_id FROM stock ORDER BY s_w_id LIMIT 5) AS x "
      "WHERE s_w_id = 2";
  EXPECT_TRUE(Has(Plan(lim), "Filter: (x.s_w_id = 2)")) << Plan(lim);
  EXPECT_EQ(Rows(lim), (std::vector<std::string>{"0"}));
}

// LEFT JOIN ... ON inner = outer with `outer = 1` in WHERE: the NULL-extended side gets
// `inner = 1` as its own filter, an index key (consistency condition 5), and the answer is
// the one without it.
TEST_F(KeyPathsTest, OuterConstantsFilterTheNullExtendedSide) {
  const std::string q =
      "SELECT count(*), count(s_i_id) FROM customer LEFT JOIN stock ON s_w_id = c_w_id AND "
      "s_i_id = c_id WHERE c_w_id = 1 AND c_d_id = 2";
  const std::string p = Plan(q);
  EXPECT_TRUE(Has(p, "(stock.s_w_id = 1)")) << p;
  EXPECT_EQ(Rows(q), (std::vector<std::string>{"500|500"}));
  EXPECT_EQ(Rows(q), Rows("SELECT count(*), count(s_i_id) FROM customer LEFT JOIN stock ON "
                          "s_w_id + 0 = c_w_id AND s_i_id + 0 = c_id WHERE c_w_id = 1 AND "
                          "c_d_id = 2"));
  // A constant on the NULL-extended side itself is no such source.
  EXPECT_EQ(Rows("SELECT count(*) FROM warehouse LEFT JOIN stock ON s_w_id = w_id AND "
                 "s_i_id = 5 WHERE s_w_id = 1"),
            (std::vector<std::string>{"1"}));
}

}  // namespace
}  // namespace meridian::testing
