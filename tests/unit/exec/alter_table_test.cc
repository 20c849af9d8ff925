// ALTER TABLE against running work: a cursor read lazily across an ADD/DROP COLUMN keeps its
// shape and values, a session inserting and reading while another alters the table never
// fails, prepared statements fail cleanly (0A000) when their result shape changed, COPY checks
// CHECK constraints and binds again after an ALTER, and the changes survive Close/Open.
#include <atomic>
#include <thread>

#include "sql_test_util.h"

namespace meridian::testing {
namespace {

using Strings = std::vector<std::string>;

class AlterTableTest : public SqlTest {};

TEST_F(AlterTableTest, LazyCursorKeepsItsShapeAcrossAlter) {
  ASSERT_TRUE(Q("CREATE TABLE t (k INT, v TEXT)").status.ok());
  std::string values;
  for (int i = 0; i < 1000; ++i) {
    values += (i ? ", (" : "(") + std::to_string(i) + ", 'v" + std::to_string(i) + "')";
  }
  ASSERT_TRUE(Q("INSERT INTO t VALUES " + values).status.ok());
  ExecControl ctl;
  auto request = session_->Parse("SELECT * FROM t");
  ASSERT_TRUE(request.ok());
  auto cursor = (*request)->Start(0, ctl);
  ASSERT_TRUE(cursor.ok()) << cursor.status().ToString();
  std::vector<Row> rows;
  ASSERT_TRUE((*cursor)->Fetch(10, 1 << 20, ctl, &rows).ok());
  // Another session changes the table between two Fetch calls (no lock is held there).
  std::unique_ptr<Session> other = db_->NewSession();
  ASSERT_TRUE(RunSql(*other, "ALTER TABLE t ADD COLUMN w INT DEFAULT 5").status.ok());
  ASSERT_TRUE(RunSql(*other, "ALTER TABLE t DROP COLUMN v").status.ok());
  ASSERT_TRUE(RunSql(*other, "INSERT INTO t VALUES (5000, 6)").status.ok());
  while (true) {
    auto more = (*cursor)->Fetch(100, 1 << 20, ctl, &rows);
    ASSERT_TRUE(more.ok()) << more.status().ToString();
    if (!*more) break;
  }
  ASSERT_EQ(rows.size(), 1000u);  // its snapshot predates the insert
  for (const Row& row : rows) {
    ASSERT_EQ(row.size(), 2u);
    EXPECT_EQ(row[1].AsString(), "v" + std::to_string(row[0].AsInt()));
  }
  // A new statement sees the new shape.
  SqlResult r = Q("SELECT * FROM t WHERE k IN (1, 5000) ORDER BY k");
  ASSERT_TRUE(r.status.ok());
  ASSERT_EQ(r.columns.size(), 2u);
  EXPECT_EQ(r.columns[1].name, "w");
  EXPECT_EQ(r.rows, (Strings{"1|5", "5000|6"}));
}

TEST_F(AlterTableTest, ConcurrentSessionIsNotBrokenByAlter) {
  ASSERT_TRUE(Q("CREATE TABLE t (k INT PRIMARY KEY, v INT CHECK (v >= 0))").status.ok());
  std::atomic<bool> stop{false};
  std::atomic<int> failures{0};
  std::string first_failure;
  std::thread worker([&] {
    std::unique_ptr<Session> s = db_->NewSession();
    for (int i = 0; !stop.load(); ++i) {
      const std::string k = std::to_string(i);
      SqlResult r = RunSql(*s, "INSERT INTO t (k, v) VALUES (" + k + ", " + k + ")");
      if (r.status.ok()) r = RunSql(*s, "SELECT k, v FROM t WHERE k = " + k);
      if (r.status.ok() && r.rows != Strings{k + "|" + k}) r.status = Status::Internal(r.rows[0]);
      if (r.status.ok()) r = RunSql(*s, "UPDATE t SET v = v + 1 WHERE k = " + k);
      if (r.status.ok()) r = RunSql(*s, "SELECT count(*) FROM t WHERE v < 0");
      if (!r.status.ok() && failures++ == 0) first_failure = r.status.ToString();
    }
  });
  std::unique_ptr<Session> alterer = db_->NewSession();
  for (int round = 0; round < 40; ++round) {
    const std::string c = "c" + std::to_string(round);
    ASSERT_TRUE(
        RunSql(*alterer, "ALTER TABLE t ADD COLUMN " + c + " INT DEFAULT " + std::to_string(round))
            .status.ok());
    ASSERT_TRUE(RunSql(*alterer, "ALTER TABLE t RENAME COLUMN " + c + " TO x" + c).status.ok());
    ASSERT_TRUE(RunSql(*alterer, "ALTER TABLE t DROP COLUMN x" + c).status.ok());
  }
  stop = true;
  worker.join();
  EXPECT_EQ(failures.load(), 0) << first_failure;
  EXPECT_EQ(Rows("SELECT count(*) FROM t WHERE v <> k + 1"), (Strings{"0"}));
}

TEST_F(AlterTableTest, PreparedStatementsRebindOrFailCleanly) {
  ASSERT_TRUE(Q("CREATE TABLE t (a INT, b TEXT)").status.ok());
  ASSERT_TRUE(Q("INSERT INTO t VALUES (1, 'x')").status.ok());
  ASSERT_TRUE(Q("PREPARE star AS SELECT * FROM t").status.ok());
  ASSERT_TRUE(Q("PREPARE just_a AS SELECT a FROM t").status.ok());
  ASSERT_TRUE(Q("PREPARE ins AS INSERT INTO t VALUES ($1, $2)").status.ok());
  ASSERT_TRUE(Q("ALTER TABLE t ADD COLUMN c INT DEFAULT 3").status.ok());
  EXPECT_EQ(Err("EXECUTE star", "0A000").message(), "cached plan must not change result type");
  EXPECT_EQ(Rows("EXECUTE just_a"), (Strings{"1"}));
  // Bound again: the new column gets its default.
  ASSERT_TRUE(Q("EXECUTE ins (2, 'y')").status.ok());
  EXPECT_EQ(Rows("SELECT * FROM t ORDER BY a"), (Strings{"1|x|3", "2|y|3"}));
  ASSERT_TRUE(Q("ALTER TABLE t DROP COLUMN b").status.ok());
  Err("EXECUTE ins (3, 'z')", "42804");  // now $2 goes to c (integer)
  ASSERT_TRUE(Q("ALTER TABLE t RENAME COLUMN a TO aa").status.ok());
  Err("EXECUTE just_a", "42703");
  // The protocol's prepared statements follow the same rule.
  auto info = session_->Prepare("p", "SELECT * FROM t", {});
  ASSERT_TRUE(info.ok());
  ASSERT_TRUE(Q("ALTER TABLE t ADD COLUMN d INT").status.ok());
  ExecControl ctl;
  auto cursor = info->request->Start(0, ctl);
  ASSERT_FALSE(cursor.ok());
  EXPECT_EQ(cursor.status().sqlstate(), "0A000");
}

TEST_F(AlterTableTest, CopyChecksConstraintsAndFollowsAlter) {
  ASSERT_TRUE(Q("CREATE TABLE t (a INT CHECK (a > 0), b TEXT)").status.ok());
  ExecControl ctl;
  auto copy = [&](const std::string& data, bool alter_first) -> Status {
    auto request = session_->Parse("COPY t FROM STDIN");
    if (!request.ok()) return request.status();
    auto cursor = (*request)->Start(0, ctl);
    if (!cursor.ok()) return cursor.status();
    CopyIn* in = (*cursor)->copy_in();
    MERIDIAN_RETURN_IF_ERROR(in->Write(data, ctl));
    if (alter_first) {
      std::unique_ptr<Session> other = db_->NewSession();
      MERIDIAN_RETURN_IF_ERROR(
          RunSql(*other, "ALTER TABLE t ADD COLUMN c INT DEFAULT 7 CHECK (c > 0)").status);
    }
    return in->Finish(ctl);
  };
  Status st = copy("1\tone\n0\tzero\n", false);
  EXPECT_EQ(st.sqlstate(), "23514");
  EXPECT_EQ(st.message(), "new row for relation \"t\" violates check constraint \"t_a_check\"");
  ASSERT_TRUE(copy("1\tone\n2\ttwo\n", true).ok());
  EXPECT_EQ(Rows("SELECT * FROM t ORDER BY a"), (Strings{"1|one|7", "2|two|7"}));
}

TEST_F(AlterTableTest, ChangesSurviveReopen) {
  ASSERT_TRUE(
      Q("CREATE TABLE t (id INT PRIMARY KEY, gone TEXT, n INT CHECK (n < 100))").status.ok());
  ASSERT_TRUE(Q("INSERT INTO t VALUES (1, 'g1', 10), (2, 'g2', NULL)").status.ok());
  ASSERT_TRUE(
      Q("ALTER TABLE t ADD COLUMN d VARCHAR(5) DEFAULT 'dd', DROP COLUMN gone").status.ok());
  ASSERT_TRUE(Q("ALTER TABLE t RENAME COLUMN n TO num").status.ok());
  ASSERT_TRUE(Q("INSERT INTO t VALUES (3, 30, 'new')").status.ok());
  Reopen();
  EXPECT_EQ(Rows("SELECT * FROM t ORDER BY id"), (Strings{"1|10|dd", "2|NULL|dd", "3|30|new"}));
  Err("INSERT INTO t VALUES (4, 100, 'x')", "23514");
  Err("INSERT INTO t VALUES (1, 1, 'x')", "23505");
  ASSERT_TRUE(Q("INSERT INTO t (id) VALUES (4)").status.ok());
  EXPECT_EQ(Rows("SELECT d FROM t WHERE id = 4"), (Strings{"dd"}));
}

}  // namespace
}  // namespace meridian::testing
