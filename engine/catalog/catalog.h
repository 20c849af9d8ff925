// Catalog: the tables and indexes of one database, persisted in data_dir/catalog.meta (format
// in catalog_file.h) with each table's rows in data_dir/tables/<id>.heap and each index in
// data_dir/tables/<id>.btree. Tables and indexes share one name space (as PostgreSQL's
// relations do) and one id counter.
// Index files are checkpoint images (docs/txn.md section 5): after a crash, Open adds
// the entries of the versions the commit log lists since the checkpoint, and rebuilds from its
// heap only an index written outside an image (its tables/<id>.btree.unsafe marker).
// Concurrency: mu_ (a shared_mutex) guards the name → Table map, the index schemas,
// next_table_id_ and closed_.
// Lookups take it shared and briefly; DDL takes it exclusively for the whole catalog change
// (including the catalog file rewrite). It is never held while waiting for a TableLock: DROP
// TABLE takes the table's exclusive lock first, then mu_. Table contents are guarded by each
// Table's own TableLock (see table.h).
#pragma once

#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "catalog/catalog_file.h"
#include "catalog/namespace.h"
#include "catalog/schema.h"
#include "catalog/sequence.h"
#include "catalog/table.h"
#include "catalog/transaction.h"
#include "meridian/status.h"
#include "meridian/thread_annotations.h"
#include "storage/buffer_pool.h"
#include "txn/commit_log.h"
#include "txn/txn_manager.h"

namespace meridian::catalog {

class Catalog {
 public:
  // Reads the catalog of data_dir (an empty one when absent), opens every table's heap file in
  // *pool (which must outlive the catalog) and, after an unclean stop, recovers (above).
  // Not analysed for mu_: Open fills the maps of a catalog no other thread can reach before it
  // returns (a constructor's work, which the analysis never checks), and its recovery
  // checkpoint takes mu_ itself, so Open cannot hold it throughout.
  static Result<std::unique_ptr<Catalog>> Open(
      const std::string& data_dir, storage::BufferPool* pool,
      txn::CommitLogOptions log_options = {}) NO_THREAD_SAFETY_ANALYSIS;
  ~Catalog();

  // Names: a relation name is written as the parser hands it (ast::QualifyName): schema-qualified
  // names are looked up in that schema, unqualified ones through the current thread's search
  // path (namespace.h: the session's pg_temp schema first, then the path's existing schemas).
  // The table named name, or null.
  std::shared_ptr<Table> Find(const std::string& name) const;

  // Schemas (namespace.h). CREATE SCHEMA: 42P06 when it exists, 42939 for a pg_ name.
  Status CreateSchema(const std::string& name, const std::string& owner);
  // DROP SCHEMA of an empty schema (CASCADE drops the contents first: commands/): 3F000 when
  // absent, 2BP01 when a relation is still in it.
  Status DropSchema(const std::string& name);
  // ALTER SCHEMA from RENAME TO to: its relations follow.
  Status RenameSchema(const std::string& from, const std::string& to);
  bool SchemaExists(const std::string& nsp) const;
  // The CREATE SCHEMA schemas and the existing pg_temp_<n> schemas (public not included).
  std::vector<NamespaceDef> ListSchemas() const;
  // "table app.t", "view app.v", ... of the relations in nsp, in id order (sequences owned by a
  // column go with their table).
  std::vector<std::string> SchemaContents(const std::string& nsp) const;
  // pg_namespace oid: public 2200, a CREATE SCHEMA schema 16384 + id, pg_temp_<n> 0x70000000 +
  // n; 0 when there is no such schema.
  int64_t SchemaOid(const std::string& nsp) const;
  // The schemas an unqualified name is looked up in, in order (current_schemas(false) without
  // with_temp); the first non-temporary one is where CREATE puts a relation.
  std::vector<std::string> EffectiveSearchPath(bool with_temp) const;
  // The schema-qualified written name (ast::QualifyName) a CREATE of written makes: 3F000 when
  // the schema does not exist or none is selected; temp: in the session's pg_temp schema.
  Result<std::string> CreationName(const std::string& written, bool temp = false) const;
  // DROP of a written name whose schema does not exist: 3F000 `schema "x" does not exist`
  // (pg_temp, pg_catalog and information_schema always exist).
  Status CheckSchemaOf(const std::string& written) const;
  // pg_table_is_visible: whether the unqualified name finds the relation nsp.name.
  bool IsVisible(const std::string& nsp, const std::string& name) const;
  static bool IsTempSchema(const std::string& nsp);
  // TEMP tables (main/temp_tables.h): those of session, and whether any TEMP table has ON
  // COMMIT DELETE ROWS or DROP (a commit checks this first).
  std::vector<std::shared_ptr<Table>> TempTables(uint64_t session) const;
  bool HasOnCommitTables() const { return on_commit_tables_.load(std::memory_order_acquire) > 0; }
  // Changes with every DDL (tables, columns, indexes) and every ANALYZE: a plan made at one
  // version stays valid while the version is unchanged (main/plan_cache.h checks it).
  // (Plus every session's search_path changes: namespace.h.)
  uint64_t schema_version() const {
    return schema_version_.load(std::memory_order_acquire) + SearchPathChanges();
  }
  // Every table, ordered by name.
  std::vector<std::shared_ptr<Table>> List() const;
  // The table with this id, or null.
  std::shared_ptr<Table> FindById(uint32_t id) const;
  // A foreign key of table (its current schema's) that references another table.
  struct Reference {
    std::shared_ptr<Table> table;
    ForeignKey fk;
  };
  // Every foreign key that references the table with this id, ordered by (table name,
  // constraint name); a self-reference included.
  std::vector<Reference> ReferencesTo(uint32_t table_id) const;

  // Assigns schema.id, creates the heap file and persists the catalog. 42P07 when a table of
  // that name exists.
  Result<std::shared_ptr<Table>> CreateTable(TableSchema schema);
  // Removes table from the catalog, persists it, then closes and deletes the heap file and
  // its index files. REQUIRES: the caller holds table's exclusive lock.
  Status DropTable(const std::shared_ptr<Table>& table);

  // ALTER TABLE: publishes schema as table's new one (same id; a new name is checked against
  // every relation, 42P07) and drops the indexes named in drop_indexes (their columns were
  // dropped), persisting both in one catalog write; on failure nothing changes. The heap is
  // not rewritten (schema.h: positions are stable). REQUIRES: the caller holds table's
  // exclusive lock.
  Status AlterTable(const std::shared_ptr<Table>& table, TableSchema schema,
                    const std::vector<std::string>& drop_indexes);

  // Empties table: its heap file and every index file are replaced by empty ones (same ids).
  // REQUIRES: the caller holds table's exclusive lock.
  Status TruncateTable(const std::shared_ptr<Table>& table);

  // Creates an index on table (schema.id and table_id are assigned here), fills it from the
  // heap and persists the catalog. 42P07 when a relation of that name exists; 23505 when a
  // unique index meets duplicates. REQUIRES: the caller holds table's exclusive lock.
  Status CreateIndex(const std::shared_ptr<Table>& table, IndexSchema schema);
  // The table that owns the index called name, or null.
  std::shared_ptr<Table> FindIndexTable(const std::string& name) const;
  // Removes the index; 2BP01 for an index that backs a constraint. REQUIRES: the caller holds
  // table's exclusive lock.
  Status DropIndex(const std::shared_ptr<Table>& table, const std::string& name);
  // A free index name "<base>", "<base>1", "<base>2", ... (PostgreSQL's ChooseRelationName) in
  // base's schema when it is qualified (the result is then qualified too), else in nsp, else in
  // the schema CREATE would use.
  std::string ChooseIndexName(const std::string& base, const std::string& nsp = "") const;
  // Every index schema, ordered by name.
  std::vector<IndexSchema> ListIndexes() const;

  // Views (schema.h). session: the asking session's backend pid; its TEMP views are found
  // too, other sessions' are not. The view named name, or null.
  std::shared_ptr<const ViewSchema> FindView(const std::string& name, uint64_t session = 0) const;
  // Every view session may see, ordered by name.
  std::vector<std::shared_ptr<const ViewSchema>> ListViews(uint64_t session = 0) const;
  // CREATE [OR REPLACE] VIEW by session: publishes view with a new id or, when replace names
  // an existing view that session may see, that view's id, persisting the catalog (TEMP views
  // are never written). 42P07 when another relation (or, without replace, a view; or another
  // session's TEMP view) has the name; 42809 when replace names a table or an index.
  Status CreateView(ViewSchema view, bool replace, uint64_t session);
  // Removes the views with these ids in one catalog write.
  Status DropViews(const std::vector<uint32_t>& ids);
  // Every view that reads one of ids (or whose ReadsColumn(column->first, column->second) is
  // true), directly or through other views, each once, dependents of a view after it.
  std::vector<std::shared_ptr<const ViewSchema>> DependentViews(
      const std::vector<uint32_t>& ids, const std::pair<uint32_t, int>* column = nullptr) const;
  // The end of a session: its TEMP views go.
  void DropTempViews(uint64_t session);

  // Sequences (sequence.h), in the relation name space. The sequence named name / with this
  // id, or null.
  std::shared_ptr<Sequence> FindSequence(const std::string& name) const;
  std::shared_ptr<Sequence> SequenceById(uint32_t id) const;
  // Every sequence, ordered by name.
  std::vector<std::shared_ptr<Sequence>> ListSequences() const;
  // CREATE SEQUENCE: assigns schema.id, creates tables/<id>.seq (START, not yet called) and
  // persists the catalog. 42P07 when a relation of that name exists.
  Result<std::shared_ptr<Sequence>> CreateSequence(SequenceSchema schema);
  // ALTER SEQUENCE: the new definition (same id and name) and, with restart, the value the
  // next nextval returns; persisted in one catalog write.
  Status AlterSequence(const std::shared_ptr<Sequence>& seq, SequenceSchema schema,
                       const int64_t* restart);
  // Removes the sequences with these ids (catalog first, then their files).
  Status DropSequences(const std::vector<uint32_t>& ids);

  // ANALYZE of every table whose changes since its last ANALYZE exceed 50 rows plus 10% of
  // its rows (PostgreSQL's autovacuum_analyze defaults), at most once per
  // kAutoAnalyzeInterval per table unless the changes exceed 50 plus its rows; and of every
  // table with rows but no statistics. Takes each table's shared lock.
  static constexpr std::chrono::seconds kAutoAnalyzeInterval{60};
  Status AutoAnalyze();
  // Persists the live row estimates (ANALYZE calls it).
  Status SaveState();

  // Transactions (docs/txn.md). Begin hands out a new transaction id.
  txn::TxnManager* txns() { return txns_.get(); }
  const txn::TxnManager* txns() const { return txns_.get(); }
  std::unique_ptr<Transaction> BeginTransaction(Isolation isolation);
  // Commits t: nothing to log when it wrote nothing; else the write-behind group commit (its
  // new versions' pages flushed, then one log record), then its id is stamped into its
  // versions. sync = false: asynchronous commit (durable within the log's async window). On a
  // failure t is aborted and the error returned; a doomed t (Transaction::doomed) is aborted
  // and refused.
  Status CommitTransaction(Transaction& t, bool sync = true);
  // CommitTransaction in two halves, for a caller that must not block while the group is
  // written (a COMMIT on a network thread): StartCommit hands t to the log and returns at once;
  // done runs on the committer thread (it must not block) once t's group is durable and
  // published, or failed; FinishCommit(t, that result) then ends t as CommitTransaction does
  // (stamps its versions, or releases a failure's marks) and returns the commit's outcome.
  // Only for a t that wrote and is not doomed (CanStartCommit).
  static bool CanStartCommit(const Transaction& t) { return t.wrote() && t.doomed().ok(); }
  void StartCommit(Transaction& t, bool sync, txn::CommitLog::CommitDone done);
  Status FinishCommit(Transaction& t, const Result<txn::Timestamp>& ts);
  void AbortTransaction(Transaction& t);
  // Commits and aborts whose stamping could not reach every version (a page that could not be
  // read or written): their ids stay tracked (commits) or resolve as aborted, so answers stay
  // right; counted here for tests and monitoring.
  uint64_t stamp_failures() const { return stamp_failures_.load(std::memory_order_relaxed); }
  // Commit log counters (benchmarks): bytes appended, group records written.
  uint64_t log_bytes() const { return log_ ? log_->bytes_written() : 0; }
  uint64_t log_groups() const { return log_ ? log_->records_written() : 0; }
  // Versions removed by garbage collection since Open.
  uint64_t versions_collected() const { return versions_collected_.load(); }
  // Where operators spill rows beyond work_mem (unnamed temporary files: engine/execution/spill.h).
  std::string temp_dir() const { return data_dir_ + "/tmp"; }
  // What Open did to recover (tests, benchmarks, the daemon's start-up log line).
  const RecoveryInfo& recovery() const { return recovery_; }

  // Fuzzy checkpoint: writes every table's dirty pages and fsyncs them, then shortens the
  // commit log to what the pages do not yet hold; finished transactions stamped into the
  // flushed pages are forgotten. Sessions keep running.
  // only_due: collect garbage only in tables whose GarbageDue() holds (an early checkpoint
  // for them; the others wait for the next regular one).
  Status Checkpoint(bool only_due = false);
  // Whether some table's dead versions call for an early checkpoint (Table::GarbageDue).
  bool GarbageDue() const;
  // Checkpoints and closes every heap; later DDL fails. Idempotent.
  Status Close();

 private:
  Catalog(std::string data_dir, storage::BufferPool* pool);
  std::string HeapPath(uint32_t id) const;
  std::string IndexPath(uint32_t id) const;
  std::string SequencePath(uint32_t id) const;
  CatalogState StateLocked() const REQUIRES_SHARED(mu_);
  // Writes catalog.meta for a change made in the maps and bumps schema_version_.
  Status WriteStateLocked() REQUIRES(mu_);
  bool NameTakenLocked(const std::string& key) const REQUIRES_SHARED(mu_);
  // 57P01 after Close, 42P07 when name is taken in nsp.
  Status CheckNewRelationLocked(const std::string& nsp, const std::string& name) const
      REQUIRES_SHARED(mu_);
  static std::string KeyOf(const Table& table);
  bool SchemaExistsLocked(const std::string& nsp) const REQUIRES_SHARED(mu_);
  std::vector<std::string> PathLocked(bool with_temp, uint64_t session = 0) const
      REQUIRES_SHARED(mu_);
  // The key of the relation (any kind) a written name names; "" when an unqualified name is
  // found nowhere on the path. session 0: the current search path's.
  std::string ResolveLocked(const std::string& written, uint64_t session = 0) const
      REQUIRES_SHARED(mu_);
  // Where a CREATE of the written *name goes: *nsp and the bare *name (CreationName).
  // temp_owner: a TEMP relation's session (0: permanent).
  Status PlaceLocked(std::string* nsp, std::string* name, uint64_t temp_owner) const
      REQUIRES_SHARED(mu_);
  // Opens (or, when rebuild or the file is missing, recreates and fills) the index file.
  Result<std::shared_ptr<Index>> OpenIndex(Table* table, const IndexSchema& schema, bool rebuild);
  // Commit log flush hook: writes the pages (table id << 32 | page) and fsyncs their files.
  Status FlushCommitPages(const std::vector<uint64_t>& pages, std::string_view record,
                          const std::function<Status()>& append, bool* durable);
  // Recovery after an unclean stop (docs/txn.md section 5): re-applies the logged end
  // stamps, then rewrites every version's transaction ids to commit timestamps and removes
  // versions no snapshot can see any more (aborted creators, committed deleters).
  Status RecoverVersions(const std::map<uint32_t, std::shared_ptr<Table>>& by_id);
  // Recovery from the log tail only (format 4, every group record with its pages): re-applies
  // the logged end stamps and stamps commit timestamps on exactly the pages the tail names;
  // *insert_pages gets, per table, the pages holding the tail's new versions (their index
  // entries are added after the indexes open).
  Status RecoverTail(const std::map<uint32_t, std::shared_ptr<Table>>& by_id,
                     std::map<uint32_t, std::vector<uint32_t>>* insert_pages);
  // pages (may be null) collects, per table, the pages the stamps touched. A stamp that cannot
  // be written fails recovery.
  Status ApplyLoggedEndStamps(const std::map<uint32_t, std::shared_ptr<Table>>& by_id,
                              std::map<uint32_t, std::vector<uint32_t>>* pages);
  Status FlushTables();
  // Files under tables/ of relations state does not name: TEMP tables of a previous run (never
  // in catalog.meta) and leftovers of a CREATE a crash interrupted.
  Status RemoveOrphanFiles(const CatalogState& state);
  // One table's part of a checkpoint: images of its indexes' dirty pages, its heap flushed,
  // the images journaled and written in place, unsafe markers cleared.
  Status CheckpointTable(Table& table);
  // tables/<id>.btree.unsafe: the index file may not be a checkpoint image (rebuilt after a
  // crash). CreateMarker makes it durable.
  std::string MarkerPath(uint32_t index_id) const;
  Status CreateMarker(uint32_t index_id);
  void RemoveIndexFiles(uint32_t index_id);  // the file and its marker

  const std::string data_dir_;
  storage::BufferPool* const pool_;
  storage::FileSystem* const fs_;

  mutable SharedMutex mu_;
  // Relations are keyed by RelationKey(schema, name).
  std::map<std::string, std::shared_ptr<Table>> tables_ GUARDED_BY(mu_);
  std::map<std::string, NamespaceDef> schemas_ GUARDED_BY(mu_);  // by name
  // Published indexes by name. The name of an index being built is in reserved_ until then.
  std::map<std::string, IndexSchema> indexes_ GUARDED_BY(mu_);
  std::map<std::string, std::shared_ptr<const ViewSchema>> views_ GUARDED_BY(mu_);
  std::map<std::string, std::shared_ptr<Sequence>> sequences_ GUARDED_BY(mu_);
  std::set<std::string> reserved_ GUARDED_BY(mu_);
  uint32_t next_table_id_ GUARDED_BY(mu_) = 1;
  bool closed_ GUARDED_BY(mu_) = false;
  bool opened_ = false;  // Open completed (Close may mark it clean)

  std::shared_ptr<txn::TxnManager> txns_;  // shared with open transactions
  std::unique_ptr<txn::CommitLog> log_;    // after txns_: stopped first
  std::mutex checkpoint_mu_;               // one checkpoint at a time
  std::atomic<uint64_t> versions_collected_{0};
  std::atomic<uint64_t> stamp_failures_{0};
  RecoveryInfo recovery_;  // set by Open
  std::atomic<uint64_t> schema_version_{1};
  std::atomic<int> on_commit_tables_{0};  // TEMP tables with ON COMMIT DELETE ROWS or DROP
};

}  // namespace meridian::catalog
