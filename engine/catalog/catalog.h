// Catalog: the set of tables of one database, persisted in data_dir/catalog.meta (format in
// catalog_file.h) with each table's rows in data_dir/tables/<id>.heap.
// Concurrency: mu_ (a shared_mutex) guards the name → Table map, next_table_id_ and closed_.
// Lookups take it shared and briefly; DDL takes it exclusively for the whole catalog change
// (including the catalog file rewrite). It is never held while waiting for a TableLock: DROP
// TABLE takes the table's exclusive lock first, then mu_. Table contents are guarded by each
// Table's own TableLock (see table.h).
#pragma once

#include <map>
#include <memory>
#include <shared_mutex>
#include <string>
#include <vector>

#include "catalog/catalog_file.h"
#include "catalog/schema.h"
#include "catalog/table.h"
#include "meridian/status.h"
#include "storage/buffer_pool.h"

namespace meridian::catalog {

class Catalog {
 public:
  // Reads the catalog of data_dir (an empty one when absent), opens every table's heap file in
  // *pool (which must outlive the catalog) and builds the interim primary-key sets.
  static Result<std::unique_ptr<Catalog>> Open(const std::string& data_dir,
                                               storage::BufferPool* pool);
  ~Catalog();

  // The table named name, or null.
  std::shared_ptr<Table> Find(const std::string& name) const;
  // Every table, ordered by name.
  std::vector<std::shared_ptr<Table>> List() const;

  // Assigns schema.id, creates the heap file and persists the catalog. 42P07 when a table of
  // that name exists.
  Result<std::shared_ptr<Table>> CreateTable(TableSchema schema);
  // Removes table from the catalog, persists it, then closes and deletes the heap file.
  // REQUIRES: the caller holds table's exclusive lock.
  Status DropTable(const std::shared_ptr<Table>& table);

  // Writes every table's dirty pages and fsyncs them (the catalog file is always durable).
  Status Checkpoint();
  // Checkpoints and closes every heap; later DDL fails. Idempotent.
  Status Close();

 private:
  Catalog(std::string data_dir, storage::BufferPool* pool);
  std::string HeapPath(uint32_t id) const;
  CatalogState StateLocked() const;  // REQUIRES: mu_ held

  const std::string data_dir_;
  storage::BufferPool* const pool_;
  storage::FileSystem* const fs_;

  mutable std::shared_mutex mu_;
  std::map<std::string, std::shared_ptr<Table>> tables_;  // guarded by mu_
  uint32_t next_table_id_ = 1;                            // guarded by mu_
  bool closed_ = false;                                   // guarded by mu_
};

}  // namespace meridian::catalog
