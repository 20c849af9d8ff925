// WorkerPool (server/worker_pool.h): tasks that wait for a "row lock" tell the pool as the engine
// does (WaitBegins/WaitEnds); the pool grows so kRunnable threads stay free, and once the waits
// are over its extra threads leave again (counted in /proc/self/task) without losing work.
#include "worker_pool.h"

#include <dirent.h>
#include <gtest/gtest.h>

#include <asio/post.hpp>
#include <atomic>
#include <condition_variable>
#include <functional>
#include <mutex>

namespace meridian::server {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

// Threads of this process.
int ProcessThreads() {
  DIR* dir = opendir("/proc/self/task");
  if (dir == nullptr) return -1;
  int n = 0;
  while (dirent* e = readdir(dir)) {
    if (e->d_name[0] != '.') ++n;
  }
  closedir(dir);
  return n;
}

// Polls until pred holds or limit passes; returns whether it held.
bool Eventually(const std::function<bool()>& pred, Clock::duration limit) {
  const auto until = Clock::now() + limit;
  while (!pred()) {
    if (Clock::now() >= until) return false;
    std::this_thread::sleep_for(5ms);
  }
  return true;
}

// One row lock: tasks block behind it, telling the pool they wait, until Open.
class Gate {
 public:
  void Wait(WorkerPool& pool) {
    pool.WaitBegins();
    {
      std::unique_lock lock(mu_);
      ++waiting_;
      cv_.notify_all();
      cv_.wait(lock, [&] { return open_; });
    }
    pool.WaitEnds();
  }
  void Open() {
    std::lock_guard lock(mu_);
    open_ = true;
    cv_.notify_all();
  }
  int waiting() {
    std::lock_guard lock(mu_);
    return waiting_;
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  bool open_ = false;
  int waiting_ = 0;
};

// Posts n tasks that wait behind gate; each adds 1 to done when its wait is over.
void PostWaiters(WorkerPool& pool, Gate& gate, int n, std::atomic<int>& done) {
  for (int i = 0; i < n; ++i) {
    asio::post(pool.pool(), [&] {
      gate.Wait(pool);
      done.fetch_add(1);
    });
  }
}

TEST(WorkerPool, GrowsWhileTasksWaitAndShrinksOnceIdle) {
  const int before = ProcessThreads();
  ASSERT_GT(before, 0);
  WorkerPool pool(2, 200ms);
  EXPECT_EQ(ProcessThreads(), before + 2);

  for (int round = 0; round < 2; ++round) {  // a second burst grows the shrunk pool again
    constexpr int kWaiters = 40;
    Gate gate;
    std::atomic<int> done{0};
    PostWaiters(pool, gate, kWaiters, done);
    // Every waiter runs at once: with 2 threads only 2 would, the rest queued behind them.
    ASSERT_TRUE(Eventually([&] { return gate.waiting() == kWaiters; }, 10s))
        << "round " << round << ": only " << gate.waiting() << " of " << kWaiters << " run";
    EXPECT_GE(pool.threads(), kWaiters + WorkerPool::kRunnable);
    EXPECT_GE(ProcessThreads(), before + kWaiters + static_cast<int>(WorkerPool::kRunnable));
    // While they wait, idle extra threads stay (the kRunnable free ones) and none of the
    // waiting ones can leave: the count holds past several idle periods.
    std::this_thread::sleep_for(700ms);
    EXPECT_GE(pool.threads(), kWaiters + WorkerPool::kRunnable);
    // Other work still runs while every waiter waits.
    std::atomic<bool> ran{false};
    asio::post(pool.pool(), [&] { ran = true; });
    EXPECT_TRUE(Eventually([&] { return ran.load(); }, 5s));

    gate.Open();
    ASSERT_TRUE(Eventually([&] { return done.load() == kWaiters; }, 10s));
    // Idle for 200 ms, the extra threads leave: back to the 2 base threads.
    EXPECT_TRUE(Eventually([&] { return ProcessThreads() == before + 2; }, 10s))
        << "round " << round << ": " << ProcessThreads() - before << " threads left";
    EXPECT_EQ(pool.threads(), 2u);
  }
  pool.Join();
  EXPECT_EQ(ProcessThreads(), before);
}

TEST(WorkerPool, WorkPostedWhileThreadsLeaveRuns) {
  const int before = ProcessThreads();
  WorkerPool pool(2, 100ms);
  constexpr int kWaiters = 30;
  Gate gate;
  std::atomic<int> done{0};
  PostWaiters(pool, gate, kWaiters, done);
  ASSERT_TRUE(Eventually([&] { return gate.waiting() == kWaiters; }, 10s));
  const unsigned peak = pool.threads();
  gate.Open();
  ASSERT_TRUE(Eventually([&] { return done.load() == kWaiters; }, 10s));
  // A trickle of work for 1.5 s, some of it posted from inside the pool, while the idle extra
  // threads time out and leave one after another.
  std::atomic<int> ran{0};
  int posted = 0;
  unsigned fewest = peak;
  const auto until = Clock::now() + 1500ms;
  while (Clock::now() < until) {
    for (int i = 0; i < 3; ++i) {
      asio::post(pool.pool(), [&] {
        ran.fetch_add(1);
        asio::post(pool.pool(), [&] { ran.fetch_add(1); });
      });
      posted += 2;
    }
    fewest = std::min(fewest, pool.threads());
    std::this_thread::sleep_for(20ms);
  }
  EXPECT_LT(fewest, peak) << "no extra thread left while work trickled in";
  EXPECT_TRUE(Eventually([&] { return ran.load() == posted; }, 10s))
      << ran.load() << " of " << posted << " tasks ran";
  // Work queued just before Join runs too.
  for (int i = 0; i < 1000; ++i) {
    asio::post(pool.pool(), [&] { ran.fetch_add(1); });
  }
  posted += 1000;
  pool.Join();
  EXPECT_EQ(ran.load(), posted);
  EXPECT_EQ(ProcessThreads(), before);
}

TEST(WorkerPool, JoinWhileExtraThreadsLeave) {
  // Join meets extra threads at every stage of leaving (idle, deciding, joining the one before):
  // every thread is joined once and the process is back to its threads.
  const int before = ProcessThreads();
  for (int i = 0; i < 10; ++i) {
    WorkerPool pool(1, 20ms);
    Gate gate;
    std::atomic<int> done{0};
    PostWaiters(pool, gate, 12, done);
    ASSERT_TRUE(Eventually([&] { return gate.waiting() == 12; }, 10s));
    gate.Open();
    std::this_thread::sleep_for(std::chrono::milliseconds(15 + 2 * i));
    pool.Join();
    EXPECT_EQ(done.load(), 12);
    EXPECT_EQ(ProcessThreads(), before);
  }
}

}  // namespace
}  // namespace meridian::server
