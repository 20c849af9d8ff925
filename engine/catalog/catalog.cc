// Catalog: open/reload (with index rebuild after an unclean stop), CREATE/DROP TABLE and INDEX
// bookkeeping, automatic ANALYZE, checkpoint and close.
#include "catalog/catalog.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <filesystem>
#include <mutex>

#include "catalog/catalog_file.h"
#include "meridian/pg_oids.h"
#include "storage/page_journal.h"

namespace meridian::catalog {

namespace {

constexpr const char* kCleanShutdownFile = "clean_shutdown";
// The index checkpoint's page journal (storage/page_journal.h).
constexpr const char* kIndexJournalFile = "index_images";

// At most this many dirty pages of one index go into one checkpoint image (they stay pinned
// while it is written); an index with more is flushed plainly and stays marked unsafe.
size_t MaxImagePages(const storage::BufferPool* pool) {
  return std::max<size_t>(64, pool->capacity() / 2);
}

}  // namespace

Catalog::Catalog(std::string data_dir, storage::BufferPool* pool)
    : data_dir_(std::move(data_dir)), pool_(pool), fs_(pool->file_system()) {}

Catalog::~Catalog() {
  // A catalog whose Open failed midway is not closed cleanly: no clean-shutdown marker, so the
  // next Open recovers again.
  if (opened_) (void)Close();
  // The pool outlives the catalog: its hook must not call into this one afterwards.
  pool_->SetRecordSync({});
}

std::string Catalog::HeapPath(uint32_t id) const {
  return data_dir_ + "/tables/" + std::to_string(id) + ".heap";
}

std::string Catalog::IndexPath(uint32_t id) const {
  return data_dir_ + "/tables/" + std::to_string(id) + ".btree";
}

std::string Catalog::SequencePath(uint32_t id) const {
  return data_dir_ + "/tables/" + std::to_string(id) + ".seq";
}

std::string Catalog::MarkerPath(uint32_t id) const { return IndexPath(id) + ".unsafe"; }

Status Catalog::CreateMarker(uint32_t index_id) {
  {
    MERIDIAN_ASSIGN_OR_RETURN(std::unique_ptr<storage::File> file,
                              fs_->Open(MarkerPath(index_id), true));
    MERIDIAN_RETURN_IF_ERROR(file->Sync());
  }
  return fs_->SyncDir(data_dir_ + "/tables");
}

void Catalog::RemoveIndexFiles(uint32_t index_id) {
  (void)fs_->Remove(IndexPath(index_id));
  auto marker = fs_->Exists(MarkerPath(index_id));
  if (marker.ok() && *marker) (void)fs_->Remove(MarkerPath(index_id));
}

Result<std::shared_ptr<Index>> Catalog::OpenIndex(Table* table, const IndexSchema& schema,
                                                  bool rebuild) {
  const std::string path = IndexPath(schema.id);
  MERIDIAN_ASSIGN_OR_RETURN(bool exists, fs_->Exists(path));
  const bool fresh = !exists || rebuild;
  // A new or rebuilt file is no checkpoint image: until a checkpoint writes one, a crash
  // rebuilds it (docs/txn.md section 5). The marker is durable before the file
  // changes.
  if (fresh) MERIDIAN_RETURN_IF_ERROR(CreateMarker(schema.id));
  if (exists && rebuild) MERIDIAN_RETURN_IF_ERROR(fs_->Remove(path));
  std::shared_ptr<Index> index;
  if (schema.IsRtree()) {
    MERIDIAN_ASSIGN_OR_RETURN(
        std::unique_ptr<storage::RTree> tree,
        storage::RTree::Open(pool_, path, {.dims = RTreeDims(schema, table->schema())}));
    index = std::make_shared<Index>(schema, std::move(tree));
  } else {
    MERIDIAN_ASSIGN_OR_RETURN(std::unique_ptr<storage::BTree> tree,
                              storage::BTree::Open(pool_, path, {.unique = false}));
    index = std::make_shared<Index>(schema, std::move(tree));
  }
  index->Watch(fs_, MarkerPath(schema.id), data_dir_ + "/tables", fresh);
  if (fresh) {
    if (rebuild && !opened_) ++recovery_.indexes_rebuilt;
    Status st = table->BuildIndex(index.get());
    if (!st.ok()) {
      (void)index->Close();
      RemoveIndexFiles(schema.id);
      return st;
    }
  }
  return index;
}

Result<std::unique_ptr<Catalog>> Catalog::Open(const std::string& data_dir,
                                               storage::BufferPool* pool,
                                               txn::CommitLogOptions log_options) {
  const auto started = std::chrono::steady_clock::now();
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
  // Commit records that only a doublewrite batch holds (one fdatasync per commit group:
  // docs/txn.md section 4) go to the commit log before the area is cleared.
  MERIDIAN_RETURN_IF_ERROR(
      storage::Doublewrite::Recover(fs, dw_path, data_dir, [&](const std::vector<std::string>& r) {
        return txn::CommitLog::AdoptRecords(fs, data_dir, r);
      }).status());
  MERIDIAN_ASSIGN_OR_RETURN(std::unique_ptr<storage::Doublewrite> dw,
                            storage::Doublewrite::Open(fs, dw_path, data_dir));
  pool->EnableDoublewrite(std::move(dw));
  MERIDIAN_ASSIGN_OR_RETURN(CatalogState state, ReadCatalogFile(fs, data_dir));
  // Without the marker of a clean Close, recovery runs (docs/txn.md section 5).
  const std::string marker = data_dir + "/" + kCleanShutdownFile;
  MERIDIAN_ASSIGN_OR_RETURN(bool clean, fs->Exists(marker));
  // A new directory (no catalog, no commit log yet) has nothing to recover: it is clean.
  MERIDIAN_ASSIGN_OR_RETURN(bool has_catalog, fs->Exists(data_dir + "/" + kCatalogFileName));
  MERIDIAN_ASSIGN_OR_RETURN(bool has_log, fs->Exists(data_dir + "/" + txn::kCommitLogFile));
  const bool fresh = !clean && !has_catalog && !has_log;
  const std::string journal = data_dir + "/" + kIndexJournalFile;
  if (clean) {
    // Close wrote every index page: the last index image is history, never to be replayed.
    MERIDIAN_ASSIGN_OR_RETURN(bool has_journal, fs->Exists(journal));
    if (has_journal) MERIDIAN_RETURN_IF_ERROR(fs->Remove(journal));
    MERIDIAN_RETURN_IF_ERROR(fs->Remove(marker));
    MERIDIAN_RETURN_IF_ERROR(fs->SyncDir(data_dir));
  } else {
    // An index image whose in-place writes a crash interrupted is completed first.
    MERIDIAN_ASSIGN_OR_RETURN(catalog->recovery_.journal_pages,
                              storage::PageJournal::Recover(fs, journal, data_dir));
  }
  catalog->recovery_.clean = clean || fresh;
  catalog->next_table_id_ = state.next_table_id;
  MERIDIAN_RETURN_IF_ERROR(catalog->RemoveOrphanFiles(state));
  for (NamespaceDef& n : state.schemas) {
    std::string name = n.name;
    catalog->schemas_[name] = std::move(n);
  }
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
    catalog->tables_[RelationKey(shared->nsp, shared->name)] = std::move(table);
  }
  // The commit log: committed transactions since the last checkpoint, a new id epoch.
  Catalog* raw = catalog.get();
  MERIDIAN_ASSIGN_OR_RETURN(
      catalog->log_,
      txn::CommitLog::Open(fs, data_dir, catalog->txns_.get(), log_options,
                           [raw](const std::vector<uint64_t>& pages, std::string_view record,
                                 const std::function<Status()>& append, bool* durable) {
                             return raw->FlushCommitPages(pages, record, append, durable);
                           }));
  pool->SetRecordSync(
      [raw](std::string_view unappended) { return raw->log_->SyncAppended(unappended); });
  // Format 4 keeps every index file a checkpoint image (or marked unsafe) and every group
  // record names its pages: then recovery touches only what the log tail names. Otherwise
  // (older data directory or log) it sweeps every heap page and rebuilds every index.
  bool tail_only = state.version >= 4;
  for (const txn::LogRecord& record : catalog->log_->recovered()) {
    if (record.type == txn::LogRecord::Type::kGroup) tail_only = false;
  }
  std::map<uint32_t, std::vector<uint32_t>> tail_pages;  // table id → pages of new versions
  if (!clean) {
    MERIDIAN_RETURN_IF_ERROR(tail_only ? catalog->RecoverTail(by_id, &tail_pages)
                                       : catalog->RecoverVersions(by_id));
    catalog->recovery_.tail_only = tail_only;
    for (const auto& [id, pages] : tail_pages) catalog->recovery_.tail_pages += pages.size();
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
  for (IndexSchema& schema : state.indexes) {
    Table* table = by_id.at(schema.table_id).get();
    // Expression keys and predicates are stored as SQL text and bound again here.
    if (schema.NeedsEval()) {
      MERIDIAN_ASSIGN_OR_RETURN(schema.compiled, CompileIndexExprs(table->schema(), schema));
    }
    // A marker: the file was written outside a checkpoint image since the last one (or is
    // new). After a clean Close every file is whole, so the marker is stale.
    MERIDIAN_ASSIGN_OR_RETURN(bool unsafe, fs->Exists(catalog->MarkerPath(schema.id)));
    if (clean && unsafe) MERIDIAN_RETURN_IF_ERROR(fs->Remove(catalog->MarkerPath(schema.id)));
    const bool rebuild = !clean && (!tail_only || unsafe);
    MERIDIAN_ASSIGN_OR_RETURN(std::shared_ptr<Index> index,
                              catalog->OpenIndex(table, schema, rebuild));
    table->AddIndex(std::move(index));
    catalog->indexes_[RelationKey(schema.nsp, schema.name)] = schema;
  }
  for (ViewSchema& view : state.views) {
    std::string name = RelationKey(view.nsp, view.name);
    catalog->views_[name] = std::make_shared<const ViewSchema>(std::move(view));
  }
  for (SequenceSchema& q : state.sequences) {
    std::string name = RelationKey(q.nsp, q.name);
    const std::string path = catalog->SequencePath(q.id);
    MERIDIAN_ASSIGN_OR_RETURN(std::shared_ptr<Sequence> seq,
                              Sequence::Open(fs, path, std::move(q), false));
    catalog->sequences_[name] = std::move(seq);
  }
  // The checkpoint image holds every entry of transactions logged before it; the log tail's
  // commits get theirs now (entries already there stay as they are).
  // (Versions of transactions that never committed stay until the table's next garbage
  // collection pass, which its next write triggers: a pass now would read the whole table.)
  for (const auto& [id, pages] : tail_pages) {
    MERIDIAN_RETURN_IF_ERROR(by_id.at(id)->CatchUpIndexes(pages));
  }
  catalog->opened_ = true;
  if (!clean) {
    // Everything recovered is now in the pages: make them durable and start a short log.
    MERIDIAN_RETURN_IF_ERROR(catalog->Checkpoint());
  }
  if (migrated || state.version < kCatalogFormatVersion) {
    MERIDIAN_RETURN_IF_ERROR(WriteCatalogFile(fs, data_dir, catalog->StateLocked()));
  }
  catalog->recovery_.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return catalog;
}

std::shared_ptr<Table> Catalog::Find(const std::string& name) const {
  ReaderLock lock(mu_);
  auto it = tables_.find(ResolveLocked(name));
  return it == tables_.end() ? nullptr : it->second;
}

std::vector<std::shared_ptr<Table>> Catalog::List() const {
  ReaderLock lock(mu_);
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
    if (table->schema().temp_owner != 0) continue;  // TEMP tables are never written
    state.tables.push_back(table->schema());
    state.live_rows.push_back(table->live_rows());
  }
  for (const auto& [name, schema] : indexes_) {
    if (!IsTempSchema(schema.nsp)) state.indexes.push_back(schema);
  }
  for (const auto& [name, n] : schemas_) state.schemas.push_back(n);
  std::sort(state.schemas.begin(), state.schemas.end(),
            [](const NamespaceDef& a, const NamespaceDef& b) { return a.id < b.id; });
  std::sort(state.indexes.begin(), state.indexes.end(),
            [](const IndexSchema& a, const IndexSchema& b) { return a.id < b.id; });
  for (const auto& [name, view] : views_) {
    if (view->temp_owner == 0) state.views.push_back(*view);
  }
  std::sort(state.views.begin(), state.views.end(),
            [](const ViewSchema& a, const ViewSchema& b) { return a.id < b.id; });
  for (const auto& [name, seq] : sequences_) {
    if (!IsTempSchema(seq->schema()->nsp)) state.sequences.push_back(*seq->schema());
  }
  std::sort(state.sequences.begin(), state.sequences.end(),
            [](const SequenceSchema& a, const SequenceSchema& b) { return a.id < b.id; });
  return state;
}

std::string Catalog::KeyOf(const Table& table) {
  return RelationKey(table.schema().nsp, table.name());
}

bool Catalog::IsTempSchema(const std::string& nsp) { return nsp.rfind("pg_temp_", 0) == 0; }

Status Catalog::RemoveOrphanFiles(const CatalogState& state) {
  std::set<uint32_t> ids;
  for (const TableSchema& t : state.tables) ids.insert(t.id);
  for (const IndexSchema& x : state.indexes) ids.insert(x.id);
  for (const SequenceSchema& q : state.sequences) ids.insert(q.id);
  std::vector<std::string> orphans;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(data_dir_ + "/tables", ec)) {
    const std::string file = entry.path().filename().string();
    uint32_t id = 0;
    auto [end, err] = std::from_chars(file.data(), file.data() + file.size(), id);
    if (err != std::errc() || end == file.data() || *end != '.' || ids.count(id) != 0) continue;
    orphans.push_back(entry.path().string());
  }
  if (ec) return Status::IOError("could not list \"" + data_dir_ + "/tables\": " + ec.message());
  for (const std::string& path : orphans) MERIDIAN_RETURN_IF_ERROR(fs_->Remove(path));
  if (!orphans.empty()) MERIDIAN_RETURN_IF_ERROR(fs_->SyncDir(data_dir_ + "/tables"));
  return Status::Ok();
}

std::vector<std::shared_ptr<Table>> Catalog::TempTables(uint64_t session) const {
  ReaderLock lock(mu_);
  std::vector<std::shared_ptr<Table>> out;
  const std::string prefix = RelationKey(TempSchemaName(session), "");
  for (auto it = tables_.lower_bound(prefix); it != tables_.end(); ++it) {
    if (it->first.compare(0, prefix.size(), prefix) != 0) break;
    out.push_back(it->second);
  }
  return out;
}

bool Catalog::SchemaExistsLocked(const std::string& nsp) const {
  if (nsp == kPublicSchema || schemas_.count(nsp) != 0) return true;
  if (!IsTempSchema(nsp)) return false;
  // A session's pg_temp schema exists while it holds a relation (keys start with the schema).
  const std::string prefix = RelationKey(nsp, "");
  auto holds = [&prefix](const auto& map) {
    auto it = map.lower_bound(prefix);
    return it != map.end() && it->first.compare(0, prefix.size(), prefix) == 0;
  };
  return holds(tables_) || holds(views_) || holds(sequences_);
}

std::vector<std::string> Catalog::PathLocked(bool with_temp, uint64_t session) const {
  const SearchPath& path = CurrentSearchPath();
  if (session == 0) session = path.session;
  std::vector<std::string> out;
  auto add = [&out](const std::string& s) {
    if (std::find(out.begin(), out.end(), s) == out.end()) out.push_back(s);
  };
  if (with_temp && session != 0) {
    const std::string temp = TempSchemaName(session);
    if (SchemaExistsLocked(temp)) add(temp);
  }
  for (const std::string& item : path.schemas) {
    const std::string s = item == "$user" ? path.user : item;
    if (s == "pg_temp" || s == "pg_catalog" || s == "information_schema") continue;
    if (SchemaExistsLocked(s)) add(s);
  }
  return out;
}

std::string Catalog::ResolveLocked(const std::string& written, uint64_t session) const {
  std::string nsp, name;
  ast::SplitName(written, &nsp, &name);
  if (session == 0) session = CurrentSearchPath().session;
  if (!nsp.empty()) return RelationKey(nsp == "pg_temp" ? TempSchemaName(session) : nsp, name);
  for (const std::string& s : PathLocked(true, session)) {
    const std::string key = RelationKey(s, name);
    if (NameTakenLocked(key)) return key;
  }
  return std::string();
}

Status Catalog::PlaceLocked(std::string* nsp, std::string* name, uint64_t temp_owner) const {
  std::string qualifier, bare;
  ast::SplitName(*name, &qualifier, &bare);
  const bool temp = temp_owner != 0;
  const uint64_t session = temp ? temp_owner : CurrentSearchPath().session;
  if (qualifier == "pg_temp") qualifier = TempSchemaName(session);
  if (temp) {
    if (!qualifier.empty() && qualifier != TempSchemaName(session)) {
      return Status::Error(sqlstate::kInvalidTableDefinition,
                           "cannot create temporary relation in non-temporary schema");
    }
    *nsp = TempSchemaName(session);
  } else if (!qualifier.empty()) {
    if (IsTempSchema(qualifier)) {
      if (qualifier != TempSchemaName(session)) {
        return Status::Error(sqlstate::kFeatureNotSupported,
                             "cannot create relations in temporary schemas of other sessions");
      }
    } else if (!SchemaExistsLocked(qualifier)) {
      return Status::Error(sqlstate::kInvalidSchemaName,
                           "schema \"" + qualifier + "\" does not exist");
    }
    *nsp = qualifier;
  } else {
    std::vector<std::string> path = PathLocked(false);
    if (path.empty()) {
      return Status::Error(sqlstate::kInvalidSchemaName,
                           "no schema has been selected to create in");
    }
    *nsp = path.front();
  }
  *name = bare;
  return Status::Ok();
}

Result<std::string> Catalog::CreationName(const std::string& written, bool temp) const {
  ReaderLock lock(mu_);
  std::string nsp, name = written;
  const uint64_t session = CurrentSearchPath().session;
  if (temp && session == 0) return Status::NotSupported("TEMP relations need a session");
  MERIDIAN_RETURN_IF_ERROR(PlaceLocked(&nsp, &name, temp ? session : 0));
  return ast::QualifyName(nsp, name);
}

std::vector<std::string> Catalog::EffectiveSearchPath(bool with_temp) const {
  ReaderLock lock(mu_);
  return PathLocked(with_temp);
}

Status Catalog::CheckSchemaOf(const std::string& written) const {
  std::string nsp, name;
  ast::SplitName(written, &nsp, &name);
  if (nsp.empty() || nsp == "pg_temp" || nsp == "pg_catalog" || nsp == "information_schema" ||
      IsTempSchema(nsp) || SchemaExists(nsp)) {
    return Status::Ok();
  }
  return Status::Error(sqlstate::kInvalidSchemaName, "schema \"" + nsp + "\" does not exist");
}

bool Catalog::SchemaExists(const std::string& nsp) const {
  ReaderLock lock(mu_);
  return SchemaExistsLocked(nsp);
}

bool Catalog::IsVisible(const std::string& nsp, const std::string& name) const {
  ReaderLock lock(mu_);
  return ResolveLocked(name) == RelationKey(nsp, name);
}

std::vector<NamespaceDef> Catalog::ListSchemas() const {
  ReaderLock lock(mu_);
  std::vector<NamespaceDef> out;
  for (const auto& [name, n] : schemas_) out.push_back(n);
  std::set<std::string> temps;
  for (const auto& [key, table] : tables_) {
    if (IsTempSchema(table->schema().nsp)) temps.insert(table->schema().nsp);
  }
  for (const auto& [key, view] : views_) {
    if (IsTempSchema(view->nsp)) temps.insert(view->nsp);
  }
  for (const auto& [key, seq] : sequences_) {
    if (IsTempSchema(seq->schema()->nsp)) temps.insert(seq->schema()->nsp);
  }
  for (const std::string& t : temps) out.push_back(NamespaceDef{0, t, "meridian"});
  return out;
}

int64_t Catalog::SchemaOid(const std::string& nsp) const {
  if (nsp == kPublicSchema) return kOidPublicNamespace;
  if (IsTempSchema(nsp)) {
    return kOidTempNamespaceBase +
           static_cast<int64_t>(std::strtoull(nsp.c_str() + 8, nullptr, 10));
  }
  ReaderLock lock(mu_);
  auto it = schemas_.find(nsp);
  return it == schemas_.end() ? 0 : RelationOidOf(it->second.id);
}

Status Catalog::CreateSchema(const std::string& name, const std::string& owner) {
  WriterLock lock(mu_);
  if (closed_) return Status::Error(sqlstate::kAdminShutdown, "the database is closed");
  if (name.rfind("pg_", 0) == 0) {
    return Status::Error(sqlstate::kReservedName, "unacceptable schema name \"" + name + "\"")
        .WithDetail("The prefix \"pg_\" is reserved for system schemas.");
  }
  if (SchemaExistsLocked(name) || name == "information_schema") {
    return Status::Error(sqlstate::kDuplicateSchema, "schema \"" + name + "\" already exists");
  }
  NamespaceDef n{next_table_id_++, name, owner.empty() ? "meridian" : owner};
  schemas_[name] = n;
  Status st = WriteStateLocked();
  if (!st.ok()) {
    schemas_.erase(name);
    --next_table_id_;
  }
  return st;
}

std::vector<std::string> Catalog::SchemaContents(const std::string& nsp) const {
  ReaderLock lock(mu_);
  std::vector<std::pair<uint32_t, std::string>> found;
  for (const auto& [key, table] : tables_) {
    if (table->schema().nsp == nsp)
      found.emplace_back(table->id(), "table " + nsp + "." + table->name());
  }
  for (const auto& [key, view] : views_) {
    if (view->nsp == nsp) found.emplace_back(view->id, "view " + nsp + "." + view->name);
  }
  for (const auto& [key, seq] : sequences_) {
    if (seq->schema()->nsp == nsp && seq->schema()->owner_table == 0) {
      found.emplace_back(seq->schema()->id, "sequence " + nsp + "." + seq->schema()->name);
    }
  }
  std::sort(found.begin(), found.end());
  std::vector<std::string> out;
  for (auto& f : found) out.push_back(std::move(f.second));
  return out;
}

Status Catalog::DropSchema(const std::string& name) {
  WriterLock lock(mu_);
  if (closed_) return Status::Error(sqlstate::kAdminShutdown, "the database is closed");
  auto it = schemas_.find(name);
  if (it == schemas_.end()) {
    return Status::Error(sqlstate::kInvalidSchemaName, "schema \"" + name + "\" does not exist");
  }
  const std::string prefix = RelationKey(name, "");
  for (const auto* map : {&tables_}) {
    for (const auto& [key, t] : *map) {
      if (key.rfind(prefix, 0) == 0) {
        return Status::Error(sqlstate::kDependentObjectsStillExist,
                             "cannot drop schema " + name + " because other objects depend on it");
      }
    }
  }
  if (std::any_of(views_.begin(), views_.end(),
                  [&](const auto& v) { return v.first.rfind(prefix, 0) == 0; }) ||
      std::any_of(sequences_.begin(), sequences_.end(),
                  [&](const auto& q) { return q.first.rfind(prefix, 0) == 0; })) {
    return Status::Error(sqlstate::kDependentObjectsStillExist,
                         "cannot drop schema " + name + " because other objects depend on it");
  }
  NamespaceDef old = it->second;
  schemas_.erase(it);
  Status st = WriteStateLocked();
  if (!st.ok()) schemas_[name] = old;
  return st;
}

Status Catalog::RenameSchema(const std::string& from, const std::string& to) {
  WriterLock lock(mu_);
  if (closed_) return Status::Error(sqlstate::kAdminShutdown, "the database is closed");
  auto it = schemas_.find(from);
  if (it == schemas_.end()) {
    if (from == kPublicSchema) {
      return Status::NotSupported("ALTER SCHEMA public RENAME is not supported");
    }
    return Status::Error(sqlstate::kInvalidSchemaName, "schema \"" + from + "\" does not exist");
  }
  if (to.rfind("pg_", 0) == 0) {
    return Status::Error(sqlstate::kReservedName, "unacceptable schema name \"" + to + "\"")
        .WithDetail("The prefix \"pg_\" is reserved for system schemas.");
  }
  if (SchemaExistsLocked(to) || to == "information_schema") {
    return Status::Error(sqlstate::kDuplicateSchema, "schema \"" + to + "\" already exists");
  }
  // Every relation of the schema moves to the new name: new schema objects, new map keys.
  auto rekey = [&](auto& map, auto&& rename) {
    std::vector<std::pair<std::string, typename std::decay_t<decltype(map)>::mapped_type>> moved;
    for (auto i = map.begin(); i != map.end();) {
      if (i->first.rfind(RelationKey(from, ""), 0) == 0) {
        moved.emplace_back(i->first.substr(from.size() + 1), rename(i->second));
        i = map.erase(i);
      } else {
        ++i;
      }
    }
    for (auto& [name, value] : moved) map[RelationKey(to, name)] = std::move(value);
  };
  rekey(tables_, [&](const std::shared_ptr<Table>& t) {
    TableSchema s = t->schema();
    s.nsp = to;
    t->SetSchema(std::move(s));
    return t;
  });
  rekey(indexes_, [&](IndexSchema x) {
    x.nsp = to;
    return x;
  });
  rekey(views_, [&](const std::shared_ptr<const ViewSchema>& v) {
    auto copy = std::make_shared<ViewSchema>(*v);
    copy->nsp = to;
    return std::shared_ptr<const ViewSchema>(std::move(copy));
  });
  rekey(sequences_, [&](const std::shared_ptr<Sequence>& q) {
    q->set_nsp(to);
    return q;
  });
  NamespaceDef n = it->second;
  schemas_.erase(it);
  n.name = to;
  schemas_[to] = n;
  return WriteStateLocked();
}

bool Catalog::NameTakenLocked(const std::string& name) const {
  return tables_.count(name) != 0 || indexes_.count(name) != 0 || reserved_.count(name) != 0 ||
         views_.count(name) != 0 || sequences_.count(name) != 0;
}

std::shared_ptr<const ViewSchema> Catalog::FindView(const std::string& name,
                                                    uint64_t session) const {
  ReaderLock lock(mu_);
  auto it = views_.find(ResolveLocked(name, session));
  if (it == views_.end()) return nullptr;
  if (it->second->temp_owner != 0 && it->second->temp_owner != session) return nullptr;
  return it->second;
}

std::vector<std::shared_ptr<const ViewSchema>> Catalog::ListViews(uint64_t session) const {
  ReaderLock lock(mu_);
  std::vector<std::shared_ptr<const ViewSchema>> out;
  for (const auto& [name, view] : views_) {
    if (view->temp_owner == 0 || view->temp_owner == session) out.push_back(view);
  }
  return out;
}

Status Catalog::CreateView(ViewSchema view, bool replace, uint64_t session) {
  WriterLock lock(mu_);
  if (closed_) return Status::Error(sqlstate::kAdminShutdown, "the database is closed");
  MERIDIAN_RETURN_IF_ERROR(PlaceLocked(&view.nsp, &view.name, view.temp_owner));
  const std::string key = RelationKey(view.nsp, view.name);
  auto old = views_.find(key);
  if (old != views_.end() && old->second->temp_owner != 0 && old->second->temp_owner != session) {
    replace = false;  // another session's TEMP view: its name is taken, it cannot be replaced
  }
  if (replace && old == views_.end() && NameTakenLocked(key)) {
    return Status::Error(sqlstate::kWrongObjectType, "\"" + view.name + "\" is not a view");
  }
  if (!replace && NameTakenLocked(key)) {
    return Status::Error(sqlstate::kDuplicateTable,
                         "relation \"" + view.name + "\" already exists");
  }
  std::shared_ptr<const ViewSchema> previous;
  if (old != views_.end()) {
    previous = old->second;
    view.id = previous->id;
  } else {
    view.id = next_table_id_++;
  }
  const std::string name = key;
  views_[name] = std::make_shared<const ViewSchema>(std::move(view));
  Status st = WriteStateLocked();
  if (!st.ok()) {
    if (previous != nullptr) {
      views_[name] = previous;
    } else {
      views_.erase(name);
      --next_table_id_;
    }
  }
  return st;
}

Status Catalog::DropViews(const std::vector<uint32_t>& ids) {
  WriterLock lock(mu_);
  std::vector<std::shared_ptr<const ViewSchema>> dropped;
  for (auto it = views_.begin(); it != views_.end();) {
    if (std::find(ids.begin(), ids.end(), it->second->id) != ids.end()) {
      dropped.push_back(it->second);
      it = views_.erase(it);
    } else {
      ++it;
    }
  }
  Status st = WriteStateLocked();
  if (!st.ok()) {
    for (auto& view : dropped) views_[RelationKey(view->nsp, view->name)] = view;
  }
  return st;
}

std::vector<std::shared_ptr<const ViewSchema>> Catalog::DependentViews(
    const std::vector<uint32_t>& ids, const std::pair<uint32_t, int>* column) const {
  ReaderLock lock(mu_);
  std::vector<std::shared_ptr<const ViewSchema>> out;
  std::vector<uint32_t> frontier = ids;
  auto listed = [&out](uint32_t id) {
    return std::any_of(out.begin(), out.end(), [id](const auto& v) { return v->id == id; });
  };
  auto add = [&](const std::shared_ptr<const ViewSchema>& view) {
    if (listed(view->id) || std::find(ids.begin(), ids.end(), view->id) != ids.end()) {
      return;
    }
    out.push_back(view);
    frontier.push_back(view->id);
  };
  if (column != nullptr) {
    for (const auto& [name, view] : views_) {
      if (view->ReadsColumn(column->first, column->second)) add(view);
    }
  } else {
    for (const auto& [name, view] : views_) {
      for (uint32_t id : ids) {
        if (view->ReadsRelation(id)) add(view);
      }
    }
  }
  for (size_t next = ids.size(); next < frontier.size(); ++next) {
    for (const auto& [name, view] : views_) {
      if (view->ReadsRelation(frontier[next])) add(view);
    }
  }
  return out;
}

void Catalog::DropTempViews(uint64_t session) {
  if (session == 0) return;
  WriterLock lock(mu_);
  bool any = false;
  for (auto it = views_.begin(); it != views_.end();) {
    if (it->second->temp_owner == session) {
      it = views_.erase(it);
      any = true;
    } else {
      ++it;
    }
  }
  // Nothing on disk names a TEMP view; cached plans that used one must go.
  if (any) schema_version_.fetch_add(1, std::memory_order_acq_rel);
}

Status Catalog::CheckNewRelationLocked(const std::string& nsp, const std::string& name) const {
  if (closed_) return Status::Error(sqlstate::kAdminShutdown, "the database is closed");
  if (NameTakenLocked(RelationKey(nsp, name))) {
    return Status::Error(sqlstate::kDuplicateTable, "relation \"" + name + "\" already exists");
  }
  return Status::Ok();
}

std::shared_ptr<Table> Catalog::FindById(uint32_t id) const {
  ReaderLock lock(mu_);
  for (const auto& [name, table] : tables_) {
    if (table->id() == id) return table;
  }
  return nullptr;
}

std::vector<Catalog::Reference> Catalog::ReferencesTo(uint32_t table_id) const {
  ReaderLock lock(mu_);
  std::vector<Reference> out;
  for (const auto& [name, table] : tables_) {
    for (const ForeignKey& fk : table->schema().foreign_keys) {
      if (fk.ref_table == table_id) out.push_back({table, fk});
    }
  }
  std::stable_sort(out.begin(), out.end(), [](const Reference& a, const Reference& b) {
    return a.table->name() == b.table->name() ? a.fk.name < b.fk.name
                                              : a.table->name() < b.table->name();
  });
  return out;
}

std::shared_ptr<Sequence> Catalog::FindSequence(const std::string& name) const {
  ReaderLock lock(mu_);
  auto it = sequences_.find(ResolveLocked(name));
  return it == sequences_.end() ? nullptr : it->second;
}

std::shared_ptr<Sequence> Catalog::SequenceById(uint32_t id) const {
  ReaderLock lock(mu_);
  for (const auto& [name, seq] : sequences_) {
    if (seq->schema()->id == id) return seq;
  }
  return nullptr;
}

std::vector<std::shared_ptr<Sequence>> Catalog::ListSequences() const {
  ReaderLock lock(mu_);
  std::vector<std::shared_ptr<Sequence>> out;
  for (const auto& [name, seq] : sequences_) out.push_back(seq);
  return out;
}

Result<std::shared_ptr<Sequence>> Catalog::CreateSequence(SequenceSchema schema) {
  WriterLock lock(mu_);
  if (closed_) return Status::Error(sqlstate::kAdminShutdown, "the database is closed");
  MERIDIAN_RETURN_IF_ERROR(PlaceLocked(&schema.nsp, &schema.name, 0));
  MERIDIAN_RETURN_IF_ERROR(CheckNewRelationLocked(schema.nsp, schema.name));
  schema.id = next_table_id_;
  const std::string path = SequencePath(schema.id);
  const std::string name = RelationKey(schema.nsp, schema.name);
  MERIDIAN_ASSIGN_OR_RETURN(std::shared_ptr<Sequence> seq,
                            Sequence::Open(fs_, path, std::move(schema), true));
  MERIDIAN_RETURN_IF_ERROR(fs_->SyncDir(data_dir_ + "/tables"));
  sequences_[name] = seq;
  ++next_table_id_;
  Status st = WriteStateLocked();
  if (!st.ok()) {
    sequences_.erase(name);
    --next_table_id_;
    (void)seq->Close();
    (void)fs_->Remove(path);
    return st;
  }
  return seq;
}

Status Catalog::AlterSequence(const std::shared_ptr<Sequence>& seq, SequenceSchema schema,
                              const int64_t* restart) {
  WriterLock lock(mu_);
  if (closed_) return Status::Error(sqlstate::kAdminShutdown, "the database is closed");
  SequenceSchema old = *seq->schema();
  const std::pair<int64_t, bool> old_state = seq->State();
  MERIDIAN_RETURN_IF_ERROR(seq->Alter(std::move(schema), restart));
  Status st = WriteStateLocked();
  if (!st.ok()) {
    (void)seq->Alter(std::move(old), nullptr);
    if (restart != nullptr) (void)seq->Set(old_state.first, old_state.second);
  }
  return st;
}

Status Catalog::DropSequences(const std::vector<uint32_t>& ids) {
  WriterLock lock(mu_);
  std::vector<std::shared_ptr<Sequence>> dropped;
  for (auto it = sequences_.begin(); it != sequences_.end();) {
    if (std::find(ids.begin(), ids.end(), it->second->schema()->id) != ids.end()) {
      dropped.push_back(it->second);
      it = sequences_.erase(it);
    } else {
      ++it;
    }
  }
  Status st = WriteStateLocked();
  if (!st.ok()) {
    for (auto& q : dropped) sequences_[RelationKey(q->schema()->nsp, q->schema()->name)] = q;
    return st;
  }
  for (const auto& q : dropped) {
    (void)q->Close();
    (void)fs_->Remove(q->path());
  }
  return Status::Ok();
}

Result<std::shared_ptr<Table>> Catalog::CreateTable(TableSchema schema) {
  WriterLock lock(mu_);
  if (closed_) return Status::Error(sqlstate::kAdminShutdown, "the database is closed");
  MERIDIAN_RETURN_IF_ERROR(PlaceLocked(&schema.nsp, &schema.name, schema.temp_owner));
  MERIDIAN_RETURN_IF_ERROR(CheckNewRelationLocked(schema.nsp, schema.name));
  schema.id = next_table_id_;
  const std::string path = HeapPath(schema.id);
  // A file left by a CREATE that crashed before its catalog write holds nothing of value.
  MERIDIAN_ASSIGN_OR_RETURN(bool stale, fs_->Exists(path));
  if (stale) MERIDIAN_RETURN_IF_ERROR(fs_->Remove(path));
  MERIDIAN_ASSIGN_OR_RETURN(std::unique_ptr<storage::HeapFile> heap,
                            storage::HeapFile::Open(pool_, path));
  // The file's name is durable before the catalog names it (commits sync the file's data,
  // never its directory).
  MERIDIAN_RETURN_IF_ERROR(fs_->SyncDir(data_dir_ + "/tables"));
  auto table = std::make_shared<Table>(std::make_shared<const TableSchema>(std::move(schema)),
                                       std::move(heap));
  table->set_txns(txns_.get());
  tables_[KeyOf(*table)] = table;
  ++next_table_id_;
  Status st = WriteStateLocked();
  if (st.ok() && table->schema().on_commit >= 2) on_commit_tables_.fetch_add(1);
  if (!st.ok()) {
    tables_.erase(KeyOf(*table));
    --next_table_id_;
    (void)table->CloseHeap(true);
    (void)fs_->Remove(path);
    return st;
  }
  return table;
}

Status Catalog::DropTable(const std::shared_ptr<Table>& table) {
  WriterLock lock(mu_);
  auto it = tables_.find(KeyOf(*table));
  if (it == tables_.end() || it->second != table) {
    return Status::Error(sqlstate::kUndefinedTable,
                         "table \"" + table->name() + "\" does not exist");
  }
  tables_.erase(it);
  std::vector<IndexSchema> dropped_indexes;
  for (const std::shared_ptr<Index>& index : table->indexes()) {
    dropped_indexes.push_back(index->schema());
    indexes_.erase(RelationKey(table->schema().nsp, index->name()));
  }
  // Sequences OWNED BY one of its columns (SERIAL, identity) go with it, as in PostgreSQL.
  std::vector<std::shared_ptr<Sequence>> dropped_sequences;
  for (auto q = sequences_.begin(); q != sequences_.end();) {
    if (q->second->schema()->owner_table == table->id()) {
      dropped_sequences.push_back(q->second);
      q = sequences_.erase(q);
    } else {
      ++q;
    }
  }
  Status st = WriteStateLocked();
  if (!st.ok()) {
    tables_[KeyOf(*table)] = table;
    for (IndexSchema& x : dropped_indexes) indexes_[RelationKey(x.nsp, x.name)] = std::move(x);
    for (auto& q : dropped_sequences)
      sequences_[RelationKey(q->schema()->nsp, q->schema()->name)] = q;
    return st;
  }
  // The catalog no longer names the table; a crash from here on leaves orphan files only.
  if (table->schema().on_commit >= 2) on_commit_tables_.fetch_sub(1);
  (void)table->CloseHeap(true);
  for (const IndexSchema& x : dropped_indexes) RemoveIndexFiles(x.id);
  for (const auto& q : dropped_sequences) {
    (void)q->Close();
    (void)fs_->Remove(q->path());
  }
  return fs_->Remove(HeapPath(table->id()));
}

Status Catalog::AlterTable(const std::shared_ptr<Table>& table, TableSchema schema,
                           const std::vector<std::string>& drop_indexes) {
  WriterLock lock(mu_);
  if (closed_) return Status::Error(sqlstate::kAdminShutdown, "the database is closed");
  MERIDIAN_RETURN_IF_ERROR(table->CheckUsable());
  const std::string old_name = table->name();
  auto it = tables_.find(KeyOf(*table));
  if (it == tables_.end() || it->second != table) {
    return Status::Error(sqlstate::kUndefinedTable, "relation \"" + old_name + "\" does not exist");
  }
  schema.nsp = table->schema().nsp;
  const bool renamed = schema.name != old_name;
  if (renamed && NameTakenLocked(RelationKey(schema.nsp, schema.name))) {
    return Status::Error(sqlstate::kDuplicateTable,
                         "relation \"" + schema.name + "\" already exists");
  }
  schema.id = table->id();
  // The catalog file is written from the new state first; memory follows only on success.
  std::vector<IndexSchema> dropped;
  for (const std::string& name : drop_indexes) {
    auto x = indexes_.find(RelationKey(schema.nsp, name));
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
    for (IndexSchema& x : dropped) indexes_[RelationKey(x.nsp, x.name)] = std::move(x);
    return st;
  }
  if (renamed) {
    tables_.erase(it);
    tables_[RelationKey(schema.nsp, schema.name)] = table;
  }
  table->SetSchema(std::move(schema));
  for (const IndexSchema& x : dropped) {
    std::shared_ptr<Index> index = table->RemoveIndex(x.name);
    if (index != nullptr) (void)index->Close();
    RemoveIndexFiles(x.id);
  }
  schema_version_.fetch_add(1, std::memory_order_acq_rel);  // after the change (plan_cache.h)
  return Status::Ok();
}

Status Catalog::TruncateTable(const std::shared_ptr<Table>& table) {
  MERIDIAN_RETURN_IF_ERROR(table->CheckUsable());
  // Every old file is closed first (closing flushes it, possibly through the doublewrite
  // area), and only then is the area emptied: the new files take the old paths, and no staged
  // image of an old page may be put back into them at the next start (the old heap's rows, or
  // an old index meta page naming a root past the new file's end, came back after a crash).
  MERIDIAN_RETURN_IF_ERROR(table->heap()->Close());
  for (const std::shared_ptr<Index>& index : table->indexes()) {
    // The new file is no checkpoint image (OpenIndex): marked before it replaces the old one.
    MERIDIAN_RETURN_IF_ERROR(CreateMarker(index->schema().id));
    MERIDIAN_RETURN_IF_ERROR(index->Close());
  }
  MERIDIAN_RETURN_IF_ERROR(pool_->ClearDoublewrite());
  MERIDIAN_RETURN_IF_ERROR(fs_->Remove(HeapPath(table->id())));
  MERIDIAN_ASSIGN_OR_RETURN(std::unique_ptr<storage::HeapFile> heap,
                            storage::HeapFile::Open(pool_, HeapPath(table->id())));
  std::vector<std::unique_ptr<storage::BTree>> trees;
  std::vector<std::unique_ptr<storage::RTree>> rtrees;
  for (const std::shared_ptr<Index>& index : table->indexes()) {
    const IndexSchema& x = index->schema();
    const std::string path = IndexPath(x.id);
    MERIDIAN_RETURN_IF_ERROR(fs_->Remove(path));
    trees.emplace_back();
    rtrees.emplace_back();
    if (x.IsRtree()) {
      MERIDIAN_ASSIGN_OR_RETURN(
          rtrees.back(),
          storage::RTree::Open(pool_, path, {.dims = RTreeDims(x, table->schema())}));
    } else {
      MERIDIAN_ASSIGN_OR_RETURN(trees.back(), storage::BTree::Open(pool_, path, {.unique = false}));
    }
  }
  // The new files replace the old names durably before any commit writes into them.
  MERIDIAN_RETURN_IF_ERROR(fs_->SyncDir(data_dir_ + "/tables"));
  table->ReplaceStorage(std::move(heap), std::move(trees), std::move(rtrees));
  for (const std::shared_ptr<Index>& index : table->indexes()) {
    index->Watch(fs_, MarkerPath(index->schema().id), data_dir_ + "/tables", /*marked=*/true);
  }
  schema_version_.fetch_add(1, std::memory_order_acq_rel);  // plans hold the old trees
  return Status::Ok();
}

Status Catalog::CreateIndex(const std::shared_ptr<Table>& table, IndexSchema schema) {
  {
    WriterLock lock(mu_);
    if (closed_) return Status::Error(sqlstate::kAdminShutdown, "the database is closed");
    std::string qualifier;
    ast::SplitName(std::string(schema.name), &qualifier, &schema.name);
    schema.nsp = table->schema().nsp;  // an index lives in its table's schema
    if (NameTakenLocked(RelationKey(schema.nsp, schema.name))) {
      return Status::Error(sqlstate::kDuplicateTable,
                           "relation \"" + schema.name + "\" already exists");
    }
    if (tables_.count(KeyOf(*table)) == 0) {
      return Status::Error(sqlstate::kUndefinedTable,
                           "relation \"" + table->name() + "\" does not exist");
    }
    schema.id = next_table_id_++;
    schema.table_id = table->id();
    reserved_.insert(RelationKey(schema.nsp, schema.name));
  }
  // Built without mu_ (other statements keep using the catalog); the caller's exclusive table
  // lock keeps the heap still.
  auto opened = OpenIndex(table.get(), schema, /*rebuild=*/true);
  WriterLock lock(mu_);
  reserved_.erase(RelationKey(schema.nsp, schema.name));
  if (!opened.ok()) return opened.status();
  std::shared_ptr<Index> index = std::move(opened).value();
  indexes_[RelationKey(schema.nsp, schema.name)] = schema;
  Status st = WriteStateLocked();
  if (!st.ok()) {
    indexes_.erase(RelationKey(schema.nsp, schema.name));
    (void)index->Close();
    RemoveIndexFiles(schema.id);
    return st;
  }
  table->AddIndex(std::move(index));
  return Status::Ok();
}

std::shared_ptr<Table> Catalog::FindIndexTable(const std::string& name) const {
  ReaderLock lock(mu_);
  auto it = indexes_.find(ResolveLocked(name));
  if (it == indexes_.end()) return nullptr;
  for (const auto& [table_name, table] : tables_) {
    if (table->id() == it->second.table_id) return table;
  }
  return nullptr;
}

Status Catalog::DropIndex(const std::shared_ptr<Table>& table, const std::string& written) {
  WriterLock lock(mu_);
  std::string qualifier, name;
  ast::SplitName(written, &qualifier, &name);
  const std::string key = RelationKey(table->schema().nsp, name);
  auto it = indexes_.find(key);
  if (it == indexes_.end() || it->second.table_id != table->id()) {
    return Status::Error(sqlstate::kUndefinedObject, "index \"" + name + "\" does not exist");
  }
  if (it->second.IsConstraint()) {
    return Status::Error(sqlstate::kDependentObjectsStillExist,
                         "cannot drop index " + name + " because constraint " + name +
                             " on table " + table->name() + " requires it")
        .WithHint("You can drop constraint " + name + " on table " + table->name() + " instead.");
  }
  IndexSchema schema = it->second;
  indexes_.erase(it);
  Status st = WriteStateLocked();
  if (!st.ok()) {
    indexes_[key] = std::move(schema);
    return st;
  }
  std::shared_ptr<Index> index = table->RemoveIndex(name);
  if (index != nullptr) (void)index->Close();
  RemoveIndexFiles(schema.id);
  return Status::Ok();
}

std::string Catalog::ChooseIndexName(const std::string& written_base,
                                     const std::string& nsp) const {
  ReaderLock lock(mu_);
  std::string qualifier, base;
  ast::SplitName(written_base, &qualifier, &base);
  std::string in = !qualifier.empty() ? qualifier : nsp;
  if (in.empty()) {
    std::string bare = base;
    if (!PlaceLocked(&in, &bare, 0).ok()) in = kPublicSchema;
  }
  std::string name = base;
  for (int n = 1; NameTakenLocked(RelationKey(in, name)); ++n) name = base + std::to_string(n);
  return ast::QualifyName(qualifier, name);
}

std::vector<IndexSchema> Catalog::ListIndexes() const {
  ReaderLock lock(mu_);
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
  WriterLock lock(mu_);
  if (closed_) return Status::Ok();
  return WriteStateLocked();
}

Status Catalog::AutoAnalyze() {
  bool analyzed = false;
  const auto now = std::chrono::steady_clock::now();
  for (const std::shared_ptr<Table>& table : List()) {
    const int64_t changes = table->changes_since_analyze();
    const int64_t threshold = 50 + table->live_rows() / 10;
    // Column statistics live in memory only: after a restart a table with rows has none until
    // this pass gathers them again (within one checkpoint interval), not only after changes.
    const bool never = table->stats() == nullptr && table->live_rows() > 0;
    // A table under steady writes (TPC-C's stock: 100,000 rows, ANALYZE 0.7 s) is analyzed at
    // most once per kAutoAnalyzeInterval, as autovacuum's naptime allows; one whose changes
    // outnumber its rows (a bulk load, a purge) at once.
    const bool recent = now - table->analyzed_at() < kAutoAnalyzeInterval;
    const bool due = changes > threshold && (!recent || changes > 50 + table->live_rows());
    if (!never && !due) continue;
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
    // Nothing to make durable; but what it answered may rest on a committing transaction
    // (early lock release: ON CONFLICT DO NOTHING against its insert), which must not fail.
    Status st = t.AwaitDependencies(nullptr);
    if (!t.EndReadOnly().ok()) {  // releases the row locks it took (FOR UPDATE)
      stamp_failures_.fetch_add(1, std::memory_order_relaxed);
    }
    return st;
  }
  if (!t.doomed().ok()) {
    AbortTransaction(t);  // an undo it could not finish: its rows must never commit
    return t.doomed();
  }
  std::vector<uint64_t> pages;
  for (const PageRef& p : t.InsertPages()) pages.push_back(uint64_t{p.table} << 32 | p.page);
  return FinishCommit(
      t, log_->Commit(t.id(), t.EndStamps(), std::move(pages), sync, t.dependencies()));
}

void Catalog::StartCommit(Transaction& t, bool sync, txn::CommitLog::CommitDone done) {
  std::vector<uint64_t> pages;
  for (const PageRef& p : t.InsertPages()) pages.push_back(uint64_t{p.table} << 32 | p.page);
  log_->CommitAsync(t.id(), t.EndStamps(), std::move(pages), sync, t.dependencies(),
                    std::move(done));
}

Status Catalog::FinishCommit(Transaction& t, const Result<txn::Timestamp>& ts) {
  if (!ts.ok()) {
    AbortTransaction(t);  // the log already marked it aborted; release its marks
    return ts.status();
  }
  if (Status st = t.StampCommitted(*ts); !st.ok()) {
    // Committed and durable all the same: the unstamped versions resolve through the
    // transaction table, which keeps the id (and checkpoints carry it) until a restart's
    // recovery stamps them from the log.
    stamp_failures_.fetch_add(1, std::memory_order_relaxed);
  }
  return Status::Ok();
}

void Catalog::AbortTransaction(Transaction& t) {
  txns_->Abort(t.id());
  if (Status st = t.CleanAborted(); !st.ok()) {
    // Harmless: a mark left behind names an aborted id, which means no mark.
    stamp_failures_.fetch_add(1, std::memory_order_relaxed);
  }
}

Status Catalog::FlushCommitPages(const std::vector<uint64_t>& pages, std::string_view record,
                                 const std::function<Status()>& append, bool* durable) {
  std::map<uint32_t, std::vector<uint32_t>> by_table;
  for (uint64_t p : pages)
    by_table[static_cast<uint32_t>(p >> 32)].push_back(static_cast<uint32_t>(p));
  if (by_table.empty()) return Status::Ok();
  // Every table's pages in one doublewrite batch (BufferPool::FlushGroupPages), under shared
  // locks taken in List() order.
  std::vector<std::unique_ptr<ScopedTableLock>> guards;
  std::vector<std::pair<storage::FileId, std::vector<uint32_t>>> sets;
  for (const std::shared_ptr<Table>& table : List()) {
    auto it = by_table.find(table->id());
    if (it == by_table.end()) continue;
    guards.push_back(std::make_unique<ScopedTableLock>(*table, LockMode::kShared));
    MERIDIAN_RETURN_IF_ERROR(guards.back()->status());
    if (!table->CheckUsable().ok()) continue;  // dropped: nothing to keep
    sets.emplace_back(table->heap()->pool_file_id(), std::move(it->second));
  }
  return pool_->FlushGroupPages(std::move(sets), record, append, durable);
}

Status Catalog::ApplyLoggedEndStamps(const std::map<uint32_t, std::shared_ptr<Table>>& by_id,
                                     std::map<uint32_t, std::vector<uint32_t>>* pages) {
  // End stamps of committed transactions that were not yet written into their pages.
  for (const txn::LogRecord& record : log_->recovered()) {
    for (const txn::EndStamp& stamp : record.stamps) {
      auto it = by_id.find(stamp.file);
      if (it == by_id.end()) continue;  // table dropped since
      storage::HeapFile* heap = it->second->heap();
      if (stamp.page >= heap->page_count()) continue;
      // The logged delete wins over whatever the page holds: an aborted writer's or a row
      // locker's mark written before the committed deleter took the row. But only on the
      // version it deleted: one created after the deleter committed is another row in a reused
      // slot (TRUNCATE gave the table a new heap since; ids of old pages mean nothing there).
      const txn::Timestamp deleted_at = txns_->Resolve(stamp.txn);
      auto done = heap->UpdateHeader({stamp.page, stamp.slot}, [&](storage::TupleHeader* h) {
        if (h->begin != stamp.txn && txns_->Resolve(h->begin) >= deleted_at) return false;
        h->end = stamp.txn;
        h->flags = static_cast<uint8_t>(h->flags & ~storage::kTupleFlagLockOnly);
        return true;
      });
      // No such slot: a heap TRUNCATE replaced (the deleted version went with it). Any other
      // failure leaves a committed delete unapplied: recovery must not go on.
      if (!done.ok() && !storage::IsNoTuple(done.status())) return done.status();
      if (pages != nullptr) (*pages)[stamp.file].push_back(stamp.page);
    }
  }
  return Status::Ok();
}

Status Catalog::RecoverTail(const std::map<uint32_t, std::shared_ptr<Table>>& by_id,
                            std::map<uint32_t, std::vector<uint32_t>>* insert_pages) {
  using storage::TupleHeader;
  std::map<uint32_t, std::vector<uint32_t>> pages;  // every page naming a tail transaction
  MERIDIAN_RETURN_IF_ERROR(ApplyLoggedEndStamps(by_id, &pages));
  std::vector<uint64_t> tail_txns;
  for (const txn::LogRecord& record : log_->recovered()) {
    if (!record.is_group()) continue;
    for (const auto& [id, ts] : record.commits) tail_txns.push_back(id);
    for (uint64_t page : record.pages) {
      const auto table = static_cast<uint32_t>(page >> 32);
      if (by_id.count(table) == 0) continue;  // dropped since
      (*insert_pages)[table].push_back(static_cast<uint32_t>(page));
      pages[table].push_back(static_cast<uint32_t>(page));
    }
  }
  // Ids of committed transactions to their timestamps, on exactly those pages. Ids of
  // transactions that never committed stay: they resolve as aborted (no entry in the status
  // table), and garbage collection removes their versions.
  auto stamp = [&](TupleHeader* h) {
    using Action = storage::HeapFile::SweepAction;
    bool changed = false;
    if (txn::IsTxnId(h->begin)) {
      const txn::Timestamp ts = txns_->Resolve(h->begin);
      if (ts != txn::kInfinity) h->begin = ts, changed = true;
    }
    if (h->end != 0 && txn::IsTxnId(h->end) && txns_->State(h->end) == txn::TxnState::kCommitted) {
      if ((h->flags & storage::kTupleFlagLockOnly) != 0) {
        h->end = 0;  // a row lock ends with its transaction
        h->flags = static_cast<uint8_t>(h->flags & ~storage::kTupleFlagLockOnly);
      } else {
        h->end = txns_->Resolve(h->end);
      }
      changed = true;
    }
    return changed ? Action::kChanged : Action::kKeep;
  };
  for (auto& [id, list] : pages) {
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
    storage::HeapFile* heap = by_id.at(id)->heap();
    for (uint32_t page : list) {
      if (page >= heap->page_count()) continue;  // truncated since
      MERIDIAN_RETURN_IF_ERROR(heap->SweepPage(page, stamp).status());
    }
  }
  for (auto& [id, list] : *insert_pages) {
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
    const uint32_t count = by_id.at(id)->heap()->page_count();
    list.erase(std::remove_if(list.begin(), list.end(), [&](uint32_t p) { return p >= count; }),
               list.end());
  }
  // Their ids appear nowhere else on disk: the next checkpoint may forget them. Commits a
  // checkpoint record carried (not yet stamped then, pages unknown) stay in the table.
  for (uint64_t id : tail_txns) txns_->MarkStamped(id);
  return Status::Ok();
}

Status Catalog::RecoverVersions(const std::map<uint32_t, std::shared_ptr<Table>>& by_id) {
  using storage::TupleHeader;
  // 1. End stamps of committed transactions that were not yet written into their pages.
  MERIDIAN_RETURN_IF_ERROR(ApplyLoggedEndStamps(by_id, nullptr));
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
  // Every id is rewritten or gone: the next checkpoint forgets them all.
  for (const auto& [id, ts] : txns_->Committed()) txns_->MarkStamped(id);
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

Status Catalog::CheckpointTable(Table& table) {
  ScopedTableLock guard(table, LockMode::kShared);
  MERIDIAN_RETURN_IF_ERROR(guard.status());
  if (!table.CheckUsable().ok()) return Status::Ok();  // dropped meanwhile
  struct Image {
    Index* index;
    uint64_t outside_writes;  // read before the image: a later outside write keeps the marker
    storage::BufferPool::Snapshot snapshot;
    bool taken;
  };
  std::vector<Image> images;
  Status st;
  for (const std::shared_ptr<Index>& index : table.indexes()) {
    if (index->file() == nullptr) continue;
    Image image{index.get(), index->outside_writes(), {}, false};
    auto snapshot = index->file()->SnapshotDirty(MaxImagePages(pool_));
    if (snapshot.ok()) {
      image.snapshot = std::move(snapshot).value();
      image.taken = true;
    } else if (snapshot.status().sqlstate() != sqlstate::kInsufficientResources) {
      st = snapshot.status();
      break;
    }
    images.push_back(std::move(image));
  }
  // The heap after the images: every entry in them names a version whose page is durable
  // before the image is.
  if (st.ok()) st = table.heap()->Flush();
  std::vector<storage::PageJournal::Image> journal;
  for (const Image& image : images) {
    if (!image.taken) continue;
    for (size_t i = 0; i < image.snapshot.pages.size(); ++i) {
      journal.push_back(
          {image.index->file()->path(), image.snapshot.pages[i], image.snapshot.image(i)});
    }
  }
  if (st.ok() && !journal.empty()) {
    st = storage::PageJournal::Write(fs_, data_dir_ + "/" + kIndexJournalFile, data_dir_, journal);
  }
  std::vector<bool> written(images.size(), false);
  for (size_t i = 0; i < images.size() && st.ok(); ++i) {
    if (!images[i].taken) continue;
    st = pool_->WriteSnapshot(images[i].snapshot);
    written[i] = st.ok();
  }
  for (size_t i = 0; i < images.size(); ++i) {
    if (images[i].taken) pool_->ReleaseSnapshot(&images[i].snapshot, written[i]);
  }
  for (size_t i = 0; i < images.size() && st.ok(); ++i) {
    // Too many dirty pages for one image: written plainly, and its marker stays.
    st = written[i] ? images[i].index->ClearUnsafe(images[i].outside_writes)
                    : images[i].index->file()->Flush();
  }
  return st;
}

bool Catalog::GarbageDue() const {
  ReaderLock lock(mu_);
  for (const auto& [name, table] : tables_) {
    if (table->GarbageDue()) return true;
  }
  return false;
}

Status Catalog::Checkpoint(bool only_due) {
  std::lock_guard checkpoint(checkpoint_mu_);
  if (log_ == nullptr) return FlushTables();  // closing
  // Finished transactions whose ids are already rewritten in memory: once the pages below are
  // durable, nothing on disk needs their status any more.
  const std::vector<uint64_t> stamped = txns_->Stamped();
  // Commits published by now have their records before start: the rotation below drops their
  // end stamps, so their deleted versions' slots may be reused afterwards (recovery re-applies
  // logged stamps by slot and must never meet a reused one). Every one of them inserted its
  // index entries before committing, so the index images below hold them all.
  const txn::Timestamp logged_before = txns_->published_ts();
  const uint64_t start = log_->CheckpointStart();
  const txn::Timestamp horizon = txns_->OldestSnapshot();
  // Garbage collection of versions nobody can see any more (bounded footprint), step 1: their
  // index entries go before the images are taken; their slots are freed only after the log
  // rotation below.
  const txn::Timestamp gc_horizon = std::min(horizon, logged_before);
  std::vector<std::pair<std::shared_ptr<Table>, Table::Garbage>> garbage;
  for (const std::shared_ptr<Table>& table : List()) {
    if (only_due && !table->GarbageDue()) continue;
    ScopedTableLock guard(*table, LockMode::kShared);
    if (!guard.status().ok() || !table->CheckUsable().ok()) continue;
    Table::Garbage g;
    MERIDIAN_RETURN_IF_ERROR(table->CollectGarbage(gc_horizon, &g));
    if (!g.rids.empty()) garbage.emplace_back(table, std::move(g));
  }
  for (const std::shared_ptr<Table>& table : List()) {
    MERIDIAN_RETURN_IF_ERROR(CheckpointTable(*table));
  }
  std::vector<std::pair<uint64_t, txn::Timestamp>> carried;
  const std::set<uint64_t> forget(stamped.begin(), stamped.end());
  for (const auto& c : txns_->Committed()) {
    if (!forget.count(c.first)) carried.push_back(c);
  }
  MERIDIAN_RETURN_IF_ERROR(log_->Checkpoint(start, carried));
  for (const std::shared_ptr<Table>& table : List()) table->PruneSuccessors(horizon);
  txns_->Forget(stamped);
  // Garbage collection step 2: the durable index images no longer name these slots.
  for (const auto& [table, g] : garbage) {
    ScopedTableLock guard(*table, LockMode::kShared);
    if (!guard.status().ok() || !table->CheckUsable().ok()) continue;
    int64_t removed = 0;
    MERIDIAN_RETURN_IF_ERROR(table->FreeVersions(g, &removed));
    versions_collected_.fetch_add(static_cast<uint64_t>(removed), std::memory_order_relaxed);
  }
  // Visibility map pass (docs/storage.md "Visibility map"), with a horizon taken now: the
  // versions just freed are gone, so their pages may qualify.
  const txn::Timestamp vm_horizon = txns_->OldestSnapshot();
  // An early checkpoint for hot tables (only_due) passes over those alone.
  std::vector<std::shared_ptr<Table>> vm_tables;
  if (only_due) {
    for (const auto& [table, g] : garbage) vm_tables.push_back(table);
  } else {
    vm_tables = List();
  }
  for (const std::shared_ptr<Table>& table : vm_tables) {
    ScopedTableLock guard(*table, LockMode::kShared);
    if (!guard.status().ok() || !table->CheckUsable().ok()) continue;
    size_t marked = 0;
    MERIDIAN_RETURN_IF_ERROR(table->MarkAllVisible(vm_horizon, &marked));
  }
  return Status::Ok();
}

Status Catalog::Close() {
  std::vector<std::shared_ptr<Table>> tables;
  {
    WriterLock lock(mu_);
    if (closed_) return Status::Ok();
    closed_ = true;
    for (const auto& [name, table] : tables_) tables.push_back(table);
  }
  MERIDIAN_RETURN_IF_ERROR(Checkpoint());
  // The checkpoint synced the log (no commit runs any more): the doublewrite areas owe it
  // nothing, and the log's destructor syncs whatever a straggler appended.
  pool_->SetRecordSync({});
  log_.reset();  // stops the committer thread
  for (const auto& seq : ListSequences()) MERIDIAN_RETURN_IF_ERROR(seq->Close());
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
    WriterLock lock(mu_);
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
