// Table: the runtime state of one table — its immutable schema, its heap file, its TableLock
// and the interim primary-key hash set. Tables are shared (shared_ptr) by the catalog and by
// running statements; a dropped or closed table stays alive while statements hold it, but is
// marked unusable so they fail cleanly instead of touching a closed file.
#pragma once

#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

#include "catalog/schema.h"
#include "catalog/table_lock.h"
#include "meridian/status.h"
#include "meridian/value.h"
#include "storage/heap_file.h"

namespace meridian::catalog {

// INTERIM until the B+tree issue: uniqueness of the primary key is enforced with an in-memory
// hash set of encoded key values, built by scanning the heap when the table is opened and
// maintained by INSERT/UPDATE/DELETE under the table's exclusive lock. It costs memory
// proportional to the table and a full scan at open; a persistent B+tree index replaces it.
class PrimaryKeySet {
 public:
  bool Contains(const std::string& key) const { return keys_.count(key) != 0; }
  void Insert(const std::string& key) { keys_.insert(key); }
  void Erase(const std::string& key) { keys_.erase(key); }
  size_t size() const { return keys_.size(); }

 private:
  std::unordered_set<std::string> keys_;
};

class Table {
 public:
  Table(std::shared_ptr<const TableSchema> schema, std::unique_ptr<storage::HeapFile> heap);
  ~Table();

  uint32_t id() const { return schema_->id; }
  const std::string& name() const { return schema_->name; }
  const TableSchema& schema() const { return *schema_; }
  const std::vector<Type>& types() const { return types_; }
  TableLock& lock() { return lock_; }

  // Everything below REQUIRES the table lock: shared to read, exclusive to change.
  // OK while the heap is open; 42P01 after DROP TABLE, 57P01 after the database closed.
  Status CheckUsable() const;
  storage::HeapFile* heap() { return heap_.get(); }
  PrimaryKeySet& pk() { return pk_; }
  bool has_primary_key() const { return !schema_->primary_key.empty(); }
  // The primary-key values of a full table row, in key order.
  std::vector<Value> KeyValues(const Row& row) const;
  // Scans the heap and fills the primary-key set (at open).
  Status BuildPrimaryKeySet();
  // Flushes and closes the heap; later use fails with CheckUsable's error. REQUIRES exclusive.
  Status CloseHeap(bool dropped);

 private:
  const std::shared_ptr<const TableSchema> schema_;
  const std::vector<Type> types_;
  TableLock lock_;
  std::unique_ptr<storage::HeapFile> heap_;  // guarded by lock_; null once closed
  bool dropped_ = false;                     // guarded by lock_
  PrimaryKeySet pk_;                         // guarded by lock_
};

}  // namespace meridian::catalog
