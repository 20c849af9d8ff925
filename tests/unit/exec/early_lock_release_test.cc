// Early lock release (docs/txn.md section 3): a writer waiting for a row goes on as
// soon as the holder's commit is decided (it has its timestamp), not when it is durable; it
// builds on the holder's version, its next statement that shows rows waits for the holder to be
// published (a plain write reads through the holder's commit instead), and it cannot commit if
// the holder's commit then fails.
// The disk is held (FaultInjectionFileSystem::Hold) to keep a commit between its timestamp
// and its durability. No step waits for time to pass: each waits for a state it can see (a
// call blocked on the held disk, a lock waiter in pg_locks, a finished thread).
#include <atomic>
#include <thread>

#include "sql_test_util.h"
#include "storage/fault_injection_file_system.h"

namespace meridian::testing {
namespace {

class EarlyLockReleaseTest : public ::testing::Test {
 protected:
  void SetUp() override {
    DatabaseOptions options;
    options.data_dir = dir_.path() + "/data";
    options.file_system = &fs_;
    auto db = Database::Open(options);
    ASSERT_TRUE(db.ok()) << db.status().message();
    db_ = std::move(db).value();
    a_ = db_->NewSession();
    b_ = db_->NewSession();
    c_ = db_->NewSession();
    ASSERT_TRUE(RunSql(*c_,
                       "CREATE TABLE t (id INT PRIMARY KEY, v INT); "
                       "INSERT INTO t VALUES (1, 0); "
                       "CREATE TABLE barrier (k INT); INSERT INTO barrier VALUES (1)")
                    .status.ok());
  }
  void TearDown() override {
    fs_.Hold(false);
    if (a_thread_.joinable()) a_thread_.join();  // a test that failed before joining it
    a_.reset();
    b_.reset();
    c_.reset();
    if (db_ != nullptr) (void)db_->Close();
  }
  // Starts A's COMMIT with the disk held; returns once A has its commit timestamp (decided,
  // not durable). The single committer runs the groups in turn and, after acknowledging one,
  // still rewrites its pages that were already on disk (docs/txn.md section 4, step
  // 4): a hold that caught it there (C's INSERT just before, on a loaded machine) kept A's
  // group from ever being decided, and B timed out on A's row lock. So C first commits a
  // DELETE: a group without new versions writes no page and is acknowledged after all of its
  // I/O (the log-only path, step 5), so the committer is idle when it returns, and the first
  // call blocked on the disk is A's group's, which has its timestamp by then (AssignCommitTs
  // comes before the group's I/O).
  void CommitAHeld() {
    ASSERT_EQ(RunSql(*c_, "DELETE FROM barrier").tag, "DELETE 1");
    fs_.Hold(true);
    a_thread_ = std::thread([this] {
      a_commit_ = RunSql(*a_, "COMMIT");
      a_done_ = true;
    });
    while (fs_.held_calls() == 0 && !a_done_.load()) std::this_thread::yield();
  }
  // A's held commit meets a full disk before its group is durable (53100); B, which built on
  // it, must fail at COMMIT with 40001.
  void FailAThenExpectBToFail() {
    fs_.SetDiskFull(true);
    fs_.Hold(false);
    a_thread_.join();
    // (A group whose pages were all on disk already, written by a checkpoint say, grows no
    // file and commits: then there is no error to look at.)
    ASSERT_FALSE(a_commit_.status.ok()) << "A committed in spite of the full disk";
    EXPECT_EQ(a_commit_.status.sqlstate(), "53100") << a_commit_.status.message();
    fs_.SetDiskFull(false);
    SqlResult b_commit = RunSql(*b_, "COMMIT");
    ASSERT_FALSE(b_commit.status.ok());
    EXPECT_EQ(b_commit.status.sqlstate(), "40001") << b_commit.status.message();
  }
  // Runs sql on session s in a thread while the disk is held; true if it finished. False if
  // it blocked instead, on a lock (a waiter in pg_locks: waiting for the dependency's
  // durability) or on the held disk (a second held call beside A's group): then the disk is
  // released, so it finishes, and the thread joined.
  bool FinishesWhileHeld(Session& s, const std::string& sql, SqlResult* out) {
    std::atomic<bool> done{false};
    std::thread t([&] {
      *out = RunSql(s, sql);
      done = true;
    });
    std::unique_ptr<Session> monitor = db_->NewSession();
    bool blocked = false;
    while (!done.load() && !blocked) {
      SqlResult waits = RunSql(*monitor, "SELECT count(*) FROM pg_locks WHERE NOT granted");
      blocked = waits.rows != std::vector<std::string>{"0"} || fs_.held_calls() > 1;
    }
    const bool finished = done.load();
    if (!finished) fs_.Hold(false);
    t.join();
    return finished;
  }
  TempDir dir_;
  storage::FaultInjectionFileSystem fs_{storage::FileSystem::Default()};
  std::unique_ptr<Database> db_;
  std::unique_ptr<Session> a_, b_, c_;
  std::thread a_thread_;
  SqlResult a_commit_;
  std::atomic<bool> a_done_{false};
};

TEST_F(EarlyLockReleaseTest, AWriterGoesOnWhileTheHoldersCommitIsNotDurable) {
  ASSERT_TRUE(RunSql(*a_, "BEGIN; UPDATE t SET v = v + 1 WHERE id = 1").status.ok());
  CommitAHeld();
  // Without early lock release this waits for A's durability, which the held disk never
  // grants: 55P03 after the lock timeout.
  SqlResult b = RunSql(*b_, "SET lock_timeout = '5s'; BEGIN; UPDATE t SET v = v + 10 WHERE id = 1");
  ASSERT_TRUE(b.status.ok()) << b.status.message();
  EXPECT_FALSE(a_done_.load());  // A is not acknowledged yet
  // Nobody else sees A before it is durable.
  EXPECT_EQ(RunSql(*c_, "SELECT v FROM t WHERE id = 1").rows, std::vector<std::string>{"0"});
  // B's next statement takes a new snapshot only once A is published: it never sees the
  // version A replaced as live beside its own.
  std::atomic<bool> b_done{false};
  SqlResult b_select;
  std::thread b_thread([&] {
    b_select = RunSql(*b_, "SELECT v FROM t WHERE id = 1");
    b_done = true;
  });
  AwaitBlockedStatements(*db_, 1);  // B's statement waits for A's group
  EXPECT_FALSE(b_done.load());
  fs_.Hold(false);
  b_thread.join();
  EXPECT_EQ(b_select.rows, std::vector<std::string>{"11"});
  a_thread_.join();
  ASSERT_TRUE(a_commit_.status.ok()) << a_commit_.status.message();
  ASSERT_TRUE(RunSql(*b_, "COMMIT").status.ok());
  EXPECT_EQ(RunSql(*c_, "SELECT v FROM t WHERE id = 1").rows, std::vector<std::string>{"11"});
}

TEST_F(EarlyLockReleaseTest, AWriterThatBuiltOnAFailedCommitFailsToo) {
  // A's group must grow the heap file (new pages), which a full disk refuses before the group
  // is durable: A fails with 53100 after it had its timestamp.
  ASSERT_TRUE(RunSql(*a_,
                     "BEGIN; UPDATE t SET v = v + 1 WHERE id = 1; "
                     "INSERT INTO t SELECT g, 0 FROM generate_series(2, 2000) g")
                  .status.ok());
  CommitAHeld();
  SqlResult b = RunSql(*b_, "SET lock_timeout = '5s'; BEGIN; UPDATE t SET v = v + 10 WHERE id = 1");
  ASSERT_TRUE(b.status.ok()) << b.status.message();
  FailAThenExpectBToFail();
  // Neither change is there; the row is writable again and later commits work.
  EXPECT_EQ(RunSql(*c_, "SELECT v, (SELECT count(*) FROM t) FROM t WHERE id = 1").rows,
            std::vector<std::string>{"0|1"});
  ASSERT_TRUE(RunSql(*c_, "UPDATE t SET v = v + 100 WHERE id = 1").status.ok());
  EXPECT_EQ(RunSql(*b_, "SELECT v FROM t WHERE id = 1").rows, std::vector<std::string>{"100"});
}

// After building on A's decided commit, B's plain writes (no rows shown) read through it at
// once: they see A's versions and not the ones A replaced. A statement that shows rows waits
// for A's durability.
TEST_F(EarlyLockReleaseTest, PlainWritesAfterADependencyReadThroughItsCommit) {
  ASSERT_TRUE(RunSql(*c_, "INSERT INTO t VALUES (2, 0)").status.ok());
  ASSERT_TRUE(RunSql(*a_,
                     "BEGIN; UPDATE t SET v = v + 1 WHERE id = 1; "
                     "UPDATE t SET v = 7 WHERE id = 2")
                  .status.ok());
  CommitAHeld();
  ASSERT_TRUE(RunSql(*b_, "SET lock_timeout = '5s'; BEGIN; UPDATE t SET v = v + 10 WHERE id = 1")
                  .status.ok());
  SqlResult insert, update;
  ASSERT_TRUE(FinishesWhileHeld(*b_, "INSERT INTO t SELECT 3, v FROM t WHERE id = 2", &insert))
      << "a plain INSERT waited for the dependency's durability";
  ASSERT_TRUE(FinishesWhileHeld(*b_, "UPDATE t SET v = v + 100 WHERE id IN (1, 2)", &update))
      << "a plain UPDATE waited for the dependency's durability";
  EXPECT_FALSE(a_done_.load());  // A is still not durable
  ASSERT_TRUE(insert.status.ok()) << insert.status.message();
  EXPECT_EQ(insert.tag, "INSERT 0 1");  // row 2 seen once, as A left it
  ASSERT_TRUE(update.status.ok()) << update.status.message();
  EXPECT_EQ(update.tag, "UPDATE 2");
  // RETURNING shows rows: it waits until A is published.
  std::atomic<bool> b_done{false};
  SqlResult returning;
  std::thread b_thread([&] {
    returning = RunSql(*b_, "UPDATE t SET v = v + 1000 WHERE id = 3 RETURNING v");
    b_done = true;
  });
  AwaitBlockedStatements(*db_, 1);  // B's RETURNING waits for A's group
  EXPECT_FALSE(b_done.load());
  fs_.Hold(false);
  b_thread.join();
  ASSERT_TRUE(returning.status.ok()) << returning.status.message();
  EXPECT_EQ(returning.rows, std::vector<std::string>{"1007"});
  a_thread_.join();
  ASSERT_TRUE(a_commit_.status.ok()) << a_commit_.status.message();
  ASSERT_TRUE(RunSql(*b_, "COMMIT").status.ok());
  EXPECT_EQ(RunSql(*c_, "SELECT id, v FROM t ORDER BY id").rows,
            (std::vector<std::string>{"1|111", "2|107", "3|1007"}));
}

// B read A's versions through A's decided commit in a plain write; A's group then fails: B
// must not commit what it wrote from them.
TEST_F(EarlyLockReleaseTest, APlainWriteThatReadThroughAFailedCommitFailsToo) {
  ASSERT_TRUE(RunSql(*a_,
                     "BEGIN; UPDATE t SET v = v + 1 WHERE id = 1; "
                     "INSERT INTO t SELECT g, 5 FROM generate_series(10, 2000) g")
                  .status.ok());
  CommitAHeld();
  ASSERT_TRUE(RunSql(*b_, "SET lock_timeout = '5s'; BEGIN; UPDATE t SET v = v + 10 WHERE id = 1")
                  .status.ok());
  SqlResult insert;
  ASSERT_TRUE(
      FinishesWhileHeld(*b_, "INSERT INTO t SELECT 3, count(*) FROM t WHERE id >= 10", &insert))
      << "a plain INSERT waited for the dependency's durability";
  ASSERT_TRUE(insert.status.ok()) << insert.status.message();
  FailAThenExpectBToFail();
  EXPECT_EQ(RunSql(*c_, "SELECT id, v FROM t ORDER BY id").rows, std::vector<std::string>{"1|0"});
}

// A statement that writes nothing because of a committing transaction (ON CONFLICT DO NOTHING
// against its insert) must not report success when that commit then fails.
TEST_F(EarlyLockReleaseTest, ANoOpBuiltOnAFailedCommitFailsToo) {
  ASSERT_TRUE(RunSql(*a_,
                     "BEGIN; INSERT INTO t VALUES (5, 5); "
                     "INSERT INTO t SELECT g, 0 FROM generate_series(10, 2000) g")
                  .status.ok());
  CommitAHeld();
  SqlResult b = RunSql(*b_,
                       "SET lock_timeout = '5s'; BEGIN; "
                       "INSERT INTO t VALUES (5, 50) ON CONFLICT (id) DO NOTHING");
  ASSERT_TRUE(b.status.ok()) << b.status.message();
  EXPECT_EQ(b.tag, "INSERT 0 0");
  FailAThenExpectBToFail();
  EXPECT_EQ(RunSql(*c_, "SELECT count(*) FROM t").rows, std::vector<std::string>{"1"});
}

}  // namespace
}  // namespace meridian::testing
