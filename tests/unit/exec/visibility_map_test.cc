// The visibility map (docs/storage.md "Visibility map") seen from SQL: index-only
// scans (B+tree and R-tree) read the heap only for entries on pages that are not all-visible,
// counted by EXPLAIN ANALYZE's "Heap Fetches: N". Checkpoints set the bits (only for versions
// older than every running snapshot), every write clears them, a restart starts with none, and
// answers always equal those of a scan that reads the heap, for old and new snapshots alike.
#include <atomic>
#include <thread>

#include "sql_test_util.h"

namespace meridian::testing {
namespace {

class VisibilityMapTest : public SqlTest {
 protected:
  void SetUp() override {
    SqlTest::SetUp();
    ASSERT_TRUE(Q("CREATE TABLE t (k INT NOT NULL, v INT, pad TEXT)").status.ok());
    ASSERT_TRUE(Q("INSERT INTO t SELECT g, g % 10, repeat('x', 60) FROM "
                  "generate_series(1, 20000) g")
                    .status.ok());
    ASSERT_TRUE(Q("CREATE INDEX t_k ON t (k)").status.ok());
    ASSERT_TRUE(Q("ANALYZE t").status.ok());
  }
  // "Heap Fetches: N" of the plan's index-only scan (-1 when there is none).
  int64_t HeapFetches(Session& s, const std::string& sql) {
    SqlResult r = RunSql(s, "EXPLAIN ANALYZE " + sql);
    EXPECT_TRUE(r.status.ok()) << r.status.ToString();
    bool index_only = false;
    for (const std::string& line : r.rows) {
      index_only |= line.find("Index Only Scan") != std::string::npos;
      const size_t at = line.find("Heap Fetches: ");
      if (at != std::string::npos && index_only) return std::stoll(line.substr(at + 14));
    }
    ADD_FAILURE() << "no index-only scan in the plan of " << sql;
    return -1;
  }
  int64_t HeapFetches(const std::string& sql) { return HeapFetches(*session_, sql); }
  static constexpr const char* kCount = "SELECT count(*) FROM t WHERE k BETWEEN 1000 AND 1400";
  // The same count from the heap (no index on k + 0).
  static constexpr const char* kSeqCount =
      "SELECT count(*) FROM t WHERE k + 0 BETWEEN 1000 AND 1400";
};

TEST_F(VisibilityMapTest, CheckpointSetsBitsAndWritesClearThem) {
  EXPECT_EQ(HeapFetches(kCount), 401);  // loaded, never passed over
  ASSERT_TRUE(db_->Checkpoint().ok());
  EXPECT_EQ(HeapFetches(kCount), 0);
  EXPECT_EQ(Rows(kCount), (std::vector<std::string>{"401"}));

  // An update, a delete and a rolled-back delete each clear their pages' bits; the answers
  // stay those of the heap.
  ASSERT_TRUE(Q("UPDATE t SET k = k + 100000 WHERE k = 1100").status.ok());
  ASSERT_TRUE(Q("DELETE FROM t WHERE k = 1200").status.ok());
  ASSERT_TRUE(Q("BEGIN; DELETE FROM t WHERE k BETWEEN 1300 AND 1310; ROLLBACK").status.ok());
  ASSERT_TRUE(Q("BEGIN; SELECT * FROM t WHERE k = 1350 FOR UPDATE; COMMIT").status.ok());
  const int64_t fetched = HeapFetches(kCount);
  EXPECT_GT(fetched, 0);
  EXPECT_LT(fetched, 401);
  EXPECT_EQ(Rows(kCount), (std::vector<std::string>{"399"}));
  EXPECT_EQ(Rows(kCount), Rows(kSeqCount));
  // The next pass (garbage collection frees the dead versions first) marks them again.
  ASSERT_TRUE(db_->Checkpoint().ok());
  EXPECT_EQ(HeapFetches(kCount), 0);
  EXPECT_EQ(Rows(kCount), (std::vector<std::string>{"399"}));
  EXPECT_EQ(Rows("SELECT count(*) FROM t WHERE k BETWEEN 101000 AND 102000"),
            (std::vector<std::string>{"1"}));
}

TEST_F(VisibilityMapTest, ARunningOlderSnapshotKeepsNewVersionsUnmarked) {
  ASSERT_TRUE(db_->Checkpoint().ok());
  std::unique_ptr<Session> old = db_->NewSession();
  ASSERT_TRUE(RunSql(*old, "BEGIN ISOLATION LEVEL REPEATABLE READ").status.ok());
  ASSERT_TRUE(RunSql(*old, kCount).status.ok());  // takes the snapshot
  ASSERT_TRUE(Q("INSERT INTO t SELECT g, 0, 'new' FROM generate_series(1001, 1050) g").status.ok());
  ASSERT_TRUE(db_->Checkpoint().ok());
  // The new versions are committed but newer than the running snapshot: not all-visible.
  EXPECT_GE(HeapFetches(kCount), 50);
  EXPECT_EQ(Rows(kCount), (std::vector<std::string>{"451"}));
  EXPECT_EQ(RunSql(*old, kCount).rows, (std::vector<std::string>{"401"}));
  ASSERT_TRUE(RunSql(*old, "COMMIT").status.ok());
  ASSERT_TRUE(db_->Checkpoint().ok());
  EXPECT_EQ(HeapFetches(kCount), 0);
  EXPECT_EQ(Rows(kCount), (std::vector<std::string>{"451"}));
}

TEST_F(VisibilityMapTest, NothingIsAllVisibleAfterRestartUntilAPass) {
  ASSERT_TRUE(db_->Checkpoint().ok());
  EXPECT_EQ(HeapFetches(kCount), 0);
  Reopen();
  EXPECT_EQ(HeapFetches(kCount), 401);
  EXPECT_EQ(Rows(kCount), (std::vector<std::string>{"401"}));
  ASSERT_TRUE(Q("VACUUM t").status.ok());
  EXPECT_EQ(HeapFetches(kCount), 0);
}

TEST_F(VisibilityMapTest, OldSnapshotKeepsItsAnswerWhileAllVisiblePagesChange) {
  ASSERT_TRUE(db_->Checkpoint().ok());
  std::unique_ptr<Session> reader = db_->NewSession();
  ASSERT_TRUE(RunSql(*reader, "BEGIN ISOLATION LEVEL REPEATABLE READ").status.ok());
  EXPECT_EQ(RunSql(*reader, kCount).rows, (std::vector<std::string>{"401"}));
  // Deletes and updates on all-visible pages, committed after the reader's snapshot.
  ASSERT_TRUE(Q("DELETE FROM t WHERE k BETWEEN 1000 AND 1099").status.ok());
  ASSERT_TRUE(Q("UPDATE t SET k = k + 50000 WHERE k BETWEEN 1100 AND 1149").status.ok());
  ASSERT_TRUE(Q("INSERT INTO t SELECT g, 0, 'n' FROM generate_series(1390, 1399) g").status.ok());
  ASSERT_TRUE(db_->Checkpoint().ok());  // the reader's snapshot keeps every version alive
  EXPECT_EQ(RunSql(*reader, kCount).rows, (std::vector<std::string>{"401"}));
  EXPECT_EQ(RunSql(*reader, kSeqCount).rows, (std::vector<std::string>{"401"}));
  EXPECT_EQ(Rows(kCount), (std::vector<std::string>{"261"}));
  EXPECT_EQ(Rows(kSeqCount), (std::vector<std::string>{"261"}));
  ASSERT_TRUE(RunSql(*reader, "COMMIT").status.ok());
  EXPECT_EQ(RunSql(*reader, kCount).rows, (std::vector<std::string>{"261"}));
}

// Readers in REPEATABLE READ transactions compare the index-only count with the heap's, on one
// snapshot, while a writer updates, deletes, inserts and rolls back and checkpoints set bits.
TEST_F(VisibilityMapTest, ConcurrentReadersAgreeWithTheHeap) {
  ASSERT_TRUE(db_->Checkpoint().ok());
  std::atomic<bool> stop{false};
  std::atomic<int> mismatches{0}, reads{0};
  std::vector<std::thread> readers;
  for (int r = 0; r < 2; ++r) {
    readers.emplace_back([&] {
      std::unique_ptr<Session> s = db_->NewSession();
      while (!stop.load()) {
        if (!RunSql(*s, "BEGIN ISOLATION LEVEL REPEATABLE READ").status.ok()) continue;
        SqlResult a = RunSql(*s, kCount);
        SqlResult b = RunSql(*s, kSeqCount);
        SqlResult c = RunSql(*s, kCount);
        (void)RunSql(*s, "COMMIT");
        if (!a.status.ok() || !b.status.ok() || !c.status.ok()) continue;
        reads.fetch_add(1);
        if (a.rows != b.rows || c.rows != b.rows) mismatches.fetch_add(1);
      }
    });
  }
  std::thread checkpointer([&] {
    while (!stop.load()) {
      (void)db_->Checkpoint();
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  });
  std::unique_ptr<Session> w = db_->NewSession();
  for (int round = 0; round < 150; ++round) {
    const std::string k = std::to_string(1000 + (round * 37) % 400);
    switch (round % 4) {
      case 0:
        ASSERT_TRUE(RunSql(*w, "DELETE FROM t WHERE k = " + k).status.ok());
        break;
      case 1:
        ASSERT_TRUE(RunSql(*w, "UPDATE t SET k = k + 1 WHERE k = " + k).status.ok());
        break;
      case 2:
        ASSERT_TRUE(RunSql(*w, "INSERT INTO t VALUES (" + k + ", 0, 'w')").status.ok());
        break;
      default:
        ASSERT_TRUE(RunSql(*w, "BEGIN; DELETE FROM t WHERE k BETWEEN " + k + " AND " + k +
                                   " + 20; ROLLBACK")
                        .status.ok());
    }
  }
  while (reads.load() < 20) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  stop = true;
  for (std::thread& t : readers) t.join();
  checkpointer.join();
  EXPECT_EQ(mismatches.load(), 0);
  EXPECT_EQ(Rows(kCount), Rows(kSeqCount));
}

class RTreeVisibilityMapTest : public VisibilityMapTest {
 protected:
  void SetUp() override {
    SqlTest::SetUp();
    ASSERT_TRUE(
        Q("CREATE TABLE g (id INT, p POINT, x FLOAT8 NOT NULL, y INT NOT NULL)").status.ok());
    ASSERT_TRUE(Q("INSERT INTO g SELECT i, point(i % 100, i / 100), (i % 100) * 0.5, i / 100 "
                  "FROM generate_series(0, 9999) i")
                    .status.ok());
    ASSERT_TRUE(Q("CREATE INDEX g_p ON g USING gist (p)").status.ok());
    ASSERT_TRUE(Q("CREATE INDEX g_xy ON g USING rtree (x, y)").status.ok());
    ASSERT_TRUE(Q("ANALYZE g").status.ok());
  }
  static constexpr const char* kBox = "SELECT count(*) FROM g WHERE p <@ box '(10,10),(20,20)'";
  static constexpr const char* kSeqBox =
      "SELECT count(*) FROM g WHERE (p <@ box '(10,10),(20,20)') = true";
  static constexpr const char* kXY =
      "SELECT count(*), sum(x), sum(y) FROM g WHERE x BETWEEN 5 AND 10 AND y BETWEEN 3 AND 9";
  static constexpr const char* kSeqXY =
      "SELECT count(*), sum(x), sum(y) FROM g WHERE x + 0 BETWEEN 5 AND 10 AND y + 0 BETWEEN 3 "
      "AND 9";
};

TEST_F(RTreeVisibilityMapTest, IndexOnlyAnswersEqualHeapAnswers) {
  EXPECT_EQ(HeapFetches(kBox), 121);
  EXPECT_EQ(HeapFetches(kXY), 77);
  ASSERT_TRUE(db_->Checkpoint().ok());
  EXPECT_EQ(HeapFetches(kBox), 0);
  EXPECT_EQ(HeapFetches(kXY), 0);
  EXPECT_EQ(Rows(kBox), (std::vector<std::string>{"121"}));
  EXPECT_EQ(Rows(kBox), Rows(kSeqBox));
  EXPECT_EQ(Rows(kXY), Rows(kSeqXY));
  std::unique_ptr<Session> old = db_->NewSession();
  ASSERT_TRUE(RunSql(*old, "BEGIN ISOLATION LEVEL REPEATABLE READ").status.ok());
  const std::vector<std::string> before_box = RunSql(*old, kBox).rows;
  const std::vector<std::string> before_xy = RunSql(*old, kXY).rows;
  ASSERT_TRUE(Q("DELETE FROM g WHERE id % 100 = 15").status.ok());
  ASSERT_TRUE(
      Q("UPDATE g SET p = point(p[0], p[1] + 50), y = y + 50 WHERE id % 100 = 12").status.ok());
  ASSERT_TRUE(
      Q("BEGIN; UPDATE g SET p = point(0, 0), x = 0 WHERE id % 7 = 0; ROLLBACK").status.ok());
  EXPECT_GT(HeapFetches(kBox), 0);
  EXPECT_EQ(Rows(kBox), Rows(kSeqBox));
  EXPECT_EQ(Rows(kXY), Rows(kSeqXY));
  EXPECT_EQ(Rows(kBox), (std::vector<std::string>{"99"}));
  EXPECT_EQ(RunSql(*old, kBox).rows, before_box);
  EXPECT_EQ(RunSql(*old, kXY).rows, before_xy);
  ASSERT_TRUE(RunSql(*old, "COMMIT").status.ok());
  ASSERT_TRUE(db_->Checkpoint().ok());
  EXPECT_EQ(HeapFetches(kBox), 0);
  EXPECT_EQ(Rows(kBox), Rows(kSeqBox));
  EXPECT_EQ(Rows(kXY), Rows(kSeqXY));
  // A column outside the index needs the heap: no index-only plan.
  EXPECT_FALSE(
      AnalyzeHas("SELECT sum(id) FROM g WHERE p <@ box '(10,10),(20,20)'", "Index Only Scan"));
}

}  // namespace
}  // namespace meridian::testing
