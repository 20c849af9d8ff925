// Hash joins and INTERSECT/EXCEPT beyond work_mem (engine/execution/hash_join.cc, set_op.cc):
// both inputs go to partitions by key hash on disk, joined partition by partition (split
// further, or chunk by chunk when one key fills a partition); every join kind and set
// operation answers as in memory, NULL keys and NULL extension included, EXPLAIN ANALYZE
// reports more than one batch, and no temporary file is left.
#include "sql_test_util.h"

namespace meridian::testing {
namespace {

using Strings = std::vector<std::string>;

class HashJoinSpillTest : public SqlTest {
 protected:
  void SetUp() override {
    SqlTest::SetUp();
    // l: 20,000 rows, integer keys 0..11999 (every 53rd NULL), text keys; r: 16,000 rows with
    // keys 0..15999 step 3 and repeats, every 41st NULL; k1: a key shared by most rows.
    ASSERT_TRUE(Q("CREATE TABLE l (id INT, k INT, t TEXT, k1 INT)").status.ok());
    ASSERT_TRUE(Q("CREATE TABLE r (id INT, k INT, t TEXT, k1 INT)").status.ok());
    ASSERT_TRUE(Q("INSERT INTO l SELECT i, CASE WHEN i % 53 = 0 THEN NULL ELSE i % 12000 END, "
                  "'t' || (i % 7000), CASE WHEN i % 9 = 0 THEN i ELSE 1 END "
                  "FROM generate_series(1, 20000) i")
                    .status.ok());
    ASSERT_TRUE(Q("INSERT INTO r SELECT i, CASE WHEN i % 41 = 0 THEN NULL ELSE i * 3 % 16000 END, "
                  "'t' || (i * 5 % 9000), CASE WHEN i % 13 = 0 THEN NULL ELSE 1 END "
                  "FROM generate_series(1, 16000) i")
                    .status.ok());
  }
  // Each query's rows in memory, then with work_mem at 64kB: the same, spilled.
  void ExpectSameSpilled(const Strings& queries) {
    std::vector<Strings> in_memory;
    for (const std::string& q : queries) {
      in_memory.push_back(SortedRows(q));
      EXPECT_FALSE(in_memory.back().empty()) << q;
      EXPECT_TRUE(AnalyzeHas(q, "Batches: 1 ")) << q;
    }
    ASSERT_TRUE(Q("SET work_mem = '64kB'").status.ok());
    for (size_t i = 0; i < queries.size(); ++i) {
      EXPECT_EQ(SortedRows(queries[i]), in_memory[i]) << queries[i];
      EXPECT_FALSE(AnalyzeHas(queries[i], "Batches: 1 ")) << queries[i];
      EXPECT_TRUE(AnalyzeHas(queries[i], "Batches: ")) << queries[i];
    }
    EXPECT_EQ(TempFiles(), 0u) << "spill files are unnamed and gone with the statement";
    ASSERT_TRUE(Q("RESET work_mem").status.ok());
  }
};

TEST_F(HashJoinSpillTest, EveryJoinKindAnswersAsInMemory) {
  ExpectSameSpilled({
      "SELECT l.id, r.id, l.t, r.t FROM l JOIN r ON l.k = r.k",
      "SELECT l.id, r.id FROM l LEFT JOIN r ON l.k = r.k",
      "SELECT l.id, r.id, r.t FROM l RIGHT JOIN r ON l.k = r.k",
      "SELECT l.id, r.id FROM l FULL JOIN r ON l.k = r.k",
  });
}

TEST_F(HashJoinSpillTest, TextAndCompositeKeysWithResidual) {
  ExpectSameSpilled({
      "SELECT l.id, r.id FROM l JOIN r ON l.t = r.t",
      "SELECT l.id, r.id FROM l FULL JOIN r ON l.t = r.t AND l.k = r.k",
      "SELECT l.id, r.id FROM l LEFT JOIN r ON l.t = r.t AND l.id < r.id",
      "SELECT l.id, r.id FROM l RIGHT JOIN r ON l.k = r.k AND l.id % 3 <> r.id % 3",
  });
}

TEST_F(HashJoinSpillTest, OneKeyFillingAPartitionGoesChunkByChunk) {
  // k1 = 1 for most rows of both sides and the only equality: no hash split separates them, so
  // that partition is joined chunk by chunk (the residual keeps the output small).
  const std::string l = "(SELECT * FROM l WHERE id <= 2000) l";
  const std::string r = "(SELECT * FROM r WHERE id <= 2000) r";
  ExpectSameSpilled({
      "SELECT l.id, r.id FROM " + l + " JOIN " + r +
          " ON l.k1 = r.k1 AND l.id BETWEEN r.id + 7 AND r.id + 8",
      "SELECT l.id, r.id FROM " + l + " LEFT JOIN " + r +
          " ON l.k1 = r.k1 AND l.id BETWEEN r.id * 2 AND r.id * 2 + 1",
      "SELECT l.id, r.id FROM " + l + " FULL JOIN " + r +
          " ON l.k1 = r.k1 AND l.id BETWEEN r.id * 2 AND r.id * 2 + 1",
      "SELECT l.id, r.id FROM " + l + " RIGHT JOIN " + r +
          " ON l.k1 = r.k1 AND l.id BETWEEN r.id - 100 AND r.id - 99",
  });
}

TEST_F(HashJoinSpillTest, SpilledJoinsEndAtStatementTimeout) {
  // Most rows share k1 = 1: the spilled join goes chunk by chunk over 16,000 x 17,000 pairs,
  // polling for cancellation as it goes; the spilled set operation too.
  ASSERT_TRUE(Q("SET work_mem = '64kB'").status.ok());
  ASSERT_TRUE(Q("SET statement_timeout = '100ms'").status.ok());
  Err("SELECT count(*) FROM l a JOIN l b ON a.k1 = b.k1 AND a.t < b.t", "57014");
  Err("SELECT count(*) FROM (SELECT a.t || b.t FROM l a, r b WHERE a.id < 400 "
      "EXCEPT SELECT t FROM r) x",
      "57014");
  ASSERT_TRUE(Q("RESET statement_timeout").status.ok());
  EXPECT_EQ(TempFiles(), 0u);
}

TEST_F(HashJoinSpillTest, SetOperationsAnswerAsInMemory) {
  ExpectSameSpilled({
      "SELECT k, t FROM l INTERSECT SELECT k, t FROM r",
      "SELECT k FROM l INTERSECT ALL SELECT k % 9000 FROM r",
      "SELECT k, id % 3 FROM l EXCEPT SELECT k, id % 3 FROM r",
      "SELECT k % 5000 FROM l EXCEPT ALL SELECT k FROM r",
      "SELECT t, k FROM l EXCEPT SELECT t, k FROM r WHERE false",
  });
  // Counts as PostgreSQL 15 gives them.
  ASSERT_TRUE(Q("SET work_mem = '64kB'").status.ok());
  EXPECT_EQ(Rows("SELECT count(*) FROM (SELECT k FROM l EXCEPT SELECT k FROM r) x"),
            (Strings{"289"}));
  EXPECT_EQ(Rows("SELECT count(*) FROM (SELECT k FROM l INTERSECT ALL SELECT k % 9000 FROM r) x"),
            (Strings{"15716"}));
  EXPECT_EQ(Rows("SELECT count(*) FROM (SELECT k, t FROM l EXCEPT ALL SELECT k, t FROM r) x"),
            (Strings{"19981"}));
}

}  // namespace
}  // namespace meridian::testing
