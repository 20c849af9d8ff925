// The annotated Mutex, SharedMutex, scoped locks and CondVar (meridian/thread_annotations.h):
// mutual exclusion, Unlock/Lock in the middle of a scope, a deferred lock, shared readers,
// and CondVar waits that wake on a notify and time out without one.
#include "meridian/thread_annotations.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

namespace meridian {
namespace {

class Counter {
 public:
  void Add() {
    MutexLock lock(mu_);
    ++count_;
  }
  int count() {
    MutexLock lock(mu_);
    return count_;
  }
  // Releases mu_ in the middle: another thread's Add gets in while this one waits.
  bool AddAroundUnlock(std::atomic<bool>* released, std::atomic<bool>* other_done) {
    MutexLock lock(mu_);
    const int before = count_;
    lock.Unlock();
    released->store(true);
    while (!other_done->load()) std::this_thread::yield();
    lock.Lock();
    return count_ == before + 1;
  }
  bool AddDeferred(bool take) {
    MutexLock lock(mu_, std::defer_lock);
    if (!take) {
      if (!mu_.TryLock()) return false;
      mu_.Unlock();
      return true;
    }
    lock.Lock();
    ++count_;
    return true;
  }
  // Waits until count_ reaches n or the timeout passes; true when it did.
  bool WaitFor(int n, std::chrono::milliseconds timeout) {
    MutexLock lock(mu_);
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (count_ < n) {
      if (cv_.WaitUntil(mu_, deadline) == std::cv_status::timeout) break;
    }
    return count_ >= n;
  }
  void AddAndNotify() {
    {
      MutexLock lock(mu_);
      ++count_;
    }
    cv_.NotifyAll();
  }

 private:
  Mutex mu_;
  CondVar cv_;
  int count_ GUARDED_BY(mu_) = 0;
};

TEST(ThreadAnnotationsTest, MutexLockExcludesOtherThreads) {
  Counter c;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&c] {
      for (int i = 0; i < 10000; ++i) c.Add();
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(c.count(), 40000);
}

TEST(ThreadAnnotationsTest, UnlockInTheMiddleLetsOthersIn) {
  Counter c;
  std::atomic<bool> released{false}, done{false};
  bool saw_other = false;
  std::thread waiter([&] { saw_other = c.AddAroundUnlock(&released, &done); });
  // This Add gets in while the waiter's scope has mu_ released.
  while (!released.load()) std::this_thread::yield();
  c.Add();
  done = true;
  waiter.join();
  EXPECT_TRUE(saw_other);
}

TEST(ThreadAnnotationsTest, DeferredLockTakesTheMutexOnlyWhenAsked) {
  Counter c;
  EXPECT_TRUE(c.AddDeferred(false));  // not taken: TryLock succeeds inside the scope
  EXPECT_EQ(c.count(), 0);
  EXPECT_TRUE(c.AddDeferred(true));
  EXPECT_EQ(c.count(), 1);
}

// Whether mu could be taken (shared / exclusively) right now; released again at once.
bool TryShared(SharedMutex& mu) {
  if (!mu.TryLockShared()) return false;
  mu.UnlockShared();
  return true;
}
bool TryExclusive(SharedMutex& mu) {
  if (!mu.TryLock()) return false;
  mu.Unlock();
  return true;
}

TEST(ThreadAnnotationsTest, ReaderLocksShareWriterLockExcludes) {
  SharedMutex mu;
  {
    ReaderLock a(mu);
    EXPECT_TRUE(TryShared(mu));      // a second reader gets in
    EXPECT_FALSE(TryExclusive(mu));  // a writer does not
  }
  {
    WriterLock w(mu);
    EXPECT_FALSE(TryShared(mu));
    w.Unlock();
    EXPECT_TRUE(TryShared(mu));
    w.Lock();
    EXPECT_FALSE(TryShared(mu));
  }
  EXPECT_TRUE(TryExclusive(mu));  // the destructor released it
}

TEST(ThreadAnnotationsTest, CondVarWakesOnNotifyAndTimesOutWithout) {
  Counter c;
  EXPECT_FALSE(c.WaitFor(1, std::chrono::milliseconds(20)));  // nobody notifies
  std::thread notifier([&c] {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    c.AddAndNotify();
  });
  EXPECT_TRUE(c.WaitFor(1, std::chrono::seconds(30)));
  notifier.join();
}

}  // namespace
}  // namespace meridian
