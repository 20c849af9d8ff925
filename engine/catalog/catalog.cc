// Catalog: open/reload, CREATE/DROP TABLE bookkeeping, checkpoint and close.
#include "catalog/catalog.h"

#include <algorithm>
#include <filesystem>
#include <mutex>

#include "catalog/catalog_file.h"

namespace meridian::catalog {

Catalog::Catalog(std::string data_dir, storage::BufferPool* pool)
    : data_dir_(std::move(data_dir)), pool_(pool), fs_(pool->file_system()) {}

Catalog::~Catalog() { (void)Close(); }

std::string Catalog::HeapPath(uint32_t id) const {
  return data_dir_ + "/tables/" + std::to_string(id) + ".heap";
}

Result<std::unique_ptr<Catalog>> Catalog::Open(const std::string& data_dir,
                                               storage::BufferPool* pool) {
  std::unique_ptr<Catalog> catalog(new Catalog(data_dir, pool));
  std::error_code ec;
  std::filesystem::create_directories(data_dir + "/tables", ec);
  if (ec) {
    return Status::IOError("could not create directory \"" + data_dir +
                           "/tables\": " + ec.message());
  }
  MERIDIAN_ASSIGN_OR_RETURN(CatalogState state, ReadCatalogFile(catalog->fs_, data_dir));
  catalog->next_table_id_ = state.next_table_id;
  for (TableSchema& schema : state.tables) {
    auto shared = std::make_shared<const TableSchema>(std::move(schema));
    MERIDIAN_ASSIGN_OR_RETURN(std::unique_ptr<storage::HeapFile> heap,
                              storage::HeapFile::Open(pool, catalog->HeapPath(shared->id)));
    auto table = std::make_shared<Table>(shared, std::move(heap));
    MERIDIAN_RETURN_IF_ERROR(table->BuildPrimaryKeySet());
    catalog->tables_[shared->name] = std::move(table);
  }
  return catalog;
}

std::shared_ptr<Table> Catalog::Find(const std::string& name) const {
  std::shared_lock lock(mu_);
  auto it = tables_.find(name);
  return it == tables_.end() ? nullptr : it->second;
}

std::vector<std::shared_ptr<Table>> Catalog::List() const {
  std::shared_lock lock(mu_);
  std::vector<std::shared_ptr<Table>> out;
  for (const auto& [name, table] : tables_) out.push_back(table);
  return out;
}

CatalogState Catalog::StateLocked() const {
  CatalogState state;
  state.next_table_id = next_table_id_;
  for (const auto& [name, table] : tables_) state.tables.push_back(table->schema());
  std::sort(state.tables.begin(), state.tables.end(),
            [](const TableSchema& a, const TableSchema& b) { return a.id < b.id; });
  return state;
}

Result<std::shared_ptr<Table>> Catalog::CreateTable(TableSchema schema) {
  std::unique_lock lock(mu_);
  if (closed_) return Status::Error(sqlstate::kAdminShutdown, "the database is closed");
  if (tables_.count(schema.name) != 0) {
    return Status::Error(sqlstate::kDuplicateTable,
                         "relation \"" + schema.name + "\" already exists");
  }
  schema.id = next_table_id_;
  const std::string path = HeapPath(schema.id);
  // A file left by a CREATE that crashed before its catalog write holds nothing of value.
  MERIDIAN_ASSIGN_OR_RETURN(bool stale, fs_->Exists(path));
  if (stale) MERIDIAN_RETURN_IF_ERROR(fs_->Remove(path));
  MERIDIAN_ASSIGN_OR_RETURN(std::unique_ptr<storage::HeapFile> heap,
                            storage::HeapFile::Open(pool_, path));
  auto table = std::make_shared<Table>(std::make_shared<const TableSchema>(std::move(schema)),
                                       std::move(heap));
  tables_[table->name()] = table;
  ++next_table_id_;
  Status st = WriteCatalogFile(fs_, data_dir_, StateLocked());
  if (!st.ok()) {
    tables_.erase(table->name());
    --next_table_id_;
    (void)table->CloseHeap(true);
    (void)fs_->Remove(path);
    return st;
  }
  return table;
}

Status Catalog::DropTable(const std::shared_ptr<Table>& table) {
  std::unique_lock lock(mu_);
  auto it = tables_.find(table->name());
  if (it == tables_.end() || it->second != table) {
    return Status::Error(sqlstate::kUndefinedTable,
                         "table \"" + table->name() + "\" does not exist");
  }
  tables_.erase(it);
  Status st = WriteCatalogFile(fs_, data_dir_, StateLocked());
  if (!st.ok()) {
    tables_[table->name()] = table;
    return st;
  }
  // The catalog no longer names the table; a crash from here on leaves an orphan file only.
  (void)table->CloseHeap(true);
  return fs_->Remove(HeapPath(table->id()));
}

Status Catalog::Checkpoint() {
  Status first;
  for (const std::shared_ptr<Table>& table : List()) {
    Status st = table->lock().Lock(LockMode::kShared, nullptr);
    if (st.ok()) {
      if (table->heap() != nullptr) st = table->heap()->Flush();
      table->lock().Unlock(LockMode::kShared);
    }
    if (!st.ok() && first.ok()) first = st;
  }
  return first;
}

Status Catalog::Close() {
  std::vector<std::shared_ptr<Table>> tables;
  {
    std::unique_lock lock(mu_);
    if (closed_) return Status::Ok();
    closed_ = true;
    for (const auto& [name, table] : tables_) tables.push_back(table);
  }
  Status first;
  for (const std::shared_ptr<Table>& table : tables) {
    Status st = table->lock().Lock(LockMode::kExclusive, nullptr);
    if (st.ok()) {
      st = table->CloseHeap(false);
      table->lock().Unlock(LockMode::kExclusive);
    }
    if (!st.ok() && first.ok()) first = st;
  }
  return first;
}

}  // namespace meridian::catalog
