// SQL-level prepared statements through the public API: PREPARE binds and describes at once,
// EXECUTE runs the statement with its arguments as $1..$n (tags of the executed statement),
// DEALLOCATE; PostgreSQL's errors (42P05, 26000, 42601 with its detail, 42804, 22P02, 0A000,
// 42803, 42703, 25P02 in a failed block); transaction behaviour; and the namespace shared with
// the protocol-level statements of Session::Prepare / FindPrepared / ClosePrepared; the plan
// cache of prepared statements.
#include <chrono>
#include <thread>

#include "sql_test_util.h"

namespace meridian::testing {
namespace {

using Strings = std::vector<std::string>;

class PreparedTest : public SqlTest {
 protected:
  void SetUp() override {
    SqlTest::SetUp();
    ASSERT_TRUE(Q("CREATE TABLE t (id INT PRIMARY KEY, name VARCHAR(10), score DOUBLE PRECISION)")
                    .status.ok());
    ASSERT_TRUE(
        Q("INSERT INTO t VALUES (1, 'one', 1.5), (2, 'two', 2.5), (3, 'three', NULL)").status.ok());
  }
  std::string Tag(const std::string& sql) {
    SqlResult r = Q(sql);
    EXPECT_TRUE(r.status.ok()) << sql << " -> " << r.status.ToString();
    return r.tag;
  }
  // Gives t enough rows that a key lookup is planned as an index scan, then prepares sql as "p";
  // null (after a failed expectation) on error.
  std::shared_ptr<Request> PreparePointQuery(const std::string& sql) {
    EXPECT_TRUE(
        Q("INSERT INTO t SELECT g, 'n' || g, g FROM generate_series(4, 3000) g").status.ok());
    EXPECT_TRUE(Q("ANALYZE t").status.ok());
    auto prepared = session_->Prepare("p", sql, {});
    EXPECT_TRUE(prepared.ok()) << prepared.status().ToString();
    return prepared.ok() ? prepared->request : nullptr;
  }
  // Starts statement 0 of request with values, fetches everything; rows as "a|b".
  SqlResult Run(Request& request, std::vector<Value> values, std::vector<Type> types = {}) {
    SqlResult result;
    ExecControl ctl;
    auto cursor = request.Start(0, ctl, StatementParams{std::move(values), std::move(types)});
    if (!cursor.ok()) {
      result.status = cursor.status();
      return result;
    }
    result.columns = (*cursor)->columns();
    std::vector<Row> rows;
    while (true) {
      auto more = (*cursor)->Fetch(100, 1 << 20, ctl, &rows);
      if (!more.ok()) {
        result.status = more.status();
        return result;
      }
      if (!*more) break;
    }
    for (const Row& row : rows) {
      std::string line;
      for (size_t c = 0; c < row.size(); ++c) {
        if (c > 0) line += "|";
        line += row[c].IsNull() ? "NULL" : row[c].ToString();
      }
      result.rows.push_back(line);
    }
    result.tag = (*cursor)->CommandTag();
    return result;
  }
};

// The plan cache (engine/main/plan_cache.h): executions reuse one plan, and nothing a plan was
// made from may leak into a later execution — parameter values, a half-read run, another open
// portal, DDL, TRUNCATE, ANALYZE, or system-table rows built for one statement.
TEST_F(PreparedTest, CachedPlansFollowValuesRunsAndSchemaChanges) {
  auto prepared = session_->Prepare("q", "SELECT id, name FROM t WHERE id >= $1 ORDER BY id", {});
  ASSERT_TRUE(prepared.ok()) << prepared.status().ToString();
  Request& q = *prepared->request;
  EXPECT_EQ(Run(q, {Value::Int(2)}).rows, (Strings{"2|two", "3|three"}));
  EXPECT_EQ(Run(q, {Value::Int(3)}).rows, (Strings{"3|three"}));
  EXPECT_EQ(Run(q, {Value::Int(1)}).rows, (Strings{"1|one", "2|two", "3|three"}));
  // A run dropped after one row, and two runs open at once.
  {
    ExecControl ctl;
    auto half = q.Start(0, ctl, StatementParams{{Value::Int(1)}, {}});
    ASSERT_TRUE(half.ok());
    std::vector<Row> rows;
    ASSERT_TRUE((*half)->Fetch(1, 1 << 20, ctl, &rows).ok());
    ASSERT_EQ(rows.size(), 1u);
    auto other = q.Start(0, ctl, StatementParams{{Value::Int(3)}, {}});
    ASSERT_TRUE(other.ok());
    std::vector<Row> other_rows;
    ASSERT_TRUE((*other)->Fetch(100, 1 << 20, ctl, &other_rows).ok());
    ASSERT_EQ(other_rows.size(), 1u);
    EXPECT_EQ(other_rows[0][1].ToString(), "three");
  }
  EXPECT_EQ(Run(q, {Value::Int(2)}).rows, (Strings{"2|two", "3|three"}));
  // An index, ANALYZE, TRUNCATE and a new table of the same name each replan.
  ASSERT_TRUE(Q("CREATE INDEX t_name ON t (name); ANALYZE t").status.ok());
  EXPECT_EQ(Run(q, {Value::Int(3)}).rows, (Strings{"3|three"}));
  ASSERT_TRUE(Q("TRUNCATE t").status.ok());
  EXPECT_TRUE(Run(q, {Value::Int(1)}).rows.empty());
  ASSERT_TRUE(Q("INSERT INTO t VALUES (5, 'five', 0)").status.ok());
  EXPECT_EQ(Run(q, {Value::Int(1)}).rows, (Strings{"5|five"}));
  ASSERT_TRUE(Q("DROP TABLE t; CREATE TABLE t (score INT, name VARCHAR(10), id INT); "
                "INSERT INTO t VALUES (0, 'seven', 7)")
                  .status.ok());
  EXPECT_EQ(Run(q, {Value::Int(1)}).rows, (Strings{"7|seven"}));
  // A new shape of result is PostgreSQL's 0A000, never rows of the old shape.
  ASSERT_TRUE(Q("DROP TABLE t; CREATE TABLE t (name TEXT, id BIGINT); "
                "INSERT INTO t VALUES ('eight', 8)")
                  .status.ok());
  EXPECT_EQ(Run(q, {Value::Int(1)}).status.sqlstate(), "0A000");
  ASSERT_TRUE(Q("DROP TABLE t").status.ok());
  EXPECT_EQ(Run(q, {Value::Int(1)}).status.sqlstate(), "42P01");
  // System tables are built per statement: their plans are never reused.
  ASSERT_TRUE(Q("CREATE TABLE s (a INT)").status.ok());
  auto tuples = session_->Prepare("n", "SELECT reltuples FROM pg_class WHERE relname = $1", {});
  ASSERT_TRUE(tuples.ok()) << tuples.status().ToString();
  EXPECT_EQ(Run(*tuples->request, {Value::String("s")}).rows, (Strings{"0"}));
  ASSERT_TRUE(Q("INSERT INTO s VALUES (1), (2)").status.ok());
  EXPECT_EQ(Run(*tuples->request, {Value::String("s")}).rows, (Strings{"2"}));
}

// Request::QuickRead: only a prepared SELECT whose cached plan fetches one row by a full
// unique key, locks no rows and evaluates no subquery; false until a plan is cached and again
// after DDL until the next execution plans anew. (t gets enough rows for index plans.)
TEST_F(PreparedTest, QuickReadIsACachedOneRowUniqueLookup) {
  std::shared_ptr<Request> point = PreparePointQuery("SELECT id, name FROM t WHERE id = $1");
  ASSERT_NE(point, nullptr);
  Request& p = *point;
  EXPECT_FALSE(p.QuickRead(0));  // nothing cached yet
  EXPECT_EQ(Run(p, {Value::Int(2)}).rows, (Strings{"2|two"}));
  EXPECT_TRUE(p.QuickRead(0));
  EXPECT_FALSE(p.QuickRead(1));
  EXPECT_EQ(Run(p, {Value::Int(3)}).rows, (Strings{"3|three"}));
  ASSERT_TRUE(Q("CREATE INDEX t_name ON t (name)").status.ok());
  EXPECT_FALSE(p.QuickRead(0));  // the plan is stale
  EXPECT_EQ(Run(p, {Value::Int(1)}).rows, (Strings{"1|one"}));
  EXPECT_TRUE(p.QuickRead(0));

  // Quick: bounded by the rows their scans read (ExecControl::SpendQuick), whatever the key
  // shape, join or aggregate above them. Not quick: a big table's heap, row locks, a subquery,
  // a function scan.
  const std::vector<std::pair<std::string, bool>> cases = {
      {"SELECT id FROM t WHERE id >= $1", true},
      {"SELECT id FROM t WHERE id IN ($1, 2)", true},
      {"SELECT id FROM t WHERE name = $1::text", true},  // a non-unique index
      {"SELECT count(*) FROM t WHERE id = $1", true},
      {"SELECT a.id FROM t a JOIN t b ON a.id = b.id WHERE a.id = $1", true},
      {"SELECT name FROM t WHERE id < $1 ORDER BY name DESC LIMIT 2", true},
      {"SELECT id FROM t WHERE score = $1::float8", false},
      {"SELECT id FROM t WHERE id = $1 FOR UPDATE", false},
      {"SELECT id, (SELECT max(id) FROM t) FROM t WHERE id = $1", false},
      {"SELECT id FROM t WHERE id = $1 AND EXISTS (SELECT 1 FROM t WHERE id = 3)", false},
      {"SELECT g FROM generate_series(1, $1) g", false},
  };
  for (size_t i = 0; i < cases.size(); ++i) {
    const auto& [sql, expect_quick] = cases[i];
    auto q = session_->Prepare("q" + std::to_string(i), sql, {});
    ASSERT_TRUE(q.ok()) << sql << ": " << q.status().ToString();
    ASSERT_TRUE(Run(*q->request, {Value::Int(1)}).status.ok()) << sql;
    EXPECT_EQ(q->request->QuickRead(0), expect_quick) << sql;
  }
  auto parsed = session_->Parse("SELECT id FROM t WHERE id = 1");
  ASSERT_TRUE(parsed.ok());
  EXPECT_FALSE((*parsed)->QuickRead(0));  // not prepared: no plan cache
  auto update = session_->Prepare("u", "UPDATE t SET name = 'x' WHERE id = $1", {});
  ASSERT_TRUE(update.ok());
  ASSERT_TRUE(Run(*update->request, {Value::Int(1)}).status.ok());
  EXPECT_FALSE(update->request->QuickRead(0));
}

// A Seq Scan of a small table (TPC-C's warehouse, pgbench_branches) is a quick read too; once
// the heap has grown past SeqScanOp::kQuickScanPages, the cached plan's Fetch under no_wait
// refuses (WouldBlock) instead of scanning it on a network thread, and runs without no_wait.
TEST_F(PreparedTest, QuickReadOfASmallTableIsBoundedUnderNoWait) {
  ASSERT_TRUE(Q("CREATE TABLE small (k INT, v TEXT)").status.ok());
  ASSERT_TRUE(Q("INSERT INTO small SELECT g, 'v' || g FROM generate_series(1, 10) g").status.ok());
  auto prepared = session_->Prepare("s", "SELECT v FROM small WHERE k = $1", {});
  ASSERT_TRUE(prepared.ok()) << prepared.status().ToString();
  Request& p = *prepared->request;
  EXPECT_EQ(Run(p, {Value::Int(3)}).rows, (Strings{"v3"}));
  EXPECT_TRUE(p.QuickRead(0));
  auto fetch_no_wait = [&](std::vector<Row>* rows) -> Result<bool> {
    ExecControl ctl;
    ctl.set_no_wait(true);
    auto cursor = p.Start(0, ctl, StatementParams{{Value::Int(4)}, {}});
    if (!cursor.ok()) return cursor.status();
    return (*cursor)->Fetch(100, 1 << 20, ctl, rows);
  };
  std::vector<Row> rows;
  ASSERT_TRUE(fetch_no_wait(&rows).ok());
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0][0].ToString(), "v4");

  ASSERT_TRUE(Q("INSERT INTO small SELECT g, repeat('x', 200) FROM generate_series(11, 4000) g")
                  .status.ok());
  rows.clear();
  Result<bool> refused = fetch_no_wait(&rows);
  EXPECT_TRUE(ExecControl::IsWouldBlock(refused.status())) << refused.status().ToString();
  EXPECT_TRUE(rows.empty());
  EXPECT_EQ(Run(p, {Value::Int(4)}).rows, (Strings{"v4"}));
}

// A quick statement may read about ExecControl::kQuickRows rows: past them, under no_wait, its
// scan refuses (WouldBlock) having sent nothing, and a quick write is undone with its block
// left usable; without no_wait the same statements run to the end. pg_sleep refuses at once.
TEST_F(PreparedTest, QuickStatementsSpendABudgetOfRowsUnderNoWait) {
  std::shared_ptr<Request> range = PreparePointQuery("SELECT id FROM t WHERE id >= $1");
  ASSERT_NE(range, nullptr);
  ASSERT_EQ(Run(*range, {Value::Int(2995)}).rows.size(), 6u);
  ASSERT_TRUE(range->QuickRead(0));
  auto fetch_no_wait = [&](Request& r, std::vector<Value> values,
                           std::vector<Row>* rows) -> Result<bool> {
    ExecControl ctl;
    ctl.set_no_wait(true);
    auto cursor = r.Start(0, ctl, StatementParams{std::move(values), {}});
    if (!cursor.ok()) return cursor.status();
    return (*cursor)->Fetch(5000, 1 << 22, ctl, rows);
  };
  std::vector<Row> rows;
  ASSERT_TRUE(fetch_no_wait(*range, {Value::Int(2001)}, &rows).ok());
  EXPECT_EQ(rows.size(), 1000u);  // within the budget
  rows.clear();
  // (Rows fetched before the refusal are the server's to drop: it runs the statement again.)
  Result<bool> refused = fetch_no_wait(*range, {Value::Int(1)}, &rows);
  EXPECT_TRUE(ExecControl::IsWouldBlock(refused.status())) << refused.status().ToString();
  EXPECT_LT(rows.size(), 3000u);
  EXPECT_EQ(Run(*range, {Value::Int(1)}).rows.size(), 3000u);
  // A plan refused for its size is not tried as quick again (the pool runs it at once).
  EXPECT_FALSE(range->QuickRead(0));
  ASSERT_TRUE(Q("ANALYZE t").status.ok());  // replans
  ASSERT_EQ(Run(*range, {Value::Int(2995)}).rows.size(), 6u);
  ASSERT_TRUE(range->QuickRead(0));
  // Inside a transaction block the refusal leaves the block usable.
  ASSERT_TRUE(Q("BEGIN").status.ok());
  rows.clear();
  refused = fetch_no_wait(*range, {Value::Int(1)}, &rows);
  EXPECT_TRUE(ExecControl::IsWouldBlock(refused.status())) << refused.status().ToString();
  EXPECT_EQ(Run(*range, {Value::Int(1)}).rows.size(), 3000u);
  ASSERT_TRUE(Q("COMMIT").status.ok());

  // An index nested loop (the inner side rescanned per outer row) is quick too.
  auto join = session_->Prepare(
      "j", "SELECT count(*), sum(b.id) FROM t a JOIN t b ON b.id = a.id WHERE a.id IN ($1, $2)",
      {});
  ASSERT_TRUE(join.ok()) << join.status().ToString();
  EXPECT_EQ(Run(*join->request, {Value::Int(7), Value::Int(9)}).rows, (Strings{"2|16"}));
  ASSERT_TRUE(join->request->QuickRead(0));
  rows.clear();
  ASSERT_TRUE(fetch_no_wait(*join->request, {Value::Int(2991), Value::Int(3000)}, &rows).ok());
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0][0].ToString() + "|" + rows[0][1].ToString(), "2|5991");

  auto sleep = session_->Prepare("s", "SELECT pg_sleep(0.01) FROM t WHERE id = $1", {});
  ASSERT_TRUE(sleep.ok()) << sleep.status().ToString();
  ASSERT_TRUE(Run(*sleep->request, {Value::Int(1)}).status.ok());
  ASSERT_TRUE(sleep->request->QuickRead(0));
  rows.clear();
  refused = fetch_no_wait(*sleep->request, {Value::Int(1)}, &rows);
  EXPECT_TRUE(ExecControl::IsWouldBlock(refused.status())) << refused.status().ToString();

  // A quick write over a range: refused past the budget with its rows undone, the block usable.
  auto update = session_->Prepare("u", "UPDATE t SET name = 'x' WHERE id BETWEEN $1 AND $2", {});
  ASSERT_TRUE(update.ok()) << update.status().ToString();
  ASSERT_TRUE(Q("BEGIN").status.ok());
  ASSERT_TRUE(Run(*update->request, {Value::Int(2999), Value::Int(3000)}).status.ok());
  ASSERT_TRUE(update->request->QuickWrite(0));
  {
    ExecControl ctl;
    ctl.set_no_wait(true);
    auto started =
        update->request->Start(0, ctl, StatementParams{{Value::Int(1), Value::Int(3000)}, {}});
    EXPECT_TRUE(ExecControl::IsWouldBlock(started.status())) << started.status().ToString();
  }
  EXPECT_EQ(Q("SELECT count(*) FROM t WHERE name = 'x'").rows, (Strings{"2"}));
  EXPECT_FALSE(update->request->QuickWrite(0));  // refused for its size: the pool from now on
  EXPECT_EQ(Run(*update->request, {Value::Int(1), Value::Int(3000)}).tag, "UPDATE 3000");
  ASSERT_TRUE(Q("COMMIT").status.ok());
  EXPECT_EQ(Q("SELECT count(*) FROM t WHERE name = 'x'").rows, (Strings{"3000"}));
}

// Under ExecControl::no_wait a quick read whose table lock is not free fails its first Fetch
// with WouldBlock, having read nothing and leaving the transaction block usable; run again
// without it, it waits for the lock and answers.
TEST_F(PreparedTest, QuickReadUnderNoWaitRefusesABusyTable) {
  std::shared_ptr<Request> point = PreparePointQuery("SELECT name FROM t WHERE id = $1");
  ASSERT_NE(point, nullptr);
  Request& p = *point;
  ASSERT_EQ(Run(p, {Value::Int(2)}).rows, (Strings{"two"}));
  ASSERT_TRUE(p.QuickRead(0));

  // A long read holds t's lock shared; an ALTER TABLE then waits for it exclusively, and a
  // waiting writer keeps new readers out.
  auto reader_session = db_->NewSession();
  auto ddl_session = db_->NewSession();
  ExecControl long_read;
  std::thread reader([&] {
    RunSql(*reader_session, "SELECT count(*) FROM t, generate_series(1, 2000000000) g", &long_read);
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  std::thread ddl([&] {
    SqlResult r = RunSql(*ddl_session, "ALTER TABLE t ADD COLUMN extra INT");
    EXPECT_TRUE(r.status.ok()) << r.status.ToString();
  });
  ASSERT_TRUE(Q("BEGIN").status.ok());
  bool refused = false;
  for (int i = 0; i < 500 && !refused; ++i) {
    ExecControl ctl;
    ctl.set_no_wait(true);
    // Were no_wait ignored, the Fetch would wait for the lock: 57014 here instead of a hang.
    ctl.SetDeadline(ExecControl::Clock::now() + std::chrono::seconds(5));
    auto cursor = p.Start(0, ctl, StatementParams{{Value::Int(2)}, {}});
    ASSERT_TRUE(cursor.ok()) << cursor.status().ToString();
    std::vector<Row> rows;
    auto more = (*cursor)->Fetch(100, 1 << 20, ctl, &rows);
    if (ExecControl::IsWouldBlock(more.status())) {
      refused = true;
      EXPECT_TRUE(rows.empty());
    } else {
      ASSERT_TRUE(more.ok()) << more.status().ToString();  // the writer is not waiting yet
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
  EXPECT_TRUE(refused);
  long_read.Cancel();
  reader.join();
  // The same statement without no_wait waits for the ALTER TABLE, then answers.
  SqlResult after = Run(p, {Value::Int(2)});
  ddl.join();
  EXPECT_TRUE(after.status.ok()) << after.status.ToString();
  EXPECT_EQ(after.rows, (Strings{"two"}));
  // The block was not failed by the refusal.
  EXPECT_TRUE(Q("COMMIT").status.ok());
  EXPECT_EQ(Rows("SELECT name, extra FROM t WHERE id = 2"), (Strings{"two|NULL"}));
  // That run may have planned before the ALTER TABLE committed (its plan is then stale); the
  // next one plans at the new schema and is a quick read again.
  EXPECT_EQ(Run(p, {Value::Int(3)}).rows, (Strings{"three"}));
  EXPECT_TRUE(p.QuickRead(0));
}

// A prepared SELECT ... FOR UPDATE whose plan is a quick read's (index scans) is a quick write
// inside a block, never outside one nor a quick read. Under no_wait a row another transaction
// holds refuses it with WouldBlock, the lock marks it took before undone and the block usable;
// run again without no_wait, it waits for the holder and locks the committed version.
TEST_F(PreparedTest, QuickLockingReadInsideABlockRefusesABusyRow) {
  std::shared_ptr<Request> locking =
      PreparePointQuery("SELECT id, name FROM t WHERE id IN ($1, $2) ORDER BY id FOR UPDATE");
  ASSERT_NE(locking, nullptr);
  Request& p = *locking;
  ASSERT_EQ(Run(p, {Value::Int(1), Value::Int(2)}).rows, (Strings{"1|one", "2|two"}));
  EXPECT_FALSE(p.QuickRead(0));
  EXPECT_FALSE(p.QuickWrite(0, /*deferred_commit=*/true));  // autocommit: not quick
  ASSERT_TRUE(Q("BEGIN").status.ok());
  EXPECT_TRUE(p.QuickWrite(0));
  // Quick and not busy: locks and answers at once.
  {
    ExecControl ctl;
    ctl.set_no_wait(true);
    auto cursor = p.Start(0, ctl, StatementParams{{Value::Int(3), Value::Int(4)}, {}});
    ASSERT_TRUE(cursor.ok()) << cursor.status().ToString();
    std::vector<Row> rows;
    ASSERT_TRUE((*cursor)->Fetch(100, 1 << 20, ctl, &rows).ok());
    EXPECT_EQ(rows.size(), 2u);
  }
  std::unique_ptr<Session> holder = db_->NewSession();
  std::unique_ptr<Session> prober = db_->NewSession();
  ASSERT_TRUE(RunSql(*holder, "BEGIN; UPDATE t SET name = 'held' WHERE id = 2").status.ok());
  {
    ExecControl ctl;
    ctl.set_no_wait(true);
    // Were no_wait ignored, the start would wait for the holder: 57014 here instead of a hang.
    ctl.SetDeadline(ExecControl::Clock::now() + std::chrono::seconds(5));
    auto refused = p.Start(0, ctl, StatementParams{{Value::Int(1), Value::Int(2)}, {}});
    EXPECT_TRUE(ExecControl::IsWouldBlock(refused.status())) << refused.status().ToString();
  }
  // Row 1, locked before the refusal, is free again; rows 3 and 4 are still this block's.
  EXPECT_TRUE(RunSql(*prober, "SELECT id FROM t WHERE id = 1 FOR UPDATE NOWAIT").status.ok());
  EXPECT_EQ(RunSql(*prober, "SELECT id FROM t WHERE id = 3 FOR UPDATE NOWAIT").status.sqlstate(),
            "55P03");
  // Without no_wait it waits for the holder and reads its committed row.
  SqlResult waited;
  std::thread runner([&] { waited = Run(p, {Value::Int(1), Value::Int(2)}); });
  AwaitBlockedStatements(*db_, 1);
  ASSERT_TRUE(RunSql(*holder, "COMMIT").status.ok());
  runner.join();
  ASSERT_TRUE(waited.status.ok()) << waited.status.ToString();
  EXPECT_EQ(waited.rows, (Strings{"1|one", "2|held"}));
  EXPECT_EQ(RunSql(*prober, "SELECT id FROM t WHERE id = 2 FOR UPDATE NOWAIT").status.sqlstate(),
            "55P03");
  ASSERT_TRUE(Q("COMMIT").status.ok());
  EXPECT_FALSE(p.QuickWrite(0));  // no block
}

// An uncorrelated subquery's rows belong to one execution: a cached plan runs it again.
TEST_F(PreparedTest, CachedPlansRerunUncorrelatedSubqueries) {
  EXPECT_EQ(Tag("PREPARE top AS SELECT (SELECT max(id) FROM t)"), "PREPARE");
  EXPECT_EQ(Rows("EXECUTE top"), (Strings{"3"}));
  ASSERT_TRUE(Q("INSERT INTO t VALUES (4, 'four', 4)").status.ok());
  EXPECT_EQ(Rows("EXECUTE top"), (Strings{"4"}));
  ASSERT_TRUE(Q("CREATE TABLE u (x INT); INSERT INTO u VALUES (4)").status.ok());
  EXPECT_EQ(Tag("PREPARE mark (int) AS UPDATE t SET score = (SELECT max(x) FROM u) WHERE id = $1"),
            "PREPARE");
  EXPECT_EQ(Tag("EXECUTE mark (1)"), "UPDATE 1");
  ASSERT_TRUE(Q("INSERT INTO u VALUES (5)").status.ok());
  EXPECT_EQ(Tag("EXECUTE mark (2)"), "UPDATE 1");
  EXPECT_EQ(Rows("SELECT id, score FROM t WHERE id <= 2 ORDER BY id"), (Strings{"1|4", "2|5"}));
  EXPECT_EQ(session_->FindPrepared("mark")->request->plan_cache_stats().reused, 1u);
  // x IN (subquery) keeps a sorted copy of the subquery's rows for its lookups: a new run
  // rebuilds it from the new rows.
  EXPECT_EQ(Tag("PREPARE member AS SELECT id FROM t WHERE id IN (SELECT x FROM u) ORDER BY id"),
            "PREPARE");
  EXPECT_EQ(Rows("EXECUTE member"), (Strings{"4"}));
  ASSERT_TRUE(Q("INSERT INTO u VALUES (1), (2)").status.ok());
  EXPECT_EQ(Rows("EXECUTE member"), (Strings{"1", "2", "4"}));
  EXPECT_EQ(session_->FindPrepared("member")->request->plan_cache_stats().reused, 1u);
}

// Prepared INSERT, UPDATE and DELETE keep their bound statement and access path (plan_cache.h):
// later executions reuse them, and every kind of DDL (and TRUNCATE, ANALYZE) makes the next
// execution bind and plan again against the new schema, with correct results throughout.
TEST_F(PreparedTest, CachedDmlPlansFollowSchemaChanges) {
  auto upd = session_->Prepare("upd", "UPDATE t SET score = score + $2 WHERE id = $1", {});
  ASSERT_TRUE(upd.ok()) << upd.status().ToString();
  Request& u = *upd->request;
  auto stats = [&] { return u.plan_cache_stats(); };
  // Each step: run, then expect the counters (reused, planned) and the row.
  auto step = [&](int64_t id, double add, uint64_t reused, uint64_t planned,
                  const std::string& row) {
    SqlResult r = Run(u, {Value::Int(id), Value::Double(add)});
    ASSERT_TRUE(r.status.ok()) << r.status.ToString();
    EXPECT_EQ(r.tag, "UPDATE 1");
    EXPECT_EQ(stats().reused, reused) << row;
    EXPECT_EQ(stats().planned, planned) << row;
    EXPECT_EQ(Rows("SELECT * FROM t WHERE id = " + std::to_string(id)), Strings{row});
  };
  step(1, 1, 0, 1, "1|one|2.5");
  step(1, 1, 1, 1, "1|one|3.5");
  step(2, 0.5, 2, 1, "2|two|3");
  ASSERT_TRUE(Q("CREATE INDEX t_score ON t (score)").status.ok());
  step(2, 1, 2, 2, "2|two|4");
  step(1, 1, 3, 2, "1|one|4.5");
  ASSERT_TRUE(Q("DROP INDEX t_score").status.ok());
  step(1, 1, 3, 3, "1|one|5.5");
  ASSERT_TRUE(Q("ALTER TABLE t ADD COLUMN extra INT DEFAULT 7").status.ok());
  step(1, 1, 3, 4, "1|one|6.5|7");
  step(1, 1, 4, 4, "1|one|7.5|7");
  // Dropping a column before the ones the statement writes moves nothing it reads.
  ASSERT_TRUE(Q("ALTER TABLE t DROP COLUMN name").status.ok());
  step(2, 1, 4, 5, "2|5|7");
  ASSERT_TRUE(Q("ANALYZE t").status.ok());
  step(2, 1, 4, 6, "2|6|7");
  // A CHECK added later holds for the cached statement too.
  ASSERT_TRUE(Q("ALTER TABLE t ADD CONSTRAINT small CHECK (score < 100)").status.ok());
  step(2, 1, 4, 7, "2|7|7");
  SqlResult bad = Run(u, {Value::Int(2), Value::Double(1000)});
  EXPECT_EQ(bad.status.sqlstate(), "23514") << bad.status.ToString();
  step(2, 1, 6, 7, "2|8|7");
  ASSERT_TRUE(Q("TRUNCATE t").status.ok());
  SqlResult none = Run(u, {Value::Int(2), Value::Double(1)});
  ASSERT_TRUE(none.status.ok()) << none.status.ToString();
  EXPECT_EQ(none.tag, "UPDATE 0");
  EXPECT_EQ(stats().planned, 8u);
  ASSERT_TRUE(Q("INSERT INTO t VALUES (2, 1, 0)").status.ok());
  step(2, 1, 7, 8, "2|2|0");
  // A new table of the same name, with the columns elsewhere: the statement writes the new one.
  ASSERT_TRUE(Q("DROP TABLE t; CREATE TABLE t (note TEXT, score REAL, id INT PRIMARY KEY); "
                "INSERT INTO t VALUES ('x', 1, 2)")
                  .status.ok());
  step(2, 1, 7, 9, "x|2|2");
  step(2, 1, 8, 9, "x|3|2");
  ASSERT_TRUE(Q("DROP TABLE t").status.ok());
  EXPECT_EQ(Run(u, {Value::Int(2), Value::Double(1)}).status.sqlstate(), "42P01");
}

TEST_F(PreparedTest, CachedInsertAndDeleteKeepConstraintsAndCounts) {
  ASSERT_TRUE(Q("CREATE TABLE k (id INT PRIMARY KEY, v TEXT NOT NULL, n INT DEFAULT 5 "
                "CHECK (n > 0))")
                  .status.ok());
  EXPECT_EQ(Tag("PREPARE ins (int, text) AS INSERT INTO k (id, v) VALUES ($1, $2)"), "PREPARE");
  EXPECT_EQ(Tag("PREPARE ins2 AS INSERT INTO k VALUES ($1, $2, $3), ($1 + 100, $2 || '2', $3)"),
            "PREPARE");
  EXPECT_EQ(Tag("PREPARE del (int) AS DELETE FROM k WHERE id >= $1"), "PREPARE");
  EXPECT_EQ(Tag("PREPARE copy AS INSERT INTO k SELECT id + 1000, name, 1 FROM t WHERE id <= $1"),
            "PREPARE");
  auto stats = [&](const std::string& name) {
    return session_->FindPrepared(name)->request->plan_cache_stats();
  };
  EXPECT_EQ(Tag("EXECUTE ins (1, 'a')"), "INSERT 0 1");
  EXPECT_EQ(Tag("EXECUTE ins (2, 'b')"), "INSERT 0 1");
  // Unique, NOT NULL and CHECK violations from the cached plan, and it keeps working after.
  EXPECT_EQ(Err("EXECUTE ins (1, 'c')", "23505").message(),
            "duplicate key value violates unique constraint \"k_pkey\"");
  EXPECT_EQ(Err("EXECUTE ins (3, NULL)", "23502").message(),
            "null value in column \"v\" of relation \"k\" violates not-null constraint");
  EXPECT_EQ(Err("EXECUTE ins2 (3, 'c', 0)", "23514").message(),
            "new row for relation \"k\" violates check constraint \"k_n_check\"");
  EXPECT_EQ(Tag("EXECUTE ins2 (3, 'c', 1)"), "INSERT 0 2");
  EXPECT_EQ(Tag("EXECUTE ins (4, 'd')"), "INSERT 0 1");
  EXPECT_EQ(stats("ins").planned, 1u);
  EXPECT_EQ(stats("ins").reused, 4u);
  EXPECT_EQ(stats("ins2").reused, 1u);
  EXPECT_EQ(Rows("SELECT * FROM k ORDER BY id"),
            (Strings{"1|a|5", "2|b|5", "3|c|1", "4|d|5", "103|c2|1"}));
  // A new DEFAULT applies to the cached INSERT; a new unique index is checked by it.
  ASSERT_TRUE(Q("ALTER TABLE k ALTER COLUMN n SET DEFAULT 9; CREATE UNIQUE INDEX k_v ON k (v)")
                  .status.ok());
  EXPECT_EQ(Tag("EXECUTE ins (5, 'e')"), "INSERT 0 1");
  EXPECT_EQ(Err("EXECUTE ins (6, 'e')", "23505").message(),
            "duplicate key value violates unique constraint \"k_v\"");
  EXPECT_EQ(Rows("SELECT n FROM k WHERE id = 5"), (Strings{"9"}));
  EXPECT_EQ(stats("ins").planned, 2u);
  // INSERT ... SELECT and DELETE, reused with other values.
  EXPECT_EQ(Tag("EXECUTE copy (1)"), "INSERT 0 1");
  EXPECT_EQ(Tag("EXECUTE copy (0)"), "INSERT 0 0");
  EXPECT_EQ(stats("copy").reused, 1u);
  EXPECT_EQ(Tag("EXECUTE del (1000)"), "DELETE 1");
  EXPECT_EQ(Tag("EXECUTE del (100)"), "DELETE 1");
  EXPECT_EQ(Tag("EXECUTE del (100)"), "DELETE 0");
  EXPECT_EQ(Tag("EXECUTE del (4)"), "DELETE 2");
  EXPECT_EQ(stats("del").reused, 3u);
  EXPECT_EQ(Rows("SELECT id FROM k ORDER BY id"), (Strings{"1", "2", "3"}));
  // Inside a transaction block: a rolled-back execution leaves nothing, the plan stays.
  ASSERT_TRUE(Q("BEGIN").status.ok());
  EXPECT_EQ(Tag("EXECUTE del (1)"), "DELETE 3");
  ASSERT_TRUE(Q("ROLLBACK").status.ok());
  EXPECT_EQ(Rows("SELECT count(*) FROM k"), (Strings{"3"}));
  EXPECT_EQ(stats("del").reused, 4u);
}

// The cached UPDATE meets concurrent writers as an uncached one does: READ COMMITTED waits for
// the row's writer and re-checks its WHERE on the newest version (EvalPlanQual); REPEATABLE READ
// gets 40001.
TEST_F(PreparedTest, CachedUpdateRechecksConcurrentChanges) {
  ASSERT_TRUE(Q("CREATE TABLE acc (id INT PRIMARY KEY, bal INT); "
                "INSERT INTO acc VALUES (1, 100), (2, 100)")
                  .status.ok());
  auto prepared =
      session_->Prepare("pay", "UPDATE acc SET bal = bal - $2 WHERE id = $1 AND bal >= $2", {});
  ASSERT_TRUE(prepared.ok()) << prepared.status().ToString();
  Request& pay = *prepared->request;
  ASSERT_EQ(Run(pay, {Value::Int(1), Value::Int(10)}).tag, "UPDATE 1");
  ASSERT_EQ(Run(pay, {Value::Int(1), Value::Int(10)}).tag, "UPDATE 1");  // cached from here
  std::unique_ptr<Session> other = db_->NewSession();
  // READ COMMITTED: the other session holds row 1, then commits a balance below the amount.
  ASSERT_TRUE(RunSql(*other, "BEGIN; UPDATE acc SET bal = 5 WHERE id = 1").status.ok());
  SqlResult waited;
  std::thread runner([&] { waited = Run(pay, {Value::Int(1), Value::Int(10)}); });
  AwaitBlockedStatements(*db_, 1);  // waiting for other's row lock
  ASSERT_TRUE(RunSql(*other, "COMMIT").status.ok());
  runner.join();
  ASSERT_TRUE(waited.status.ok()) << waited.status.ToString();
  EXPECT_EQ(waited.tag, "UPDATE 0");  // bal 5 < 10 on the newest version
  // A row that matches in the snapshot and still matches on the version committed meanwhile.
  ASSERT_TRUE(RunSql(*other, "UPDATE acc SET bal = 50 WHERE id = 1").status.ok());
  ASSERT_TRUE(RunSql(*other, "BEGIN; UPDATE acc SET bal = 30 WHERE id = 1").status.ok());
  std::thread runner2([&] { waited = Run(pay, {Value::Int(1), Value::Int(10)}); });
  AwaitBlockedStatements(*db_, 1);
  ASSERT_TRUE(RunSql(*other, "COMMIT").status.ok());
  runner2.join();
  ASSERT_TRUE(waited.status.ok()) << waited.status.ToString();
  EXPECT_EQ(waited.tag, "UPDATE 1");
  EXPECT_EQ(Rows("SELECT bal FROM acc WHERE id = 1"), (Strings{"20"}));
  // REPEATABLE READ: a commit after the snapshot is 40001 for the cached statement.
  ASSERT_TRUE(Q("BEGIN ISOLATION LEVEL REPEATABLE READ; SELECT 1").status.ok());
  ASSERT_TRUE(RunSql(*other, "UPDATE acc SET bal = 70 WHERE id = 2").status.ok());
  EXPECT_EQ(Run(pay, {Value::Int(2), Value::Int(10)}).status.sqlstate(), "40001");
  ASSERT_TRUE(Q("ROLLBACK").status.ok());
  EXPECT_EQ(Run(pay, {Value::Int(2), Value::Int(10)}).tag, "UPDATE 1");
  EXPECT_EQ(Rows("SELECT bal FROM acc ORDER BY id"), (Strings{"20", "60"}));
  EXPECT_EQ(pay.plan_cache_stats().planned, 1u);
  EXPECT_EQ(pay.plan_cache_stats().reused, 5u);
}

TEST_F(PreparedTest, PrepareExecuteSelect) {
  EXPECT_EQ(Tag("PREPARE by_id (int) AS SELECT name FROM t WHERE id = $1"), "PREPARE");
  SqlResult r = Q("EXECUTE by_id (2)");
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.rows, (Strings{"two"}));
  EXPECT_EQ(r.tag, "SELECT 1");
  ASSERT_EQ(r.columns.size(), 1u);
  EXPECT_EQ(r.columns[0].name, "name");
  // Arguments are constant expressions, cast to the parameter's type.
  EXPECT_EQ(Rows("EXECUTE by_id (1 + 2)"), (Strings{"three"}));
  EXPECT_EQ(Rows("EXECUTE by_id ('1')"), (Strings{"one"}));
  EXPECT_EQ(Rows("EXECUTE by_id (abs(-2))"), (Strings{"two"}));
  EXPECT_EQ(Rows("EXECUTE by_id (NULL)"), Strings{});
  EXPECT_EQ(Rows("EXECUTE by_id (CAST('3' AS bigint))"), (Strings{"three"}));
  // Inferred parameter types: $1 compares with id (integer), $2 is LIMIT's bigint.
  EXPECT_EQ(Tag("PREPARE above AS SELECT id FROM t WHERE id > $1 ORDER BY id LIMIT $2"), "PREPARE");
  EXPECT_EQ(Rows("EXECUTE above (0, 2)"), (Strings{"1", "2"}));
  EXPECT_EQ(Rows("EXECUTE above ('1', '5')"), (Strings{"2", "3"}));
  // A declared parameter the statement does not use still counts.
  EXPECT_EQ(Tag("PREPARE unused (int, text) AS SELECT $1"), "PREPARE");
  EXPECT_EQ(Rows("EXECUTE unused (7, 'x')"), (Strings{"7"}));
  // No parameters: EXECUTE without parentheses.
  EXPECT_EQ(Tag("PREPARE cnt AS SELECT count(*) FROM t"), "PREPARE");
  EXPECT_EQ(Rows("EXECUTE cnt"), (Strings{"3"}));
  // Text parameter: an integer argument is assigned to text.
  EXPECT_EQ(Tag("PREPARE suffix (text) AS SELECT $1 || 'x'"), "PREPARE");
  EXPECT_EQ(Rows("EXECUTE suffix (42)"), (Strings{"42x"}));
  EXPECT_EQ(Rows("EXECUTE suffix (true)"), (Strings{"truex"}));
}

TEST_F(PreparedTest, ExecuteSeesTheCurrentData) {
  ASSERT_TRUE(Q("PREPARE all_ids AS SELECT id FROM t ORDER BY id").status.ok());
  EXPECT_EQ(Rows("EXECUTE all_ids"), (Strings{"1", "2", "3"}));
  ASSERT_TRUE(Q("INSERT INTO t VALUES (4, 'four', 4.0)").status.ok());
  EXPECT_EQ(Rows("EXECUTE all_ids"), (Strings{"1", "2", "3", "4"}));
  // A large result is fetched lazily in batches through EXECUTE's cursor.
  ASSERT_TRUE(Q("CREATE TABLE big (a INT)").status.ok());
  std::string insert = "INSERT INTO big VALUES (0)";
  for (int i = 1; i < 1000; ++i) insert += ", (" + std::to_string(i) + ")";
  ASSERT_TRUE(Q(insert).status.ok());
  ASSERT_TRUE(Q("PREPARE big_rows (int) AS SELECT a FROM big WHERE a >= $1").status.ok());
  SqlResult r = RunSql(*session_, "EXECUTE big_rows (10)", nullptr, 7);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.rows.size(), 990u);
  EXPECT_EQ(r.tag, "SELECT 990");
}

TEST_F(PreparedTest, ExecuteModifyStatements) {
  ASSERT_TRUE(Q("PREPARE ins (int, text) AS INSERT INTO t (id, name) VALUES ($1, $2)").status.ok());
  EXPECT_EQ(Tag("EXECUTE ins (10, 'ten')"), "INSERT 0 1");
  ASSERT_TRUE(
      Q("PREPARE ins_sel AS INSERT INTO t SELECT id + 100, name, score FROM t WHERE id < $1")
          .status.ok());
  EXPECT_EQ(Tag("EXECUTE ins_sel (3)"), "INSERT 0 2");
  ASSERT_TRUE(Q("PREPARE upd AS UPDATE t SET score = $1 WHERE id >= $2").status.ok());
  EXPECT_EQ(Tag("EXECUTE upd (9.5, 100)"), "UPDATE 2");
  ASSERT_TRUE(Q("PREPARE del AS DELETE FROM t WHERE id > $1").status.ok());
  EXPECT_EQ(Tag("EXECUTE del (9)"), "DELETE 3");
  EXPECT_EQ(Rows("SELECT id FROM t ORDER BY id"), (Strings{"1", "2", "3"}));
  // Constraint errors come from the executed statement.
  Err("EXECUTE ins (1, 'dup')", "23505");
  // varchar(10): the length is checked on assignment.
  Err("EXECUTE ins (20, 'much too long a name')", "22001");
}

TEST_F(PreparedTest, Deallocate) {
  ASSERT_TRUE(Q("PREPARE a AS SELECT 1; PREPARE b AS SELECT 2; PREPARE c AS SELECT 3").status.ok());
  EXPECT_EQ(Tag("DEALLOCATE a"), "DEALLOCATE");
  Err("EXECUTE a", "26000");
  EXPECT_EQ(Tag("DEALLOCATE PREPARE b"), "DEALLOCATE");
  EXPECT_EQ(Rows("EXECUTE c"), (Strings{"3"}));
  EXPECT_EQ(Tag("DEALLOCATE ALL"), "DEALLOCATE ALL");
  Err("EXECUTE c", "26000");
  EXPECT_EQ(Tag("DEALLOCATE PREPARE ALL"), "DEALLOCATE ALL");  // nothing left: still fine
  ErrResult e = Err("DEALLOCATE nope", "26000");
  EXPECT_EQ(e.message(), "prepared statement \"nope\" does not exist");
  // The name can be prepared again once deallocated.
  ASSERT_TRUE(Q("PREPARE a AS SELECT 10").status.ok());
  EXPECT_EQ(Rows("EXECUTE a"), (Strings{"10"}));
  // Names are identifiers: folded unless quoted.
  ASSERT_TRUE(Q("PREPARE \"Mixed\" AS SELECT 'm'").status.ok());
  Err("EXECUTE mixed", "26000");
  EXPECT_EQ(Rows("EXECUTE \"Mixed\""), (Strings{"m"}));
}

TEST_F(PreparedTest, Errors) {
  ASSERT_TRUE(Q("PREPARE p (int) AS SELECT $1 * 2").status.ok());
  ErrResult e = Err("PREPARE p AS SELECT 1", "42P05");
  EXPECT_EQ(e.message(), "prepared statement \"p\" already exists");
  e = Err("EXECUTE nope (1)", "26000");
  EXPECT_EQ(e.message(), "prepared statement \"nope\" does not exist");
  e = Err("EXECUTE p", "42601");
  EXPECT_EQ(e.message(), "wrong number of parameters for prepared statement \"p\"");
  EXPECT_EQ(e.error().detail, "Expected 1 parameters but got 0.");
  e = Err("EXECUTE p (1, 2)", "42601");
  EXPECT_EQ(e.error().detail, "Expected 1 parameters but got 2.");
  e = Err("EXECUTE p (true)", "42804");
  EXPECT_EQ(e.message(),
            "parameter $1 of type boolean cannot be coerced to the expected type integer");
  EXPECT_EQ(e.error().hint, "You will need to rewrite or cast the expression.");
  EXPECT_EQ(e.position(), 12u);
  e = Err("EXECUTE p ('abc')", "22P02");
  EXPECT_EQ(e.message(), "invalid input syntax for type integer: \"abc\"");
  EXPECT_EQ(e.position(), 12u);
  e = Err("EXECUTE p ((SELECT 1))", "0A000");
  EXPECT_EQ(e.message(), "cannot use subquery in EXECUTE parameter");
  e = Err("EXECUTE p (count(*))", "42803");
  EXPECT_EQ(e.message(), "aggregate functions are not allowed in EXECUTE parameters");
  e = Err("EXECUTE p (x)", "42703");
  EXPECT_EQ(e.message(), "column \"x\" does not exist");
  Err("EXECUTE p (2147483647 + 1)", "22003");
  Err("EXECUTE p ($1)", "42P02");  // the request has no parameters
  // PREPARE binds at once: a missing table is reported there and nothing is stored.
  e = Err("PREPARE gone AS SELECT * FROM nowhere", "42P01");
  EXPECT_EQ(e.position(), 31u);
  Err("EXECUTE gone", "26000");
  Err("PREPARE bad_type (regclass) AS SELECT 1", "42704");
  Err("PREPARE mismatch (boolean) AS SELECT $1 + 1", "42883");
  // An error of the executed statement keeps no position (it would point into the PREPARE).
  ASSERT_TRUE(Q("CREATE TABLE pt (a INT); PREPARE from_pt AS SELECT a FROM pt").status.ok());
  ASSERT_TRUE(Q("DROP TABLE pt").status.ok());
  e = Err("EXECUTE from_pt", "42P01");
  EXPECT_EQ(e.message(), "relation \"pt\" does not exist");
  EXPECT_EQ(e.position(), 0u);
  ASSERT_TRUE(Q("PREPARE div (int) AS SELECT 10 / $1").status.ok());
  Err("EXECUTE div (0)", "22012");
  EXPECT_EQ(Rows("EXECUTE div (5)"), (Strings{"2"}));
}

TEST_F(PreparedTest, TransactionBlocks) {
  ASSERT_TRUE(Q("PREPARE ins (int) AS INSERT INTO t (id) VALUES ($1)").status.ok());
  // EXECUTE runs in the open block: ROLLBACK undoes it.
  ASSERT_TRUE(Q("BEGIN").status.ok());
  EXPECT_EQ(Tag("EXECUTE ins (50)"), "INSERT 0 1");
  EXPECT_EQ(Rows("SELECT count(*) FROM t"), (Strings{"4"}));
  // PREPARE and DEALLOCATE are not transactional (as in PostgreSQL).
  ASSERT_TRUE(Q("PREPARE in_block AS SELECT 'kept'").status.ok());
  ASSERT_TRUE(Q("ROLLBACK").status.ok());
  EXPECT_EQ(Rows("SELECT count(*) FROM t"), (Strings{"3"}));
  EXPECT_EQ(Rows("EXECUTE in_block"), (Strings{"kept"}));
  // Autocommit outside a block.
  EXPECT_EQ(Tag("EXECUTE ins (51)"), "INSERT 0 1");
  ASSERT_TRUE(Q("BEGIN").status.ok());
  ASSERT_TRUE(Q("ROLLBACK").status.ok());
  EXPECT_EQ(Rows("SELECT count(*) FROM t"), (Strings{"4"}));

  // In a failed block every one of them is 25P02, until ROLLBACK.
  ASSERT_TRUE(Q("BEGIN").status.ok());
  Err("SELECT 1 / 0", "22012");
  EXPECT_EQ(session_->TransactionStatus(), 'E');
  Err("PREPARE later AS SELECT 1", "25P02");
  Err("DEALLOCATE ALL", "25P02");
  Err("DEALLOCATE in_block", "25P02");
  Err("EXECUTE in_block", "25P02");
  ASSERT_TRUE(Q("ROLLBACK").status.ok());
  Err("EXECUTE later", "26000");
  EXPECT_EQ(Rows("EXECUTE in_block"), (Strings{"kept"}));  // DEALLOCATE ALL did not run

  // Their own errors fail the block.
  ASSERT_TRUE(Q("BEGIN").status.ok());
  Err("DEALLOCATE nope", "26000");
  EXPECT_EQ(session_->TransactionStatus(), 'E');
  Err("SELECT 1", "25P02");
  ASSERT_TRUE(Q("ROLLBACK").status.ok());
  ASSERT_TRUE(Q("BEGIN").status.ok());
  Err("EXECUTE ins ('x')", "22P02");
  Err("SELECT 1", "25P02");
  ASSERT_TRUE(Q("ROLLBACK").status.ok());
  // So do the executed statement's errors (here a unique violation).
  ASSERT_TRUE(Q("BEGIN").status.ok());
  EXPECT_EQ(Tag("EXECUTE ins (60)"), "INSERT 0 1");
  Err("EXECUTE ins (1)", "23505");
  EXPECT_EQ(session_->TransactionStatus(), 'E');
  ASSERT_TRUE(Q("ROLLBACK").status.ok());
  EXPECT_EQ(session_->TransactionStatus(), 'I');
  EXPECT_EQ(Rows("SELECT count(*) FROM t WHERE id = 60"), (Strings{"0"}));
  EXPECT_EQ(Tag("EXECUTE ins (60)"), "INSERT 0 1");
}

TEST_F(PreparedTest, DescribeExecute) {
  ASSERT_TRUE(Q("PREPARE two (int, text) AS SELECT id, name FROM t WHERE id = $1 AND name = $2")
                  .status.ok());
  auto request = session_->Parse("EXECUTE two (1, 'one')");
  ASSERT_TRUE(request.ok()) << request.status().ToString();
  auto d = (*request)->Describe(0, {});
  ASSERT_TRUE(d.ok()) << d.status().ToString();
  EXPECT_TRUE(d->param_types.empty());
  ASSERT_EQ(d->columns.size(), 2u);
  EXPECT_EQ(d->columns[0].name, "id");
  EXPECT_EQ(d->columns[1].type, Type::Varchar(10));
  SqlResult r = Run(**request, {});
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.rows, (Strings{"1|one"}));
  EXPECT_EQ(r.tag, "SELECT 1");
  // As in PostgreSQL, the arguments cannot use the request's own parameters, and they are
  // checked when the statement runs, not when it is described.
  request = session_->Parse("EXECUTE two ($1, 'one')");
  ASSERT_TRUE(request.ok());
  d = (*request)->Describe(0, {Type::Integer()});
  ASSERT_TRUE(d.ok()) << d.status().ToString();
  EXPECT_EQ(d->param_types, (std::vector<Type>{Type::Integer()}));
  EXPECT_EQ(Run(**request, {Value::Int(1)}, {Type::Integer()}).status.sqlstate(), "42P02");
  request = session_->Parse("EXECUTE two (1)");
  ASSERT_TRUE(request.ok());
  EXPECT_TRUE((*request)->Describe(0, {}).ok());
  EXPECT_EQ(Run(**request, {}).status.sqlstate(), "42601");
  // PREPARE and DEALLOCATE describe as no parameters and no rows.
  request = session_->Parse("PREPARE x AS SELECT 1");
  ASSERT_TRUE(request.ok());
  d = (*request)->Describe(0, {});
  ASSERT_TRUE(d.ok());
  EXPECT_TRUE(d->columns.empty());
  EXPECT_TRUE(d->param_types.empty());
  request = session_->Parse("EXECUTE missing");
  ASSERT_TRUE(request.ok());
  EXPECT_EQ((*request)->Describe(0, {}).status().sqlstate(), "26000");
}

// Session::Prepare (the protocol's Parse with a name) and SQL PREPARE share one namespace.
TEST_F(PreparedTest, SharedWithProtocolStatements) {
  auto proto = session_->Prepare("proto", "SELECT name FROM t WHERE id = $1", {});
  ASSERT_TRUE(proto.ok()) << proto.status().ToString();
  EXPECT_EQ(proto->param_types, (std::vector<Type>{Type::Integer()}));
  ASSERT_EQ(proto->columns.size(), 1u);
  ASSERT_NE(proto->request, nullptr);
  // EXECUTE reaches a protocol-level statement; PREPARE cannot take its name.
  EXPECT_EQ(Rows("EXECUTE proto (3)"), (Strings{"three"}));
  Err("PREPARE proto AS SELECT 1", "42P05");
  // A SQL-prepared statement is visible to the protocol (Bind/Describe by name).
  ASSERT_TRUE(Q("PREPARE sqlp (bigint) AS SELECT $1 + 1").status.ok());
  auto found = session_->FindPrepared("sqlp");
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->param_types, (std::vector<Type>{Type::BigInt()}));
  ASSERT_EQ(found->columns.size(), 1u);
  SqlResult r = Run(*found->request, {Value::String("41")}, found->param_types);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.rows, (Strings{"42"}));
  EXPECT_EQ(session_->Prepare("sqlp", "SELECT 1", {}).status().sqlstate(), "42P05");
  // DEALLOCATE name drops a protocol statement; Close drops a SQL one.
  ASSERT_TRUE(Q("DEALLOCATE proto").status.ok());
  EXPECT_FALSE(session_->FindPrepared("proto").has_value());
  session_->ClosePrepared("sqlp");
  Err("EXECUTE sqlp (1)", "26000");
  session_->ClosePrepared("never existed");  // no error
  // A statement started before DEALLOCATE keeps working (its request holds it).
  ASSERT_TRUE(session_->Prepare("held", "SELECT id FROM t WHERE id < $1 ORDER BY id", {}).ok());
  std::shared_ptr<Request> held = session_->FindPrepared("held")->request;
  // DEALLOCATE ALL drops every statement, protocol ones included; the names can be reused.
  ASSERT_TRUE(session_->Prepare("_pg3_0", "SELECT 1", {}).ok());
  ASSERT_TRUE(session_->Prepare("_pg3_1", "SELECT 2", {}).ok());
  EXPECT_EQ(Tag("DEALLOCATE ALL"), "DEALLOCATE ALL");
  EXPECT_FALSE(session_->FindPrepared("_pg3_0").has_value());
  EXPECT_FALSE(session_->FindPrepared("_pg3_1").has_value());
  EXPECT_FALSE(session_->FindPrepared("held").has_value());
  EXPECT_TRUE(session_->Prepare("_pg3_0", "SELECT 1", {}).ok());
  r = Run(*held, {Value::Int(3)}, {Type::Integer()});
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.rows, (Strings{"1", "2"}));
  // The unnamed statement is described and returned, never stored.
  auto unnamed = session_->Prepare("", "SELECT $1::text", {});
  ASSERT_TRUE(unnamed.ok());
  EXPECT_EQ(unnamed->param_types, (std::vector<Type>{Type::Text()}));
  EXPECT_FALSE(session_->FindPrepared("").has_value());
  // Errors of Prepare: one statement only, parse and bind errors; nothing is stored.
  EXPECT_EQ(session_->Prepare("m", "SELECT 1; SELECT 2", {}).status().sqlstate(), "42601");
  EXPECT_EQ(session_->Prepare("m", "SELEC 1", {}).status().sqlstate(), "42601");
  EXPECT_EQ(session_->Prepare("m", "SELECT * FROM nowhere", {}).status().sqlstate(), "42P01");
  EXPECT_FALSE(session_->FindPrepared("m").has_value());
  // Declared types (Unknown = inferred).
  auto typed = session_->Prepare("typed", "SELECT $1, $2", {Type::BigInt(), Type::Unknown()});
  ASSERT_TRUE(typed.ok());
  EXPECT_EQ(typed->param_types, (std::vector<Type>{Type::BigInt(), Type::Text()}));
  // Empty text: a statement without a request; EXECUTE of it does nothing.
  auto empty = session_->Prepare("empty", "", {});
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(empty->request, nullptr);
  EXPECT_EQ(Tag("EXECUTE empty"), "EXECUTE");
  // A protocol statement may itself be an EXECUTE; a loop of them ends with 54001.
  ASSERT_TRUE(session_->Prepare("callee", "SELECT 5", {}).ok());
  ASSERT_TRUE(session_->Prepare("caller", "EXECUTE callee", {}).ok());
  EXPECT_EQ(Rows("EXECUTE caller"), (Strings{"5"}));
  ASSERT_TRUE(Q("DEALLOCATE callee").status.ok());
  ASSERT_TRUE(session_->Prepare("callee", "EXECUTE caller", {}).ok());
  Err("EXECUTE caller", "54001");
}

TEST_F(PreparedTest, KeywordsAsNames) {
  ASSERT_TRUE(Q("CREATE TABLE prepare (execute INT, deallocate TEXT)").status.ok());
  ASSERT_TRUE(Q("INSERT INTO prepare VALUES (1, 'a')").status.ok());
  ASSERT_TRUE(
      Q("PREPARE execute AS SELECT deallocate FROM prepare WHERE execute = $1").status.ok());
  EXPECT_EQ(Rows("EXECUTE execute (1)"), (Strings{"a"}));
  EXPECT_EQ(Tag("DEALLOCATE execute"), "DEALLOCATE");
  ASSERT_TRUE(Q("PREPARE prepare AS SELECT 1").status.ok());
  EXPECT_EQ(Tag("DEALLOCATE prepare"), "DEALLOCATE");
}

// A new session has its own namespace; statements die with their session.
TEST_F(PreparedTest, PerSession) {
  ASSERT_TRUE(Q("PREPARE mine AS SELECT 1").status.ok());
  std::unique_ptr<Session> other = db_->NewSession();
  SqlResult r = RunSql(*other, "EXECUTE mine");
  EXPECT_EQ(r.status.sqlstate(), "26000");
  r = RunSql(*other, "PREPARE mine AS SELECT 2; EXECUTE mine");
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.rows, (Strings{"2"}));
  EXPECT_EQ(Rows("EXECUTE mine"), (Strings{"1"}));
}

}  // namespace
}  // namespace meridian::testing
