// Breaks the thread-safety rules on purpose: tests/check_thread_safety.sh expects clang's
// -Wthread-safety to reject this file, proving the annotations are live. Never built.
#include "meridian/thread_annotations.h"

namespace {

class Counter {
 public:
  void Unlocked() { ++count_; }              // count_ without mu_
  void HelperWithoutLock() { AddLocked(); }  // REQUIRES(mu_) without mu_
  void ReadWhileShared() {
    meridian::ReaderLock lock(smu_);
    ++shared_count_;  // a write under a shared lock
  }

 private:
  void AddLocked() REQUIRES(mu_) { ++count_; }
  meridian::Mutex mu_;
  int count_ GUARDED_BY(mu_) = 0;
  meridian::SharedMutex smu_;
  int shared_count_ GUARDED_BY(smu_) = 0;
};

}  // namespace
