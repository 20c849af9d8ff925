// Progress of a long job (the load) by rows: on a terminal a bar redrawn five times a second
// (percent, rows/s, ETA), otherwise one plain line per interval. Add() is thread-safe.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

namespace tpcc {

class Progress {
 public:
  Progress(std::string label, int64_t total, bool bar, double interval_s);
  ~Progress();  // Finish()
  void Add(int64_t n) { done_.fetch_add(n, std::memory_order_relaxed); }
  int64_t done() const { return done_.load(std::memory_order_relaxed); }
  // Stops the printer and prints the final state once. Idempotent.
  void Finish();

 private:
  void Loop();
  std::string Line(bool final) const;

  std::string label_;
  int64_t total_;
  bool bar_;
  double interval_s_;
  std::chrono::steady_clock::time_point start_;
  std::atomic<int64_t> done_{0};
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;  // guarded by mu_
  std::thread printer_;
};

}  // namespace tpcc
