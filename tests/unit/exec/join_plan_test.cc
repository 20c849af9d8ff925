// Join order by cost through SQL: SELECT * keeps FROM column order whatever the join order, and
// every FROM order of one query (inner joins around outer joins too) returns the same rows as
// plain nested loops. The plans themselves (order by table sizes and filters, star queries,
// aliases, UPDATE ... FROM / DELETE ... USING): tests/sql/plans/join_plans.test.
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

}  // namespace
}  // namespace meridian::testing
