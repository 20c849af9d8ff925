// Randomized crash points under a bank workload (see README.md): every acknowledged transfer
// survives, nothing unacknowledged appears, balances add up, indexes agree with heaps.
#include <atomic>
#include <cstdlib>
#include <map>
#include <mutex>
#include <random>
#include <set>
#include <thread>

#include "catalog/catalog.h"
#include "sql_test_util.h"
#include "storage/fault_injection_file_system.h"

namespace meridian::testing {
namespace {

constexpr int kAccounts = 20;
constexpr int kInitialBalance = 100;
constexpr int kSessions = 3;

int EnvInt(const char* name, int fallback) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' ? std::atoi(v) : fallback;
}

struct Outcome {
  std::mutex mu;
  std::set<int64_t> acknowledged;
  std::atomic<int> crashed_sessions{0};
  std::map<int64_t, std::string> last_error;  // by session: how its last transfer failed
};

// One session's transfers until the disk "dies" (any error other than a retryable conflict).
void Transfers(Database* db, int session_no, uint64_t seed, int max_transfers, Outcome* out) {
  std::unique_ptr<Session> s = db->NewSession();
  std::mt19937_64 rng(seed);
  for (int i = 0; i < max_transfers; ++i) {
    const int64_t id = int64_t{session_no} * 1000000 + i;
    const int from = static_cast<int>(rng() % kAccounts) + 1;
    const int to = (from + 1 + static_cast<int>(rng() % (kAccounts - 1))) % kAccounts + 1;
    const int amount = static_cast<int>(rng() % 10) + 1;
    const bool rr = rng() % 2 == 0;
    for (int attempt = 0;; ++attempt) {
      const std::string sql =
          std::string(rr ? "BEGIN ISOLATION LEVEL REPEATABLE READ" : "BEGIN") +
          "; UPDATE accounts SET balance = balance - " + std::to_string(amount) +
          " WHERE id = " + std::to_string(from) + "; UPDATE accounts SET balance = balance + " +
          std::to_string(amount) + " WHERE id = " + std::to_string(to) +
          "; INSERT INTO transfers VALUES (" + std::to_string(id) + ", " + std::to_string(from) +
          ", " + std::to_string(to) + ", " + std::to_string(amount) + ")";
      SqlResult r = RunSql(*s, sql);
      if (r.status.ok()) r = RunSql(*s, "COMMIT");
      if (r.status.ok() && r.tag == "COMMIT") {
        std::lock_guard lock(out->mu);
        out->acknowledged.insert(id);
        break;
      }
      (void)RunSql(*s, "ROLLBACK");
      const std::string& state = r.status.ok() ? std::string("40001") : r.status.sqlstate();
      if ((state == "40001" || state == "40P01") && attempt < 50) continue;
      {
        std::lock_guard lock(out->mu);
        out->last_error[session_no] = "transfer " + std::to_string(id) + ": " + state + " " +
                                      (r.status.ok() ? r.tag : r.status.message());
      }
      out->crashed_sessions.fetch_add(1);
      return;  // the disk is gone
    }
  }
}

int64_t Count(Session& s, const std::string& sql) {
  SqlResult r = RunSql(s, sql);
  EXPECT_TRUE(r.status.ok()) << sql << ": " << r.status.message();
  return r.rows.empty() ? -1 : std::stoll(r.rows[0]);
}

// For a failure message: each transfer present xor acknowledged, as the heap and the primary
// key see it, with how its session ended and what recovery did.
std::string Differences(Session& s, const std::set<int64_t>& present, Outcome& outcome,
                        const RecoveryInfo& info) {
  std::lock_guard lock(outcome.mu);
  std::string out = "\nrecovery: indexes_rebuilt " + std::to_string(info.indexes_rebuilt) +
                    ", journal_pages " + std::to_string(info.journal_pages) + ", tail_pages " +
                    std::to_string(info.tail_pages);
  std::set<int64_t> ids = present;
  ids.insert(outcome.acknowledged.begin(), outcome.acknowledged.end());
  for (int64_t id : ids) {
    const bool p = present.count(id) != 0, a = outcome.acknowledged.count(id) != 0;
    if (p == a) continue;
    const std::string k = std::to_string(id);
    SqlResult heap = RunSql(s, "SELECT id, src, dst, amount FROM transfers WHERE id + 0 = " + k);
    out += "\ntransfer " + k + (a ? " acknowledged" : " not acknowledged") +
           (p ? ", present" : ", absent") + "; heap rows " + std::to_string(heap.rows.size()) +
           ", primary key rows " +
           std::to_string(Count(s, "SELECT count(*) FROM transfers WHERE id = " + k)) +
           "; session's last error: " + outcome.last_error[id / 1000000];
  }
  return out;
}

TEST(CrashRecovery, RandomCrashPointsKeepExactlyTheAcknowledgedTransfers) {
  const int iterations = EnvInt("MERIDIAN_CRASH_ITERATIONS", 40);
  const uint64_t seed = static_cast<uint64_t>(EnvInt("MERIDIAN_CRASH_SEED", 20261121));
  uint64_t total_acknowledged = 0, total_torn = 0;
  int tail_only = 0, rebuilt = 0, journaled = 0;
  for (int it = 0; it < iterations; ++it) {
    SCOPED_TRACE("iteration " + std::to_string(it) + ", seed " + std::to_string(seed));
    std::mt19937_64 rng(seed * 1000003 + it);
    TempDir dir;
    storage::FaultInjectionFileSystem fs(storage::FileSystem::Default());
    DatabaseOptions options;
    options.data_dir = dir.path() + "/data";
    options.buffer_pool_mb = it % 3 == 0 ? 0 : 8;  // 0: the smallest pool, so pages get evicted
    options.file_system = &fs;
    Outcome outcome;
    {
      auto db = Database::Open(options);
      ASSERT_TRUE(db.ok()) << db.status().message();
      std::unique_ptr<Session> s = (*db)->NewSession();
      std::string values;
      for (int a = 1; a <= kAccounts; ++a) {
        values += (a > 1 ? ", (" : "(") + std::to_string(a) + ", " +
                  std::to_string(kInitialBalance) + ")";
      }
      ASSERT_TRUE(RunSql(*s,
                         "CREATE TABLE accounts (id INT PRIMARY KEY, balance INT NOT NULL); "
                         "CREATE TABLE transfers (id BIGINT PRIMARY KEY, src INT, dst INT, "
                         "amount INT); INSERT INTO accounts VALUES " +
                             values)
                      .status.ok());
      if (it % 2 == 0) {
        ASSERT_TRUE((*db)->Checkpoint().ok());
      }
      // The crash: after this many more file operations, the disk stops taking writes.
      fs.FailAfter(static_cast<int64_t>(rng() % 600));
      std::vector<std::thread> threads;
      for (int t = 0; t < kSessions; ++t) {
        threads.emplace_back(Transfers, db->get(), t + 1, rng(), 400, &outcome);
      }
      // Fuzzy checkpoints while the sessions run (they die with the disk too).
      while (outcome.crashed_sessions.load() < kSessions) {
        if (!(*db)->Checkpoint().ok()) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(rng() % 5));
      }
      for (std::thread& t : threads) t.join();
      fs.SetFailWrites(true);  // whatever did not crash yet does now
      fs.SetFailSyncs(true);
      s.reset();
      (void)(*db)->Close();  // fails: nothing more reaches the disk
    }
    fs.SetFailWrites(false);
    fs.SetFailSyncs(false);
    fs.FailAfter(-1);
    ASSERT_TRUE(fs.DropUnsyncedData(rng() | 1).ok());  // power cut: unsynced writes lost or torn

    options.file_system = nullptr;
    auto db = Database::Open(options);
    ASSERT_TRUE(db.ok()) << "recovery failed: " << db.status().message();
    const RecoveryInfo info = (*db)->recovery();
    EXPECT_FALSE(info.clean);
    EXPECT_TRUE(info.tail_only);  // every record names its pages
    tail_only += info.indexes_rebuilt == 0 ? 1 : 0;
    rebuilt += info.indexes_rebuilt > 0 ? 1 : 0;
    journaled += info.journal_pages > 0 ? 1 : 0;
    std::unique_ptr<Session> s = (*db)->NewSession();
    EXPECT_EQ(Count(*s, "SELECT count(*) FROM accounts"), kAccounts);
    EXPECT_EQ(Count(*s, "SELECT sum(balance) FROM accounts"), kAccounts * kInitialBalance);
    // Every balance is the initial one plus what the surviving transfers moved.
    EXPECT_EQ(Count(*s, "SELECT count(*) FROM accounts a WHERE a.balance <> " +
                            std::to_string(kInitialBalance) +
                            " + (SELECT coalesce(sum(amount), 0) FROM transfers WHERE dst = a.id)"
                            " - (SELECT coalesce(sum(amount), 0) FROM transfers WHERE src = a.id)"),
              0);
    SqlResult ids = RunSql(*s, "SELECT id FROM transfers ORDER BY id");
    ASSERT_TRUE(ids.status.ok());
    std::set<int64_t> present;
    for (const std::string& row : ids.rows) present.insert(std::stoll(row));
    EXPECT_EQ(present, outcome.acknowledged)
        << "acknowledged " << outcome.acknowledged.size() << ", present " << present.size()
        << Differences(*s, present, outcome, info);
    // Index and heap agree: every account and every surviving transfer exactly once through
    // its primary key (checkpointed index files plus the log tail's entries), nothing else.
    for (int a = 1; a <= kAccounts; ++a) {
      EXPECT_EQ(Count(*s, "SELECT count(*) FROM accounts WHERE id = " + std::to_string(a)), 1)
          << "account " << a;
    }
    for (int64_t id : present) {
      EXPECT_EQ(Count(*s, "SELECT count(*) FROM transfers WHERE id = " + std::to_string(id)), 1)
          << "transfer " << id;
    }
    EXPECT_EQ(Count(*s, "SELECT count(*) FROM transfers WHERE id BETWEEN 0 AND 99999999"),
              static_cast<int64_t>(present.size()));
    // The recovered database takes new work.
    EXPECT_TRUE(RunSql(*s, "BEGIN; UPDATE accounts SET balance = balance WHERE id = 1; COMMIT")
                    .status.ok());
    s.reset();
    EXPECT_TRUE((*db)->Close().ok());
    total_acknowledged += outcome.acknowledged.size();
    total_torn += fs.pages_torn();
    if (::testing::Test::HasFailure()) break;
  }
  std::printf(
      "crash recovery: %d crash points, %llu acknowledged transfers kept, %llu page writes torn, "
      "%d recoveries from the log tail with checkpointed indexes, %d with index rebuilds, %d "
      "completing an interrupted index checkpoint\n",
      iterations, static_cast<unsigned long long>(total_acknowledged),
      static_cast<unsigned long long>(total_torn), tail_only, rebuilt, journaled);
  // Most recoveries used the checkpointed index files (IndexRecovery tests below cover the
  // rebuild of an index written outside a checkpoint image).
  if (iterations >= 10) {
    EXPECT_GT(tail_only, 0);
  }
}

// INSERT INTO t VALUES (id, id * 3) for ids in [from, to].
std::string InsertRange(int64_t from, int64_t to) {
  std::string sql = "INSERT INTO t VALUES ";
  for (int64_t id = from; id <= to; ++id) {
    sql += (id > from ? ", (" : "(") + std::to_string(id) + ", " + std::to_string(id * 3) + ")";
  }
  return sql;
}

// A power cut now: nothing more reaches the disk, then every unsynced write is lost or torn.
// A data directory under dir with buffer_pool_mb of pool, whose files go through fs.
DatabaseOptions CrashOptions(const TempDir& dir, storage::FileSystem* fs, size_t buffer_pool_mb) {
  DatabaseOptions options;
  options.data_dir = dir.path() + "/data";
  options.buffer_pool_mb = buffer_pool_mb;
  options.file_system = fs;
  return options;
}

void PowerCut(storage::FaultInjectionFileSystem* fs, std::unique_ptr<Session>* s,
              std::unique_ptr<Database>* db, uint64_t seed) {
  fs->SetFailWrites(true);
  fs->SetFailSyncs(true);
  s->reset();
  (void)(*db)->Close();
  db->reset();
  fs->SetFailWrites(false);
  fs->SetFailSyncs(false);
  ASSERT_TRUE(fs->DropUnsyncedData(seed).ok());
}

// Every row of t(id, v) with v = id * 3 for ids in want: found through the primary key and
// through the index on v, and nothing else through either.
void ExpectIndexesMatch(Session& s, const std::set<int64_t>& want) {
  EXPECT_EQ(Count(s, "SELECT count(*) FROM t"), static_cast<int64_t>(want.size()));
  for (int64_t id = 0; id <= 3000; ++id) {
    const int64_t expected = want.count(id) ? 1 : 0;
    ASSERT_EQ(Count(s, "SELECT count(*) FROM t WHERE id = " + std::to_string(id)), expected)
        << "primary key lookup of " << id;
    ASSERT_EQ(Count(s, "SELECT count(*) FROM t WHERE v = " + std::to_string(id * 3)), expected)
        << "index lookup of v = " << id * 3;
  }
}

// The ids left by the CheckpointedIndexes tests' changes: 1..2500 inserted, 101..150 moved to
// id + 2600, 201..260 deleted.
std::set<int64_t> IdsAfterTailChanges() {
  std::set<int64_t> ids;
  for (int64_t id = 1; id <= 2500; ++id) {
    if (id >= 101 && id <= 150) {
      ids.insert(id + 2600);
    } else if (id < 201 || id > 260) {
      ids.insert(id);
    }
  }
  return ids;
}

TEST(IndexRecovery, CheckpointedIndexesAreCaughtUpFromTheLogTailNotRebuilt) {
  TempDir dir;
  storage::FaultInjectionFileSystem fs(storage::FileSystem::Default());
  // Everything stays cached: no index page is written after the image.
  DatabaseOptions options = CrashOptions(dir, &fs, 8);
  std::set<int64_t> want;
  {
    auto db = Database::Open(options);
    ASSERT_TRUE(db.ok()) << db.status().message();
    EXPECT_TRUE((*db)->recovery().clean);  // a new data directory has nothing to recover
    std::unique_ptr<Session> s = (*db)->NewSession();
    ASSERT_TRUE(
        RunSql(*s, "CREATE TABLE t (id INT PRIMARY KEY, v INT); CREATE INDEX t_v ON t (v); " +
                       InsertRange(1, 2000))
            .status.ok());
    ASSERT_TRUE((*db)->Checkpoint().ok());
    // After the checkpoint, only the log tail knows: inserts, updates that move a row to a new
    // key, deletes, and an aborted transaction.
    ASSERT_TRUE(RunSql(*s, InsertRange(2001, 2500)).status.ok());
    ASSERT_TRUE(
        RunSql(*s, "UPDATE t SET id = id + 2600, v = (id + 2600) * 3 WHERE id BETWEEN 101 AND 150")
            .status.ok());
    ASSERT_TRUE(RunSql(*s, "DELETE FROM t WHERE id BETWEEN 201 AND 260").status.ok());
    ASSERT_TRUE(RunSql(*s, "BEGIN; INSERT INTO t VALUES (2999, 8997); ROLLBACK").status.ok());
    want = IdsAfterTailChanges();
    ExpectIndexesMatch(*s, want);
    PowerCut(&fs, &s, &*db, 7);
  }
  options.file_system = nullptr;
  auto db = Database::Open(options);
  ASSERT_TRUE(db.ok()) << "recovery failed: " << db.status().message();
  const RecoveryInfo info = (*db)->recovery();
  EXPECT_FALSE(info.clean);
  EXPECT_TRUE(info.tail_only);
  EXPECT_EQ(info.indexes_rebuilt, 0u);
  EXPECT_GT(info.tail_pages, 0u);
  std::unique_ptr<Session> s = (*db)->NewSession();
  ExpectIndexesMatch(*s, want);
  // A unique violation is still caught through the recovered primary key.
  const SqlResult dup = RunSql(*s, "INSERT INTO t VALUES (2701, 1)");
  ASSERT_FALSE(dup.status.ok());
  EXPECT_EQ(dup.status.sqlstate(), "23505");
}

TEST(IndexRecovery, IndexWrittenOutsideACheckpointImageIsRebuilt) {
  TempDir dir;
  storage::FaultInjectionFileSystem fs(storage::FileSystem::Default());
  // The smallest pool: dirty index pages must be evicted.
  DatabaseOptions options = CrashOptions(dir, &fs, 0);
  std::set<int64_t> want;
  {
    auto db = Database::Open(options);
    ASSERT_TRUE(db.ok()) << db.status().message();
    std::unique_ptr<Session> s = (*db)->NewSession();
    ASSERT_TRUE(RunSql(*s, "CREATE TABLE t (id INT PRIMARY KEY, v INT); CREATE INDEX t_v ON t (v)")
                    .status.ok());
    ASSERT_TRUE((*db)->Checkpoint().ok());
    for (int64_t from = 1; from <= 3000; from += 100) {
      ASSERT_TRUE(RunSql(*s, InsertRange(from, from + 99)).status.ok());
    }
    for (int64_t id = 1; id <= 3000; ++id) want.insert(id);
    PowerCut(&fs, &s, &*db, 11);
  }
  options.file_system = nullptr;
  auto db = Database::Open(options);
  ASSERT_TRUE(db.ok()) << "recovery failed: " << db.status().message();
  const RecoveryInfo info = (*db)->recovery();
  EXPECT_TRUE(info.tail_only);
  EXPECT_GE(info.indexes_rebuilt, 1u);  // pages of it were evicted (written) after the image
  std::unique_ptr<Session> s = (*db)->NewSession();
  ExpectIndexesMatch(*s, want);
}

TEST(IndexRecovery, LoggedDeletesBeforeTruncateDoNotTouchTheNewRows) {
  TempDir dir;
  storage::FaultInjectionFileSystem fs(storage::FileSystem::Default());
  DatabaseOptions options = CrashOptions(dir, &fs, 8);
  {
    auto db = Database::Open(options);
    ASSERT_TRUE(db.ok()) << db.status().message();
    std::unique_ptr<Session> s = (*db)->NewSession();
    ASSERT_TRUE(RunSql(*s, "CREATE TABLE t (id INT PRIMARY KEY, v INT); " + InsertRange(1, 50))
                    .status.ok());
    ASSERT_TRUE((*db)->Checkpoint().ok());
    // Committed deletes (their end stamps are in the log tail), then a new heap whose rows
    // take the same slots.
    ASSERT_TRUE(RunSql(*s, "DELETE FROM t WHERE id % 5 = 0").status.ok());
    ASSERT_TRUE(RunSql(*s, "TRUNCATE t").status.ok());
    ASSERT_TRUE(RunSql(*s, InsertRange(101, 150)).status.ok());
    PowerCut(&fs, &s, &*db, 5);
  }
  options.file_system = nullptr;
  auto db = Database::Open(options);
  ASSERT_TRUE(db.ok()) << "recovery failed: " << db.status().message();
  std::unique_ptr<Session> s = (*db)->NewSession();
  EXPECT_EQ(Count(*s, "SELECT count(*) FROM t"), 50);
  EXPECT_EQ(Count(*s, "SELECT count(*) FROM t WHERE id BETWEEN 101 AND 150"), 50);
}

TEST(IndexRecovery, TruncateLeavesNoOldPageImagesForItsNewFiles) {
  // TRUNCATE closes the old files (an index's dirty pages go out through the doublewrite area)
  // and creates new ones at the same paths: the area must be emptied after the old files are
  // flushed, or a crash puts an old index meta page (naming a root past the new file's end)
  // into the new file and the daemon cannot start.
  TempDir dir;
  storage::FaultInjectionFileSystem fs(storage::FileSystem::Default());
  DatabaseOptions options = CrashOptions(dir, &fs, 8);
  {
    auto db = Database::Open(options);
    ASSERT_TRUE(db.ok()) << db.status().message();
    std::unique_ptr<Session> s = (*db)->NewSession();
    ASSERT_TRUE(RunSql(*s, "CREATE TABLE t (id INT PRIMARY KEY, v INT); CREATE INDEX t_v ON t (v)")
                    .status.ok());
    ASSERT_TRUE(
        RunSql(*s, "INSERT INTO t SELECT g, g * 3 FROM generate_series(1, 60000) g").status.ok());
    ASSERT_TRUE((*db)->Checkpoint().ok());
    // Dirty index pages that were on disk before: rewrites when TRUNCATE closes the files.
    ASSERT_TRUE(RunSql(*s, "UPDATE t SET v = v + 1 WHERE id % 3 = 0").status.ok());
    ASSERT_TRUE(RunSql(*s, "TRUNCATE t").status.ok());
    ASSERT_TRUE(RunSql(*s, InsertRange(5001, 5010)).status.ok());
    ASSERT_TRUE((*db)->Checkpoint().ok());  // the new index files become checkpoint images
    PowerCut(&fs, &s, &*db, 7);
  }
  options.file_system = nullptr;
  auto db = Database::Open(options);
  ASSERT_TRUE(db.ok()) << "recovery failed: " << db.status().message();
  std::unique_ptr<Session> s = (*db)->NewSession();
  EXPECT_EQ(Count(*s, "SELECT count(*) FROM t"), 10);
  EXPECT_EQ(Count(*s, "SELECT count(*) FROM t WHERE v = 5003 * 3"), 1);
  EXPECT_EQ(Count(*s, "SELECT count(*) FROM t WHERE id = 17"), 0);
}

// R-tree indexes: r(id, x, y) with the point (id * 0.5, id % 50) per row, indexed by
// r_xy USING rtree (x, y).
std::string InsertPoints(int64_t from, int64_t to) {
  std::string sql = "INSERT INTO r VALUES ";
  for (int64_t id = from; id <= to; ++id) {
    sql += (id > from ? ", (" : "(") + std::to_string(id) + ", " + std::to_string(id) + " * 0.5, " +
           std::to_string(id % 50) + ")";
  }
  return sql;
}

// Every id in want is found through r_xy by its point, nothing else is, and box queries count
// what the heap holds; the plans use the R-tree.
void ExpectRTreeMatches(Session& s, const std::set<int64_t>& want) {
  const std::string point = "SELECT count(*) FROM r WHERE x = 10.5 AND y = 21";
  SqlResult plan = RunSql(s, "EXPLAIN " + point);
  ASSERT_TRUE(plan.status.ok()) << plan.status.message();
  ASSERT_FALSE(plan.rows.empty());
  std::string text;
  for (const std::string& line : plan.rows) text += line + "\n";
  // (An Index Only Scan since the visibility map: it still reads every entry's heap page
  // until a checkpoint marks the pages all-visible.)
  EXPECT_TRUE(text.find("Index Scan using r_xy on r") != std::string::npos ||
              text.find("Index Only Scan using r_xy on r") != std::string::npos)
      << text;
  EXPECT_EQ(Count(s, "SELECT count(*) FROM r"), static_cast<int64_t>(want.size()));
  for (int64_t id = 0; id <= 3000; ++id) {
    const int64_t expected = want.count(id) ? 1 : 0;
    ASSERT_EQ(Count(s, "SELECT count(*) FROM r WHERE x = " + std::to_string(id) +
                           " * 0.5 AND y = " + std::to_string(id % 50)),
              expected)
        << "R-tree lookup of row " << id;
  }
  for (int64_t lo = 0; lo < 1500; lo += 97) {
    int64_t expected = 0;
    for (int64_t id : want) expected += id * 0.5 >= lo && id * 0.5 <= lo + 40 && id % 50 < 10;
    ASSERT_EQ(Count(s, "SELECT count(*) FROM r WHERE x BETWEEN " + std::to_string(lo) + " AND " +
                           std::to_string(lo + 40) + " AND y >= 0 AND y < 10"),
              expected)
        << "box from x = " << lo;
  }
}

// Opens the data directory's catalog alone (the database closed) and runs RTree::Verify on
// r_xy (boxes, fill bounds, reachability, and its entry count against the live rows) and
// BTree::Verify on the primary key.
void VerifyRTree(const std::string& data_dir, uint64_t entries) {
  storage::BufferPool pool(1024);
  auto catalog = catalog::Catalog::Open(data_dir, &pool);
  ASSERT_TRUE(catalog.ok()) << catalog.status().message();
  std::shared_ptr<catalog::Table> table = (*catalog)->Find("r");
  ASSERT_NE(table, nullptr);
  bool found = false;
  for (const std::shared_ptr<catalog::Index>& index : table->IndexSnapshot()) {
    if (index->name() == "r_pkey") {
      auto stats = index->tree()->Verify();
      ASSERT_TRUE(stats.ok()) << stats.status().message();
      EXPECT_GE(stats->entries, entries);
    }
    if (index->name() != "r_xy") continue;
    found = true;
    ASSERT_NE(index->rtree(), nullptr);
    auto stats = index->rtree()->Verify();
    ASSERT_TRUE(stats.ok()) << stats.status().message();
    // Garbage collection may not have run yet: entries of dead versions can remain.
    EXPECT_GE(stats->entries, entries);
  }
  EXPECT_TRUE(found);
  ASSERT_TRUE((*catalog)->Close().ok());
}

TEST(RTreeRecovery, CheckpointedRTreeIsCaughtUpFromTheLogTail) {
  TempDir dir;
  storage::FaultInjectionFileSystem fs(storage::FileSystem::Default());
  DatabaseOptions options = CrashOptions(dir, &fs, 8);
  std::set<int64_t> want;
  {
    auto db = Database::Open(options);
    ASSERT_TRUE(db.ok()) << db.status().message();
    std::unique_ptr<Session> s = (*db)->NewSession();
    ASSERT_TRUE(RunSql(*s, "CREATE TABLE r (id INT PRIMARY KEY, x FLOAT8, y INT); " +
                               InsertPoints(1, 2000) +
                               "; CREATE INDEX r_xy ON r USING gist (x, y); ANALYZE r")
                    .status.ok());
    ASSERT_TRUE((*db)->Checkpoint().ok());
    // After the checkpoint only the log tail knows: inserts, updates that move points,
    // deletes, an aborted transaction.
    ASSERT_TRUE(RunSql(*s, InsertPoints(2001, 2500)).status.ok());
    ASSERT_TRUE(RunSql(*s,
                       "UPDATE r SET id = id + 2600, x = (id + 2600) * 0.5, "
                       "y = (id + 2600) % 50 WHERE id BETWEEN 101 AND 150")
                    .status.ok());
    ASSERT_TRUE(RunSql(*s, "DELETE FROM r WHERE id BETWEEN 201 AND 260").status.ok());
    ASSERT_TRUE(RunSql(*s, "BEGIN; " + InsertPoints(2999, 2999) + "; ROLLBACK").status.ok());
    want = IdsAfterTailChanges();
    ExpectRTreeMatches(*s, want);
    PowerCut(&fs, &s, &*db, 7);
  }
  options.file_system = nullptr;
  {
    auto db = Database::Open(options);
    ASSERT_TRUE(db.ok()) << "recovery failed: " << db.status().message();
    const RecoveryInfo info = (*db)->recovery();
    EXPECT_FALSE(info.clean);
    EXPECT_TRUE(info.tail_only);
    EXPECT_EQ(info.indexes_rebuilt, 0u);
    std::unique_ptr<Session> s = (*db)->NewSession();
    ExpectRTreeMatches(*s, want);
    s.reset();
    ASSERT_TRUE((*db)->Close().ok());
  }
  VerifyRTree(options.data_dir, want.size());
}

TEST(RTreeRecovery, RTreeWrittenOutsideACheckpointImageIsRebuilt) {
  TempDir dir;
  storage::FaultInjectionFileSystem fs(storage::FileSystem::Default());
  DatabaseOptions options = CrashOptions(dir, &fs, 0);  // dirty index pages get evicted
  std::set<int64_t> want;
  {
    auto db = Database::Open(options);
    ASSERT_TRUE(db.ok()) << db.status().message();
    std::unique_ptr<Session> s = (*db)->NewSession();
    ASSERT_TRUE(RunSql(*s,
                       "CREATE TABLE r (id INT PRIMARY KEY, x FLOAT8, y INT); "
                       "CREATE INDEX r_xy ON r USING rtree (x, y)")
                    .status.ok());
    ASSERT_TRUE((*db)->Checkpoint().ok());
    for (int64_t from = 1; from <= 3000; from += 100) {
      ASSERT_TRUE(RunSql(*s, InsertPoints(from, from + 99)).status.ok());
    }
    ASSERT_TRUE(RunSql(*s, "ANALYZE r").status.ok());
    for (int64_t id = 1; id <= 3000; ++id) want.insert(id);
    PowerCut(&fs, &s, &*db, 11);
  }
  options.file_system = nullptr;
  {
    auto db = Database::Open(options);
    ASSERT_TRUE(db.ok()) << "recovery failed: " << db.status().message();
    EXPECT_GE((*db)->recovery().indexes_rebuilt, 1u);
    std::unique_ptr<Session> s = (*db)->NewSession();
    ExpectRTreeMatches(*s, want);
    s.reset();
    ASSERT_TRUE((*db)->Close().ok());
  }
  VerifyRTree(options.data_dir, want.size());
}

}  // namespace
}  // namespace meridian::testing
