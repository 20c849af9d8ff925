// The FOR KEY SHARE lock registry of the foreign key checks (see key_share_locks.h).
#include "catalog/key_share_locks.h"

#include <algorithm>
#include <atomic>
#include <map>
#include <tuple>

#include "meridian/thread_annotations.h"

namespace meridian::catalog {
namespace {

using RowKey = std::tuple<uint32_t, uint32_t, uint16_t>;  // table, page, slot

struct Registry {
  Mutex mu;
  // Per TxnManager: row → holders, and holder → rows (for the release).
  std::map<const txn::TxnManager*, std::map<RowKey, std::vector<uint64_t>>> rows GUARDED_BY(mu);
  std::map<const txn::TxnManager*, std::map<uint64_t, std::vector<RowKey>>> held GUARDED_BY(mu);
  // Holders registered in rows (written under mu): 0 lets KeyShareHolders skip the mutex, so
  // writers pay nothing while no foreign key check holds a lock.
  std::atomic<int64_t> holders{0};
};

Registry& TheRegistry() {
  static Registry* registry = new Registry();  // never destroyed: used until the process ends
  return *registry;
}

bool Running(const txn::TxnManager& txns, uint64_t txn) {
  const txn::TxnState state = txns.State(txn);
  return state == txn::TxnState::kRunning || state == txn::TxnState::kCommitting;
}

}  // namespace

void AddKeyShareLock(const txn::TxnManager& txns, uint32_t table, storage::Rid rid, uint64_t txn) {
  Registry& r = TheRegistry();
  MutexLock lock(r.mu);
  const RowKey key{table, rid.page, rid.slot};
  std::vector<uint64_t>& holders = r.rows[&txns][key];
  if (std::find(holders.begin(), holders.end(), txn) != holders.end()) return;
  holders.push_back(txn);
  r.held[&txns][txn].push_back(key);
  r.holders.fetch_add(1, std::memory_order_release);
}

std::vector<uint64_t> KeyShareHolders(const txn::TxnManager& txns, uint32_t table, storage::Rid rid,
                                      uint64_t me) {
  Registry& r = TheRegistry();
  // A registration that this load misses came after the writer took the version: its holder
  // sees the writer's mark when it looks at the version again (key_share_locks.h).
  if (r.holders.load(std::memory_order_acquire) == 0) return {};
  MutexLock lock(r.mu);
  auto by_manager = r.rows.find(&txns);
  if (by_manager == r.rows.end()) return {};
  auto it = by_manager->second.find(RowKey{table, rid.page, rid.slot});
  if (it == by_manager->second.end()) return {};
  std::vector<uint64_t> out;
  for (uint64_t h : it->second) {
    if (h != me && Running(txns, h)) out.push_back(h);
  }
  return out;
}

void ReleaseKeyShareLocks(const txn::TxnManager& txns, uint64_t txn) {
  Registry& r = TheRegistry();
  MutexLock lock(r.mu);
  auto by_manager = r.held.find(&txns);
  if (by_manager == r.held.end()) return;
  auto mine = by_manager->second.find(txn);
  if (mine == by_manager->second.end()) return;
  std::map<RowKey, std::vector<uint64_t>>& rows = r.rows[&txns];
  for (const RowKey& key : mine->second) {
    auto it = rows.find(key);
    if (it == rows.end()) continue;
    r.holders.fetch_sub(static_cast<int64_t>(std::erase(it->second, txn)),
                        std::memory_order_release);
    if (it->second.empty()) rows.erase(it);
  }
  by_manager->second.erase(mine);
  if (by_manager->second.empty()) {
    r.held.erase(by_manager);
    if (rows.empty()) r.rows.erase(&txns);
  }
}

}  // namespace meridian::catalog
