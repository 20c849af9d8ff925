// WorkerPool: the statement worker threads (an asio::thread_pool of --worker-threads) that grow
// while statements wait for row locks. A statement waiting for another transaction holds its
// thread; if every thread waited, the transactions they wait for could never run their next
// statement (COMMIT included) and the server would hang. So the pool keeps at least kRunnable
// threads not waiting: when a wait would leave fewer, it attaches one more thread to the pool.
// Added threads stay until Join (they serve any work, like the first ones).
#pragma once

#include <asio/thread_pool.hpp>
#include <mutex>
#include <thread>
#include <vector>

#include "meridian/database.h"

namespace meridian::server {

class WorkerPool final : public ExecControl::WaitObserver {
 public:
  static constexpr unsigned kRunnable = 2;       // threads kept free of lock waits
  static constexpr unsigned kMaxThreads = 4096;  // a bound on growth, far above any need

  explicit WorkerPool(unsigned threads);
  ~WorkerPool() override;

  asio::thread_pool& pool() { return pool_; }
  void WaitBegins() override;
  void WaitEnds() override;
  // Runs the queued work to its end and joins every thread (idempotent).
  void Join();

 private:
  asio::thread_pool pool_;
  const unsigned base_;
  std::mutex mu_;
  unsigned waiting_ = 0;            // guarded by mu_
  std::vector<std::thread> extra_;  // guarded by mu_
  bool joined_ = false;             // guarded by mu_
};

}  // namespace meridian::server
