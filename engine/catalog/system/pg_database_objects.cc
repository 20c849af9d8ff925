// pg_namespace, pg_database, pg_roles, pg_collation, pg_locks, and the catalogs of features
// Meridian does not have (pg_enum, pg_opclass, pg_policy, pg_statistic_ext, pg_publication*),
// always empty, which psql's \d and ORMs' reflection queries join.
#include <tuple>

#include "catalog/system/system_table.h"

namespace meridian::catalog::system {

static std::vector<Row> PgNamespaceRows(const Snapshot& s) {
  std::vector<Row> rows{
      {O(kOidPgCatalogNamespace), T("pg_catalog"), O(kOidBootstrapSuperuser), N()},
      {O(kOidPublicNamespace), T("public"), O(kOidBootstrapSuperuser), N()},
      {O(kOidInformationSchemaNamespace), T("information_schema"), O(kOidBootstrapSuperuser), N()}};
  for (const NamespaceDef& n : s.schemas) {
    rows.push_back({O(NspOid(s, n.name)), T(n.name), O(kOidBootstrapSuperuser), N()});
  }
  return rows;
}

SystemTable PgNamespace() {
  return {"pg_catalog",
          "pg_namespace",
          kOidPgNamespace,
          false,
          {{"oid", kOidColumn},
           {"nspname", Type::Text()},
           {"nspowner", kOidColumn},
           {"nspacl", Type::Text()}},
          PgNamespaceRows};
}

static std::vector<Row> PgDatabaseRows(const Snapshot&) {
  return std::vector<Row>{{O(kOidDatabase), T(kDatabaseName), O(kOidBootstrapSuperuser), I(6),
                           T("c"), B(false), B(true), I(-1), I(0), I(0), O(kOidDefaultTablespace),
                           T("C"), T("C"), N(), N(), N()}};
}

SystemTable PgDatabase() {
  return {"pg_catalog",
          "pg_database",
          kOidPgDatabase,
          false,
          {{"oid", kOidColumn},
           {"datname", Type::Text()},
           {"datdba", kOidColumn},
           {"encoding", Type::Integer()},
           {"datlocprovider", Type::Text()},
           {"datistemplate", Type::Boolean()},
           {"datallowconn", Type::Boolean()},
           {"datconnlimit", Type::Integer()},
           {"datfrozenxid", Type::Integer()},  // xid: 0, no transaction id wraps around here
           {"datminmxid", Type::Integer()},
           {"dattablespace", kOidColumn},
           {"datcollate", Type::Text()},
           {"datctype", Type::Text()},
           {"daticulocale", Type::Text()},
           {"datcollversion", Type::Text()},
           {"datacl", Type::Text()}},
          PgDatabaseRows};
}

static std::vector<Row> PgRolesRows(const Snapshot&) {
  return std::vector<Row>{{O(kOidBootstrapSuperuser), T(kBootstrapUser), B(true), B(true), B(true),
                           B(true), B(true), B(true), I(-1), T("********"), N(), B(true), N()}};
}

SystemTable PgRoles() {
  return {"pg_catalog",
          "pg_roles",
          0,
          true,
          {{"oid", kOidColumn},
           {"rolname", Type::Text()},
           {"rolsuper", Type::Boolean()},
           {"rolinherit", Type::Boolean()},
           {"rolcreaterole", Type::Boolean()},
           {"rolcreatedb", Type::Boolean()},
           {"rolcanlogin", Type::Boolean()},
           {"rolreplication", Type::Boolean()},
           {"rolconnlimit", Type::Integer()},
           {"rolpassword", Type::Text()},
           {"rolvaliduntil", Type::Text()},
           {"rolbypassrls", Type::Boolean()},
           {"rolconfig", Type::Text()}},
          PgRolesRows};
}

// No enum types and no operator classes to name (indclass holds 0): empty, for the
// tools that join them (SQLAlchemy's reflection).
SystemTable PgEnum() {
  return {"pg_catalog",
          "pg_enum",
          kOidPgEnum,
          false,
          {{"oid", kOidColumn},
           {"enumtypid", kOidColumn},
           {"enumsortorder", Type::Double()},
           {"enumlabel", Type::Text()}},
          [](const Snapshot&) { return std::vector<Row>{}; }};
}

SystemTable PgOpclass() {
  return {"pg_catalog",
          "pg_opclass",
          kOidPgOpclass,
          false,
          {{"oid", kOidColumn},
           {"opcmethod", kOidColumn},
           {"opcname", Type::Text()},
           {"opcnamespace", kOidColumn},
           {"opcowner", kOidColumn},
           {"opcfamily", kOidColumn},
           {"opcintype", kOidColumn},
           {"opcdefault", Type::Boolean()},
           {"opckeytype", kOidColumn}},
          [](const Snapshot&) { return std::vector<Row>{}; }};
}

static std::vector<Row> PgCollationRows(const Snapshot&) {
  std::vector<Row> rows;
  for (auto [oid, name, provider] :
       {std::tuple<int64_t, const char*, const char*>{kOidDefaultCollation, "default", "d"},
        {kOidCCollation, "C", "c"},
        {kOidPosixCollation, "POSIX", "c"}}) {
    rows.push_back({O(oid), T(name), O(kOidPgCatalogNamespace), O(kOidBootstrapSuperuser),
                    T(provider), B(true), I(-1), oid == kOidDefaultCollation ? N() : T(name),
                    oid == kOidDefaultCollation ? N() : T(name)});
  }
  return rows;
}

SystemTable PgCollation() {
  return {"pg_catalog",
          "pg_collation",
          kOidPgCollation,
          false,
          {{"oid", kOidColumn},
           {"collname", Type::Text()},
           {"collnamespace", kOidColumn},
           {"collowner", kOidColumn},
           {"collprovider", Type::Text()},
           {"collisdeterministic", Type::Boolean()},
           {"collencoding", Type::Integer()},
           {"collcollate", Type::Text()},
           {"collctype", Type::Text()}},
          PgCollationRows};
}

// Row-level security policies, extended statistics and publications: Meridian has
// none, but psql's \d asks for them (with their array columns).
SystemTable PgPolicy() {
  return {"pg_catalog",
          "pg_policy",
          kOidPgPolicy,
          false,
          {{"oid", kOidColumn},
           {"polname", Type::Text()},
           {"polrelid", kOidColumn},
           {"polcmd", Type::Text()},
           {"polpermissive", Type::Boolean()},
           {"polroles", Type::Array(kOidColumn)},
           {"polqual", Type::Text()},
           {"polwithcheck", Type::Text()}},
          [](const Snapshot&) { return std::vector<Row>{}; }};
}

SystemTable PgStatisticExt() {
  return {"pg_catalog",
          "pg_statistic_ext",
          kOidPgStatisticExt,
          false,
          {{"oid", kOidColumn},
           {"stxrelid", kOidColumn},
           {"stxname", Type::Text()},
           {"stxnamespace", kOidColumn},
           {"stxowner", kOidColumn},
           {"stxstattarget", Type::Integer()},
           {"stxkeys", Type::Int2Vector()},
           {"stxkind", Type::Array(Type::Text())},
           {"stxexprs", Type::Text()}},
          [](const Snapshot&) { return std::vector<Row>{}; }};
}

SystemTable PgPublication() {
  return {"pg_catalog",
          "pg_publication",
          kOidPgPublication,
          false,
          {{"oid", kOidColumn},
           {"pubname", Type::Text()},
           {"pubowner", kOidColumn},
           {"puballtables", Type::Boolean()},
           {"pubinsert", Type::Boolean()},
           {"pubupdate", Type::Boolean()},
           {"pubdelete", Type::Boolean()},
           {"pubtruncate", Type::Boolean()},
           {"pubviaroot", Type::Boolean()}},
          [](const Snapshot&) { return std::vector<Row>{}; }};
}

SystemTable PgPublicationNamespace() {
  return {"pg_catalog",
          "pg_publication_namespace",
          kOidPgPublicationNamespace,
          false,
          {{"oid", kOidColumn}, {"pnpubid", kOidColumn}, {"pnnspid", kOidColumn}},
          [](const Snapshot&) { return std::vector<Row>{}; }};
}

SystemTable PgPublicationRel() {
  return {"pg_catalog",
          "pg_publication_rel",
          kOidPgPublicationRel,
          false,
          {{"oid", kOidColumn},
           {"prpubid", kOidColumn},
           {"prrelid", kOidColumn},
           {"prqual", Type::Text()},
           {"prattrs", Type::Int2Vector()}},
          [](const Snapshot&) { return std::vector<Row>{}; }};
}

// The locks being waited for: one row per transaction blocked on another's row
// (TxnManager::WaitFor), as PostgreSQL shows a wait for a row's writer: a ShareLock on
// the holder's transactionid, not granted. Granted locks are not listed, nor table
// locks; no waitstart column. Tests poll `count(*) ... WHERE NOT granted` to see a
// statement block (tests/sql/README.md, `statement ... async`).
static std::vector<Row> PgLocksRows(const Snapshot& s) {
  std::vector<Row> rows;
  for (const auto& [waiter, holder] : s.lock_waits) {
    const auto id = [](uint64_t txn) { return static_cast<int64_t>(txn & ~txn::kTxnIdBit); };
    rows.push_back({T("transactionid"), N(), N(), N(), N(), N(), O(id(holder)), N(), N(), N(),
                    T(std::to_string(id(waiter))), N(), T("ShareLock"), B(false), B(false)});
  }
  return rows;
}

SystemTable PgLocks() {
  return {"pg_catalog",
          "pg_locks",
          0,
          true,
          {{"locktype", Type::Text()},
           {"database", kOidColumn},
           {"relation", kOidColumn},
           {"page", Type::Integer()},
           {"tuple", Type::Integer()},
           {"virtualxid", Type::Text()},
           {"transactionid", kOidColumn},
           {"classid", kOidColumn},
           {"objid", kOidColumn},
           {"objsubid", Type::Integer()},
           {"virtualtransaction", Type::Text()},
           {"pid", Type::Integer()},
           {"mode", Type::Text()},
           {"granted", Type::Boolean()},
           {"fastpath", Type::Boolean()}},
          PgLocksRows};
}

}  // namespace meridian::catalog::system
