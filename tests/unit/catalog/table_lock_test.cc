// TableLock: shared/exclusive exclusion, release from another thread (not thread-affine), and
// cancellation or deadline while waiting.
#include "catalog/table_lock.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

namespace meridian::catalog {
namespace {

using namespace std::chrono_literals;

TEST(TableLockTest, ReadersShareWritersExclude) {
  TableLock lock;
  ASSERT_TRUE(lock.Lock(LockMode::kShared, nullptr).ok());
  ASSERT_TRUE(lock.Lock(LockMode::kShared, nullptr).ok());
  std::atomic<bool> got{false};
  std::thread writer([&] {
    ASSERT_TRUE(lock.Lock(LockMode::kExclusive, nullptr).ok());
    got = true;
    lock.Unlock(LockMode::kExclusive);
  });
  std::this_thread::sleep_for(30ms);
  EXPECT_FALSE(got.load());
  lock.Unlock(LockMode::kShared);
  std::this_thread::sleep_for(10ms);
  EXPECT_FALSE(got.load());
  // Released by a different thread than the one that took it.
  std::thread([&] { lock.Unlock(LockMode::kShared); }).join();
  writer.join();
  EXPECT_TRUE(got.load());
}

TEST(TableLockTest, WaitIsCancellable) {
  TableLock lock;
  ASSERT_TRUE(lock.Lock(LockMode::kExclusive, nullptr).ok());
  ExecControl ctl;
  std::thread canceller([&] {
    std::this_thread::sleep_for(20ms);
    ctl.Cancel();
  });
  Status st = lock.Lock(LockMode::kShared, &ctl);
  canceller.join();
  EXPECT_EQ(st.sqlstate(), "57014");
  ExecControl timed;
  timed.SetDeadline(ExecControl::Clock::now() + 30ms);
  EXPECT_EQ(lock.Lock(LockMode::kExclusive, &timed).sqlstate(), "57014");
  lock.Unlock(LockMode::kExclusive);
  // Nothing leaked: both modes are free again.
  ASSERT_TRUE(lock.Lock(LockMode::kExclusive, nullptr).ok());
  lock.Unlock(LockMode::kExclusive);
}

// ExecControl::no_wait: a lock that is not free fails at once with WouldBlock and leaves no
// trace (a refused writer does not hold readers off); a free one is taken as usual.
TEST(TableLockTest, NoWaitRefusesInsteadOfWaiting) {
  TableLock lock;
  ExecControl no_wait;
  no_wait.set_no_wait(true);
  ASSERT_TRUE(lock.Lock(LockMode::kShared, &no_wait).ok());
  Status st = lock.Lock(LockMode::kExclusive, &no_wait);
  EXPECT_TRUE(ExecControl::IsWouldBlock(st)) << st.ToString();
  EXPECT_EQ(st.sqlstate(), "55P03");
  // The refused writer is not waiting: another reader gets in at once.
  ASSERT_TRUE(lock.Lock(LockMode::kShared, &no_wait).ok());
  lock.Unlock(LockMode::kShared);
  lock.Unlock(LockMode::kShared);

  ASSERT_TRUE(lock.Lock(LockMode::kExclusive, nullptr).ok());
  EXPECT_TRUE(ExecControl::IsWouldBlock(lock.Lock(LockMode::kShared, &no_wait)));
  EXPECT_TRUE(ExecControl::IsWouldBlock(lock.Lock(LockMode::kExclusive, &no_wait)));
  lock.Unlock(LockMode::kExclusive);
  ASSERT_TRUE(lock.Lock(LockMode::kExclusive, &no_wait).ok());
  lock.Unlock(LockMode::kExclusive);
  // Other errors never look like WouldBlock.
  EXPECT_FALSE(ExecControl::IsWouldBlock(Status::Error("55P03", "lock timeout")));
  EXPECT_FALSE(ExecControl::IsWouldBlock(Status::Ok()));
}

}  // namespace
}  // namespace meridian::catalog
