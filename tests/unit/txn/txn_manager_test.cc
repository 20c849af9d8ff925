// TxnManager: the visibility rule of engine/txn/README.md section 2 for every kind of header
// field, commit publication, aborts, waits for a row's writer and deadlock detection.
#include "txn/txn_manager.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

namespace meridian::txn {
namespace {

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
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
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

TEST(TxnManager, DeadlockIsDetected) {
  TxnManager tm;
  const uint64_t a = tm.Begin(), b = tm.Begin();
  std::thread t([&] {
    auto r = tm.WaitFor(a, b, nullptr);  // a waits for b ...
    EXPECT_TRUE(r.ok());
    EXPECT_EQ(*r, TxnState::kAborted);
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  auto r = tm.WaitFor(b, a, nullptr);  // ... and b for a: b is the victim
  EXPECT_EQ(r.status().sqlstate(), "40P01");
  tm.Abort(b);
  t.join();
}

}  // namespace
}  // namespace meridian::txn
