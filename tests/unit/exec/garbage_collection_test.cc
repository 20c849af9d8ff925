// Garbage collection visits the pages writers noted (Table::NoteGarbagePages): dead versions
// of committed updates and deletes, of rolled-back transactions and savepoints are freed by a
// checkpoint, and pages whose versions a snapshot still needed are visited again by the next
// checkpoint even when nothing was written in between. A freed slot is reused, so the heap
// stops growing; without collection each round below would add pages.
#include "sql_test_util.h"

namespace meridian::testing {
namespace {

class GarbageCollectionTest : public SqlTest {
 protected:
  void SetUp() override {
    SqlTest::SetUp();
    ASSERT_TRUE(Q("CREATE TABLE t (a INT PRIMARY KEY, b INT, pad TEXT)").status.ok());
  }
  int64_t Size() { return std::stoll(Rows("SELECT pg_relation_size('t')").at(0)); }
  void Fill(int from, int to) {
    ASSERT_TRUE(Q("INSERT INTO t SELECT g, 0, repeat('x', 100) FROM generate_series(" +
                  std::to_string(from) + ", " + std::to_string(to) + ") g")
                    .status.ok());
  }
};

TEST_F(GarbageCollectionTest, UpdatedVersionsAreFreedAndTheirSlotsReused) {
  Fill(1, 3000);
  ASSERT_TRUE(Q("UPDATE t SET b = 1").status.ok());
  ASSERT_TRUE(db_->Checkpoint().ok());
  const int64_t size = Size();
  for (int round = 2; round <= 5; ++round) {
    ASSERT_TRUE(Q("UPDATE t SET b = " + std::to_string(round)).status.ok());
    ASSERT_TRUE(db_->Checkpoint().ok());
  }
  EXPECT_LE(Size(), size);
  EXPECT_EQ(Rows("SELECT count(*), min(b), max(b) FROM t"), (std::vector<std::string>{"3000|5|5"}));
}

TEST_F(GarbageCollectionTest, RolledBackInsertsAndSavepointsAreFreed) {
  Fill(1, 100);
  ASSERT_TRUE(db_->Checkpoint().ok());
  ASSERT_TRUE(Q("BEGIN").status.ok());
  Fill(1001, 4000);
  ASSERT_TRUE(Q("ROLLBACK").status.ok());
  ASSERT_TRUE(db_->Checkpoint().ok());
  const int64_t size = Size();
  ASSERT_TRUE(Q("BEGIN").status.ok());
  ASSERT_TRUE(Q("SAVEPOINT s").status.ok());
  Fill(1001, 4000);
  ASSERT_TRUE(Q("ROLLBACK TO SAVEPOINT s").status.ok());
  ASSERT_TRUE(Q("COMMIT").status.ok());
  ASSERT_TRUE(db_->Checkpoint().ok());
  Fill(1001, 4000);  // into the slots both rolled-back loads left
  EXPECT_LE(Size(), size);
  EXPECT_EQ(Rows("SELECT count(*) FROM t"), (std::vector<std::string>{"3100"}));
}

TEST_F(GarbageCollectionTest, PagesASnapshotHeldAreVisitedAgainWithoutNewWrites) {
  Fill(1, 3000);
  ASSERT_TRUE(db_->Checkpoint().ok());
  // A cursor's snapshot keeps the old versions alive through the first checkpoint.
  auto request = session_->Parse("SELECT a FROM t");
  ASSERT_TRUE(request.ok());
  ExecControl ctl;
  auto cursor = (*request)->Start(0, ctl);
  ASSERT_TRUE(cursor.ok());
  std::vector<Row> rows;
  ASSERT_TRUE((*cursor)->Fetch(1, 1 << 20, ctl, &rows).ok());
  std::unique_ptr<Session> other = db_->NewSession();
  ASSERT_TRUE(RunSql(*other, "UPDATE t SET b = 1").status.ok());
  ASSERT_TRUE(db_->Checkpoint().ok());
  cursor->reset();
  ASSERT_TRUE(db_->Checkpoint().ok());  // no write since the last one: only the noted pages
  const int64_t size = Size();
  ASSERT_TRUE(RunSql(*other, "UPDATE t SET b = 2").status.ok());
  EXPECT_LE(Size(), size);
  EXPECT_EQ(Rows("SELECT count(*), sum(b) FROM t"), (std::vector<std::string>{"3000|6000"}));
}

}  // namespace
}  // namespace meridian::testing
