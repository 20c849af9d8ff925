// WorkerPool: the statement worker threads (an asio::io_context run by --worker-threads threads)
// that grow while statements wait for row locks and shrink again once they are idle.
// A statement waiting for another transaction holds its thread; if every thread waited, the
// transactions they wait for could never run their next statement (COMMIT included) and the
// server would hang. So the pool keeps at least kRunnable threads not waiting: when a wait would
// leave fewer, it starts one more thread (an extra thread; it serves any work, like the base
// ones). An extra thread that found no work for idle_retire leaves, unless that would leave
// fewer than kRunnable threads not waiting: after a burst of lock waits (pgbench at 256 clients
// added ~230 threads) the pool returns to its base size. Base threads never leave.
// Concurrency: WaitBegins/WaitEnds from any thread (under mu_); a retiring thread takes itself
// out of extra_ under mu_ and is joined by the next one to retire or by Join, never detached, so
// no thread outlives Join; Join once its work is gone.
#pragma once

#include <asio/executor_work_guard.hpp>
#include <asio/io_context.hpp>
#include <chrono>
#include <list>
#include <mutex>
#include <thread>
#include <vector>

#include "meridian/database.h"

namespace meridian::server {

class WorkerPool final : public ExecControl::WaitObserver {
 public:
  static constexpr unsigned kRunnable = 2;       // threads kept free of lock waits
  static constexpr unsigned kMaxThreads = 4096;  // a bound on growth, far above any need
  // How long an extra thread stays without work before it leaves.
  static constexpr std::chrono::milliseconds kIdleRetire{3000};

  explicit WorkerPool(unsigned threads, std::chrono::milliseconds idle_retire = kIdleRetire);
  ~WorkerPool() override;

  // The executor statements are posted to (asio::post(pool(), ...)).
  asio::io_context& pool() { return ctx_; }
  void WaitBegins() override;
  void WaitEnds() override;
  // Runs the queued work to its end and joins every thread (idempotent).
  void Join();
  // Threads now serving the pool: the base ones and the extra ones not gone.
  unsigned threads();

 private:
  void RunExtra();

  asio::io_context ctx_;
  asio::executor_work_guard<asio::io_context::executor_type> work_;  // reset by Join
  const unsigned base_;
  const std::chrono::milliseconds idle_retire_;
  std::vector<std::thread> base_threads_;  // set by the constructor, joined by Join
  std::mutex mu_;
  unsigned waiting_ = 0;          // guarded by mu_
  std::list<std::thread> extra_;  // guarded by mu_: extra threads still serving
  std::thread retired_;           // guarded by mu_: the last extra thread that left, unjoined
  bool joined_ = false;           // guarded by mu_
};

}  // namespace meridian::server
