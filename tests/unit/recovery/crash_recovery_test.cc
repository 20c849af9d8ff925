// Randomized crash points under a bank workload (see README.md): every acknowledged transfer
// survives, nothing unacknowledged appears, balances add up, indexes agree with heaps.
#include <atomic>
#include <cstdlib>
#include <map>
#include <mutex>
#include <random>
#include <set>
#include <thread>

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

TEST(CrashRecovery, RandomCrashPointsKeepExactlyTheAcknowledgedTransfers) {
  const int iterations = EnvInt("MERIDIAN_CRASH_ITERATIONS", 40);
  const uint64_t seed = static_cast<uint64_t>(EnvInt("MERIDIAN_CRASH_SEED", 20261121));
  uint64_t total_acknowledged = 0, total_torn = 0;
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
        << "acknowledged " << outcome.acknowledged.size() << ", present " << present.size();
    // Index and heap agree: every account once through the primary key.
    for (int a = 1; a <= kAccounts; a += 7) {
      EXPECT_EQ(Count(*s, "SELECT count(*) FROM accounts WHERE id = " + std::to_string(a)), 1);
    }
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
      "crash recovery: %d crash points, %llu acknowledged transfers kept, %llu page writes torn\n",
      iterations, static_cast<unsigned long long>(total_acknowledged),
      static_cast<unsigned long long>(total_torn));
}

}  // namespace
}  // namespace meridian::testing
