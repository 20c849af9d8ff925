// TxnManager: the logical clock, transaction ids, the status table (running / committed with
// its commit timestamp / aborted), snapshots, the MVCC visibility rule and waiting for a row's
// writer with deadlock detection. Design: docs/txn.md sections 1-3.
// Concurrency: every method is thread-safe; mu_ guards the status table, the waits-for graph
// and the counters. A waiter sleeps on its own condition variable, registered under the
// transaction it waits for; that transaction's commit decision, publication, abort or release of
// rows wakes only its own waiters (no thundering herd over every blocked writer).
#pragma once

#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <set>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "meridian/status.h"
#include "meridian/thread_annotations.h"

namespace meridian::txn {

using Timestamp = uint64_t;

// A tuple's begin/end field holds a commit timestamp (< 2^63) or a transaction id (top bit).
inline constexpr uint64_t kTxnIdBit = uint64_t{1} << 63;
inline constexpr Timestamp kInfinity = kTxnIdBit - 1;
inline bool IsTxnId(uint64_t field) { return (field & kTxnIdBit) != 0; }

enum class TxnState : uint8_t { kRunning, kCommitting, kCommitted, kAborted };

struct Snapshot {
  Timestamp read_ts = 0;  // every commit at or below is visible
  uint64_t me = 0;        // the reading transaction's id (its own writes are visible)
  // The reading statement's command in its transaction (catalog::Transaction::NextCommand):
  // of me's own writes, those of this command and later ones are not seen.
  uint32_t command = 0;
};

// The visibility rule of TxnManager::Visible for a version whose begin and end fields are
// timestamps (0 = none): what every version looks like once its writers' commits were stamped
// into it. Needs no status lookup, so scans decide it inline; nullopt when either field is a
// transaction id (then ask TxnManager::Visible).
inline std::optional<bool> VisibleByTimestamps(uint64_t begin, uint64_t end, const Snapshot& s) {
  if (IsTxnId(begin) || IsTxnId(end)) return std::nullopt;
  return begin <= s.read_ts && (end == 0 || end > s.read_ts);
}

class TxnManager {
 public:
  // last_committed: the newest commit timestamp recovered; next_txn: first id counter value.
  explicit TxnManager(Timestamp last_committed = 0, uint64_t next_txn = 1);

  // Starts a transaction: a fresh id, state running.
  uint64_t Begin();
  // A snapshot of everything published so far, for txn.
  Snapshot TakeSnapshot(uint64_t txn) const;
  Timestamp published_ts() const;

  // Commit, in two steps driven by the committer: AssignCommitTs (state committing; not yet
  // visible to anyone), then Publish of a whole group once it is durable (state committed,
  // newer snapshots see it, waiters wake). Groups must be published in timestamp order.
  Timestamp AssignCommitTs(uint64_t txn);
  void Publish(const std::vector<uint64_t>& txns);
  // Aborts a running transaction: its versions become invisible at once; waiters wake. One
  // that was committing (its group failed) is remembered: FailedCommit.
  void Abort(uint64_t txn);
  // Whether txn's commit failed after it had its commit timestamp (early lock release: a
  // transaction that built on its versions must not commit).
  bool FailedCommit(uint64_t txn) const;
  // Recovery: txn committed at ts (from the commit log); advances the clock and published_ts.
  void RecoverCommitted(uint64_t txn, Timestamp ts);
  // Recovery: timestamps up to ts were handed out (a checkpoint's clock); later commits get
  // larger ones, so versions stamped with them stay visible.
  void AdvanceClock(Timestamp ts);
  // Ids handed out from now on are kTxnIdBit | epoch << 32 | n (n from 1): a new epoch per run
  // keeps ids of a crashed run from being reused (commit_log.h).
  void SetEpoch(uint64_t epoch);

  // The commit timestamp a header field stands for: itself for a timestamp, the commit time of
  // a committed transaction id, kInfinity otherwise (running, committing, aborted, unknown).
  Timestamp Resolve(uint64_t field) const;
  // As Resolve, but a committing transaction resolves to its commit timestamp too (early
  // lock release: writers may build on a decided commit before it is durable).
  Timestamp ResolveDecided(uint64_t field) const;
  // README section 2: is the version with these header fields visible in snapshot s?
  bool Visible(uint64_t begin, uint64_t end, const Snapshot& s) const;
  // kAborted for ids the table does not know (a crash left them behind).
  TxnState State(uint64_t txn) const;

  // Blocks waiter until holder is neither running nor committing and returns its final state
  // (until_decided: returns kCommitting as soon as holder has its commit timestamp).
  // check is polled about every 50 ms (cancel, lock_timeout); its error ends the wait. 40P01
  // when waiting would close a cycle in the waits-for graph (waiter is the victim).
  // Also returns (kRunning) when some transaction released rows without ending
  // (NotifyReleased): the caller looks at the row again.
  Result<TxnState> WaitFor(uint64_t waiter, uint64_t holder, const std::function<Status()>& check,
                           bool until_decided = false);
  // Running transaction txn gave rows back (ROLLBACK TO SAVEPOINT): its waiters re-check.
  void NotifyReleased(uint64_t txn);
  // The waits in progress now: (waiter, holder) per transaction blocked in WaitFor (pg_locks).
  std::vector<std::pair<uint64_t, uint64_t>> LockWaits() const;

  // Drops finished entries (committed ones stamped into pages, aborted ones cleaned) whose ids
  // are below horizon_txn; later lookups of such ids resolve as aborted unless committed_ts
  // says otherwise. Used by checkpoints.
  void ForgetBelow(uint64_t horizon_txn);
  size_t tracked() const;

  // Checkpoints (README section 5): a committed transaction whose begin/end fields were all
  // rewritten to its commit timestamp is "stamped"; an aborted one whose marks were cleaned is
  // too. Stamped() lists them; once their pages are durable, Forget drops them (a forgotten id
  // resolves as aborted, which is right for what remains of an aborted one: nothing visible).
  void MarkStamped(uint64_t txn);
  std::vector<uint64_t> Stamped() const;
  void Forget(const std::vector<uint64_t>& txns);
  // The oldest snapshot a running transaction may still read with (its latest statement
  // snapshot), or the published timestamp when none runs: versions and successor links
  // replaced at or before it serve nobody any more.
  Timestamp OldestSnapshot() const;
  // A snapshot still read after its transaction moved on to newer statement snapshots (a
  // suspended portal): held, OldestSnapshot stays at or below read_ts until released.
  void HoldSnapshot(Timestamp read_ts);
  void ReleaseSnapshot(Timestamp read_ts);
  // Committed transactions still tracked (carried by a checkpoint record).
  std::vector<std::pair<uint64_t, Timestamp>> Committed() const;

 private:
  struct Entry {
    TxnState state = TxnState::kRunning;
    Timestamp commit_ts = kInfinity;
    bool stamped = false;
    Timestamp snapshot_ts = 0;  // the newest snapshot it took (running transactions)
  };
  bool ClosesCycle(uint64_t waiter, uint64_t holder) const REQUIRES(mu_);
  // One transaction blocked in WaitFor (on its stack while registered in waiters_).
  struct Waiter {
    CondVar cv;
    bool released = false;  // its holder gave rows back (NotifyReleased)
  };
  // Wakes the waiters of holder; released: they return kRunning to re-check.
  void WakeWaiters(uint64_t holder, bool released = false) REQUIRES(mu_);

  mutable Mutex mu_;
  Timestamp clock_ GUARDED_BY(mu_);  // last commit ts handed out
  Timestamp published_ GUARDED_BY(mu_);
  uint64_t next_txn_ GUARDED_BY(mu_);
  // snapshot_ts is set by const TakeSnapshot.
  mutable std::unordered_map<uint64_t, Entry> txns_ GUARDED_BY(mu_);
  std::unordered_map<uint64_t, uint64_t> waits_for_ GUARDED_BY(mu_);  // waiter → holder
  // Transactions aborted while committing (a failed group; rare: a full disk).
  std::unordered_set<uint64_t> failed_commits_ GUARDED_BY(mu_);
  std::unordered_multimap<uint64_t, Waiter*> waiters_ GUARDED_BY(mu_);  // holder → its waiters
  std::multiset<Timestamp> held_snapshots_ GUARDED_BY(mu_);             // HoldSnapshot
};

}  // namespace meridian::txn
