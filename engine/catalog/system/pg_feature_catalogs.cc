// The catalogs of features Meridian does not have: extensions, procedural languages, operators
// and operator families, casts, text search, foreign data, default privileges, event
// triggers, partitioning, subscriptions, large objects, security labels, per-role settings.
// pg_dump reads every one of them (and psql's \d some), so they exist with PostgreSQL 15's
// columns; each is empty except pg_language and pg_tablespace, which hold PostgreSQL's
// built-in rows. Also pg_settings, the session's run-time parameters.
#include <tuple>

#include "catalog/system/system_table.h"

namespace meridian::catalog::system {

namespace {

std::vector<Row> Empty(const Snapshot&) { return {}; }

// internal, c and sql (PostgreSQL's oids); no procedural language is installed.
std::vector<Row> PgLanguageRows(const Snapshot&) {
  std::vector<Row> rows;
  for (auto [oid, name, trusted] : {std::tuple<int64_t, const char*, bool>{12, "internal", false},
                                    {13, "c", false},
                                    {14, "sql", true}}) {
    rows.push_back(
        {O(oid), T(name), O(kOidBootstrapSuperuser), B(false), B(trusted), O(0), O(0), O(0), N()});
  }
  return rows;
}

std::vector<Row> PgTablespaceRows(const Snapshot&) {
  return {{O(kOidDefaultTablespace), T("pg_default"), O(kOidBootstrapSuperuser), N(), N()},
          {O(kOidGlobalTablespace), T("pg_global"), O(kOidBootstrapSuperuser), N(), N()}};
}

}  // namespace

SystemTable PgExtension() {
  return {"pg_catalog",
          "pg_extension",
          kOidPgExtension,
          false,
          {{"oid", kOidColumn},
           {"extname", Type::Text()},
           {"extowner", kOidColumn},
           {"extnamespace", kOidColumn},
           {"extrelocatable", Type::Boolean()},
           {"extversion", Type::Text()},
           {"extconfig", Type::Array(kOidColumn)},
           {"extcondition", Type::Array(Type::Text())}},
          Empty};
}

SystemTable PgLanguage() {
  return {"pg_catalog",
          "pg_language",
          kOidPgLanguage,
          false,
          {{"oid", kOidColumn},
           {"lanname", Type::Text()},
           {"lanowner", kOidColumn},
           {"lanispl", Type::Boolean()},
           {"lanpltrusted", Type::Boolean()},
           {"lanplcallfoid", kOidColumn},
           {"laninline", kOidColumn},
           {"lanvalidator", kOidColumn},
           {"lanacl", Type::Text()}},
          PgLanguageRows};
}

SystemTable PgOperator() {
  return {"pg_catalog",
          "pg_operator",
          kOidPgOperator,
          false,
          {{"oid", kOidColumn},
           {"oprname", Type::Text()},
           {"oprnamespace", kOidColumn},
           {"oprowner", kOidColumn},
           {"oprkind", Type::Text()},
           {"oprcanmerge", Type::Boolean()},
           {"oprcanhash", Type::Boolean()},
           {"oprleft", kOidColumn},
           {"oprright", kOidColumn},
           {"oprresult", kOidColumn},
           {"oprcom", kOidColumn},
           {"oprnegate", kOidColumn},
           {"oprcode", kOidColumn},
           {"oprrest", kOidColumn},
           {"oprjoin", kOidColumn}},
          Empty};
}

SystemTable PgOpfamily() {
  return {"pg_catalog",
          "pg_opfamily",
          kOidPgOpfamily,
          false,
          {{"oid", kOidColumn},
           {"opfmethod", kOidColumn},
           {"opfname", Type::Text()},
           {"opfnamespace", kOidColumn},
           {"opfowner", kOidColumn}},
          Empty};
}

SystemTable PgAmop() {
  return {"pg_catalog",
          "pg_amop",
          kOidPgAmop,
          false,
          {{"oid", kOidColumn},
           {"amopfamily", kOidColumn},
           {"amoplefttype", kOidColumn},
           {"amoprighttype", kOidColumn},
           {"amopstrategy", Type::SmallInt()},
           {"amoppurpose", Type::Text()},
           {"amopopr", kOidColumn},
           {"amopmethod", kOidColumn},
           {"amopsortfamily", kOidColumn}},
          Empty};
}

SystemTable PgAmproc() {
  return {"pg_catalog",
          "pg_amproc",
          kOidPgAmproc,
          false,
          {{"oid", kOidColumn},
           {"amprocfamily", kOidColumn},
           {"amproclefttype", kOidColumn},
           {"amprocrighttype", kOidColumn},
           {"amprocnum", Type::SmallInt()},
           {"amproc", kOidColumn}},
          Empty};
}

SystemTable PgCast() {
  return {"pg_catalog",
          "pg_cast",
          kOidPgCast,
          false,
          {{"oid", kOidColumn},
           {"castsource", kOidColumn},
           {"casttarget", kOidColumn},
           {"castfunc", kOidColumn},
           {"castcontext", Type::Text()},
           {"castmethod", Type::Text()}},
          Empty};
}

SystemTable PgConversion() {
  return {"pg_catalog",
          "pg_conversion",
          kOidPgConversion,
          false,
          {{"oid", kOidColumn},
           {"conname", Type::Text()},
           {"connamespace", kOidColumn},
           {"conowner", kOidColumn},
           {"conforencoding", Type::Integer()},
           {"contoencoding", Type::Integer()},
           {"conproc", kOidColumn},
           {"condefault", Type::Boolean()}},
          Empty};
}

SystemTable PgTransform() {
  return {"pg_catalog",
          "pg_transform",
          kOidPgTransform,
          false,
          {{"oid", kOidColumn},
           {"trftype", kOidColumn},
           {"trflang", kOidColumn},
           {"trffromsql", kOidColumn},
           {"trftosql", kOidColumn}},
          Empty};
}

SystemTable PgRange() {
  return {"pg_catalog",
          "pg_range",
          kOidPgRange,
          false,
          {{"rngtypid", kOidColumn},
           {"rngsubtype", kOidColumn},
           {"rngmultitypid", kOidColumn},
           {"rngcollation", kOidColumn},
           {"rngsubopc", kOidColumn},
           {"rngcanonical", kOidColumn},
           {"rngsubdiff", kOidColumn}},
          Empty};
}

SystemTable PgAggregate() {
  return {"pg_catalog",
          "pg_aggregate",
          kOidPgAggregate,
          false,
          {{"aggfnoid", kOidColumn},
           {"aggkind", Type::Text()},
           {"aggnumdirectargs", Type::SmallInt()},
           {"aggtransfn", kOidColumn},
           {"aggfinalfn", kOidColumn},
           {"aggcombinefn", kOidColumn},
           {"aggserialfn", kOidColumn},
           {"aggdeserialfn", kOidColumn},
           {"aggmtransfn", kOidColumn},
           {"aggminvtransfn", kOidColumn},
           {"aggmfinalfn", kOidColumn},
           {"aggfinalextra", Type::Boolean()},
           {"aggmfinalextra", Type::Boolean()},
           {"aggfinalmodify", Type::Text()},
           {"aggmfinalmodify", Type::Text()},
           {"aggsortop", kOidColumn},
           {"aggtranstype", kOidColumn},
           {"aggtransspace", Type::Integer()},
           {"aggmtranstype", kOidColumn},
           {"aggmtransspace", Type::Integer()},
           {"agginitval", Type::Text()},
           {"aggminitval", Type::Text()}},
          Empty};
}

SystemTable PgProc() {
  return {"pg_catalog",
          "pg_proc",
          kOidPgProc,
          false,
          {{"oid", kOidColumn},
           {"proname", Type::Text()},
           {"pronamespace", kOidColumn},
           {"proowner", kOidColumn},
           {"prolang", kOidColumn},
           {"procost", Type::Real()},
           {"prorows", Type::Real()},
           {"provariadic", kOidColumn},
           {"prosupport", kOidColumn},
           {"prokind", Type::Text()},
           {"prosecdef", Type::Boolean()},
           {"proleakproof", Type::Boolean()},
           {"proisstrict", Type::Boolean()},
           {"proretset", Type::Boolean()},
           {"provolatile", Type::Text()},
           {"proparallel", Type::Text()},
           {"pronargs", Type::SmallInt()},
           {"pronargdefaults", Type::SmallInt()},
           {"prorettype", kOidColumn},
           {"proargtypes", Type::OidVector()},
           {"proallargtypes", Type::Array(kOidColumn)},
           {"proargmodes", Type::Array(Type::Text())},
           {"proargnames", Type::Array(Type::Text())},
           {"proargdefaults", Type::Text()},
           {"protrftypes", Type::Array(kOidColumn)},
           {"prosrc", Type::Text()},
           {"probin", Type::Text()},
           {"prosqlbody", Type::Text()},
           {"proconfig", Type::Array(Type::Text())},
           {"proacl", Type::Text()}},
          Empty};
}

SystemTable PgTsParser() {
  return {"pg_catalog",
          "pg_ts_parser",
          kOidPgTsParser,
          false,
          {{"oid", kOidColumn},
           {"prsname", Type::Text()},
           {"prsnamespace", kOidColumn},
           {"prsstart", kOidColumn},
           {"prstoken", kOidColumn},
           {"prsend", kOidColumn},
           {"prsheadline", kOidColumn},
           {"prslextype", kOidColumn}},
          Empty};
}

SystemTable PgTsTemplate() {
  return {"pg_catalog",
          "pg_ts_template",
          kOidPgTsTemplate,
          false,
          {{"oid", kOidColumn},
           {"tmplname", Type::Text()},
           {"tmplnamespace", kOidColumn},
           {"tmplinit", kOidColumn},
           {"tmpllexize", kOidColumn}},
          Empty};
}

SystemTable PgTsDict() {
  return {"pg_catalog",
          "pg_ts_dict",
          kOidPgTsDict,
          false,
          {{"oid", kOidColumn},
           {"dictname", Type::Text()},
           {"dictnamespace", kOidColumn},
           {"dictowner", kOidColumn},
           {"dicttemplate", kOidColumn},
           {"dictinitoption", Type::Text()}},
          Empty};
}

SystemTable PgTsConfig() {
  return {"pg_catalog",
          "pg_ts_config",
          kOidPgTsConfig,
          false,
          {{"oid", kOidColumn},
           {"cfgname", Type::Text()},
           {"cfgnamespace", kOidColumn},
           {"cfgowner", kOidColumn},
           {"cfgparser", kOidColumn}},
          Empty};
}

SystemTable PgForeignDataWrapper() {
  return {"pg_catalog",
          "pg_foreign_data_wrapper",
          kOidPgForeignDataWrapper,
          false,
          {{"oid", kOidColumn},
           {"fdwname", Type::Text()},
           {"fdwowner", kOidColumn},
           {"fdwhandler", kOidColumn},
           {"fdwvalidator", kOidColumn},
           {"fdwacl", Type::Text()},
           {"fdwoptions", Type::Array(Type::Text())}},
          Empty};
}

SystemTable PgForeignServer() {
  return {"pg_catalog",
          "pg_foreign_server",
          kOidPgForeignServer,
          false,
          {{"oid", kOidColumn},
           {"srvname", Type::Text()},
           {"srvowner", kOidColumn},
           {"srvfdw", kOidColumn},
           {"srvtype", Type::Text()},
           {"srvversion", Type::Text()},
           {"srvacl", Type::Text()},
           {"srvoptions", Type::Array(Type::Text())}},
          Empty};
}

SystemTable PgForeignTable() {
  return {
      "pg_catalog",
      "pg_foreign_table",
      kOidPgForeignTable,
      false,
      {{"ftrelid", kOidColumn}, {"ftserver", kOidColumn}, {"ftoptions", Type::Array(Type::Text())}},
      Empty};
}

SystemTable PgDefaultAcl() {
  return {"pg_catalog",
          "pg_default_acl",
          kOidPgDefaultAcl,
          false,
          {{"oid", kOidColumn},
           {"defaclrole", kOidColumn},
           {"defaclnamespace", kOidColumn},
           {"defaclobjtype", Type::Text()},
           {"defaclacl", Type::Text()}},
          Empty};
}

SystemTable PgInitPrivs() {
  return {"pg_catalog",
          "pg_init_privs",
          kOidPgInitPrivs,
          false,
          {{"objoid", kOidColumn},
           {"classoid", kOidColumn},
           {"objsubid", Type::Integer()},
           {"privtype", Type::Text()},
           {"initprivs", Type::Text()}},
          Empty};
}

SystemTable PgEventTrigger() {
  return {"pg_catalog",
          "pg_event_trigger",
          kOidPgEventTrigger,
          false,
          {{"oid", kOidColumn},
           {"evtname", Type::Text()},
           {"evtevent", Type::Text()},
           {"evtowner", kOidColumn},
           {"evtfoid", kOidColumn},
           {"evtenabled", Type::Text()},
           {"evttags", Type::Array(Type::Text())}},
          Empty};
}

SystemTable PgPartitionedTable() {
  return {"pg_catalog",
          "pg_partitioned_table",
          kOidPgPartitionedTable,
          false,
          {{"partrelid", kOidColumn},
           {"partstrat", Type::Text()},
           {"partnatts", Type::SmallInt()},
           {"partdefid", kOidColumn},
           {"partattrs", Type::Int2Vector()},
           {"partclass", Type::OidVector()},
           {"partcollation", Type::OidVector()},
           {"partexprs", Type::Text()}},
          Empty};
}

SystemTable PgSubscription() {
  return {"pg_catalog",
          "pg_subscription",
          kOidPgSubscription,
          false,
          {{"oid", kOidColumn},
           {"subdbid", kOidColumn},
           {"subskiplsn", Type::Text()},
           {"subname", Type::Text()},
           {"subowner", kOidColumn},
           {"subenabled", Type::Boolean()},
           {"subbinary", Type::Boolean()},
           {"substream", Type::Boolean()},
           {"subtwophasestate", Type::Text()},
           {"subdisableonerr", Type::Boolean()},
           {"subconninfo", Type::Text()},
           {"subslotname", Type::Text()},
           {"subsynccommit", Type::Text()},
           {"subpublications", Type::Array(Type::Text())}},
          Empty};
}

SystemTable PgLargeobjectMetadata() {
  return {"pg_catalog",
          "pg_largeobject_metadata",
          kOidPgLargeobjectMetadata,
          false,
          {{"oid", kOidColumn}, {"lomowner", kOidColumn}, {"lomacl", Type::Text()}},
          Empty};
}

SystemTable PgTablespace() {
  return {"pg_catalog",
          "pg_tablespace",
          kOidPgTablespace,
          false,
          {{"oid", kOidColumn},
           {"spcname", Type::Text()},
           {"spcowner", kOidColumn},
           {"spcacl", Type::Text()},
           {"spcoptions", Type::Array(Type::Text())}},
          PgTablespaceRows};
}

SystemTable PgSeclabels() {
  return {"pg_catalog",
          "pg_seclabels",
          0,
          true,
          {{"objoid", kOidColumn},
           {"classoid", kOidColumn},
           {"objsubid", Type::Integer()},
           {"objtype", Type::Text()},
           {"objnamespace", kOidColumn},
           {"objname", Type::Text()},
           {"provider", Type::Text()},
           {"label", Type::Text()}},
          Empty};
}
// Security labels of shared objects and per-database/role settings (pg_dump -Fc reads both
// for the database itself).
SystemTable PgShseclabel() {
  return {"pg_catalog",
          "pg_shseclabel",
          kOidPgShseclabel,
          false,
          {{"objoid", kOidColumn},
           {"classoid", kOidColumn},
           {"provider", Type::Text()},
           {"label", Type::Text()}},
          Empty};
}

SystemTable PgDbRoleSetting() {
  return {"pg_catalog",
          "pg_db_role_setting",
          kOidPgDbRoleSetting,
          false,
          {{"setdatabase", kOidColumn},
           {"setrole", kOidColumn},
           {"setconfig", Type::Array(Type::Text())}},
          Empty};
}

// The session's run-time parameters (SHOW ALL's list) with PostgreSQL's columns: no units,
// bounds or enum values; source "default", reset_val the setting now.
static std::vector<Row> PgSettingsRows(const Snapshot& s) {
  std::vector<Row> rows;
  if (!s.settings) return rows;  // no session
  for (const std::vector<std::string>& p : s.settings()) {
    rows.push_back({T(p[0]), T(p[1]), N(), T("Meridian"), T(p[2]), N(), T(p[4]), T(p[3]),
                    T("default"), N(), N(), N(), N(), T(p[1]), N(), N(), B(false)});
  }
  return rows;
}

SystemTable PgSettings() {
  return {"pg_catalog",
          "pg_settings",
          0,
          true,
          {{"name", Type::Text()},
           {"setting", Type::Text()},
           {"unit", Type::Text()},
           {"category", Type::Text()},
           {"short_desc", Type::Text()},
           {"extra_desc", Type::Text()},
           {"context", Type::Text()},
           {"vartype", Type::Text()},
           {"source", Type::Text()},
           {"min_val", Type::Text()},
           {"max_val", Type::Text()},
           {"enumvals", Type::Array(Type::Text())},
           {"boot_val", Type::Text()},
           {"reset_val", Type::Text()},
           {"sourcefile", Type::Text()},
           {"sourceline", Type::Integer()},
           {"pending_restart", Type::Boolean()}},
          PgSettingsRows};
}

}  // namespace meridian::catalog::system
