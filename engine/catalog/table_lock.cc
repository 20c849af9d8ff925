// TableLock and LockSet: the interim table-level locking of engine/catalog (see table_lock.h).
#include "catalog/table_lock.h"

#include <algorithm>
#include <chrono>

#include "catalog/table.h"

namespace meridian::catalog {

namespace {
constexpr auto kPollInterval = std::chrono::milliseconds(50);
}  // namespace

Status TableLock::Lock(LockMode mode, const ExecControl* ctl) {
  MutexLock lock(mu_);
  const bool may_wait = ctl == nullptr || !ctl->no_wait();
  if (mode == LockMode::kShared) {
    while (writer_ || writers_waiting_ > 0) {
      if (!may_wait) return ExecControl::WouldBlock();
      if (ctl != nullptr) {
        Status st = ctl->Check();
        if (!st.ok()) return st;
      }
      cv_.WaitFor(mu_, kPollInterval);
    }
    ++readers_;
    return Status::Ok();
  }
  if (!may_wait && (writer_ || readers_ > 0)) return ExecControl::WouldBlock();
  ++writers_waiting_;
  while (writer_ || readers_ > 0) {
    if (ctl != nullptr) {
      Status st = ctl->Check();
      if (!st.ok()) {
        --writers_waiting_;
        cv_.NotifyAll();
        return st;
      }
    }
    cv_.WaitFor(mu_, kPollInterval);
  }
  --writers_waiting_;
  writer_ = true;
  return Status::Ok();
}

void TableLock::Unlock(LockMode mode) {
  {
    MutexLock lock(mu_);
    if (mode == LockMode::kShared) {
      --readers_;
    } else {
      writer_ = false;
    }
  }
  cv_.NotifyAll();
}

void LockSet::Add(std::shared_ptr<Table> table, LockMode mode) {
  for (Entry& e : entries_) {
    if (e.table.get() == table.get()) {
      if (mode == LockMode::kExclusive) e.mode = mode;
      return;
    }
  }
  const uint64_t version = table->schema_version();
  entries_.push_back({std::move(table), mode, version});
  std::sort(entries_.begin(), entries_.end(),
            [](const Entry& a, const Entry& b) { return a.table->id() < b.table->id(); });
}

bool LockSet::SchemaChanged() const {
  for (const Entry& e : entries_) {
    if (e.table->schema_version() != e.schema_version) return true;
  }
  return false;
}

Status LockSet::AcquireAll(const ExecControl* ctl) {
  if (held_) return Status::Ok();
  for (acquired_ = 0; acquired_ < entries_.size(); ++acquired_) {
    Entry& e = entries_[acquired_];
    Status st = e.table->lock().Lock(e.mode, ctl);
    if (!st.ok()) {
      while (acquired_ > 0) {
        --acquired_;
        entries_[acquired_].table->lock().Unlock(entries_[acquired_].mode);
      }
      return st;
    }
  }
  held_ = true;
  return Status::Ok();
}

void LockSet::ReleaseAll() {
  if (!held_) return;
  for (size_t i = entries_.size(); i > 0; --i) {
    entries_[i - 1].table->lock().Unlock(entries_[i - 1].mode);
  }
  held_ = false;
}

}  // namespace meridian::catalog
