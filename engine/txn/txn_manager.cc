// TxnManager: status table, visibility and waits (see txn_manager.h).
#include "txn/txn_manager.h"

#include <algorithm>
#include <chrono>

namespace meridian::txn {

TxnManager::TxnManager(Timestamp last_committed, uint64_t next_txn)
    : clock_(last_committed), published_(last_committed), next_txn_(next_txn) {}

uint64_t TxnManager::Begin() {
  MutexLock lock(mu_);
  uint64_t id = kTxnIdBit | next_txn_++;
  Entry e;
  e.snapshot_ts = published_;
  txns_[id] = e;
  return id;
}

Snapshot TxnManager::TakeSnapshot(uint64_t txn) const {
  MutexLock lock(mu_);
  if (auto it = txns_.find(txn); it != txns_.end()) it->second.snapshot_ts = published_;
  return Snapshot{published_, txn};
}

Timestamp TxnManager::published_ts() const {
  MutexLock lock(mu_);
  return published_;
}

Timestamp TxnManager::AssignCommitTs(uint64_t txn) {
  MutexLock lock(mu_);
  Entry& e = txns_[txn];
  e.state = TxnState::kCommitting;
  e.commit_ts = ++clock_;
  // Writers waiting for its rows may go on now (early lock release, README section 3).
  WakeWaiters(txn);
  return e.commit_ts;
}

void TxnManager::Publish(const std::vector<uint64_t>& txns) {
  MutexLock lock(mu_);
  for (uint64_t t : txns) {
    Entry& e = txns_[t];
    e.state = TxnState::kCommitted;
    published_ = std::max(published_, e.commit_ts);
    WakeWaiters(t);
  }
}

void TxnManager::Abort(uint64_t txn) {
  MutexLock lock(mu_);
  Entry& e = txns_[txn];
  if (e.state == TxnState::kCommitting) failed_commits_.insert(txn);
  e.state = TxnState::kAborted;
  e.commit_ts = kInfinity;
  waits_for_.erase(txn);
  WakeWaiters(txn);
}

void TxnManager::WakeWaiters(uint64_t holder, bool released) {
  auto [first, last] = waiters_.equal_range(holder);
  for (auto it = first; it != last; ++it) {
    it->second->released = it->second->released || released;
    it->second->cv.NotifyOne();
  }
}

bool TxnManager::FailedCommit(uint64_t txn) const {
  MutexLock lock(mu_);
  return failed_commits_.count(txn) != 0;
}

void TxnManager::RecoverCommitted(uint64_t txn, Timestamp ts) {
  MutexLock lock(mu_);
  txns_[txn] = Entry{TxnState::kCommitted, ts};
  clock_ = std::max(clock_, ts);
  published_ = std::max(published_, ts);
  next_txn_ = std::max(next_txn_, (txn & ~kTxnIdBit) + 1);
}

void TxnManager::AdvanceClock(Timestamp ts) {
  MutexLock lock(mu_);
  clock_ = std::max(clock_, ts);
  published_ = std::max(published_, ts);
}

void TxnManager::SetEpoch(uint64_t epoch) {
  MutexLock lock(mu_);
  next_txn_ = std::max(next_txn_, (epoch << 32) | 1);
}

Timestamp TxnManager::Resolve(uint64_t field) const {
  if (!IsTxnId(field)) return field;
  MutexLock lock(mu_);
  auto it = txns_.find(field);
  if (it == txns_.end() || it->second.state != TxnState::kCommitted) return kInfinity;
  return it->second.commit_ts;
}

Timestamp TxnManager::ResolveDecided(uint64_t field) const {
  if (!IsTxnId(field)) return field;
  MutexLock lock(mu_);
  auto it = txns_.find(field);
  if (it == txns_.end() ||
      (it->second.state != TxnState::kCommitted && it->second.state != TxnState::kCommitting)) {
    return kInfinity;
  }
  return it->second.commit_ts;
}

bool TxnManager::Visible(uint64_t begin, uint64_t end, const Snapshot& s) const {
  if (std::optional<bool> stamped = VisibleByTimestamps(begin, end, s)) return *stamped;
  // A committing transaction counts at its commit timestamp. Groups publish in timestamp
  // order, so every committing timestamp is above published_ and above the read_ts of every
  // snapshot TakeSnapshot handed out: only a snapshot a writer extended through a dependency's
  // commit (catalog::Transaction::RefreshSnapshot, not showing rows) sees one.
  const bool created = begin == s.me || ResolveDecided(begin) <= s.read_ts;
  if (!created) return false;
  if (end == 0) return true;
  if (end == s.me) return false;
  return ResolveDecided(end) > s.read_ts;
}

TxnState TxnManager::State(uint64_t txn) const {
  MutexLock lock(mu_);
  auto it = txns_.find(txn);
  return it == txns_.end() ? TxnState::kAborted : it->second.state;
}

bool TxnManager::ClosesCycle(uint64_t waiter, uint64_t holder) const {
  // Follow holder → whom it waits for → ...; a path back to waiter is a deadlock.
  uint64_t at = holder;
  for (size_t steps = 0; steps <= waits_for_.size(); ++steps) {
    if (at == waiter) return true;
    auto it = waits_for_.find(at);
    if (it == waits_for_.end()) return false;
    at = it->second;
  }
  return true;  // a longer walk than edges means a cycle not through waiter; stop anyway
}

Result<TxnState> TxnManager::WaitFor(uint64_t waiter, uint64_t holder,
                                     const std::function<Status()>& check, bool until_decided) {
  MutexLock lock(mu_);
  if (ClosesCycle(waiter, holder)) {
    return Status::Error(sqlstate::kDeadlockDetected, "deadlock detected")
        .WithDetail("Transaction " + std::to_string(waiter & ~kTxnIdBit) +
                    " waits for transaction " + std::to_string(holder & ~kTxnIdBit) +
                    ", which waits for it.")
        .WithHint("See server log for query details.");
  }
  waits_for_[waiter] = holder;
  Waiter self;
  waiters_.emplace(holder, &self);
  auto leave = [&]() REQUIRES(mu_) {
    waits_for_.erase(waiter);
    // Found again by value: a rehash by another waiter's insert invalidates iterators.
    auto [first, last] = waiters_.equal_range(holder);
    for (auto it = first; it != last; ++it) {
      if (it->second == &self) {
        waiters_.erase(it);
        break;
      }
    }
  };
  while (true) {
    if (self.released) {
      leave();
      return TxnState::kRunning;
    }
    auto it = txns_.find(holder);
    const TxnState state = it == txns_.end() ? TxnState::kAborted : it->second.state;
    if (state == TxnState::kCommitted || state == TxnState::kAborted ||
        (until_decided && state == TxnState::kCommitting)) {
      leave();
      return state;
    }
    // Woken by holder's own state changes (WakeWaiters); the timeout polls check.
    self.cv.WaitFor(mu_, std::chrono::milliseconds(50));
    if (check) {
      lock.Unlock();
      Status st = check();
      lock.Lock();
      if (!st.ok()) {
        leave();
        return st;
      }
    }
  }
}

std::vector<std::pair<uint64_t, uint64_t>> TxnManager::LockWaits() const {
  MutexLock lock(mu_);
  std::vector<std::pair<uint64_t, uint64_t>> out(waits_for_.begin(), waits_for_.end());
  std::sort(out.begin(), out.end());
  return out;
}

void TxnManager::NotifyReleased(uint64_t txn) {
  MutexLock lock(mu_);
  WakeWaiters(txn, /*released=*/true);
}

void TxnManager::ForgetBelow(uint64_t horizon_txn) {
  MutexLock lock(mu_);
  for (auto it = txns_.begin(); it != txns_.end();) {
    const bool finished =
        it->second.state == TxnState::kCommitted || it->second.state == TxnState::kAborted;
    if (finished && it->first < horizon_txn) {
      it = txns_.erase(it);
    } else {
      ++it;
    }
  }
}

void TxnManager::MarkStamped(uint64_t txn) {
  MutexLock lock(mu_);
  auto it = txns_.find(txn);
  if (it != txns_.end()) it->second.stamped = true;
}

std::vector<uint64_t> TxnManager::Stamped() const {
  MutexLock lock(mu_);
  std::vector<uint64_t> out;
  for (const auto& [id, e] : txns_) {
    const bool finished = e.state == TxnState::kCommitted || e.state == TxnState::kAborted;
    if (finished && e.stamped) out.push_back(id);
  }
  return out;
}

void TxnManager::Forget(const std::vector<uint64_t>& txns) {
  MutexLock lock(mu_);
  for (uint64_t t : txns) txns_.erase(t);
}

Timestamp TxnManager::OldestSnapshot() const {
  MutexLock lock(mu_);
  Timestamp oldest = published_;
  for (const auto& [id, e] : txns_) {
    if (e.state == TxnState::kRunning) oldest = std::min(oldest, e.snapshot_ts);
  }
  if (!held_snapshots_.empty()) oldest = std::min(oldest, *held_snapshots_.begin());
  return oldest;
}

void TxnManager::HoldSnapshot(Timestamp read_ts) {
  MutexLock lock(mu_);
  held_snapshots_.insert(read_ts);
}

void TxnManager::ReleaseSnapshot(Timestamp read_ts) {
  MutexLock lock(mu_);
  if (auto it = held_snapshots_.find(read_ts); it != held_snapshots_.end()) {
    held_snapshots_.erase(it);
  }
}

std::vector<std::pair<uint64_t, Timestamp>> TxnManager::Committed() const {
  MutexLock lock(mu_);
  std::vector<std::pair<uint64_t, Timestamp>> out;
  for (const auto& [id, e] : txns_) {
    if (e.state == TxnState::kCommitted) out.emplace_back(id, e.commit_ts);
  }
  std::sort(out.begin(), out.end(),
            [](const auto& a, const auto& b) { return a.second < b.second; });
  return out;
}

size_t TxnManager::tracked() const {
  MutexLock lock(mu_);
  return txns_.size();
}

}  // namespace meridian::txn
