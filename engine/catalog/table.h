// Table: the runtime state of one table — its schema (replaced whole by ALTER TABLE), its heap
// file, its TableLock, its indexes (primary key, UNIQUE constraints, CREATE INDEX) and planner
// statistics. Tables are shared (shared_ptr) by the catalog and by running statements; a dropped or
// closed table stays alive while statements hold it, but is marked unusable so they fail cleanly
// instead of touching a closed file.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "catalog/index.h"
#include "catalog/schema.h"
#include "catalog/stats.h"
#include "catalog/table_lock.h"
#include "meridian/status.h"
#include "meridian/thread_annotations.h"
#include "meridian/value.h"
#include "storage/heap_file.h"
#include "txn/txn_manager.h"

namespace meridian::catalog {

class Table {
 public:
  Table(std::shared_ptr<const TableSchema> schema, std::unique_ptr<storage::HeapFile> heap);
  // A read-only table of rows computed in memory, without heap or indexes: a system table
  // (pg_catalog, information_schema; system_tables.h) built for one statement.
  Table(std::shared_ptr<const TableSchema> schema, std::vector<Row> rows);
  ~Table();

  uint32_t id() const { return current_.load(std::memory_order_acquire)->schema->id; }
  const std::string& name() const { return schema().name; }
  // The current schema and its column types (every position, dropped ones too). Both stay
  // valid for the Table's lifetime even after ALTER TABLE publishes a newer schema (every
  // version is kept), so statements bound to an older one keep reading their columns;
  // schema_version() tells whether one was published since (catalog::LockSet checks it).
  const TableSchema& schema() const { return *current_.load(std::memory_order_acquire)->schema; }
  const std::vector<Type>& types() const { return current_.load(std::memory_order_acquire)->types; }
  uint64_t schema_version() const { return version_.load(std::memory_order_acquire); }
  // Publishes schema as the current one (ALTER TABLE; same id, positions only appended) and
  // forgets the statistics. REQUIRES exclusive lock.
  void SetSchema(TableSchema schema);
  // Decodes a stored tuple with the current types: slots the tuple predates (ADD COLUMN since)
  // read each column's missing value. needed: as storage::DecodeStoredTuple's (columns outside
  // it come out NULL). *row is decoded in place (its storage reused).
  Status DecodeRow(std::string_view bytes, Row* row,
                   const std::vector<bool>* needed = nullptr) const;
  // Whether a version is dead to every snapshot: created by an aborted transaction or deleted
  // by a committed one (false for every version when no TxnManager is set).
  bool IsDeadVersion(const storage::TupleHeader& h) const;
  TableLock& lock() { return lock_; }

  // Everything below REQUIRES the table lock: shared to read, exclusive to change.
  // OK while the heap is open; 42P01 after DROP TABLE, 57P01 after the database closed.
  Status CheckUsable() const;
  storage::HeapFile* heap() { return heap_.get(); }
  // A system table's rows; null for a stored table.
  const std::vector<Row>* system_rows() const { return system_rows_.get(); }
  // Every index of the table, in creation order (the primary key first when there is one).
  // REQUIRES the table lock.
  const std::vector<std::shared_ptr<Index>>& indexes() const { return indexes_; }
  // A copy of the list, safe without the table lock (the planner runs before statements take
  // their locks; an index dropped meanwhile fails the scan cleanly).
  std::vector<std::shared_ptr<Index>> IndexSnapshot() const;
  // REQUIRES exclusive lock (or a table not yet published to other threads).
  void AddIndex(std::shared_ptr<Index> index);
  std::shared_ptr<Index> RemoveIndex(const std::string& name);
  // Fills an empty index from the heap (CREATE INDEX, rebuild after an unclean stop). Fails
  // with 23505 naming the index when a unique index meets a duplicate key.
  Status BuildIndex(Index* index);
  // BuildIndex of an R-tree index: bulk load (RTree::BulkLoad) of every row version's point.
  Status BuildRTreeIndex(Index* index);
  // "a, b": the names of an index's key columns, for error details.
  std::string KeyColumnNames(const IndexSchema& index) const;
  // Calls fn with every row of the heap visible to a fresh snapshot (every stored row when no
  // TxnManager is set), decoded, in heap order; stops at fn's first error. REQUIRES shared or
  // exclusive lock.
  Status ForEachRow(const std::function<Status(storage::Rid, const Row&)>& fn);
  // Every stored version with its MVCC header, whatever its visibility.
  Status ForEachVersion(
      const std::function<Status(storage::Rid, const storage::TupleHeader&, const Row&)>& fn);
  // The transaction status table versions are judged by (set once by the catalog).
  void set_txns(const txn::TxnManager* txns) { txns_ = txns; }
  const txn::TxnManager* txns() const { return txns_; }
  // TRUNCATE: installs an empty heap and one empty tree per index (in index order: trees[i]
  // for a B+tree index, rtrees[i] for an R-tree one, the other null) after the old files were
  // closed. REQUIRES exclusive lock.
  void ReplaceStorage(std::unique_ptr<storage::HeapFile> heap,
                      std::vector<std::unique_ptr<storage::BTree>> trees,
                      std::vector<std::unique_ptr<storage::RTree>> rtrees);
  // Flushes and closes the heap and the indexes; later use fails with CheckUsable's error.
  // REQUIRES exclusive.
  Status CloseHeap(bool dropped);
  // Writes the heap's and the indexes' dirty pages. REQUIRES shared or exclusive lock.
  Status Flush();

  // Successors of replaced versions (UPDATE: old rid → new rid, with the updater), so READ
  // COMMITTED writers can follow a row to its newest version (PostgreSQL's ctid chain), kept in
  // memory while a snapshot older than the update may still need it. Thread-safe.
  void NoteSuccessor(storage::Rid old_rid, storage::Rid new_rid, uint64_t updater);
  std::optional<storage::Rid> Successor(storage::Rid old_rid) const;
  // Drops entries of aborted updaters and of updates committed at or before horizon.
  void PruneSuccessors(txn::Timestamp horizon);

  // Planner estimates; safe from any thread. The live row count is adjusted by every INSERT
  // and DELETE (an estimate: it is persisted only when the catalog file is written).
  int64_t live_rows() const { return live_rows_.load(std::memory_order_relaxed); }
  void AdjustRows(int64_t delta);
  void SetLiveRows(int64_t rows) { live_rows_.store(rows, std::memory_order_relaxed); }
  // The heap's page count when last seen by a scan, ANALYZE or garbage collection (0 = not
  // yet): with dead versions not yet collected, or after a burst of them, it may be far above
  // what the live rows need, and a sequential scan reads every page.
  uint32_t heap_pages_seen() const { return heap_pages_seen_.load(std::memory_order_relaxed); }
  void NoteHeapPages(uint32_t pages) { heap_pages_seen_.store(pages, std::memory_order_relaxed); }
  // Rows inserted, updated or deleted since the last ANALYZE.
  int64_t changes_since_analyze() const { return changes_.load(std::memory_order_relaxed); }
  // When the last ANALYZE of this table ended (steady clock; the epoch when there was none).
  std::chrono::steady_clock::time_point analyzed_at() const {
    return std::chrono::steady_clock::time_point(
        std::chrono::steady_clock::duration(analyzed_at_.load(std::memory_order_relaxed)));
  }
  void NoteChanges(int64_t n) {
    changes_.fetch_add(n, std::memory_order_relaxed);
    writes_since_gc_.fetch_add(n, std::memory_order_relaxed);
  }

  // Garbage collection (docs/txn.md section 5), in two steps around a checkpoint.
  // CollectGarbage finds every version no snapshot can see any more — created by an aborted
  // transaction, or deleted by one that committed at or before horizon (the oldest running
  // snapshot) — and removes its index entries (unique keys under their key lock, so a unique
  // check never reads a reused slot); FreeVersions then frees their slots, only after the
  // checkpoint's index images (which lack those entries) are durable: a slot is never reused
  // while a durable index image still points at it. Visits only the noted pages (below). REQUIRES
  // shared lock; one caller at a time. Bumped by ReplaceStorage: row ids of an older generation
  // name nothing in heap().
  uint64_t storage_generation() const {
    return storage_generation_.load(std::memory_order_acquire);
  }
  struct Garbage {
    uint64_t storage_generation = 0;
    std::vector<storage::Rid> rids;
  };
  Status CollectGarbage(txn::Timestamp horizon, Garbage* garbage);
  // Pages that may hold versions garbage collection has not seen yet: noted by the writers
  // when a transaction ends (the pages of its deleted or replaced versions when it commits,
  // of its inserted ones when it aborts or a savepoint is rolled back). CollectGarbage visits
  // only these, plus the pages whose versions were not yet collectible last time; the first
  // pass after opening (dead versions of an earlier run) and after ReplaceStorage reads every
  // page. Thread-safe.
  void NoteGarbagePages(const std::vector<uint32_t>& pages);
  // Whether writes since the last pass reach kGarbageDueWrites and twice the live rows: a
  // small table updated often (a hot row's dead versions, which every scan of it reads) then
  // gets an early checkpoint with collection (Catalog::GarbageDue).
  static constexpr int64_t kGarbageDueWrites = 1000;
  bool GarbageDue() const {
    const int64_t writes = writes_since_gc_.load(std::memory_order_relaxed);
    return writes >= kGarbageDueWrites && writes >= 2 * live_rows();
  }
  // Frees the slots (skipped when TRUNCATE replaced the heap since). REQUIRES shared lock.
  Status FreeVersions(const Garbage& garbage, int64_t* removed);
  // Visibility map pass (docs/storage.md "Visibility map"): sets the bit of every page not
  // yet all-visible whose versions all have a stamped begin <= horizon (the oldest running
  // snapshot, TxnManager::OldestSnapshot, taken by the caller) and no end stamp or lock mark.
  // *marked counts the pages set by this pass. REQUIRES shared lock.
  Status MarkAllVisible(txn::Timestamp horizon, size_t* marked);
  // Recovery (docs/txn.md section 5): adds the index entries of the committed, live
  // versions on these heap pages (entries already present are kept as they are).
  Status CatchUpIndexes(const std::vector<uint32_t>& pages);
  std::shared_ptr<const TableStats> stats() const;
  // Full scan computing TableStats. REQUIRES shared or exclusive lock.
  Status Analyze();

 private:
  struct SchemaVersion {
    std::shared_ptr<const TableSchema> schema;
    std::vector<Type> types;
  };
  mutable Mutex versions_mu_;
  std::vector<std::unique_ptr<const SchemaVersion>> versions_ GUARDED_BY(versions_mu_);
  std::atomic<const SchemaVersion*> current_;  // the last of versions_; set under exclusive lock
  std::atomic<uint64_t> version_{0};
  TableLock lock_;
  const txn::TxnManager* txns_ = nullptr;
  std::unique_ptr<storage::HeapFile> heap_;                    // guarded by lock_; null once closed
  const std::unique_ptr<const std::vector<Row>> system_rows_;  // immutable; null if stored
  bool dropped_ = false;                                       // guarded by lock_
  mutable std::mutex indexes_mu_;
  // Guarded by lock_ for use, and changed only while also holding indexes_mu_.
  std::vector<std::shared_ptr<Index>> indexes_;
  std::atomic<int64_t> live_rows_{0};
  std::atomic<uint32_t> heap_pages_seen_{0};
  std::atomic<int64_t> changes_{0};
  std::atomic<std::chrono::steady_clock::rep> analyzed_at_{0};  // analyzed_at()
  std::atomic<int64_t> writes_since_gc_{0};
  Mutex gc_pages_mu_;
  std::vector<uint64_t> gc_pages_ GUARDED_BY(gc_pages_mu_);  // a bit per page to visit
  bool gc_all_pages_ GUARDED_BY(gc_pages_mu_) = true;        // visit every page next time
  std::atomic<uint64_t> storage_generation_{0};              // bumped by ReplaceStorage (TRUNCATE)
  mutable Mutex successors_mu_;
  // Packed old rid → (packed new rid, updater txn id).
  std::unordered_map<uint64_t, std::pair<uint64_t, uint64_t>> successors_
      GUARDED_BY(successors_mu_);
  mutable Mutex stats_mu_;
  std::shared_ptr<const TableStats> stats_ GUARDED_BY(stats_mu_);  // null until ANALYZE
};

// A table lock held for one scope, waiting without interruption (background work: checkpoints,
// commit flushes, stamping).
class ScopedTableLock {
 public:
  ScopedTableLock(Table& table, LockMode mode) : table_(table), mode_(mode) {
    status_ = table_.lock().Lock(mode_, nullptr);
  }
  ~ScopedTableLock() {
    if (status_.ok()) table_.lock().Unlock(mode_);
  }
  ScopedTableLock(const ScopedTableLock&) = delete;
  ScopedTableLock& operator=(const ScopedTableLock&) = delete;
  const Status& status() const { return status_; }

 private:
  Table& table_;
  LockMode mode_;
  Status status_;
};

}  // namespace meridian::catalog
