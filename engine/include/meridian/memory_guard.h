// The daemon-wide memory limit: a sampler (the server's) compares the process's resident size
// with the limit and raises a flag that every running statement sees at its next
// ExecControl::Check, so work fails with 53200 out of memory instead of the kernel's OOM killer
// ending the daemon. Thread-safe; one flag per process.
#pragma once

#include <atomic>
#include <cstdint>

namespace meridian {

class MemoryGuard {
 public:
  // Set by the sampler while resident memory exceeds the limit.
  static void SetExceeded(bool exceeded) { Flag().store(exceeded, std::memory_order_relaxed); }
  static bool Exceeded() { return Flag().load(std::memory_order_relaxed); }
  // The limit in bytes, for messages (0: none).
  static void SetLimit(uint64_t bytes) { Limit().store(bytes, std::memory_order_relaxed); }
  static uint64_t limit() { return Limit().load(std::memory_order_relaxed); }

 private:
  static std::atomic<bool>& Flag() {
    static std::atomic<bool> flag{false};
    return flag;
  }
  static std::atomic<uint64_t>& Limit() {
    static std::atomic<uint64_t> limit{0};
    return limit;
  }
};

}  // namespace meridian
