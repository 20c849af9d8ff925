// TableLock: the per-table reader/writer lock that keeps DDL (exclusive) apart from statements
// (shared; under MVCC writers meet at row write locks, engine/txn). It is deliberately NOT
// thread-affine (a request may continue on another thread between Fetch calls), so it is a mutex +
// condvar + counts rather than std::shared_mutex. Waiters poll ExecControl every 50 ms so cancel
// and statement timeouts interrupt a wait. Writers are preferred over newly arriving readers.
// LockSet acquires several tables' locks in table-id order (the global lock order), which
// rules out deadlocks between statements.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "meridian/database.h"
#include "meridian/status.h"
#include "meridian/thread_annotations.h"

namespace meridian::catalog {

class Table;

enum class LockMode { kShared, kExclusive };

class TableLock {
 public:
  // Blocks until granted. ctl (may be null: wait without interruption) is polled while
  // waiting; its error is returned and the lock is not held then.
  Status Lock(LockMode mode, const ExecControl* ctl);
  void Unlock(LockMode mode);

 private:
  Mutex mu_;
  CondVar cv_;
  int readers_ GUARDED_BY(mu_) = 0;          // shared holders
  bool writer_ GUARDED_BY(mu_) = false;      // an exclusive holder exists
  int writers_waiting_ GUARDED_BY(mu_) = 0;  // exclusive waiters (block new readers)
};

// The locks one statement needs, taken together in table-id order and released together.
class LockSet {
 public:
  LockSet() = default;
  LockSet(const LockSet&) = delete;
  LockSet& operator=(const LockSet&) = delete;
  ~LockSet() { ReleaseAll(); }

  // Adds a table (and notes its schema version); an exclusive request wins over a shared one
  // for the same table.
  void Add(std::shared_ptr<Table> table, LockMode mode);
  // Whether ALTER TABLE published a new schema of one of the tables since it was added: a
  // statement bound before must bind again (REQUIRES the tables' schemas read after Add).
  bool SchemaChanged() const;
  // Acquires every lock in table-id order; on error nothing is held.
  Status AcquireAll(const ExecControl* ctl);
  void ReleaseAll();
  bool held() const { return held_; }
  // Adds every table of other with its mode (a cached plan's tables to a new statement's set).
  void AddAll(const LockSet& other) {
    for (const Entry& e : other.entries_) Add(e.table, e.mode);
  }

 private:
  struct Entry {
    std::shared_ptr<Table> table;
    LockMode mode;
    uint64_t schema_version;
  };
  std::vector<Entry> entries_;  // sorted by table id, unique
  size_t acquired_ = 0;
  bool held_ = false;
};

}  // namespace meridian::catalog
