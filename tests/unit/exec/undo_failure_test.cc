// An undo that cannot reach a page (engine/catalog/transaction.h, Transaction::doomed): the
// buffer pool is a megabyte, so most pages a transaction wrote after its savepoint have been
// written out and evicted; with writes failing, bringing them back needs a dirty victim written
// first, which fails, so ROLLBACK TO SAVEPOINT cannot mark every row inserted since dead. The
// transaction must then never commit: none of those rows, and nothing else it wrote, becomes
// visible.
#include "sql_test_util.h"
#include "storage/fault_injection_file_system.h"

namespace meridian::testing {
namespace {

class UndoFailureTest : public ::testing::Test {
 protected:
  void SetUp() override {
    DatabaseOptions options;
    options.data_dir = dir_.path() + "/data";
    options.file_system = &fs_;
    options.buffer_pool_mb = 1;
    auto db = Database::Open(options);
    ASSERT_TRUE(db.ok()) << db.status().message();
    db_ = std::move(db).value();
    a_ = db_->NewSession();
    b_ = db_->NewSession();
    ASSERT_TRUE(RunSql(*b_, "CREATE TABLE t (id INT, pad TEXT); INSERT INTO t VALUES (0, 'before')")
                    .status.ok());
  }
  void TearDown() override {
    fs_.SetFailWrites(false);
    a_.reset();
    b_.reset();
    if (db_ != nullptr) (void)db_->Close();
  }
  // A: one row before the savepoint, 6,000 rows of 500 bytes (about 400 pages, three times
  // the pool) after it.
  void WriteAcrossThePool() {
    ASSERT_TRUE(RunSql(*a_, "BEGIN; INSERT INTO t VALUES (1, 'kept'); SAVEPOINT s; "
                            "INSERT INTO t SELECT g, repeat('x', 500) "
                            "FROM generate_series(2, 6001) g")
                    .status.ok());
  }
  std::string Count(Session& s) {
    SqlResult r = RunSql(s, "SELECT count(*) FROM t");
    EXPECT_TRUE(r.status.ok()) << r.status.message();
    return r.rows.empty() ? "" : r.rows[0];
  }
  TempDir dir_;
  storage::FaultInjectionFileSystem fs_{storage::FileSystem::Default()};
  std::unique_ptr<Database> db_;
  std::unique_ptr<Session> a_, b_;
};

TEST_F(UndoFailureTest, AFailedRollbackToSavepointDoomsTheTransaction) {
  WriteAcrossThePool();
  fs_.SetFailWrites(true);
  SqlResult undo = RunSql(*a_, "ROLLBACK TO SAVEPOINT s");
  fs_.SetFailWrites(false);
  ASSERT_FALSE(undo.status.ok()) << "the undo did not need an evicted page: enlarge the load";
  EXPECT_EQ(undo.status.sqlstate(), "58030") << undo.status.message();
  // The block is failed; a second ROLLBACK TO cannot revive it (the first one may have left
  // rows live for this transaction).
  SqlResult again = RunSql(*a_, "ROLLBACK TO SAVEPOINT s");
  EXPECT_FALSE(again.status.ok());
  SqlResult read = RunSql(*a_, "SELECT count(*) FROM t");
  EXPECT_EQ(read.status.sqlstate(), "25P02") << read.status.message();
  // COMMIT of a failed block rolls back, as PostgreSQL's does.
  SqlResult commit = RunSql(*a_, "COMMIT");
  ASSERT_TRUE(commit.status.ok()) << commit.status.message();
  EXPECT_EQ(commit.tag, "ROLLBACK");
  EXPECT_EQ(Count(*b_), "1");
  EXPECT_EQ(Count(*a_), "1");
  // Still so after a restart (the rows on disk belong to an aborted transaction).
  a_.reset();
  b_.reset();
  ASSERT_TRUE(db_->Close().ok());
  db_.reset();
  DatabaseOptions options;
  options.data_dir = dir_.path() + "/data";
  auto db = Database::Open(options);
  ASSERT_TRUE(db.ok()) << db.status().message();
  db_ = std::move(db).value();
  b_ = db_->NewSession();
  EXPECT_EQ(Count(*b_), "1");
}

}  // namespace
}  // namespace meridian::testing
