// Catalog: open/reload (with index rebuild after an unclean stop), CREATE/DROP TABLE and INDEX
// bookkeeping, automatic ANALYZE, checkpoint and close.
#include "catalog/catalog.h"

#include <algorithm>
#include <filesystem>
#include <mutex>

#include "catalog/catalog_file.h"

namespace meridian::catalog {

namespace {

constexpr const char* kCleanShutdownFile = "clean_shutdown";

// Holds a table lock for a scope (the catalog's own maintenance paths).
class ScopedTableLock {
 public:
  ScopedTableLock(Table& table, LockMode mode) : table_(table), mode_(mode) {
    status_ = table_.lock().Lock(mode_, nullptr);
  }
  ~ScopedTableLock() {
    if (status_.ok()) table_.lock().Unlock(mode_);
  }
  const Status& status() const { return status_; }

 private:
  Table& table_;
  LockMode mode_;
  Status status_;
};

}  // namespace

Catalog::Catalog(std::string data_dir, storage::BufferPool* pool)
    : data_dir_(std::move(data_dir)), pool_(pool), fs_(pool->file_system()) {}

Catalog::~Catalog() { (void)Close(); }

std::string Catalog::HeapPath(uint32_t id) const {
  return data_dir_ + "/tables/" + std::to_string(id) + ".heap";
}

std::string Catalog::IndexPath(uint32_t id) const {
  return data_dir_ + "/tables/" + std::to_string(id) + ".btree";
}

Result<std::shared_ptr<Index>> Catalog::OpenIndex(Table* table, const IndexSchema& schema,
                                                  bool rebuild) {
  const std::string path = IndexPath(schema.id);
  MERIDIAN_ASSIGN_OR_RETURN(bool exists, fs_->Exists(path));
  if (exists && rebuild) MERIDIAN_RETURN_IF_ERROR(fs_->Remove(path));
  MERIDIAN_ASSIGN_OR_RETURN(std::unique_ptr<storage::BTree> tree,
                            storage::BTree::Open(pool_, path, {.unique = false}));
  auto index = std::make_shared<Index>(schema, std::move(tree));
  if (!exists || rebuild) {
    Status st = table->BuildIndex(index.get());
    if (!st.ok()) {
      (void)index->Close();
      (void)fs_->Remove(path);
      return st;
    }
  }
  return index;
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
  storage::FileSystem* fs = catalog->fs_;
  MERIDIAN_ASSIGN_OR_RETURN(CatalogState state, ReadCatalogFile(fs, data_dir));
  // Without the marker of a clean Close, index files may disagree with their heaps.
  const std::string marker = data_dir + "/" + kCleanShutdownFile;
  MERIDIAN_ASSIGN_OR_RETURN(bool clean, fs->Exists(marker));
  if (clean) {
    MERIDIAN_RETURN_IF_ERROR(fs->Remove(marker));
    MERIDIAN_RETURN_IF_ERROR(fs->SyncDir(data_dir));
  }
  catalog->next_table_id_ = state.next_table_id;
  std::map<uint32_t, std::shared_ptr<Table>> by_id;
  for (size_t i = 0; i < state.tables.size(); ++i) {
    auto shared = std::make_shared<const TableSchema>(std::move(state.tables[i]));
    MERIDIAN_ASSIGN_OR_RETURN(std::unique_ptr<storage::HeapFile> heap,
                              storage::HeapFile::Open(pool, catalog->HeapPath(shared->id)));
    auto table = std::make_shared<Table>(shared, std::move(heap));
    table->SetLiveRows(i < state.live_rows.size() ? state.live_rows[i] : 0);
    by_id[shared->id] = table;
    catalog->tables_[shared->name] = std::move(table);
  }
  // Version 1 kept primary keys in memory only: give them their index now.
  bool migrated = false;
  if (state.version < 2) {
    for (const auto& [id, table] : by_id) {
      const TableSchema& t = table->schema();
      if (t.primary_key.empty()) continue;
      IndexSchema pk;
      pk.id = catalog->next_table_id_++;
      pk.name = t.PrimaryKeyName();
      pk.table_id = t.id;
      pk.kind = IndexKind::kPrimaryKey;
      pk.unique = true;
      pk.columns = t.primary_key;
      pk.descending.assign(pk.columns.size(), false);
      state.indexes.push_back(std::move(pk));
      migrated = true;
    }
  }
  for (const IndexSchema& schema : state.indexes) {
    Table* table = by_id.at(schema.table_id).get();
    MERIDIAN_ASSIGN_OR_RETURN(std::shared_ptr<Index> index,
                              catalog->OpenIndex(table, schema, !clean));
    table->AddIndex(std::move(index));
    catalog->indexes_[schema.name] = schema;
  }
  if (migrated) {
    MERIDIAN_RETURN_IF_ERROR(WriteCatalogFile(fs, data_dir, catalog->StateLocked()));
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
  std::vector<std::shared_ptr<Table>> tables;
  for (const auto& [name, table] : tables_) tables.push_back(table);
  std::sort(tables.begin(), tables.end(),
            [](const auto& a, const auto& b) { return a->id() < b->id(); });
  for (const auto& table : tables) {
    state.tables.push_back(table->schema());
    state.live_rows.push_back(table->live_rows());
  }
  for (const auto& [name, schema] : indexes_) state.indexes.push_back(schema);
  std::sort(state.indexes.begin(), state.indexes.end(),
            [](const IndexSchema& a, const IndexSchema& b) { return a.id < b.id; });
  return state;
}

bool Catalog::NameTakenLocked(const std::string& name) const {
  return tables_.count(name) != 0 || indexes_.count(name) != 0 || reserved_.count(name) != 0;
}

Result<std::shared_ptr<Table>> Catalog::CreateTable(TableSchema schema) {
  std::unique_lock lock(mu_);
  if (closed_) return Status::Error(sqlstate::kAdminShutdown, "the database is closed");
  if (NameTakenLocked(schema.name)) {
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
  std::vector<IndexSchema> dropped_indexes;
  for (const std::shared_ptr<Index>& index : table->indexes()) {
    dropped_indexes.push_back(index->schema());
    indexes_.erase(index->name());
  }
  Status st = WriteCatalogFile(fs_, data_dir_, StateLocked());
  if (!st.ok()) {
    tables_[table->name()] = table;
    for (IndexSchema& x : dropped_indexes) indexes_[x.name] = std::move(x);
    return st;
  }
  // The catalog no longer names the table; a crash from here on leaves orphan files only.
  (void)table->CloseHeap(true);
  for (const IndexSchema& x : dropped_indexes) (void)fs_->Remove(IndexPath(x.id));
  return fs_->Remove(HeapPath(table->id()));
}

Status Catalog::TruncateTable(const std::shared_ptr<Table>& table) {
  MERIDIAN_RETURN_IF_ERROR(table->CheckUsable());
  MERIDIAN_RETURN_IF_ERROR(table->heap()->Close());
  MERIDIAN_RETURN_IF_ERROR(fs_->Remove(HeapPath(table->id())));
  MERIDIAN_ASSIGN_OR_RETURN(std::unique_ptr<storage::HeapFile> heap,
                            storage::HeapFile::Open(pool_, HeapPath(table->id())));
  std::vector<std::unique_ptr<storage::BTree>> trees;
  for (const std::shared_ptr<Index>& index : table->indexes()) {
    MERIDIAN_RETURN_IF_ERROR(index->Close());
    const std::string path = IndexPath(index->schema().id);
    MERIDIAN_RETURN_IF_ERROR(fs_->Remove(path));
    MERIDIAN_ASSIGN_OR_RETURN(std::unique_ptr<storage::BTree> tree,
                              storage::BTree::Open(pool_, path, {.unique = false}));
    trees.push_back(std::move(tree));
  }
  table->ReplaceStorage(std::move(heap), std::move(trees));
  return Status::Ok();
}

Status Catalog::CreateIndex(const std::shared_ptr<Table>& table, IndexSchema schema) {
  {
    std::unique_lock lock(mu_);
    if (closed_) return Status::Error(sqlstate::kAdminShutdown, "the database is closed");
    if (NameTakenLocked(schema.name)) {
      return Status::Error(sqlstate::kDuplicateTable,
                           "relation \"" + schema.name + "\" already exists");
    }
    if (tables_.count(table->name()) == 0) {
      return Status::Error(sqlstate::kUndefinedTable,
                           "relation \"" + table->name() + "\" does not exist");
    }
    schema.id = next_table_id_++;
    schema.table_id = table->id();
    reserved_.insert(schema.name);
  }
  // Built without mu_ (other statements keep using the catalog); the caller's exclusive table
  // lock keeps the heap still.
  auto opened = OpenIndex(table.get(), schema, /*rebuild=*/true);
  std::unique_lock lock(mu_);
  reserved_.erase(schema.name);
  if (!opened.ok()) return opened.status();
  std::shared_ptr<Index> index = std::move(opened).value();
  indexes_[schema.name] = schema;
  Status st = WriteCatalogFile(fs_, data_dir_, StateLocked());
  if (!st.ok()) {
    indexes_.erase(schema.name);
    (void)index->Close();
    (void)fs_->Remove(IndexPath(schema.id));
    return st;
  }
  table->AddIndex(std::move(index));
  return Status::Ok();
}

std::shared_ptr<Table> Catalog::FindIndexTable(const std::string& name) const {
  std::shared_lock lock(mu_);
  auto it = indexes_.find(name);
  if (it == indexes_.end()) return nullptr;
  for (const auto& [table_name, table] : tables_) {
    if (table->id() == it->second.table_id) return table;
  }
  return nullptr;
}

Status Catalog::DropIndex(const std::shared_ptr<Table>& table, const std::string& name) {
  std::unique_lock lock(mu_);
  auto it = indexes_.find(name);
  if (it == indexes_.end() || it->second.table_id != table->id()) {
    return Status::Error(sqlstate::kUndefinedObject, "index \"" + name + "\" does not exist");
  }
  if (it->second.IsConstraint()) {
    return Status::Error("2BP01", "cannot drop index " + name + " because constraint " + name +
                                      " on table " + table->name() + " requires it")
        .WithHint("You can drop constraint " + name + " on table " + table->name() + " instead.");
  }
  IndexSchema schema = it->second;
  indexes_.erase(it);
  Status st = WriteCatalogFile(fs_, data_dir_, StateLocked());
  if (!st.ok()) {
    indexes_[name] = std::move(schema);
    return st;
  }
  std::shared_ptr<Index> index = table->RemoveIndex(name);
  if (index != nullptr) (void)index->Close();
  return fs_->Remove(IndexPath(schema.id));
}

std::string Catalog::ChooseIndexName(const std::string& base) const {
  std::shared_lock lock(mu_);
  std::string name = base;
  for (int n = 1; NameTakenLocked(name); ++n) name = base + std::to_string(n);
  return name;
}

std::vector<IndexSchema> Catalog::ListIndexes() const {
  std::shared_lock lock(mu_);
  std::vector<IndexSchema> out;
  for (const auto& [name, schema] : indexes_) out.push_back(schema);
  return out;
}

Status Catalog::SaveState() {
  std::unique_lock lock(mu_);
  if (closed_) return Status::Ok();
  return WriteCatalogFile(fs_, data_dir_, StateLocked());
}

Status Catalog::AutoAnalyze() {
  bool analyzed = false;
  for (const std::shared_ptr<Table>& table : List()) {
    const int64_t threshold = 50 + table->live_rows() / 10;
    if (table->changes_since_analyze() <= threshold) continue;
    ScopedTableLock guard(*table, LockMode::kShared);
    MERIDIAN_RETURN_IF_ERROR(guard.status());
    if (table->heap() == nullptr) continue;
    MERIDIAN_RETURN_IF_ERROR(table->Analyze());
    analyzed = true;
  }
  return analyzed ? SaveState() : Status::Ok();
}

Status Catalog::Checkpoint() {
  Status first;
  for (const std::shared_ptr<Table>& table : List()) {
    ScopedTableLock guard(*table, LockMode::kShared);
    Status st = guard.status();
    if (st.ok()) st = table->Flush();
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
    ScopedTableLock guard(*table, LockMode::kExclusive);
    Status st = guard.status();
    if (st.ok()) st = table->CloseHeap(false);
    if (!st.ok() && first.ok()) first = st;
  }
  if (!first.ok()) return first;
  // Every heap and index is flushed: record the row estimates and that the indexes match.
  {
    std::unique_lock lock(mu_);
    MERIDIAN_RETURN_IF_ERROR(WriteCatalogFile(fs_, data_dir_, StateLocked()));
  }
  const std::string marker = data_dir_ + "/" + kCleanShutdownFile;
  {
    MERIDIAN_ASSIGN_OR_RETURN(std::unique_ptr<storage::File> file, fs_->Open(marker, true));
    MERIDIAN_RETURN_IF_ERROR(file->Sync());
  }
  return fs_->SyncDir(data_dir_);
}

}  // namespace meridian::catalog
