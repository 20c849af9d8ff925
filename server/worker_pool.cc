// WorkerPool: see worker_pool.h.
#include "worker_pool.h"

#include <spdlog/spdlog.h>

namespace meridian::server {

WorkerPool::WorkerPool(unsigned threads) : pool_(threads), base_(threads) {}

WorkerPool::~WorkerPool() { Join(); }

void WorkerPool::WaitBegins() {
  std::lock_guard lock(mu_);
  ++waiting_;
  const unsigned total = base_ + static_cast<unsigned>(extra_.size());
  if (joined_ || total >= kMaxThreads || total - std::min(waiting_, total) >= kRunnable) return;
  extra_.emplace_back([this] { pool_.attach(); });
  spdlog::debug("worker pool: {} threads wait for row locks; now {} threads", waiting_, total + 1);
}

void WorkerPool::WaitEnds() {
  std::lock_guard lock(mu_);
  --waiting_;
}

void WorkerPool::Join() {
  {
    std::lock_guard lock(mu_);
    if (joined_) return;
    joined_ = true;
  }
  pool_.join();  // the attached threads return once the pool has no more work
  std::vector<std::thread> extra;
  {
    std::lock_guard lock(mu_);
    extra.swap(extra_);
  }
  for (std::thread& t : extra) t.join();
}

}  // namespace meridian::server
