// Hash aggregation beyond work_mem (engine/execution/hash_aggregate.cc): rows of groups that do
// not fit go to spill files by key hash, aggregated file by file (repartitioned when a file's
// groups still do not fit); the answers equal the in-memory ones, EXPLAIN ANALYZE reports the
// batches and disk use, and no temporary file is left; SELECT DISTINCT likewise.
#include "sql_test_util.h"

namespace meridian::testing {
namespace {

using Strings = std::vector<std::string>;

class HashAggregateSpillTest : public SqlTest {
 protected:
  void SetUp() override {
    SqlTest::SetUp();
    ASSERT_TRUE(Q("CREATE TABLE g (id INT PRIMARY KEY, k INT, t TEXT, v INT)").status.ok());
    // 30,000 integer keys (every 97th row NULL), 9,000 text keys, two rows per key or more.
    ASSERT_TRUE(Q("INSERT INTO g SELECT i, CASE WHEN i % 97 = 0 THEN NULL ELSE i % 30000 END, "
                  "'key ' || (i * 7919 % 9000), i % 1000 FROM generate_series(1, 70000) i")
                    .status.ok());
  }
};

TEST_F(HashAggregateSpillTest, SpilledGroupsEqualTheInMemoryOnes) {
  const std::string by_int =
      "SELECT k, count(*), sum(v), min(t), max(id), avg(v) FROM g GROUP BY k";
  const std::string by_text =
      "SELECT t, count(DISTINCT v), string_agg(id::text, ',' ORDER BY id) FROM g GROUP BY t";
  const Strings int_groups = SortedRows(by_int);
  const Strings text_groups = SortedRows(by_text);
  ASSERT_EQ(int_groups.size(), 30001u);  // 0..29999 and NULL
  ASSERT_EQ(text_groups.size(), 9000u);
  EXPECT_TRUE(AnalyzeHas(by_int, "Batches: 1  Memory Usage: "));
  EXPECT_FALSE(AnalyzeHas(by_int, "Disk Usage"));

  ASSERT_TRUE(Q("SET work_mem = '64kB'").status.ok());
  EXPECT_EQ(SortedRows(by_int), int_groups);
  EXPECT_EQ(SortedRows(by_text), text_groups);
  EXPECT_TRUE(AnalyzeHas(by_int, "Disk Usage: "));
  EXPECT_FALSE(AnalyzeHas(by_int, "Batches: 1 "));
  EXPECT_EQ(TempFiles(), 0u) << "spill files are unnamed and gone with the statement";
}

TEST_F(HashAggregateSpillTest, SpillingUnderJoinsAndHaving) {
  const std::string query =
      "SELECT a.k, count(*) FROM g a JOIN g b ON a.id = b.id + 1 GROUP BY a.k "
      "HAVING count(*) > 2";
  const Strings in_memory = SortedRows(query);
  ASSERT_FALSE(in_memory.empty());
  ASSERT_TRUE(Q("SET work_mem = '64kB'").status.ok());
  EXPECT_EQ(SortedRows(query), in_memory);
}

TEST_F(HashAggregateSpillTest, DistinctSpillsAndReturnsEachRowOnce) {
  const std::string query = "SELECT DISTINCT k, t FROM g";
  const Strings in_memory = SortedRows(query);
  ASSERT_EQ(in_memory.size(), 70000u);  // PostgreSQL 15 counts the same
  ASSERT_TRUE(Q("SET work_mem = '64kB'").status.ok());
  EXPECT_EQ(SortedRows(query), in_memory);
  EXPECT_EQ(Rows("SELECT count(*) FROM (SELECT DISTINCT v % 500, k FROM g) x"),
            (Strings{"30500"}));  // as PostgreSQL 15
  EXPECT_EQ(TempFiles(), 0u);
}

}  // namespace
}  // namespace meridian::testing
