// FOR KEY SHARE row locks, taken by the foreign key checks on the parent rows they rely on
// (docs/txn.md "Foreign keys"). Shared, so transactions adding children of one
// parent do not wait for each other, and therefore kept beside the heap rather than in the
// tuple's end field (which holds one transaction): a registry of (table, rid) → the
// transactions holding the lock, per TxnManager. A transaction that deletes, replaces or locks
// FOR UPDATE a version waits for its running holders (Transaction::LockVersion); a holder
// registers first and then looks at the version again (so a writer that took the version
// before the registration is seen, and waited for, by the holder). Entries go when their
// transaction is stamped or cleaned up; holders that no longer run are dropped whenever an
// entry is read. Thread-safe (one mutex; TxnManager's is taken under it, never the reverse).
#pragma once

#include <cstdint>
#include <vector>

#include "storage/heap_file.h"
#include "txn/txn_manager.h"

namespace meridian::catalog {

void AddKeyShareLock(const txn::TxnManager& txns, uint32_t table, storage::Rid rid, uint64_t txn);
// The holders of (table, rid) other than me that are still running or committing.
std::vector<uint64_t> KeyShareHolders(const txn::TxnManager& txns, uint32_t table, storage::Rid rid,
                                      uint64_t me);
// Every lock txn holds.
void ReleaseKeyShareLocks(const txn::TxnManager& txns, uint64_t txn);

}  // namespace meridian::catalog
