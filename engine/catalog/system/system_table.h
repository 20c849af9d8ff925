// What every system table file shares (README.md): a system table is a name, columns typed
// with the engine's Type and a function that computes its rows from a Snapshot of the
// catalog. Each group file defines the tables of its group; registry.cc lists them all in
// their fixed order.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "catalog/catalog.h"
#include "catalog/system_tables.h"
#include "meridian/pg_oids.h"

namespace meridian::catalog::system {

inline constexpr const char* kBootstrapUser = "meridian";  // owner of every object
inline constexpr const char* kDatabaseName = "meridian";   // pg_database, table_catalog

// Ids of system tables in TableSchema::id: far above user relation ids, so a statement's
// LockSet never confuses the two.
inline constexpr uint32_t kSystemTableIdBase = 0xF0000000u;
// Ids of a sequence read as a relation (SystemTables::SequenceRelation): its own id above this.
inline constexpr uint32_t kSequenceRelationIdBase = 0xE0000000u;

// An oid column: PostgreSQL's unsigned oid is a bigint here (Meridian has no unsigned type).
inline constexpr Type kOidColumn{TypeId::kBigInt, -1, TypeId::kUnknown};

// What the row builders see: user tables and their indexes, views, sequences, schemas.
struct Snapshot {
  std::vector<std::shared_ptr<Table>> tables;
  std::vector<std::vector<std::shared_ptr<Index>>> indexes;  // per table
  std::vector<std::shared_ptr<const ViewSchema>> views;      // the session's TEMP ones too
  std::vector<std::shared_ptr<const SequenceSchema>> sequences;
  std::vector<NamespaceDef> schemas;        // CREATE SCHEMA ones and the pg_temp_<n> in use
  std::map<std::string, int64_t> nsp_oids;  // every schema's oid by name, public included
  std::vector<std::pair<uint64_t, uint64_t>> lock_waits;  // (waiter, holder) transaction ids
  std::function<std::vector<std::vector<std::string>>()> settings;  // SearchPath::settings
  const Catalog* catalog = nullptr;  // what the snapshot was taken of
};

using RowFn = std::function<std::vector<Row>(const Snapshot&)>;

struct SystemColumn {
  const char* name;
  Type type;
};

struct SystemTable {
  const char* schema;  // "pg_catalog" or "information_schema"
  const char* name;
  int64_t oid;  // PostgreSQL's pg_class oid; 0 for a view (SystemOid gives it one)
  bool view;    // relkind 'v' (pg_tables, information_schema.*) rather than 'r'
  std::vector<SystemColumn> columns;
  RowFn rows;
};

// Every system table, in their fixed order (registry.cc; README invariant 1).
const std::vector<SystemTable>& Registry();
// The system table schema.name (an empty schema: pg_catalog), or nullptr.
const SystemTable* FindSystemTable(std::string_view schema, std::string_view name);
// A system table's oid: PostgreSQL's for the catalogs, kOidSystemViewBase + position for views.
int64_t SystemOid(const SystemTable& st);

// Every relation: user tables and their indexes, views, sequences, then the system tables.
struct RelationInfo {
  int64_t oid;
  std::string name;
  int64_t namespace_oid;
  std::string kind;                    // "r", "i", "v", "S"
  const Table* table = nullptr;        // user table (or the index's table)
  const IndexSchema* index = nullptr;  // user index
  const SystemTable* system = nullptr;
  const ViewSchema* user_view = nullptr;
  const SequenceSchema* sequence = nullptr;
};
std::vector<RelationInfo> Relations(const Snapshot& s);
Snapshot TakeSnapshot(const Catalog& catalog, uint64_t session = 0);
// A schema's oid by name (public's when unknown).
int64_t NspOid(const Snapshot& s, const std::string& nsp);

// Values of a row, by the column's kind.
inline Value O(int64_t v) { return Value::Int(v); }  // an oid
inline Value T(std::string v) { return Value::String(std::move(v)); }
inline Value I(int64_t v) { return Value::Int(v); }
inline Value B(bool v) { return Value::Bool(v); }
inline Value N() { return Value::Null(); }

// The definitions the catalog functions print (definitions.cc).
// Key column i of an index as pg_get_indexdef prints it.
std::string KeyColumnText(const TableSchema& t, const IndexSchema& x, size_t i, bool pretty);
// pg_get_indexdef: the CREATE INDEX statement (pretty: no schema, pretty expressions).
std::string IndexDefinition(const TableSchema& t, const IndexSchema& x, bool pretty = false);
// pg_get_constraintdef of a PRIMARY KEY / UNIQUE constraint, a CHECK, a foreign key.
std::string ConstraintDefinition(const TableSchema& t, const IndexSchema& x);
std::string CheckDefinition(const CheckConstraint& c);
std::string ForeignKeyDefinition(const Catalog& catalog, const TableSchema& t,
                                 const ForeignKey& fk);
// The relation names of a DEFAULT's `'name'::regclass` literals (without their schema).
std::vector<std::string> RegclassLiterals(const std::string& text);
// pg_attrdef's text of a column DEFAULT: regclass literals the search path does not reach
// qualified by their schema.
std::string DefaultDefinition(const Snapshot& s, const std::string& text);
// The positions a CHECK reads (pg_constraint.conkey), in order of first use.
void CheckColumns(const TableSchema& schema, const ast::Expr& e, std::vector<int>* out);
// pg_views.definition, information_schema.views.view_definition, pg_get_viewdef: the query as
// written, relations the current search path does not reach qualified by their schema.
std::string ViewDefinition(const Snapshot& s, const ViewSchema& view);

// The tables, one factory each, defined in their group's file.
// pg_type.cc: the built-in types (builtin_types.h).
SystemTable PgType();
// pg_relations.cc: relations, their columns, indexes, constraints and dependencies.
SystemTable PgClass();
SystemTable PgAttribute();
SystemTable PgIndex();
SystemTable PgAm();
SystemTable PgAttrdef();
SystemTable PgConstraint();
SystemTable PgTrigger();
SystemTable PgInherits();
SystemTable PgDescription();
SystemTable PgRewrite();
SystemTable PgSequence();
SystemTable PgDepend();
// pg_database_objects.cc: namespaces, the database, roles, collations, locks, and the
// catalogs of features Meridian lacks (always empty).
SystemTable PgNamespace();
SystemTable PgDatabase();
SystemTable PgRoles();
SystemTable PgEnum();
SystemTable PgOpclass();
SystemTable PgCollation();
SystemTable PgPolicy();
SystemTable PgStatisticExt();
SystemTable PgPublication();
SystemTable PgPublicationNamespace();
SystemTable PgPublicationRel();
SystemTable PgLocks();
// pg_feature_catalogs.cc: the catalogs of features Meridian lacks (pg_dump reads them).
SystemTable PgExtension();
SystemTable PgLanguage();
SystemTable PgOperator();
SystemTable PgOpfamily();
SystemTable PgAmop();
SystemTable PgAmproc();
SystemTable PgCast();
SystemTable PgConversion();
SystemTable PgTransform();
SystemTable PgRange();
SystemTable PgAggregate();
SystemTable PgProc();
SystemTable PgTsParser();
SystemTable PgTsTemplate();
SystemTable PgTsDict();
SystemTable PgTsConfig();
SystemTable PgForeignDataWrapper();
SystemTable PgForeignServer();
SystemTable PgForeignTable();
SystemTable PgDefaultAcl();
SystemTable PgInitPrivs();
SystemTable PgEventTrigger();
SystemTable PgPartitionedTable();
SystemTable PgSubscription();
SystemTable PgLargeobjectMetadata();
SystemTable PgTablespace();
SystemTable PgSeclabels();
SystemTable PgSettings();
SystemTable PgShseclabel();
SystemTable PgDbRoleSetting();
// pg_views.cc: PostgreSQL's system views over relations.
SystemTable PgTables();
SystemTable PgViews();
SystemTable PgIndexes();
// information_schema.cc.
SystemTable InformationSchemaSequences();
SystemTable InformationSchemaViews();
SystemTable InformationSchemaSchemata();
SystemTable InformationSchemaTables();
SystemTable InformationSchemaColumns();

}  // namespace meridian::catalog::system
