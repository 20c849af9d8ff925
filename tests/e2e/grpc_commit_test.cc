// Commits over gRPC that no worker thread waits for (server/grpc/README.md invariant 6): a
// COMMIT (or BEGIN) sent as text, or a prepared one, runs on gRPC's thread, its transaction goes
// to the group committer and the answer is written from the committer's completion. On both
// carriers of a request: the session stream (ExecuteSession, the client library's default) and
// ExecuteStream calls (the client library's choice for a request with a timeout). These would
// fail if such a commit still needed a worker-pool thread, if a client heard COMMIT before its
// group was durable, or if a commit's error were lost.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/mount.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <random>
#include <set>
#include <thread>

#include "daemon_harness.h"
#include "meridian/client/connection.h"

namespace meridian::e2e {
namespace {

using client::Connection;
using client::Value;
using namespace std::chrono_literals;

std::unique_ptr<Connection> Connect(const Daemon& d) {
  auto conn = Connection::Connect("127.0.0.1", d.port());
  EXPECT_TRUE(conn.ok()) << conn.error().ToString();
  if (!conn.ok()) return nullptr;
  return std::move(*conn);
}

// The options of a request: on the session stream, or (with a timeout) as an ExecuteStream call.
client::ExecuteOptions Carrier(bool execute_stream) {
  client::ExecuteOptions o;
  if (execute_stream) o.timeout = 60s;
  return o;
}

// A block inserting key and then incrementing its n, with BEGIN and COMMIT as text (or
// prepared: bgn, cmt) and the writes prepared (ins, upd). Returns the first failure's SQLSTATE
// ("" when it committed) and which statement failed.
struct BlockOutcome {
  std::string sqlstate;
  std::string failed;  // "BEGIN", "INSERT", "UPDATE", "COMMIT"
};
BlockOutcome RunBlock(Connection& c, bool execute_stream, int64_t key, bool update = true,
                      bool prepared_control = false) {
  const client::ExecuteOptions o = Carrier(execute_stream);
  if (prepared_control) {
    auto begin = c.ExecutePrepared("bgn", {}, o);
    if (!begin.ok()) return {begin.error().sqlstate, "BEGIN"};
  } else {
    auto begin = c.Execute("BEGIN", o);
    if (!begin.ok()) return {begin.error().sqlstate, "BEGIN"};
  }
  auto ins = c.ExecutePrepared("ins", {Value::Int(key)}, o);
  if (!ins.ok()) return {ins.error().sqlstate, "INSERT"};
  if (update) {
    auto upd = c.ExecutePrepared("upd", {Value::Int(key)}, o);
    if (!upd.ok()) return {upd.error().sqlstate, "UPDATE"};
  }
  if (prepared_control) {
    auto commit = c.ExecutePrepared("cmt", {}, o);
    if (!commit.ok()) return {commit.error().sqlstate, "COMMIT"};
    EXPECT_EQ(commit->command_tag, "COMMIT");
  } else {
    auto commit = c.Execute("COMMIT", o);
    if (!commit.ok()) return {commit.error().sqlstate, "COMMIT"};
    EXPECT_EQ((*commit)[0].command_tag, "COMMIT");
  }
  return {};
}

// The same writes as autocommit statements, each with its own commit.
BlockOutcome RunAutocommit(Connection& c, bool execute_stream, int64_t key) {
  const client::ExecuteOptions o = Carrier(execute_stream);
  auto ins = c.ExecutePrepared("ins", {Value::Int(key)}, o);
  if (!ins.ok()) return {ins.error().sqlstate, "INSERT"};
  auto upd = c.ExecutePrepared("upd", {Value::Int(key)}, o);
  if (!upd.ok()) return {upd.error().sqlstate, "UPDATE"};
  return {};
}

void PrepareWrites(Connection& c) {
  const std::pair<const char*, const char*> statements[] = {
      {"ins", "INSERT INTO t VALUES ($1, 0)"},
      {"upd", "UPDATE t SET n = n + 1 WHERE id = $1"},
      {"bgn", "BEGIN"},
      {"cmt", "COMMIT"},
  };
  for (const auto& [id, sql] : statements) {
    client::PrepareOptions options;
    options.id = id;
    auto prepared = c.Prepare(sql, options);
    ASSERT_TRUE(prepared.ok()) << sql << ": " << prepared.error().ToString();
  }
}

// Every kind of commit of the path test, on one carrier: a block with BEGIN and COMMIT as text,
// one with them prepared, and two autocommit writes. Keys key, key + 1000, key + 2000.
void RunEveryKind(Connection& c, bool execute_stream, int64_t key) {
  const char* carrier = execute_stream ? "ExecuteStream" : "session stream";
  BlockOutcome o = RunBlock(c, execute_stream, key);
  EXPECT_EQ(o.sqlstate, "") << carrier << ", text block, " << o.failed;
  o = RunBlock(c, execute_stream, key + 1000, true, /*prepared_control=*/true);
  EXPECT_EQ(o.sqlstate, "") << carrier << ", prepared block, " << o.failed;
  o = RunAutocommit(c, execute_stream, key + 2000);
  EXPECT_EQ(o.sqlstate, "") << carrier << ", autocommit, " << o.failed;
}

// With one worker thread, busy with pg_sleep, blocks whose writes are prepared (BEGIN and COMMIT
// as text, or prepared) and prepared autocommit writes still commit, on both carriers, before
// the sleep ends.
TEST(GrpcCommit, BlocksCommitWhileTheOnlyWorkerThreadSleeps) {
  TempDir dir;
  Daemon d(dir.path() + "/data", {"--worker-threads", "1", "--log-level", "warn"});
  ASSERT_TRUE(d.started()) << d.Log();
  auto admin = Connect(d);
  ASSERT_TRUE(admin);
  ASSERT_TRUE(admin->Execute("CREATE TABLE t (id INTEGER PRIMARY KEY, n INTEGER)").ok());
  auto stream = Connect(d);
  auto calls = Connect(d);
  ASSERT_TRUE(stream && calls);
  PrepareWrites(*stream);
  PrepareWrites(*calls);
  // The first runs (which plan the prepared writes) use the pool: warm up before it is taken.
  for (int64_t k = 1; k <= 3; ++k) {
    RunEveryKind(*stream, false, k);
    RunEveryKind(*calls, true, 100 + k);
  }

  std::atomic<bool> slept{false};
  std::thread sleeper([&] {
    EXPECT_TRUE(admin->Execute("SELECT pg_sleep(8)").ok());
    slept = true;
  });
  std::this_thread::sleep_for(300ms);  // the sleep has the worker thread
  const auto start = std::chrono::steady_clock::now();
  for (int64_t k = 10; k < 20; ++k) {
    RunEveryKind(*stream, false, k);
    RunEveryKind(*calls, true, 100 + k);
  }
  const double took =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_FALSE(slept.load()) << "60 commits took " << took
                             << " s: they waited for the worker thread's sleep";
  sleeper.join();
  auto rows = admin->Execute("SELECT count(*), sum(n) FROM t");
  ASSERT_TRUE(rows.ok()) << rows.error().ToString();
  EXPECT_EQ((*rows)[0].rows[0][0].ToText(), "78");  // (3 + 10) × 3 kinds × 2 carriers
  EXPECT_EQ((*rows)[0].rows[0][1].ToText(), "78");
  std::printf("path: 60 commits in %.3f s while the only worker thread slept\n", took);
}

// Many sessions commit blocks at once, half on each carrier, until meridiand is killed with
// SIGKILL; after a restart every block whose COMMIT was acknowledged is there in full and
// nothing that was never sent.
TEST(GrpcCommit, AcknowledgedCommitsSurviveAKill) {
  TempDir dir;
  const std::string data = dir.path() + "/data";
  std::set<int64_t> sent, acknowledged;
  {
    Daemon d(data, {"--log-level", "warn"});
    ASSERT_TRUE(d.started()) << d.Log();
    auto admin = Connect(d);
    ASSERT_TRUE(admin);
    ASSERT_TRUE(admin->Execute("CREATE TABLE t (id INTEGER PRIMARY KEY, n INTEGER)").ok());
    constexpr int kSessions = 32;
    std::vector<std::unique_ptr<Connection>> conns;
    for (int i = 0; i < kSessions; ++i) {
      conns.push_back(Connect(d));
      ASSERT_TRUE(conns.back());
      PrepareWrites(*conns.back());
    }
    std::mutex mu;
    std::atomic<bool> stop{false};
    std::vector<std::thread> workers;
    for (int i = 0; i < kSessions; ++i) {
      workers.emplace_back([&, i] {
        int64_t k = int64_t{i + 1} * 1'000'000;
        while (!stop) {
          ++k;
          {
            std::lock_guard lock(mu);
            sent.insert(k);
          }
          if (!RunBlock(*conns[i], i % 2 == 1, k).sqlstate.empty()) return;  // the kill
          std::lock_guard lock(mu);
          acknowledged.insert(k);
        }
      });
    }
    std::mt19937 rng(std::random_device{}());
    std::this_thread::sleep_for(std::chrono::milliseconds(1500 + rng() % 1500));
    d.Stop(SIGKILL);
    stop = true;
    for (std::thread& w : workers) w.join();
  }
  ASSERT_GT(acknowledged.size(), 100u) << "too few commits before the kill";
  Daemon d(data, {"--log-level", "warn"});
  ASSERT_TRUE(d.started()) << d.Log();
  auto c = Connect(d);
  ASSERT_TRUE(c);
  auto rows = c->Execute("SELECT id, n FROM t");
  ASSERT_TRUE(rows.ok()) << rows.error().ToString();
  std::map<int64_t, std::string> present;
  for (const auto& row : (*rows)[0].rows) present[row[0].as_int()] = row[1].ToText();
  size_t lost = 0, partial = 0, unsent = 0;
  for (int64_t k : acknowledged) {
    auto it = present.find(k);
    if (it == present.end()) {
      ++lost;
    } else if (it->second != "1") {
      ++partial;
    }
  }
  for (const auto& [k, n] : present) unsent += sent.count(k) == 0 ? 1 : 0;
  EXPECT_EQ(lost, 0u) << "acknowledged commits lost";
  EXPECT_EQ(partial, 0u) << "blocks committed in part";
  EXPECT_EQ(unsent, 0u) << "rows that were never sent";
  std::printf("durability: %zu acknowledged commits of 32 sessions all there after kill -9\n",
              acknowledged.size());
}

// Writes path until the file system is full.
void Fill(const std::string& path) {
  std::ofstream f(path, std::ios::binary);
  const std::string mb(1 << 20, '\0');
  while (f.write(mb.data(), static_cast<std::streamsize>(mb.size())) && f.flush()) {
  }
  std::ofstream g(path + ".2", std::ios::binary);
  const std::string page(4096, '\0');
  while (g.write(page.data(), static_cast<std::streamsize>(page.size())) && g.flush()) {
  }
}

// On a full disk (a small tmpfs) a COMMIT over gRPC fails with 53100 on either carrier, its row
// absent, the block ended; once space is freed the same blocks commit.
TEST(GrpcCommit, ACommitsErrorReachesTheClientWithItsSqlstate) {
  TempDir dir;
  const std::string data = dir.path() + "/data";
  std::filesystem::create_directories(data);
  if (mount("tmpfs", data.c_str(), "tmpfs", 0, "size=48m") != 0) {
    GTEST_SKIP() << "cannot mount a tmpfs here: " << std::strerror(errno);
  }
  struct Unmount {
    std::string path;
    ~Unmount() { umount2(path.c_str(), MNT_DETACH); }
  } unmount{data};
  Daemon d(data,
           {"--buffer-pool-mb", "16", "--log-level", "warn", "--checkpoint-interval-s", "3600"});
  ASSERT_TRUE(d.started()) << d.Log();
  auto c = Connect(d);
  ASSERT_TRUE(c);
  ASSERT_TRUE(c->Execute("CREATE TABLE t (id INTEGER PRIMARY KEY, n INTEGER)").ok());
  PrepareWrites(*c);
  for (int64_t k = 1; k <= 3; ++k) ASSERT_EQ(RunBlock(*c, false, k).sqlstate, "");
  Fill(data + "/filler");
  // Blocks of one small row until a COMMIT fails (an INSERT that needs a new page fails itself,
  // and the block is rolled back): first on the session stream, then as ExecuteStream calls.
  std::set<int64_t> committed;
  int64_t k = 1000;
  for (bool execute_stream : {false, true}) {
    std::string commit_error;
    for (int i = 0; i < 2000 && commit_error.empty(); ++i) {
      BlockOutcome o = RunBlock(*c, execute_stream, ++k, /*update=*/false);
      if (o.sqlstate.empty()) {
        committed.insert(k);
      } else if (o.failed == "COMMIT") {
        commit_error = o.sqlstate;
      } else {
        ASSERT_EQ(o.sqlstate, "53100") << o.failed;
        ASSERT_TRUE(c->Execute("ROLLBACK").ok());
      }
    }
    EXPECT_EQ(commit_error, "53100") << (execute_stream ? "ExecuteStream" : "session stream");
    // The failed COMMIT ended the block: BEGIN starts a new one without a warning.
    auto begin = c->Execute("BEGIN");
    ASSERT_TRUE(begin.ok()) << begin.error().ToString();
    EXPECT_TRUE((*begin)[0].notices.empty()) << (*begin)[0].notices[0];
    ASSERT_TRUE(c->Execute("ROLLBACK").ok());
  }
  ASSERT_TRUE(d.Alive()) << "meridiand died on a full disk";
  auto rows = c->Execute("SELECT id FROM t WHERE id >= 1000");
  ASSERT_TRUE(rows.ok()) << rows.error().ToString();
  std::set<int64_t> got;
  for (const auto& row : (*rows)[0].rows) got.insert(row[0].as_int());
  EXPECT_EQ(got, committed);
  std::filesystem::remove(data + "/filler");
  std::filesystem::remove(data + "/filler.2");
  EXPECT_EQ(RunBlock(*c, false, 3000).sqlstate, "");
  EXPECT_EQ(RunBlock(*c, true, 3001).sqlstate, "");
  rows = c->Execute("SELECT count(*) FROM t WHERE id IN (3000, 3001)");
  ASSERT_TRUE(rows.ok());
  EXPECT_EQ((*rows)[0].rows[0][0].ToText(), "2");
  c.reset();
  EXPECT_EQ(d.Stop(SIGTERM), 0) << d.Log();
}

}  // namespace
}  // namespace meridian::e2e
