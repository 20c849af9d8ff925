// Window functions: the frame arithmetic and ntile's buckets alone (execution/window.h), and
// through SQL what the sqllogictest file cannot see: EXPLAIN's WindowAgg/Sort shape (one Sort
// shared by windows whose keys are a prefix of another's), key expressions computed before the
// Sort, results across partitions larger than the cancel-poll interval, and plan-cache reuse
// of a prepared window query with new parameters.
#include <string>
#include <vector>

#include "execution/window.h"
#include "sql_test_util.h"

namespace meridian::testing {
namespace {

using exec::FrameRange;
using exec::WindowClause;
using Bound = WindowClause::Bound;

std::string Frames(const WindowClause& w, const std::vector<size_t>& peer_begin,
                   const std::vector<size_t>& peer_end, int64_t so, int64_t eo) {
  std::string out;
  const size_t n = peer_begin.size();
  for (size_t i = 0; i < n; ++i) {
    FrameRange r = exec::WindowFrameOf(w, i, n, peer_begin[i], peer_end[i], so, eo);
    out += (i ? " " : "") + std::to_string(r.begin) + "-" + std::to_string(r.end);
  }
  return out;
}

TEST(WindowFrame, RowsAndRangeBounds) {
  // Five rows; rows 1 and 2 are peers, as are 3 and 4.
  const std::vector<size_t> pb{0, 1, 1, 3, 3}, pe{1, 3, 3, 5, 5};
  WindowClause w;  // the default: RANGE UNBOUNDED PRECEDING .. CURRENT ROW (peers included)
  EXPECT_EQ(Frames(w, pb, pe, 0, 0), "0-1 0-3 0-3 0-5 0-5");
  w.rows = true;
  EXPECT_EQ(Frames(w, pb, pe, 0, 0), "0-1 0-2 0-3 0-4 0-5");
  w.start = Bound::kPreceding;
  w.end = Bound::kFollowing;
  EXPECT_EQ(Frames(w, pb, pe, 1, 1), "0-2 0-3 1-4 2-5 3-5");
  w.start = Bound::kFollowing;  // 2 FOLLOWING .. 3 FOLLOWING: empty at the end
  EXPECT_EQ(Frames(w, pb, pe, 2, 3), "2-4 3-5 4-5 5-5 5-5");
  w.start = Bound::kPreceding;  // 3 PRECEDING .. 1 PRECEDING: empty at the start
  w.end = Bound::kPreceding;
  EXPECT_EQ(Frames(w, pb, pe, 3, 1), "0-0 0-1 0-2 0-3 1-4");
  w.end = Bound::kUnboundedFollowing;  // offsets far beyond the partition clamp
  EXPECT_EQ(Frames(w, pb, pe, INT64_MAX, 0), "0-5 0-5 0-5 0-5 0-5");
  w.rows = false;  // RANGE CURRENT ROW .. UNBOUNDED FOLLOWING: from the first peer
  w.start = Bound::kCurrentRow;
  EXPECT_EQ(Frames(w, pb, pe, 0, 0), "0-5 1-5 1-5 3-5 3-5");
  w.rows = true;
  EXPECT_EQ(Frames(w, pb, pe, 0, 0), "0-5 1-5 2-5 3-5 4-5");
}

TEST(WindowFrame, NtileRemainders) {
  EXPECT_EQ(exec::NtileOf(10, 4), (std::vector<int32_t>{1, 1, 1, 2, 2, 2, 3, 3, 4, 4}));
  EXPECT_EQ(exec::NtileOf(8, 3), (std::vector<int32_t>{1, 1, 1, 2, 2, 2, 3, 3}));
  EXPECT_EQ(exec::NtileOf(3, 5), (std::vector<int32_t>{1, 2, 3}));
  EXPECT_EQ(exec::NtileOf(6, 3), (std::vector<int32_t>{1, 1, 2, 2, 3, 3}));
  EXPECT_EQ(exec::NtileOf(7, 1), (std::vector<int32_t>(7, 1)));
  EXPECT_TRUE(exec::NtileOf(0, 4).empty());
}

class WindowSqlTest : public SqlTest {
 protected:
  std::string Plan(const std::string& sql) {
    std::string out;
    for (const std::string& line : Rows("EXPLAIN " + sql)) {
      // Keep the node names and details, not the cost estimates.
      const size_t cost = line.find("  (cost=");
      out += (cost == std::string::npos ? line : line.substr(0, cost)) + "\n";
    }
    return out;
  }
};

TEST_F(WindowSqlTest, ExplainShowsWindowAggOverSort) {
  ASSERT_TRUE(Q("CREATE TABLE t (id INTEGER PRIMARY KEY, g TEXT, v INTEGER)").status.ok());
  EXPECT_EQ(Plan("SELECT id, row_number() OVER (ORDER BY id), lag(v) OVER (PARTITION BY g "
                 "ORDER BY id) FROM t"),
            "WindowAgg\n"
            "  ->  Sort\n"
            "        Sort Key: t.id\n"
            "        ->  WindowAgg\n"
            "              ->  Sort\n"
            "                    Sort Key: t.g, t.id\n"
            "                    ->  Seq Scan on t\n");
  // A window whose keys are a prefix of the one below needs no Sort; a key expression is
  // computed before its Sort; ORDER BY a window result sorts above the WindowAgg.
  EXPECT_EQ(Plan("SELECT sum(v) OVER (PARTITION BY g ORDER BY id DESC), count(*) OVER "
                 "(PARTITION BY g) AS c FROM t ORDER BY c"),
            "Sort\n"
            "  Sort Key: (count(*) OVER (?))\n"
            "  ->  WindowAgg\n"
            "        ->  WindowAgg\n"
            "              ->  Sort\n"
            "                    Sort Key: t.g, t.id DESC\n"
            "                    ->  Seq Scan on t\n");
  EXPECT_EQ(Plan("SELECT rank() OVER (ORDER BY v % 3 NULLS FIRST) FROM t"),
            "WindowAgg\n"
            "  ->  Sort\n"
            "        Sort Key: ((t.v % 3)) NULLS FIRST\n"
            "        ->  Seq Scan on t\n");
  EXPECT_EQ(Plan("SELECT g, rank() OVER (ORDER BY count(*)) FROM t GROUP BY g"),
            "WindowAgg\n"
            "  ->  Sort\n"
            "        Sort Key: (count(*))\n"
            "        ->  HashAggregate\n"
            "              Group Key: t.g\n"
            "              ->  Seq Scan on t\n");
}

TEST_F(WindowSqlTest, LargePartitionsAndPreparedParameters) {
  ASSERT_TRUE(Q("CREATE TABLE big (id INTEGER, g INTEGER)").status.ok());
  ASSERT_TRUE(
      Q("INSERT INTO big SELECT i, i % 3 FROM generate_series(1, 3000) AS s (i)").status.ok());
  EXPECT_EQ(Rows("SELECT count(*), sum(rn), max(rn), sum(s) FROM (SELECT row_number() OVER "
                 "(PARTITION BY g ORDER BY id) AS rn, sum(id) OVER (PARTITION BY g) AS s FROM "
                 "big) AS x"),
            std::vector<std::string>{"3000|1501500|1000|4501500000"});
  ASSERT_TRUE(Q("PREPARE p (integer) AS SELECT sum(x) FROM (SELECT sum(id) OVER (ORDER BY id "
                "ROWS BETWEEN $1 PRECEDING AND CURRENT ROW) AS x FROM big WHERE id <= 10) AS s")
                  .status.ok());
  // Frames of 1, 2 and 11 rows over ids 1..10 (the plan is cached between executions).
  EXPECT_EQ(Rows("EXECUTE p(0)"), std::vector<std::string>{"55"});
  EXPECT_EQ(Rows("EXECUTE p(1)"), std::vector<std::string>{"100"});
  EXPECT_EQ(Rows("EXECUTE p(10)"), std::vector<std::string>{"220"});
  EXPECT_EQ(Err("EXECUTE p(NULL)", "22004").message(), "frame starting offset must not be null");
}

}  // namespace
}  // namespace meridian::testing
