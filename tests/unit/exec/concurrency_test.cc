// Concurrency of the interim table locks: parallel inserts and reads on one table with exact
// counts, writers not blocked by an idle reader between Fetch calls, and cancellation or
// deadline of a running statement through ExecControl.
#include <atomic>
#include <thread>

#include "sql_test_util.h"

namespace meridian::testing {
namespace {

using Strings = std::vector<std::string>;

class ConcurrencyTest : public SqlTest {};

TEST_F(ConcurrencyTest, ParallelInsertsAndReads) {
  ASSERT_TRUE(Q("CREATE TABLE t (id INT PRIMARY KEY, worker INT)").status.ok());
  constexpr int kThreads = 8;
  constexpr int kRowsPerThread = 200;
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int w = 0; w < kThreads; ++w) {
    threads.emplace_back([&, w] {
      std::unique_ptr<Session> session = db_->NewSession();
      int last_seen = 0;
      for (int i = 0; i < kRowsPerThread; ++i) {
        int id = w * kRowsPerThread + i;
        SqlResult r = RunSql(*session, "INSERT INTO t VALUES (" + std::to_string(id) + ", " +
                                           std::to_string(w) + ")");
        if (!r.status.ok()) ++failures;
        if (i % 20 == 0) {
          r = RunSql(*session, "SELECT count(*) FROM t WHERE worker = " + std::to_string(w));
          if (!r.status.ok() || r.rows.size() != 1 || std::stoi(r.rows[0]) != i + 1) ++failures;
          r = RunSql(*session, "SELECT count(*) FROM t");
          int total = r.status.ok() ? std::stoi(r.rows[0]) : -1;
          if (total < last_seen) ++failures;
          last_seen = total;
        }
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(Rows("SELECT count(*), count(DISTINCT id), sum(worker) FROM t"),
            (Strings{"1600|1600|5600"}));
}

TEST_F(ConcurrencyTest, ParallelUpdatesAreNotLost) {
  ASSERT_TRUE(Q("CREATE TABLE c (k INT, n INT); INSERT INTO c VALUES (1, 0)").status.ok());
  std::vector<std::thread> threads;
  for (int w = 0; w < 8; ++w) {
    threads.emplace_back([&] {
      std::unique_ptr<Session> session = db_->NewSession();
      for (int i = 0; i < 50; ++i) {
        EXPECT_TRUE(RunSql(*session, "UPDATE c SET n = n + 1 WHERE k = 1").status.ok());
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(Rows("SELECT n FROM c"), (Strings{"400"}));
}

TEST_F(ConcurrencyTest, IdleReaderDoesNotBlockWriters) {
  ASSERT_TRUE(Q("CREATE TABLE t (a INT)").status.ok());
  ASSERT_TRUE(Q("INSERT INTO t VALUES (1), (2), (3)").status.ok());
  auto request = session_->Parse("SELECT a FROM t");
  ASSERT_TRUE(request.ok());
  ExecControl ctl;
  auto cursor = (*request)->Start(0, ctl);
  ASSERT_TRUE(cursor.ok());
  std::vector<Row> rows;
  auto more = (*cursor)->Fetch(1, 1 << 20, ctl, &rows);
  ASSERT_TRUE(more.ok());
  EXPECT_TRUE(*more);
  // Between Fetch calls the reader holds no lock, so a writer proceeds.
  std::unique_ptr<Session> other = db_->NewSession();
  EXPECT_TRUE(RunSql(*other, "INSERT INTO t VALUES (4)").status.ok());
  while (true) {
    more = (*cursor)->Fetch(10, 1 << 20, ctl, &rows);
    ASSERT_TRUE(more.ok());
    if (!*more) break;
  }
  // The cursor reads its snapshot: the row inserted meanwhile is not in it.
  EXPECT_EQ(rows.size(), 3u);
}

TEST_F(ConcurrencyTest, LazyCursorKeepsItsSnapshotThroughGarbageCollection) {
  ASSERT_TRUE(Q("CREATE TABLE t (a INT PRIMARY KEY, b INT)").status.ok());
  std::string values;
  for (int i = 1; i <= 2000; ++i) values += (i > 1 ? ", (" : "(") + std::to_string(i) + ", 0)";
  ASSERT_TRUE(Q("INSERT INTO t VALUES " + values).status.ok());
  auto request = session_->Parse("SELECT a, b FROM t");
  ASSERT_TRUE(request.ok());
  ExecControl ctl;
  auto cursor = (*request)->Start(0, ctl);
  ASSERT_TRUE(cursor.ok());
  std::vector<Row> rows;
  ASSERT_TRUE((*cursor)->Fetch(10, 1 << 20, ctl, &rows).ok());
  // Every row replaced and deleted by others, then checkpoints collect what they can.
  std::unique_ptr<Session> other = db_->NewSession();
  ASSERT_TRUE(RunSql(*other, "UPDATE t SET b = 1").status.ok());
  ASSERT_TRUE(RunSql(*other, "DELETE FROM t WHERE a > 1000").status.ok());
  ASSERT_TRUE(db_->Checkpoint().ok());
  ASSERT_TRUE(db_->Checkpoint().ok());
  while (true) {
    auto more = (*cursor)->Fetch(100, 1 << 20, ctl, &rows);
    ASSERT_TRUE(more.ok()) << more.status().message();
    if (!*more) break;
  }
  // The query still sees the table as it was when it started: 2,000 rows, all b = 0.
  ASSERT_EQ(rows.size(), 2000u);
  for (const Row& r : rows) EXPECT_EQ(r[1].AsInt(), 0);
  cursor->reset();
  ASSERT_TRUE(db_->Checkpoint().ok());
  EXPECT_EQ(Rows("SELECT count(*), sum(b) FROM t"), (Strings{"1000|1000"}));
}

TEST_F(ConcurrencyTest, DropWhileCursorIsBetweenFetches) {
  ASSERT_TRUE(Q("CREATE TABLE t (a INT); INSERT INTO t VALUES (1), (2), (3)").status.ok());
  auto request = session_->Parse("SELECT a FROM t");
  ASSERT_TRUE(request.ok());
  ExecControl ctl;
  auto cursor = (*request)->Start(0, ctl);
  ASSERT_TRUE(cursor.ok());
  std::vector<Row> rows;
  ASSERT_TRUE((*cursor)->Fetch(1, 1 << 20, ctl, &rows).ok());
  std::unique_ptr<Session> other = db_->NewSession();
  ASSERT_TRUE(RunSql(*other, "DROP TABLE t").status.ok());
  // The open cursor fails cleanly instead of reading a closed heap file.
  auto more = (*cursor)->Fetch(10, 1 << 20, ctl, &rows);
  ASSERT_FALSE(more.ok());
  EXPECT_EQ(more.status().sqlstate(), "42P01");
  ASSERT_TRUE(Q("CREATE TABLE t (b TEXT)").status.ok());
  EXPECT_EQ(Rows("SELECT count(*) FROM t"), (Strings{"0"}));
}

TEST_F(ConcurrencyTest, CancelAndDeadline) {
  ASSERT_TRUE(Q("CREATE TABLE t (a INT)").status.ok());
  ASSERT_TRUE(Q("INSERT INTO t VALUES (1), (2), (3), (4), (5), (6), (7), (8)").status.ok());
  for (int i = 0; i < 7; ++i) ASSERT_TRUE(Q("INSERT INTO t SELECT a FROM t").status.ok());
  // 1024 rows; a correlated subquery makes this quadratic (~1M row visits) and slow enough.
  const std::string slow = "SELECT (SELECT count(*) FROM t AS x WHERE x.a < t.a) FROM t ORDER BY 1";
  ExecControl cancelled;
  cancelled.Cancel();
  SqlResult r = RunSql(*session_, slow, &cancelled);
  EXPECT_EQ(r.status.sqlstate(), "57014");
  EXPECT_EQ(r.status.message(), "canceling statement due to user request");

  ExecControl ctl;
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    ctl.Cancel();
  });
  const std::string slower = "SELECT count(*) FROM t, t AS y, t AS z WHERE t.a + y.a = z.a";
  r = RunSql(*session_, slower, &ctl);
  canceller.join();
  EXPECT_EQ(r.status.sqlstate(), "57014") << r.status.ToString();

  ExecControl timed;
  timed.SetDeadline(ExecControl::Clock::now() + std::chrono::milliseconds(20));
  r = RunSql(*session_, slower, &timed);
  EXPECT_EQ(r.status.sqlstate(), "57014");
  EXPECT_EQ(r.status.message(), "canceling statement due to statement timeout");

  // The data stays usable after the cancelled statements.
  EXPECT_EQ(Rows("SELECT count(*) FROM t"), (Strings{"1024"}));
}

}  // namespace
}  // namespace meridian::testing
