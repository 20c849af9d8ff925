// TxnManager: the visibility rule of docs/txn.md section 2 for every kind of header
// field, commit publication, aborts, waits for a row's writer and deadlock detection.
#include "txn/txn_manager.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

namespace meridian::txn {
namespace {

// Polls until n transactions are blocked in WaitFor (a deterministic point to act at, instead of
// a sleep that a loaded machine may outlast); fails the test after 10 s.
void AwaitLockWaits(const TxnManager& tm, size_t n) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (tm.LockWaits().size() != n) {
    ASSERT_LT(std::chrono::steady_clock::now(), deadline) << "waiters never reached " << n;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

TEST(TxnManager, VisibilityRule) {
  TxnManager tm;
  const uint64_t writer = tm.Begin();
  const uint64_t reader = tm.Begin();
  Snapshot before = tm.TakeSnapshot(reader);
  // Pre-MVCC rows (begin 0, end 0) are visible to everyone.
  EXPECT_TRUE(tm.Visible(0, 0, before));
  // Uncommitted: only the writer sees its own version; its own delete hides it.
  EXPECT_FALSE(tm.Visible(writer, 0, before));
  EXPECT_TRUE(tm.Visible(writer, 0, tm.TakeSnapshot(writer)));
  EXPECT_FALSE(tm.Visible(writer, writer, tm.TakeSnapshot(writer)));
  // A running deleter does not hide a version from others.
  EXPECT_TRUE(tm.Visible(0, writer, before));
  const Timestamp ts = tm.AssignCommitTs(writer);
  // Committing but not yet published: still invisible / still not deleted.
  EXPECT_FALSE(tm.Visible(writer, 0, tm.TakeSnapshot(reader)));
  tm.Publish({writer});
  EXPECT_EQ(tm.Resolve(writer), ts);
  EXPECT_EQ(tm.State(writer), TxnState::kCommitted);
  // The old snapshot still does not see it; a new one does.
  EXPECT_FALSE(tm.Visible(writer, 0, before));
  EXPECT_TRUE(tm.Visible(0, writer, before));
  Snapshot after = tm.TakeSnapshot(reader);
  EXPECT_TRUE(tm.Visible(writer, 0, after));
  EXPECT_FALSE(tm.Visible(0, writer, after));
  // Stamped timestamps behave like the committed id.
  EXPECT_TRUE(tm.Visible(ts, 0, after));
  EXPECT_FALSE(tm.Visible(ts, 0, before));
  EXPECT_FALSE(tm.Visible(0, ts, after));
  // Aborted versions never become visible, aborted deletes never hide.
  const uint64_t loser = tm.Begin();
  tm.Abort(loser);
  Snapshot later = tm.TakeSnapshot(reader);
  EXPECT_FALSE(tm.Visible(loser, 0, later));
  EXPECT_TRUE(tm.Visible(0, loser, later));
  // Ids nobody knows (left by a crash) are aborted.
  EXPECT_EQ(tm.State(kTxnIdBit | 999999), TxnState::kAborted);
  EXPECT_EQ(tm.Resolve(kTxnIdBit | 999999), kInfinity);
}

// A snapshot extended through a committing transaction's timestamp (a writer that depends on
// it, catalog::Transaction::RefreshSnapshot without rows to show) sees its versions and
// deletes; a snapshot as TakeSnapshot hands it out never does.
TEST(TxnManager, ExtendedSnapshotSeesDecidedCommits) {
  TxnManager tm;
  const uint64_t writer = tm.Begin(), other = tm.Begin(), reader = tm.Begin();
  const Timestamp ts = tm.AssignCommitTs(writer);
  const Timestamp later = tm.AssignCommitTs(other);
  Snapshot plain = tm.TakeSnapshot(reader);
  EXPECT_LT(plain.read_ts, ts);
  EXPECT_FALSE(tm.Visible(writer, 0, plain));
  EXPECT_TRUE(tm.Visible(0, writer, plain));
  Snapshot through = plain;
  through.read_ts = ts;
  EXPECT_TRUE(tm.Visible(writer, 0, through));
  EXPECT_FALSE(tm.Visible(0, writer, through));
  // A commit decided after the one it reads through stays invisible.
  EXPECT_FALSE(tm.Visible(other, 0, through));
  EXPECT_TRUE(tm.Visible(0, other, through));
  // Its group failed: its versions vanish and its deletes are undone for that snapshot too.
  tm.Abort(writer);
  EXPECT_TRUE(tm.FailedCommit(writer));
  EXPECT_FALSE(tm.Visible(writer, 0, through));
  EXPECT_TRUE(tm.Visible(0, writer, through));
  tm.Publish({other});
  EXPECT_EQ(tm.published_ts(), later);
}

TEST(TxnManager, PublishedTimestampsAreMonotonicAndRecovered) {
  TxnManager tm;
  const uint64_t a = tm.Begin(), b = tm.Begin();
  const Timestamp ta = tm.AssignCommitTs(a), tb = tm.AssignCommitTs(b);
  EXPECT_LT(ta, tb);
  tm.Publish({a, b});
  EXPECT_EQ(tm.published_ts(), tb);
  TxnManager again;
  again.RecoverCommitted(b, tb);
  EXPECT_EQ(again.published_ts(), tb);
  EXPECT_EQ(again.State(b), TxnState::kCommitted);
  EXPECT_EQ(again.State(a), TxnState::kAborted);  // not in the log: never committed
  EXPECT_GT(again.Begin(), b);                    // ids are never reused
  EXPECT_GT(again.AssignCommitTs(again.Begin()), tb);
}

TEST(TxnManager, WaitForEndsWhenTheHolderFinishes) {
  TxnManager tm;
  const uint64_t holder = tm.Begin(), waiter = tm.Begin();
  std::atomic<bool> done{false};
  TxnState seen = TxnState::kRunning;
  std::thread t([&] {
    auto r = tm.WaitFor(waiter, holder, nullptr);
    ASSERT_TRUE(r.ok());
    seen = *r;
    done = true;
  });
  AwaitLockWaits(tm, 1);
  EXPECT_FALSE(done.load());
  tm.AssignCommitTs(holder);
  tm.Publish({holder});
  t.join();
  EXPECT_EQ(seen, TxnState::kCommitted);
  // Waiting for a finished transaction returns at once; a cancelled wait returns its error.
  EXPECT_EQ(*tm.WaitFor(waiter, holder, nullptr), TxnState::kCommitted);
  const uint64_t slow = tm.Begin();
  auto cancelled =
      tm.WaitFor(waiter, slow, [] { return Status::Error("57014", "canceling statement"); });
  EXPECT_EQ(cancelled.status().sqlstate(), "57014");
}

TEST(TxnManager, WaitersAreWokenByTheirOwnHolder) {
  TxnManager tm;
  const uint64_t h1 = tm.Begin(), h2 = tm.Begin();
  const uint64_t w1 = tm.Begin(), w2 = tm.Begin(), w3 = tm.Begin();
  std::atomic<int> finished{0};
  TxnState s1 = TxnState::kAborted, s2 = TxnState::kAborted, s3 = TxnState::kAborted;
  auto wait = [&](uint64_t waiter, uint64_t holder, TxnState* out) {
    return std::thread([&, waiter, holder, out] {
      auto r = tm.WaitFor(waiter, holder, nullptr);
      ASSERT_TRUE(r.ok());
      *out = *r;
      ++finished;
    });
  };
  std::thread t1 = wait(w1, h1, &s1), t2 = wait(w2, h1, &s2), t3 = wait(w3, h2, &s3);
  AwaitLockWaits(tm, 3);
  // h2 gives rows back: its waiter looks again (kRunning); h1's two stay asleep.
  tm.NotifyReleased(h2);
  t3.join();
  EXPECT_EQ(s3, TxnState::kRunning);
  // The absence of a wake-up can only be watched for a while: h1's waiters are still waiting.
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  EXPECT_EQ(finished.load(), 1);
  EXPECT_EQ(tm.LockWaits().size(), 2u);
  // Another transaction's commit does not end h1's waits; h1's abort ends both.
  tm.AssignCommitTs(h2);
  tm.Publish({h2});
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  EXPECT_EQ(finished.load(), 1);
  tm.Abort(h1);
  t1.join();
  t2.join();
  EXPECT_EQ(s1, TxnState::kAborted);
  EXPECT_EQ(s2, TxnState::kAborted);
  EXPECT_TRUE(tm.LockWaits().empty());
}

TEST(TxnManager, DeadlockIsDetected) {
  TxnManager tm;
  const uint64_t a = tm.Begin(), b = tm.Begin();
  std::thread t([&] {
    auto r = tm.WaitFor(a, b, nullptr);  // a waits for b ...
    EXPECT_TRUE(r.ok());
    EXPECT_EQ(*r, TxnState::kAborted);
  });
  AwaitLockWaits(tm, 1);               // a's wait is registered, so b's closes the cycle
  auto r = tm.WaitFor(b, a, nullptr);  // ... and b for a: b is the victim
  EXPECT_EQ(r.status().sqlstate(), "40P01");
  tm.Abort(b);
  t.join();
}

}  // namespace
}  // namespace meridian::txn
