// Early lock release (engine/txn/README.md section 3): a writer waiting for a row goes on as
// soon as the holder's commit is decided (it has its timestamp), not when it is durable; it
// builds on the holder's version, its next snapshot waits for the holder to be published, and
// it cannot commit if the holder's commit then fails.
// The disk is held (FaultInjectionFileSystem::Hold) to keep a commit between its timestamp
// and its durability.
#include <atomic>
#include <chrono>
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
                       "INSERT INTO t VALUES (1, 0)")
                    .status.ok());
  }
  void TearDown() override {
    fs_.Hold(false);
    a_.reset();
    b_.reset();
    c_.reset();
    if (db_ != nullptr) (void)db_->Close();
  }
  // Starts A's COMMIT with the disk held: A gets its timestamp, then waits for the disk.
  void CommitAHeld() {
    fs_.Hold(true);
    a_thread_ = std::thread([this] {
      a_commit_ = RunSql(*a_, "COMMIT");
      a_done_ = true;
    });
  }
  // A's held commit meets a full disk before its group is durable (53100); B, which built on
  // it, must fail at COMMIT with 40001.
  void FailAThenExpectBToFail() {
    fs_.SetDiskFull(true);
    fs_.Hold(false);
    a_thread_.join();
    EXPECT_EQ(a_commit_.status.sqlstate(), "53100") << a_commit_.status.message();
    fs_.SetDiskFull(false);
    SqlResult b_commit = RunSql(*b_, "COMMIT");
    ASSERT_FALSE(b_commit.status.ok());
    EXPECT_EQ(b_commit.status.sqlstate(), "40001") << b_commit.status.message();
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
