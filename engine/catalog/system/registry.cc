// The registry of system tables in their fixed order, the snapshot their rows are computed
// from, and SystemTables::Build / Exists (a statement naming pg_class gets a Table with its
// rows in memory).
#include "catalog/sequence.h"
#include "catalog/system/system_table.h"

namespace meridian::catalog::system {

// The position of each table is part of its identity (README invariant 1): TableSchema::id is
// kSystemTableIdBase + position and a view's oid kOidSystemViewBase + position, and pg_class,
// pg_attribute, pg_tables and information_schema.tables list them in this order. Append only.
const std::vector<SystemTable>& Registry() {
  static const std::vector<SystemTable> kTables = {
      PgNamespace(),
      PgClass(),
      PgAttribute(),
      PgType(),
      PgIndex(),
      PgAm(),
      PgAttrdef(),
      PgConstraint(),
      PgDatabase(),
      PgRoles(),
      PgEnum(),
      PgOpclass(),
      PgCollation(),
      PgPolicy(),
      PgStatisticExt(),
      PgPublication(),
      PgPublicationNamespace(),
      PgPublicationRel(),
      PgLocks(),
      PgTrigger(),
      PgInherits(),
      PgDescription(),
      PgTables(),
      PgRewrite(),
      PgSequence(),
      PgDepend(),
      InformationSchemaSequences(),
      PgViews(),
      InformationSchemaViews(),
      PgIndexes(),
      InformationSchemaSchemata(),
      InformationSchemaTables(),
      InformationSchemaColumns(),
      PgExtension(),
      PgLanguage(),
      PgOperator(),
      PgOpfamily(),
      PgAmop(),
      PgAmproc(),
      PgCast(),
      PgConversion(),
      PgTransform(),
      PgRange(),
      PgAggregate(),
      PgProc(),
      PgTsParser(),
      PgTsTemplate(),
      PgTsDict(),
      PgTsConfig(),
      PgForeignDataWrapper(),
      PgForeignServer(),
      PgForeignTable(),
      PgDefaultAcl(),
      PgInitPrivs(),
      PgEventTrigger(),
      PgPartitionedTable(),
      PgSubscription(),
      PgLargeobjectMetadata(),
      PgTablespace(),
      PgSeclabels(),
      PgSettings(),
      PgShseclabel(),
      PgDbRoleSetting(),
  };
  return kTables;
}

int64_t SystemOid(const SystemTable& st) {
  return st.oid != 0 ? st.oid : kOidSystemViewBase + (&st - Registry().data());
}

int64_t NspOid(const Snapshot& s, const std::string& nsp) {
  auto it = s.nsp_oids.find(nsp);
  return it == s.nsp_oids.end() ? kOidPublicNamespace : it->second;
}

std::vector<RelationInfo> Relations(const Snapshot& s) {
  std::vector<RelationInfo> out;
  for (size_t t = 0; t < s.tables.size(); ++t) {
    const Table& table = *s.tables[t];
    const int64_t nsp = NspOid(s, table.schema().nsp);
    out.push_back({RelationOidOf(table.id()), table.name(), nsp, "r", &table});
    for (const auto& index : s.indexes[t]) {
      out.push_back({RelationOidOf(index->schema().id), index->schema().name, nsp, "i", &table,
                     &index->schema()});
    }
  }
  for (const auto& view : s.views) {
    RelationInfo r{RelationOidOf(view->id), view->name, NspOid(s, view->nsp), "v"};
    r.user_view = view.get();
    out.push_back(std::move(r));
  }
  for (const auto& seq : s.sequences) {
    RelationInfo r{RelationOidOf(seq->id), seq->name, NspOid(s, seq->nsp), "S"};
    r.sequence = seq.get();
    out.push_back(std::move(r));
  }
  for (const SystemTable& st : Registry()) {
    int64_t ns = std::string_view(st.schema) == "pg_catalog" ? kOidPgCatalogNamespace
                                                             : kOidInformationSchemaNamespace;
    out.push_back({SystemOid(st), st.name, ns, st.view ? "v" : "r", nullptr, nullptr, &st});
  }
  return out;
}

Snapshot TakeSnapshot(const Catalog& catalog, uint64_t session) {
  Snapshot s;
  s.tables = catalog.List();
  // Another session's TEMP tables are not shown (as its TEMP views are not).
  std::erase_if(s.tables, [session](const std::shared_ptr<Table>& t) {
    return t->schema().temp_owner != 0 && t->schema().temp_owner != session;
  });
  for (const auto& t : s.tables) s.indexes.push_back(t->IndexSnapshot());
  s.views = catalog.ListViews(session);
  s.settings = CurrentSearchPath().settings;
  s.catalog = &catalog;
  for (const auto& seq : catalog.ListSequences()) s.sequences.push_back(seq->schema());
  s.schemas = catalog.ListSchemas();
  std::erase_if(s.schemas, [session](const NamespaceDef& n) {
    return Catalog::IsTempSchema(n.name) && n.name != TempSchemaName(session);
  });
  s.nsp_oids["public"] = kOidPublicNamespace;
  for (const NamespaceDef& n : s.schemas) s.nsp_oids[n.name] = catalog.SchemaOid(n.name);
  if (catalog.txns() != nullptr) s.lock_waits = catalog.txns()->LockWaits();
  return s;
}

const SystemTable* FindSystemTable(std::string_view schema, std::string_view name) {
  for (const SystemTable& st : Registry()) {
    if (name != st.name) continue;
    if ((schema.empty() && std::string_view(st.schema) == "pg_catalog") || schema == st.schema) {
      return &st;
    }
  }
  return nullptr;
}

}  // namespace meridian::catalog::system

namespace meridian::catalog {

using system::FindSystemTable;
using system::kSystemTableIdBase;
using system::Registry;
using system::SystemColumn;
using system::SystemTable;
using system::TakeSnapshot;

bool SystemTables::Exists(std::string_view schema, std::string_view name) {
  return FindSystemTable(schema, name) != nullptr;
}

std::shared_ptr<Table> SystemTables::Build(const Catalog& catalog, std::string_view schema,
                                           std::string_view name, uint64_t session) {
  const SystemTable* st = FindSystemTable(schema, name);
  if (st == nullptr) return nullptr;
  auto ts = std::make_shared<TableSchema>();
  ts->id = kSystemTableIdBase + static_cast<uint32_t>(st - Registry().data());
  ts->name = st->name;
  for (const SystemColumn& c : st->columns) {
    Column col;
    col.name = c.name;
    col.type = c.type;
    ts->columns.push_back(std::move(col));
  }
  return std::make_shared<Table>(std::move(ts), st->rows(TakeSnapshot(catalog, session)));
}

std::shared_ptr<Table> SystemTables::SequenceRelation(const Sequence& sequence) {
  auto ts = std::make_shared<TableSchema>();
  std::shared_ptr<const SequenceSchema> schema = sequence.schema();
  // An id of its own range, never a user or system table's; the binder adds it to no LockSet.
  ts->id = system::kSequenceRelationIdBase + schema->id;
  ts->name = schema->name;
  for (auto [name, type] : {std::pair<const char*, Type>{"last_value", Type::BigInt()},
                            {"log_cnt", Type::BigInt()},
                            {"is_called", Type::Boolean()}}) {
    Column col;
    col.name = name;
    col.type = type;
    ts->columns.push_back(std::move(col));
  }
  const auto [last, called] = sequence.State();
  std::vector<Row> rows{{Value::Int(last), Value::Int(0), Value::Bool(called)}};
  return std::make_shared<Table>(std::move(ts), std::move(rows));
}

}  // namespace meridian::catalog
