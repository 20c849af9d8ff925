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

}  // namespace

Catalog::Catalog(std::string data_dir, storage::BufferPool* pool)
    : data_dir_(std::move(data_dir)), pool_(pool), fs_(pool->file_system()) {}

Catalog::~Catalog() {
  // A catalog whose Open failed midway is not closed cleanly: no clean-shutdown marker, so the
  // next Open recovers again.
  if (opened_) (void)Close();
}

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
                                               storage::BufferPool* pool,
                                               txn::CommitLogOptions log_options) {
  std::unique_ptr<Catalog> catalog(new Catalog(data_dir, pool));
  std::error_code ec;
  std::filesystem::create_directories(data_dir + "/tables", ec);
  if (ec) {
    return Status::IOError("could not create directory \"" + data_dir +
                           "/tables\": " + ec.message());
  }
  storage::FileSystem* fs = catalog->fs_;
  // Torn in-place page writes of a crash are repaired before any page is read; from now on
  // every rewrite goes through the doublewrite area.
  const std::string dw_path = data_dir + "/doublewrite";
  MERIDIAN_RETURN_IF_ERROR(storage::Doublewrite::Recover(fs, dw_path, data_dir).status());
  MERIDIAN_ASSIGN_OR_RETURN(std::unique_ptr<storage::Doublewrite> dw,
                            storage::Doublewrite::Open(fs, dw_path, data_dir));
  pool->EnableDoublewrite(std::move(dw));
  MERIDIAN_ASSIGN_OR_RETURN(CatalogState state, ReadCatalogFile(fs, data_dir));
  // Without the marker of a clean Close, index files may disagree with their heaps.
  const std::string marker = data_dir + "/" + kCleanShutdownFile;
  MERIDIAN_ASSIGN_OR_RETURN(bool clean, fs->Exists(marker));
  if (clean) {
    MERIDIAN_RETURN_IF_ERROR(fs->Remove(marker));
    MERIDIAN_RETURN_IF_ERROR(fs->SyncDir(data_dir));
  }
  catalog->next_table_id_ = state.next_table_id;
  catalog->txns_ = std::make_shared<txn::TxnManager>();
  std::map<uint32_t, std::shared_ptr<Table>> by_id;
  for (size_t i = 0; i < state.tables.size(); ++i) {
    auto shared = std::make_shared<const TableSchema>(std::move(state.tables[i]));
    MERIDIAN_ASSIGN_OR_RETURN(std::unique_ptr<storage::HeapFile> heap,
                              storage::HeapFile::Open(pool, catalog->HeapPath(shared->id)));
    auto table = std::make_shared<Table>(shared, std::move(heap));
    table->set_txns(catalog->txns_.get());
    table->SetLiveRows(i < state.live_rows.size() ? state.live_rows[i] : 0);
    by_id[shared->id] = table;
    catalog->tables_[shared->name] = std::move(table);
  }
  // The commit log: committed transactions since the last checkpoint, a new id epoch.
  Catalog* raw = catalog.get();
  MERIDIAN_ASSIGN_OR_RETURN(catalog->log_,
                            txn::CommitLog::Open(fs, data_dir, catalog->txns_.get(), log_options,
                                                 [raw](const std::vector<uint64_t>& pages) {
                                                   return raw->FlushCommitPages(pages);
                                                 }));
  if (!clean) MERIDIAN_RETURN_IF_ERROR(catalog->RecoverVersions(by_id));
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
  catalog->opened_ = true;
  if (!clean) {
    // Everything recovered is now in the pages: make them durable and start a short log.
    MERIDIAN_RETURN_IF_ERROR(catalog->FlushTables());
    MERIDIAN_RETURN_IF_ERROR(catalog->log_->Checkpoint());
    std::vector<uint64_t> ids;
    for (const auto& [id, ts] : catalog->txns_->Committed()) ids.push_back(id);
    catalog->txns_->Forget(ids);
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
  table->set_txns(txns_.get());
  tables_[table->name()] = table;
  ++next_table_id_;
  Status st = WriteStateLocked();
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
  Status st = WriteStateLocked();
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

Status Catalog::AlterTable(const std::shared_ptr<Table>& table, TableSchema schema,
                           const std::vector<std::string>& drop_indexes) {
  std::unique_lock lock(mu_);
  if (closed_) return Status::Error(sqlstate::kAdminShutdown, "the database is closed");
  MERIDIAN_RETURN_IF_ERROR(table->CheckUsable());
  const std::string old_name = table->name();
  auto it = tables_.find(old_name);
  if (it == tables_.end() || it->second != table) {
    return Status::Error(sqlstate::kUndefinedTable, "relation \"" + old_name + "\" does not exist");
  }
  const bool renamed = schema.name != old_name;
  if (renamed && NameTakenLocked(schema.name)) {
    return Status::Error(sqlstate::kDuplicateTable,
                         "relation \"" + schema.name + "\" already exists");
  }
  schema.id = table->id();
  // The catalog file is written from the new state first; memory follows only on success.
  std::vector<IndexSchema> dropped;
  for (const std::string& name : drop_indexes) {
    auto x = indexes_.find(name);
    if (x == indexes_.end()) continue;
    dropped.push_back(x->second);
    indexes_.erase(x);
  }
  CatalogState state = StateLocked();
  for (TableSchema& t : state.tables) {
    if (t.id == schema.id) t = schema;
  }
  Status st = WriteCatalogFile(fs_, data_dir_, state);
  if (!st.ok()) {
    for (IndexSchema& x : dropped) indexes_[x.name] = std::move(x);
    return st;
  }
  if (renamed) {
    tables_.erase(it);
    tables_[schema.name] = table;
  }
  table->SetSchema(std::move(schema));
  for (const IndexSchema& x : dropped) {
    std::shared_ptr<Index> index = table->RemoveIndex(x.name);
    if (index != nullptr) (void)index->Close();
    (void)fs_->Remove(IndexPath(x.id));
  }
  schema_version_.fetch_add(1, std::memory_order_acq_rel);  // after the change (plan_cache.h)
  return Status::Ok();
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
  schema_version_.fetch_add(1, std::memory_order_acq_rel);  // plans hold the old trees
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
  Status st = WriteStateLocked();
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
  Status st = WriteStateLocked();
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

Status Catalog::WriteStateLocked() {
  Status st = WriteCatalogFile(fs_, data_dir_, StateLocked());
  // After the change is in the maps: a plan bound before it carries an older version.
  schema_version_.fetch_add(1, std::memory_order_acq_rel);
  return st;
}

Status Catalog::SaveState() {
  std::unique_lock lock(mu_);
  if (closed_) return Status::Ok();
  return WriteStateLocked();
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

std::unique_ptr<Transaction> Catalog::BeginTransaction(Isolation isolation) {
  return std::make_unique<Transaction>(txns_, txns_->Begin(), isolation);
}

Status Catalog::CommitTransaction(Transaction& t, bool sync) {
  if (!t.wrote()) {
    t.EndReadOnly();  // nothing to make durable; releases the row locks it took (FOR UPDATE)
    return Status::Ok();
  }
  std::vector<uint64_t> pages;
  for (const PageRef& p : t.InsertPages()) pages.push_back(uint64_t{p.table} << 32 | p.page);
  auto ts = log_->Commit(t.id(), t.EndStamps(), std::move(pages), sync);
  if (!ts.ok()) {
    AbortTransaction(t);  // the log already marked it aborted; release its marks
    return ts.status();
  }
  t.StampCommitted(*ts);
  return Status::Ok();
}

void Catalog::AbortTransaction(Transaction& t) {
  txns_->Abort(t.id());
  t.CleanAborted();
}

Status Catalog::FlushCommitPages(const std::vector<uint64_t>& pages) {
  std::map<uint32_t, std::vector<uint32_t>> by_table;
  for (uint64_t p : pages)
    by_table[static_cast<uint32_t>(p >> 32)].push_back(static_cast<uint32_t>(p));
  if (by_table.empty()) return Status::Ok();
  for (const std::shared_ptr<Table>& table : List()) {
    auto it = by_table.find(table->id());
    if (it == by_table.end()) continue;
    ScopedTableLock guard(*table, LockMode::kShared);
    MERIDIAN_RETURN_IF_ERROR(guard.status());
    if (!table->CheckUsable().ok()) continue;  // dropped: nothing to keep
    MERIDIAN_RETURN_IF_ERROR(table->heap()->FlushPages(std::move(it->second)));
  }
  return Status::Ok();
}

Status Catalog::RecoverVersions(const std::map<uint32_t, std::shared_ptr<Table>>& by_id) {
  using storage::TupleHeader;
  // 1. End stamps of committed transactions that were not yet written into their pages.
  for (const txn::LogRecord& record : log_->recovered()) {
    for (const txn::EndStamp& stamp : record.stamps) {
      auto it = by_id.find(stamp.file);
      if (it == by_id.end()) continue;  // table dropped since
      storage::HeapFile* heap = it->second->heap();
      if (stamp.page >= heap->page_count()) continue;
      // The logged delete wins over whatever the page holds: an aborted writer's or a row
      // locker's mark written before the committed deleter took the row.
      (void)heap->UpdateHeader({stamp.page, stamp.slot}, [&](TupleHeader* h) {
        h->end = stamp.txn;
        h->flags = static_cast<uint8_t>(h->flags & ~storage::kTupleFlagLockOnly);
        return true;
      });
    }
  }
  // 2. Every version: ids to timestamps; versions dead to every future snapshot go. Pages
  // a checkpoint already stamped hold no ids and are only read.
  using Action = storage::HeapFile::SweepAction;
  auto sweep = [&](TupleHeader* h) {
    const TupleHeader before = *h;
    const txn::Timestamp begin = txns_->Resolve(h->begin);
    if (begin == txn::kInfinity) return Action::kRemove;  // its creator never committed
    const bool lock_mark = (h->flags & storage::kTupleFlagLockOnly) != 0;
    const txn::Timestamp end = lock_mark ? txn::kInfinity : txns_->Resolve(h->end);
    if (h->end != 0 && end != txn::kInfinity) return Action::kRemove;  // deleted, committed
    h->begin = begin;
    h->end = 0;
    h->flags = static_cast<uint8_t>(h->flags & ~storage::kTupleFlagLockOnly);
    const bool changed =
        before.begin != h->begin || before.end != h->end || before.flags != h->flags;
    return changed ? Action::kChanged : Action::kKeep;
  };
  for (const auto& [id, table] : by_id) {
    storage::HeapFile* heap = table->heap();
    int64_t live = 0;
    for (uint32_t page = 0; page < heap->page_count(); ++page) {
      MERIDIAN_ASSIGN_OR_RETURN(size_t n, heap->SweepPage(page, sweep));
      live += static_cast<int64_t>(n);
    }
    table->SetLiveRows(live);
  }
  return Status::Ok();
}

Status Catalog::FlushTables() {
  Status first;
  for (const std::shared_ptr<Table>& table : List()) {
    ScopedTableLock guard(*table, LockMode::kShared);
    Status st = guard.status();
    if (st.ok() && table->CheckUsable().ok()) st = table->Flush();
    if (!st.ok() && first.ok()) first = st;
  }
  return first;
}

Status Catalog::Checkpoint() {
  std::lock_guard checkpoint(checkpoint_mu_);
  if (log_ == nullptr) return FlushTables();  // closing
  // Finished transactions whose ids are already rewritten in memory: once the pages below are
  // durable, nothing on disk needs their status any more.
  const std::vector<uint64_t> stamped = txns_->Stamped();
  // Commits published by now have their records before start: the rotation below drops their
  // end stamps, so their deleted versions' slots may be reused afterwards (recovery re-applies
  // logged stamps by slot and must never meet a reused one).
  const txn::Timestamp logged_before = txns_->published_ts();
  const uint64_t start = log_->CheckpointStart();
  MERIDIAN_RETURN_IF_ERROR(FlushTables());
  std::vector<std::pair<uint64_t, txn::Timestamp>> carried;
  const std::set<uint64_t> forget(stamped.begin(), stamped.end());
  for (const auto& c : txns_->Committed()) {
    if (!forget.count(c.first)) carried.push_back(c);
  }
  MERIDIAN_RETURN_IF_ERROR(log_->Checkpoint(start, carried));
  const txn::Timestamp horizon = txns_->OldestSnapshot();
  for (const std::shared_ptr<Table>& table : List()) table->PruneSuccessors(horizon);
  txns_->Forget(stamped);
  // Garbage collection of versions nobody can see any more (bounded footprint).
  const txn::Timestamp gc_horizon = std::min(horizon, logged_before);
  for (const std::shared_ptr<Table>& table : List()) {
    ScopedTableLock guard(*table, LockMode::kShared);
    if (!guard.status().ok() || !table->CheckUsable().ok()) continue;
    int64_t removed = 0;
    MERIDIAN_RETURN_IF_ERROR(table->CollectGarbage(gc_horizon, &removed));
    versions_collected_.fetch_add(static_cast<uint64_t>(removed), std::memory_order_relaxed);
  }
  return Status::Ok();
}

Status Catalog::Close() {
  std::vector<std::shared_ptr<Table>> tables;
  {
    std::unique_lock lock(mu_);
    if (closed_) return Status::Ok();
    closed_ = true;
    for (const auto& [name, table] : tables_) tables.push_back(table);
  }
  MERIDIAN_RETURN_IF_ERROR(Checkpoint());
  log_.reset();  // stops the committer thread
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
