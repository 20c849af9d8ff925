// Join order by cost through SQL: EXPLAIN shows the order follow the table sizes and filters
// (not the FROM order), SELECT * keeps FROM column order whatever the join order, and every
// FROM order of one query (inner joins around outer joins too) returns the same rows as plain
// nested loops; UPDATE ... FROM and DELETE ... USING get the same join planning.
#include <algorithm>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "sql_test_util.h"

namespace meridian::testing {
namespace {

using Strings = std::vector<std::string>;

class JoinPlanTest : public SqlTest {
 protected:
  std::string Plan(const std::string& sql) {
    std::string out;
    for (const std::string& line : Rows("EXPLAIN " + sql)) out += line + "\n";
    return out;
  }
  // Per table, the indentation of its scan line in plan (the join tree's depth).
  static std::map<std::string, size_t> ScanDepths(const std::string& plan) {
    std::map<std::string, size_t> depth;
    size_t start = 0;
    while (start < plan.size()) {
      const size_t end = plan.find('\n', start);
      const std::string line = plan.substr(start, end - start);
      start = end + 1;
      const size_t scan = line.find("Scan ");
      const size_t on = line.find(" on ");
      if (scan == std::string::npos || on == std::string::npos || line.find("Cond") != npos) {
        continue;
      }
      const size_t name_end = line.find(' ', on + 4);
      depth[line.substr(on + 4, name_end - on - 4)] = line.find_first_not_of(" ->");
    }
    return depth;
  }
  // The two tables joined first: the deepest scans of a left-deep plan.
  static Strings FirstPair(const std::string& plan) {
    std::vector<std::pair<size_t, std::string>> by_depth;
    for (const auto& [table, d] : ScanDepths(plan)) by_depth.push_back({d, table});
    std::sort(by_depth.rbegin(), by_depth.rend());
    Strings out;
    for (size_t i = 0; i < 2 && i < by_depth.size(); ++i) out.push_back(by_depth[i].second);
    std::sort(out.begin(), out.end());
    return out;
  }
  void Insert(const std::string& table, int n, const std::function<std::string(int)>& row) {
    for (int base = 0; base < n; base += 1000) {
      std::string values;
      for (int i = base; i < std::min(n, base + 1000); ++i) {
        values += (values.empty() ? "(" : ",(") + row(i) + ")";
      }
      ASSERT_TRUE(Q("INSERT INTO " + table + " VALUES " + values).status.ok()) << table;
    }
  }
  // A chain a.x = b.x, b.y = c.y with an index on each join column; n_a, n_b, n_c rows.
  void MakeChain(int n_a, int n_b, int n_c) {
    for (const char* t : {"a", "b", "c"}) Q(std::string("DROP TABLE IF EXISTS ") + t);
    ASSERT_TRUE(Q("CREATE TABLE a (id INT PRIMARY KEY, x INT, v INT)").status.ok());
    ASSERT_TRUE(Q("CREATE TABLE b (id INT PRIMARY KEY, x INT, y INT)").status.ok());
    ASSERT_TRUE(Q("CREATE TABLE c (id INT PRIMARY KEY, y INT, v INT)").status.ok());
    ASSERT_TRUE(Q("CREATE INDEX a_x ON a (x)").status.ok());
    ASSERT_TRUE(Q("CREATE INDEX b_x ON b (x)").status.ok());
    ASSERT_TRUE(Q("CREATE INDEX b_y ON b (y)").status.ok());
    ASSERT_TRUE(Q("CREATE INDEX c_y ON c (y)").status.ok());
    Insert("a", n_a, [&](int i) {
      return std::to_string(i) + "," + std::to_string(i % n_b) + "," + std::to_string(i % 100);
    });
    Insert("b", n_b, [&](int i) {
      return std::to_string(i) + "," + std::to_string(i) + "," + std::to_string(i % n_c);
    });
    Insert("c", n_c, [&](int i) {
      return std::to_string(i) + "," + std::to_string(i) + "," + std::to_string(i % 100);
    });
    ASSERT_TRUE(Q("ANALYZE").status.ok());
  }
  static constexpr size_t npos = std::string::npos;
};

TEST_F(JoinPlanTest, OrderFollowsTableSizes) {
  const std::string q = "SELECT count(*) FROM a, b, c WHERE a.x = b.x AND b.y = c.y AND ";
  // a big, c small and filtered: the planner starts from c, although FROM lists a first,
  // and each hash join builds on the few rows so far, probing with the new table.
  MakeChain(20000, 2000, 200);
  std::string p = Plan(q + "c.v = 7");
  EXPECT_EQ(FirstPair(p), (Strings{"b", "c"})) << p;
  EXPECT_EQ(p.find("Nested Loop"), npos) << p;
  EXPECT_LT(p.find("Seq Scan on b"), p.find("Seq Scan on c")) << p;  // c is the build side
  EXPECT_EQ(Rows(q + "c.v = 7"), Strings{"200"});
  // The same query over a small a and a big c starts from the a side.
  MakeChain(200, 2000, 20000);
  p = Plan(q + "a.v = 7");
  EXPECT_EQ(FirstPair(p), (Strings{"a", "b"})) << p;
  EXPECT_NE(p.find("Index Cond: (b.y = c.y)"), npos) << p;
  EXPECT_EQ(Rows(q + "a.v = 7"), Strings{"2"});
}

TEST_F(JoinPlanTest, StarQueryStartsFromTheFilteredDimension) {
  // A fact table listed first with two dimensions: the filtered dimension is read first and
  // the fact table found through its index; the other dimension is hashed or probed.
  ASSERT_TRUE(Q("CREATE TABLE fact (id INT PRIMARY KEY, d1 INT, d2 INT, amount INT)").status.ok());
  ASSERT_TRUE(Q("CREATE TABLE dim1 (id INT PRIMARY KEY, name TEXT)").status.ok());
  ASSERT_TRUE(Q("CREATE TABLE dim2 (id INT PRIMARY KEY, name TEXT)").status.ok());
  ASSERT_TRUE(Q("CREATE INDEX fact_d1 ON fact (d1)").status.ok());
  Insert("fact", 30000, [](int i) {
    return std::to_string(i) + "," + std::to_string(i % 1000) + "," + std::to_string(i % 50) + "," +
           std::to_string(i % 7);
  });
  Insert("dim1", 1000, [](int i) { return std::to_string(i) + ",'n" + std::to_string(i) + "'"; });
  Insert("dim2", 50, [](int i) { return std::to_string(i) + ",'m" + std::to_string(i) + "'"; });
  ASSERT_TRUE(Q("ANALYZE").status.ok());
  const std::string q =
      "SELECT count(*), sum(fact.amount) FROM fact JOIN dim2 ON dim2.id = fact.d2 JOIN dim1 ON "
      "dim1.id = fact.d1 WHERE dim1.name = 'n17'";
  const std::string p = Plan(q);
  EXPECT_EQ(FirstPair(p), (Strings{"dim1", "fact"})) << p;
  EXPECT_NE(p.find("Index Cond: (dim1.id = fact.d1)"), npos) << p;
  // Scans name their alias, as PostgreSQL's EXPLAIN does.
  const std::string aliased =
      Plan("SELECT count(*) FROM fact f JOIN dim1 d ON d.id = f.d1 WHERE d.name = 'n17'");
  EXPECT_NE(aliased.find(" on fact f "), npos) << aliased;
  EXPECT_NE(aliased.find(" on dim1 d "), npos) << aliased;
  // The same without the equalities visible to the planner (`OR false`): nested loops.
  EXPECT_EQ(Rows(q), Rows("SELECT count(*), sum(fact.amount) FROM fact, dim2, dim1 WHERE "
                          "(dim2.id = fact.d2 OR false) AND (dim1.id = fact.d1 OR false) AND "
                          "dim1.name = 'n17'"));
}

TEST_F(JoinPlanTest, SelectStarKeepsFromColumnOrder) {
  MakeChain(3000, 300, 30);
  // c is read first (filtered), yet the row comes out as a, b, c.
  SqlResult r =
      Q("SELECT * FROM a, b, c WHERE a.x = b.x AND b.y = c.y AND c.id = 4 ORDER BY a.id "
        "LIMIT 2");
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  const std::string p = Plan("SELECT * FROM a, b, c WHERE a.x = b.x AND b.y = c.y AND c.id = 4");
  EXPECT_EQ(FirstPair(p), (Strings{"b", "c"})) << p;
  ASSERT_EQ(r.columns.size(), 9u);
  EXPECT_EQ(r.columns[0].name, "id");
  EXPECT_EQ(r.columns[1].name, "x");
  EXPECT_EQ(r.columns[2].name, "v");
  EXPECT_EQ(r.columns[5].name, "y");
  EXPECT_EQ(r.columns[8].name, "v");
  EXPECT_EQ(r.rows, (Strings{"4|4|4|4|4|4|4|4|4", "34|34|34|34|34|4|4|4|4"}));
}

TEST_F(JoinPlanTest, EveryFromOrderGivesTheSameRows) {
  MakeChain(600, 60, 12);
  ASSERT_TRUE(Q("CREATE TABLE d (id INT, y INT)").status.ok());
  ASSERT_TRUE(Q("INSERT INTO d VALUES (1, 1), (2, 2), (3, NULL), (4, 77), (5, 2)").status.ok());
  ASSERT_TRUE(Q("ANALYZE d").status.ok());
  const std::string cols = "SELECT a.id, b.id, c.id, d.id FROM ";
  const std::string where = " WHERE a.x = b.x AND b.y = c.y AND c.y = d.y AND a.v < 40";
  const std::string slow_where =
      " WHERE (a.x = b.x OR false) AND (b.y = c.y OR false) AND (c.y = d.y OR false) AND a.v < 40";
  const std::string order = " ORDER BY 1, 2, 3, 4";
  Strings tables = {"a", "b", "c", "d"};
  const Strings expected = Rows(cols + "a, b, c, d" + slow_where + order);
  ASSERT_FALSE(expected.empty());
  int orders = 0;
  do {
    const std::string from = tables[0] + ", " + tables[1] + ", " + tables[2] + ", " + tables[3];
    EXPECT_EQ(Rows(cols + from + where + order), expected) << from;
    // As JOIN ... ON chains, and with a LEFT JOIN to d in the middle of inner joins.
    const std::string joins = tables[0] + " JOIN " + tables[1] + " ON true JOIN " + tables[2] +
                              " ON true JOIN " + tables[3] + " ON true";
    EXPECT_EQ(Rows(cols + joins + where + order), expected) << joins;
    ++orders;
  } while (std::next_permutation(tables.begin(), tables.end()));
  EXPECT_EQ(orders, 24);
  // d NULL-extended by a LEFT JOIN between inner joins (conditions on d wait for the join),
  // and inner joins after a RIGHT JOIN, each with extra WHERE conditions.
  const std::vector<std::pair<std::string, std::string>> outer = {
      {"a JOIN b ON a.x = b.x LEFT JOIN d ON d.y = b.y JOIN c ON c.y = b.y",
       "a JOIN b ON (a.x = b.x OR false) LEFT JOIN d ON (d.y = b.y OR false) JOIN c ON (c.y = "
       "b.y OR false)"},
      {"c JOIN b ON c.y = b.y RIGHT JOIN d ON d.y = c.y JOIN a ON a.x = b.x OR a.id = d.id",
       "c JOIN b ON (c.y = b.y OR false) RIGHT JOIN d ON (d.y = c.y OR false) JOIN a ON a.x = "
       "b.x OR a.id = d.id"},
  };
  for (const auto& [fast, slow] : outer) {
    for (const char* extra : {"", " AND d.id IS NULL", " AND c.id = d.id"}) {
      const std::string rest = std::string(" WHERE a.v < 40") + extra + order;
      EXPECT_EQ(Rows(cols + fast + rest), Rows(cols + slow + rest)) << fast << rest;
    }
  }
}

TEST_F(JoinPlanTest, UpdateFromAndDeleteUsingUseTheJoinPlanner) {
  // The FROM items and the target are joined by the SELECT planner below "Update on t", as
  // PostgreSQL shows it: a few FROM rows find the target's rows through its index, many are
  // hashed; each target row changes once however many FROM rows match it.
  ASSERT_TRUE(Q("CREATE TABLE big (id INT PRIMARY KEY, v TEXT, n INT)").status.ok());
  ASSERT_TRUE(Q("CREATE TABLE few (id INT, w TEXT)").status.ok());
  ASSERT_TRUE(Q("CREATE TABLE many (id INT, w TEXT)").status.ok());
  Insert("big", 20000, [](int i) { return std::to_string(i) + ", 'v', 0"; });
  Insert("few", 10, [](int i) { return std::to_string(i * 1000) + ", 'f'"; });
  Insert("many", 4000, [](int i) { return std::to_string(i % 2000) + ", 'm'"; });
  ASSERT_TRUE(Q("ANALYZE").status.ok());

  std::string p = Plan("UPDATE big SET n = big.n + 1, v = few.w FROM few WHERE big.id = few.id");
  EXPECT_EQ(p.rfind("Update on big  (", 0), 0u) << p;
  EXPECT_NE(p.find("Nested Loop"), npos) << p;
  EXPECT_NE(p.find("Index Scan using big_pkey on big"), npos) << p;
  EXPECT_NE(p.find("Index Cond: (big.id = few.id)"), npos) << p;
  p = Plan("UPDATE big AS b SET n = b.n + 1 FROM many WHERE b.id = many.id");
  EXPECT_EQ(p.rfind("Update on big b  (", 0), 0u) << p;
  EXPECT_NE(p.find("Hash Join"), npos) << p;
  p = Plan("DELETE FROM big USING few WHERE big.id = few.id");
  EXPECT_EQ(p.rfind("Delete on big  (", 0), 0u) << p;
  EXPECT_NE(p.find("Index Scan using big_pkey on big"), npos) << p;

  EXPECT_EQ(Q("UPDATE big SET n = big.n + 1 FROM many WHERE big.id = many.id").tag, "UPDATE 2000");
  EXPECT_EQ(Rows("SELECT count(*), sum(n) FROM big"), Strings{"20000|2000"});
  EXPECT_EQ(Q("UPDATE big SET v = few.w FROM few WHERE big.id = few.id").tag, "UPDATE 10");
  EXPECT_EQ(Q("DELETE FROM big USING many WHERE big.id = many.id").tag, "DELETE 2000");
  EXPECT_EQ(Rows("SELECT count(*), count(*) FILTER (WHERE v = 'f') FROM big"),
            Strings{"18000|8"});
}

}  // namespace
}  // namespace meridian::testing
