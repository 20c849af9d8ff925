// WorkerPool: see worker_pool.h.
#include "worker_pool.h"

#include <spdlog/spdlog.h>

#include <algorithm>

namespace meridian::server {

WorkerPool::WorkerPool(unsigned threads, std::chrono::milliseconds idle_retire)
    : work_(asio::make_work_guard(ctx_)), base_(std::max(1u, threads)), idle_retire_(idle_retire) {
  base_threads_.reserve(base_);
  for (unsigned i = 0; i < base_; ++i) base_threads_.emplace_back([this] { ctx_.run(); });
}

WorkerPool::~WorkerPool() { Join(); }

void WorkerPool::WaitBegins() {
  std::lock_guard lock(mu_);
  ++waiting_;
  const unsigned total = base_ + static_cast<unsigned>(extra_.size());
  if (joined_ || total >= kMaxThreads || total - std::min(waiting_, total) >= kRunnable) return;
  extra_.emplace_back([this] { RunExtra(); });
  spdlog::debug("worker pool: {} threads wait for row locks; now {} threads", waiting_, total + 1);
}

void WorkerPool::WaitEnds() {
  std::lock_guard lock(mu_);
  --waiting_;
}

void WorkerPool::RunExtra() {
  while (true) {
    if (ctx_.run_one_for(idle_retire_) > 0) continue;  // ran a handler: not idle
    if (ctx_.stopped()) return;                        // Join, and the work is done
    // No work for idle_retire_. Leave if the threads left keep kRunnable free of lock waits
    // (decided under mu_, as WaitBegins decides to add one, so the two never both miss).
    std::thread previous;
    {
      std::lock_guard lock(mu_);
      const unsigned total = base_ + static_cast<unsigned>(extra_.size());
      if (joined_ || total - 1 < waiting_ + kRunnable) continue;
      auto self = std::find_if(extra_.begin(), extra_.end(), [](const std::thread& t) {
        return t.get_id() == std::this_thread::get_id();
      });
      if (self == extra_.end()) continue;  // cannot happen: WaitBegins added it under mu_
      previous = std::move(retired_);
      retired_ = std::move(*self);
      extra_.erase(self);
      spdlog::debug("worker pool: an idle extra thread leaves; now {} threads", total - 1);
    }
    // The one that left before this one has returned, or is about to: it needs nothing more.
    if (previous.joinable()) previous.join();
    return;
  }
}

unsigned WorkerPool::threads() {
  std::lock_guard lock(mu_);
  return base_ + static_cast<unsigned>(extra_.size());
}

void WorkerPool::Join() {
  {
    std::lock_guard lock(mu_);
    if (joined_) return;
    joined_ = true;  // from here on no thread is added and none leaves on its own
  }
  work_.reset();  // every thread's run returns once the context has no more work
  for (std::thread& t : base_threads_) t.join();
  base_threads_.clear();
  std::list<std::thread> extra;
  std::thread retired;
  {
    std::lock_guard lock(mu_);
    extra.swap(extra_);
    retired = std::move(retired_);
  }
  for (std::thread& t : extra) t.join();
  if (retired.joinable()) retired.join();
}

}  // namespace meridian::server
