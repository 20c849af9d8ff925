// Clang thread-safety annotations and the annotated mutexes, lock guards and condition variable
// that the engine and the server use instead of the bare std:: types, so `clang++
// -Wthread-safety` (tests/check_thread_safety.sh) proves each GUARDED_BY member is touched only
// with its mutex held. The macros expand to nothing on other compilers; the types cost nothing.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <shared_mutex>

#if defined(__clang__)
#define MERIDIAN_THREAD_ANNOTATION(x) __attribute__((x))
#else
#define MERIDIAN_THREAD_ANNOTATION(x)
#endif

// Abseil's internal thread_annotations.h (reached through gRPC's headers) defines some of these
// names with the same meaning: ours replace them (a later redefinition there is in a system
// header, where the compilers do not warn).
#undef GUARDED_BY
#undef PT_GUARDED_BY
#undef ACQUIRED_BEFORE
#undef ACQUIRED_AFTER
#undef NO_THREAD_SAFETY_ANALYSIS

// A type that is a lock (a capability): Mutex, SharedMutex.
#define CAPABILITY(name) MERIDIAN_THREAD_ANNOTATION(capability(name))
// An RAII type that holds a capability from its constructor to its destructor.
#define SCOPED_CAPABILITY MERIDIAN_THREAD_ANNOTATION(scoped_lockable)
// A member read or written only with the capability held (shared for reads of a SharedMutex).
#define GUARDED_BY(x) MERIDIAN_THREAD_ANNOTATION(guarded_by(x))
// A pointer member whose pointee is guarded by the capability (the pointer itself is not).
#define PT_GUARDED_BY(x) MERIDIAN_THREAD_ANNOTATION(pt_guarded_by(x))
// Lock order: this capability is taken before / after the listed ones.
#define ACQUIRED_BEFORE(...) MERIDIAN_THREAD_ANNOTATION(acquired_before(__VA_ARGS__))
#define ACQUIRED_AFTER(...) MERIDIAN_THREAD_ANNOTATION(acquired_after(__VA_ARGS__))
// The caller must hold the capability (exclusively / at least shared) when calling.
#define REQUIRES(...) MERIDIAN_THREAD_ANNOTATION(requires_capability(__VA_ARGS__))
#define REQUIRES_SHARED(...) MERIDIAN_THREAD_ANNOTATION(requires_shared_capability(__VA_ARGS__))
// The function takes / gives back the capability (no argument on a member: `this`).
#define ACQUIRE(...) MERIDIAN_THREAD_ANNOTATION(acquire_capability(__VA_ARGS__))
#define ACQUIRE_SHARED(...) MERIDIAN_THREAD_ANNOTATION(acquire_shared_capability(__VA_ARGS__))
#define RELEASE(...) MERIDIAN_THREAD_ANNOTATION(release_capability(__VA_ARGS__))
#define RELEASE_SHARED(...) MERIDIAN_THREAD_ANNOTATION(release_shared_capability(__VA_ARGS__))
#define RELEASE_GENERIC(...) MERIDIAN_THREAD_ANNOTATION(release_generic_capability(__VA_ARGS__))
// The function takes the capability when it returns the first argument (true / false).
#define TRY_ACQUIRE(...) MERIDIAN_THREAD_ANNOTATION(try_acquire_capability(__VA_ARGS__))
#define TRY_ACQUIRE_SHARED(...) \
  MERIDIAN_THREAD_ANNOTATION(try_acquire_shared_capability(__VA_ARGS__))
// The caller must not hold the capability (the function takes it itself).
#define EXCLUDES(...) MERIDIAN_THREAD_ANNOTATION(locks_excluded(__VA_ARGS__))
// Tells the analysis the capability is held from here on (checked at run time by the caller).
#define ASSERT_CAPABILITY(x) MERIDIAN_THREAD_ANNOTATION(assert_capability(x))
#define ASSERT_SHARED_CAPABILITY(x) MERIDIAN_THREAD_ANNOTATION(assert_shared_capability(x))
// The function returns a reference to the capability.
#define RETURN_CAPABILITY(x) MERIDIAN_THREAD_ANNOTATION(lock_returned(x))
// Turns the analysis off for one function: only with a comment saying why it cannot follow.
#define NO_THREAD_SAFETY_ANALYSIS MERIDIAN_THREAD_ANNOTATION(no_thread_safety_analysis)

namespace meridian {

class CondVar;

// std::mutex as a capability. Taken through MutexLock; Lock/Unlock are for the rare place that
// cannot use a scope (a lock handed from one function to another).
class CAPABILITY("mutex") Mutex {
 public:
  Mutex() = default;
  Mutex(const Mutex&) = delete;
  Mutex& operator=(const Mutex&) = delete;

  void Lock() ACQUIRE() { mu_.lock(); }
  void Unlock() RELEASE() { mu_.unlock(); }
  bool TryLock() TRY_ACQUIRE(true) { return mu_.try_lock(); }
  // For the analysis only: a function reached only with the mutex held (no run-time check).
  void AssertHeld() const ASSERT_CAPABILITY(this) {}

 private:
  friend class CondVar;
  std::mutex mu_;
};

// std::shared_mutex as a capability: exclusive through WriterLock, shared through ReaderLock.
class CAPABILITY("shared_mutex") SharedMutex {
 public:
  SharedMutex() = default;
  SharedMutex(const SharedMutex&) = delete;
  SharedMutex& operator=(const SharedMutex&) = delete;

  void Lock() ACQUIRE() { mu_.lock(); }
  void Unlock() RELEASE() { mu_.unlock(); }
  bool TryLock() TRY_ACQUIRE(true) { return mu_.try_lock(); }
  void LockShared() ACQUIRE_SHARED() { mu_.lock_shared(); }
  void UnlockShared() RELEASE_SHARED() { mu_.unlock_shared(); }
  bool TryLockShared() TRY_ACQUIRE_SHARED(true) { return mu_.try_lock_shared(); }
  void AssertHeld() const ASSERT_CAPABILITY(this) {}
  void AssertReaderHeld() const ASSERT_SHARED_CAPABILITY(this) {}

 private:
  std::shared_mutex mu_;
};

// Holds a Mutex (MutexLock) or a SharedMutex exclusively (WriterLock) for its scope, as
// std::lock_guard; with Unlock/Lock it releases it for a stretch in the middle and takes it back
// (std::unique_lock); the destructor releases it only when held. Works with CondVar, which
// takes the Mutex itself.
template <class M>
class SCOPED_CAPABILITY ExclusiveLock {
 public:
  explicit ExclusiveLock(M& mu) ACQUIRE(mu) : mu_(mu) { mu_.Lock(); }
  // Deferred: the mutex is not taken until Lock().
  ExclusiveLock(M& mu, std::defer_lock_t) EXCLUDES(mu) : mu_(mu), held_(false) {}
  ~ExclusiveLock() RELEASE() {
    if (held_) mu_.Unlock();
  }
  ExclusiveLock(const ExclusiveLock&) = delete;
  ExclusiveLock& operator=(const ExclusiveLock&) = delete;

  void Unlock() RELEASE() {
    mu_.Unlock();
    held_ = false;
  }
  void Lock() ACQUIRE() {
    mu_.Lock();
    held_ = true;
  }

 private:
  M& mu_;
  bool held_ = true;
};
using MutexLock = ExclusiveLock<Mutex>;
using WriterLock = ExclusiveLock<SharedMutex>;

// Holds a SharedMutex shared for its scope; Unlock/Lock as MutexLock's.
class SCOPED_CAPABILITY ReaderLock {
 public:
  explicit ReaderLock(SharedMutex& mu) ACQUIRE_SHARED(mu) : mu_(mu) { mu_.LockShared(); }
  ~ReaderLock() RELEASE() {
    if (held_) mu_.UnlockShared();
  }
  ReaderLock(const ReaderLock&) = delete;
  ReaderLock& operator=(const ReaderLock&) = delete;

  void Unlock() RELEASE() {
    mu_.UnlockShared();
    held_ = false;
  }
  void Lock() ACQUIRE_SHARED() {
    mu_.LockShared();
    held_ = true;
  }

 private:
  SharedMutex& mu_;
  bool held_ = true;
};

// std::condition_variable over a Mutex the caller holds (through a MutexLock). Each Wait
// releases the mutex while blocked and holds it again on return, so to the analysis the mutex
// stays held; wake-ups may be spurious: callers loop on their condition
// (`while (!ready_) cv_.Wait(mu_);`), which keeps the guarded reads in the caller, where the
// analysis sees them (a predicate lambda would hide them).
class CondVar {
 public:
  void Wait(Mutex& mu) REQUIRES(mu) {
    std::unique_lock<std::mutex> lock(mu.mu_, std::adopt_lock);
    cv_.wait(lock);
    lock.release();
  }
  template <class Rep, class Period>
  std::cv_status WaitFor(Mutex& mu, const std::chrono::duration<Rep, Period>& timeout)
      REQUIRES(mu) {
    std::unique_lock<std::mutex> lock(mu.mu_, std::adopt_lock);
    const std::cv_status status = cv_.wait_for(lock, timeout);
    lock.release();
    return status;
  }
  template <class Clock, class Duration>
  std::cv_status WaitUntil(Mutex& mu, const std::chrono::time_point<Clock, Duration>& deadline)
      REQUIRES(mu) {
    std::unique_lock<std::mutex> lock(mu.mu_, std::adopt_lock);
    const std::cv_status status = cv_.wait_until(lock, deadline);
    lock.release();
    return status;
  }
  void NotifyOne() { cv_.notify_one(); }
  void NotifyAll() { cv_.notify_all(); }

 private:
  std::condition_variable cv_;
};

}  // namespace meridian
