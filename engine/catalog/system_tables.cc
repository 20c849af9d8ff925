// The pg_catalog and information_schema tables and the object-id mappings; see
// system_tables.h. Each table is a column list and a function that computes its rows from a
// snapshot of the catalog (tables by name, each table's index list).
#include "catalog/system_tables.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <map>
#include <tuple>

#include "catalog/catalog.h"
#include "meridian/numeric.h"

namespace meridian::catalog {

namespace {

// Ids of system tables in TableSchema::id: far above user relation ids, so a statement's
// LockSet never confuses the two.
constexpr uint32_t kSystemTableIdBase = 0xF0000000u;

struct BuiltinType {
  int64_t oid;
  const char* name;     // typname
  const char* display;  // format_type
  int len;
  const char* category;
  int64_t array_oid;
};

constexpr BuiltinType kTypes[] = {
    {16, "bool", "boolean", 1, "B", 1000},
    {17, "bytea", "bytea", -1, "U", 1001},
    {18, "char", "\"char\"", 1, "Z", 1002},
    {19, "name", "name", 64, "S", 1003},
    {20, "int8", "bigint", 8, "N", 1016},
    {21, "int2", "smallint", 2, "N", 1005},
    {22, "int2vector", "int2vector", -1, "A", 1006},
    {23, "int4", "integer", 4, "N", 1007},
    {24, "regproc", "regproc", 4, "N", 1008},
    {25, "text", "text", -1, "S", 1009},
    {26, "oid", "oid", 4, "N", 1028},
    {30, "oidvector", "oidvector", -1, "A", 1013},
    {114, "json", "json", -1, "U", 199},
    {700, "float4", "real", 4, "N", 1021},
    {701, "float8", "double precision", 8, "N", 1022},
    {600, "point", "point", 16, "G", 1017},
    {603, "box", "box", 32, "G", 1020},
    {705, "unknown", "unknown", -2, "X", 0},
    {1042, "bpchar", "character", -1, "S", 1014},
    {1043, "varchar", "character varying", -1, "S", 1015},
    {1082, "date", "date", 4, "D", 1182},
    {1083, "time", "time without time zone", 8, "D", 1183},
    {1114, "timestamp", "timestamp without time zone", 8, "D", 1115},
    {1184, "timestamptz", "timestamp with time zone", 8, "D", 1185},
    {1186, "interval", "interval", 16, "T", 1187},
    {1700, "numeric", "numeric", -1, "N", 1231},
    {2205, "regclass", "regclass", 4, "N", 2210},
    {2206, "regtype", "regtype", 4, "N", 2211},
    {2950, "uuid", "uuid", 16, "U", 2951},
    {3802, "jsonb", "jsonb", -1, "U", 3807},
    {4089, "regnamespace", "regnamespace", 4, "N", 4090},
};

const BuiltinType* FindType(int64_t oid) {
  for (const BuiltinType& t : kTypes) {
    if (t.oid == oid) return &t;
  }
  return nullptr;
}

// A column of a system table: name and a one-letter type (o oid, t text, i integer,
// b boolean, d double precision; arrays: O oid[], T text[] (also "char"[]), S smallint[],
// V int2vector, W oidvector). Oids are bigint here (Meridian has no unsigned type).
struct Col {
  const char* name;
  char type;
};

Type ColType(char k) {
  switch (k) {
    case 't':
      return Type::Text();
    case 'b':
      return Type::Boolean();
    case 'd':
      return Type::Double();
    case 'i':
      return Type::Integer();
    case 'O':
      return Type::Array(Type::BigInt());
    case 'T':
      return Type::Array(Type::Text());
    case 'S':
      return Type::Array(Type::SmallInt());
    case 'V':
      return Type::Int2Vector();
    case 'W':
      return Type::OidVector();
    default:
      return Type::BigInt();
  }
}

Value O(int64_t v) { return Value::Int(v); }
Value T(std::string v) { return Value::String(std::move(v)); }
Value I(int64_t v) { return Value::Int(v); }
Value B(bool v) { return Value::Bool(v); }
Value N() { return Value::Null(); }

// What the row builders see: user tables (by name) and their indexes.
struct Snapshot {
  std::vector<std::shared_ptr<Table>> tables;
  std::vector<std::vector<std::shared_ptr<Index>>> indexes;  // per table
  std::vector<std::shared_ptr<const ViewSchema>> views;      // the session's TEMP ones too
  std::vector<std::shared_ptr<const SequenceSchema>> sequences;
  std::vector<NamespaceDef> schemas;        // CREATE SCHEMA ones and the pg_temp_<n> in use
  std::map<std::string, int64_t> nsp_oids;  // every schema's oid by name, public included
  std::vector<std::pair<uint64_t, uint64_t>> lock_waits;  // (waiter, holder) transaction ids
};

int64_t NspOid(const Snapshot& s, const std::string& nsp) {
  auto it = s.nsp_oids.find(nsp);
  return it == s.nsp_oids.end() ? kPublicNamespaceOid : it->second;
}

// pg_am.oid of Meridian's R*-tree (PostgreSQL's own rtree access method had 402 until 8.2;
// USING gist builds the same index, gist's row 783 is listed for tools that look for it).
constexpr int64_t kRtreeAmOid = 402;

int64_t RelOid(uint32_t relation_id) { return kFirstUserOid + relation_id; }
// pg_rewrite oids of views' _RETURN rules: above every relation oid.
constexpr int64_t kRuleOidOffset = int64_t{1} << 32;

int TypLen(Type t) {
  const BuiltinType* b = FindType(t.PgOid());
  return b != nullptr ? b->len : -1;
}

// Key column i of an index as pg_get_indexdef prints it: a quoted column name or the
// expression (parenthesized unless it reads as a function call).
std::string KeyColumnText(const TableSchema& t, const IndexSchema& x, size_t i, bool pretty) {
  if (x.columns[i] != kExpressionKey) return QuoteIdent(t.columns[x.columns[i]].name);
  if (x.compiled != nullptr) return x.compiled->Display(i, pretty);
  return "(" + (i < x.expressions.size() ? x.expressions[i] : std::string()) + ")";
}

std::string ColumnList(const TableSchema& t, const IndexSchema& x, bool with_order,
                       bool pretty = false) {
  std::string out;
  for (size_t i = 0; i < x.columns.size(); ++i) {
    if (i > 0) out += ", ";
    out += KeyColumnText(t, x, i, pretty);
    if (with_order && i < x.descending.size() && x.descending[i]) out += " DESC";
  }
  return out;
}

// pretty: pg_get_indexdef(oid, 0, true), which leaves out the schema and prints expressions
// with PostgreSQL's pretty layout.
std::string IndexDefinition(const TableSchema& t, const IndexSchema& x, bool pretty = false) {
  std::string def = std::string("CREATE ") + (x.unique ? "UNIQUE " : "") + "INDEX " +
                    QuoteIdent(x.name) + " ON " + (pretty ? "" : "public.") + QuoteIdent(t.name) +
                    " USING " + (x.IsRtree() ? "rtree" : "btree") + " (" +
                    ColumnList(t, x, true, pretty) + ")";
  if (x.IsPartial()) {
    def += " WHERE " +
           (x.compiled != nullptr ? x.compiled->PredicateDisplay(pretty) : "(" + x.predicate + ")");
  }
  return def;
}

std::string ConstraintDefinition(const TableSchema& t, const IndexSchema& x) {
  return std::string(x.kind == IndexKind::kPrimaryKey ? "PRIMARY KEY" : "UNIQUE") + " (" +
         ColumnList(t, x, false) + ")";
}

// The oid of a table's i-th CHECK constraint (next to pg_attrdef's RelOid * 1000 + column).
int64_t CheckOid(uint32_t table_id, size_t i) {
  return RelOid(table_id) * 1000 + 999 - static_cast<int64_t>(i);
}

// The positions a CHECK reads (pg_constraint.conkey), in order of first use.
void CheckColumns(const TableSchema& schema, const ast::Expr& e, std::vector<int>* out) {
  if (e.kind == ast::ExprKind::kColumnRef) {
    const int c = schema.FindColumn(e.name);
    if (c >= 0 && std::find(out->begin(), out->end(), c) == out->end()) out->push_back(c);
  }
  for (const ast::ExprPtr& child : e.children) {
    if (child != nullptr) CheckColumns(schema, *child, out);
  }
}

// A pg_constraint row: contype 'p', 'u' or 'c', its table, its index (0 for none), conkey
// (0-based positions) and conbin.
Row ConstraintRow(int64_t oid, const std::string& name, const char* type, int64_t rel,
                  int64_t index, const std::vector<int>& key, Value bin) {
  std::string conkey = "{";
  for (size_t k = 0; k < key.size(); ++k) conkey += (k ? "," : "") + std::to_string(key[k] + 1);
  conkey += "}";
  const bool check = std::string(type) == "c";
  return {O(oid),    T(name),  O(kPublicNamespaceOid),
          T(type),   B(false), B(false),
          B(true),   O(rel),   O(0),
          O(index),  O(0),     O(0),
          T(" "),    T(" "),   T(" "),
          B(true),   I(0),     B(!check),
          T(conkey), N(),      std::move(bin)};
}

// The oid of a table's i-th foreign key (below its CHECKs' CheckOid range).
int64_t ForeignKeyOid(uint32_t table_id, size_t i) {
  return RelOid(table_id) * 1000 + 899 - static_cast<int64_t>(i);
}

// pg_get_constraintdef of a foreign key, as PostgreSQL prints it: FOREIGN KEY (a, b)
// REFERENCES p(x, y) [MATCH FULL] [ON UPDATE action] [ON DELETE action].
std::string ForeignKeyDefinition(const Catalog& catalog, const TableSchema& t,
                                 const ForeignKey& fk) {
  std::shared_ptr<Table> parent = catalog.FindById(fk.ref_table);
  const TableSchema& ps = parent != nullptr ? parent->schema() : t;
  auto list = [](const TableSchema& schema, const std::vector<int>& cols) {
    std::string out;
    for (int c : cols) out += (out.empty() ? "" : ", ") + QuoteIdent(schema.columns[c].name);
    return out;
  };
  auto action = [](char a) -> std::string {
    switch (a) {
      case 'r':
        return "RESTRICT";
      case 'c':
        return "CASCADE";
      case 'n':
        return "SET NULL";
      case 'd':
        return "SET DEFAULT";
      default:
        return "";
    }
  };
  std::string out = "FOREIGN KEY (" + list(t, fk.columns) + ") REFERENCES " + QuoteIdent(ps.name) +
                    "(" + list(ps, fk.ref_columns) + ")";
  if (fk.match == 'f') out += " MATCH FULL";
  if (!action(fk.on_update).empty()) out += " ON UPDATE " + action(fk.on_update);
  if (!action(fk.on_delete).empty()) out += " ON DELETE " + action(fk.on_delete);
  return out;
}

// pg_views.definition / information_schema.views.view_definition: the query as written
// (PostgreSQL prints its own normalised form, pg_get_viewdef), with a space before it and a
// semicolon after, as PostgreSQL's has.
std::string ViewDefinition(const ViewSchema& view) { return " " + view.query_text + ";"; }

// pg_get_constraintdef of a CHECK: the stored text in PostgreSQL's extra parentheses.
std::string CheckDefinition(const CheckConstraint& c) { return "CHECK ((" + c.text + "))"; }

struct SystemTable;
using RowFn = std::function<std::vector<Row>(const Snapshot&)>;

struct SystemTable {
  const char* schema;  // "pg_catalog" or "information_schema"
  const char* name;
  int64_t oid;
  bool view;  // relkind 'v' (pg_tables, information_schema.*) rather than 'r'
  std::vector<Col> columns;
  RowFn rows;
};

const std::vector<SystemTable>& Registry();

// A system table's oid: PostgreSQL's for the catalogs, a fixed one below 16384 for views.
int64_t SystemOid(const SystemTable& st) {
  return st.oid != 0 ? st.oid : kFirstUserOid - 1000 + (&st - Registry().data());
}

// Every relation: user tables and their indexes, then the system tables.
struct RelationInfo {
  int64_t oid;
  std::string name;
  int64_t namespace_oid;
  std::string kind;                    // "r", "i", "v"
  const Table* table = nullptr;        // user table (or the index's table)
  const IndexSchema* index = nullptr;  // user index
  const SystemTable* system = nullptr;
  const ViewSchema* user_view = nullptr;
  const SequenceSchema* sequence = nullptr;
};

std::vector<RelationInfo> Relations(const Snapshot& s) {
  std::vector<RelationInfo> out;
  for (size_t t = 0; t < s.tables.size(); ++t) {
    const Table& table = *s.tables[t];
    const int64_t nsp = NspOid(s, table.schema().nsp);
    out.push_back({RelOid(table.id()), table.name(), nsp, "r", &table});
    for (const auto& index : s.indexes[t]) {
      out.push_back(
          {RelOid(index->schema().id), index->schema().name, nsp, "i", &table, &index->schema()});
    }
  }
  for (const auto& view : s.views) {
    RelationInfo r{RelOid(view->id), view->name, NspOid(s, view->nsp), "v"};
    r.user_view = view.get();
    out.push_back(std::move(r));
  }
  for (const auto& seq : s.sequences) {
    RelationInfo r{RelOid(seq->id), seq->name, NspOid(s, seq->nsp), "S"};
    r.sequence = seq.get();
    out.push_back(std::move(r));
  }
  for (const SystemTable& st : Registry()) {
    int64_t ns = std::string_view(st.schema) == "pg_catalog" ? kPgCatalogNamespaceOid
                                                             : kInformationSchemaNamespaceOid;
    out.push_back({SystemOid(st), st.name, ns, st.view ? "v" : "r", nullptr, nullptr, &st});
  }
  return out;
}

// The schema of a user relation.
std::string RelNsp(const RelationInfo& r) {
  if (r.table != nullptr) return r.table->schema().nsp;
  if (r.user_view != nullptr) return r.user_view->nsp;
  if (r.sequence != nullptr) return r.sequence->nsp;
  return kPublicSchema;
}

std::string NamespaceNameOf(int64_t oid) {
  if (oid == kPgCatalogNamespaceOid) return "pg_catalog";
  if (oid == kInformationSchemaNamespaceOid) return "information_schema";
  return "public";
}

std::string SqlTypeName(Type t) {
  return t.id == TypeId::kVarchar ? "character varying" : t.Name();
}

const std::vector<SystemTable>& Registry() {
  static const std::vector<SystemTable> kTables = {
      {"pg_catalog",
       "pg_namespace",
       2615,
       false,
       {{"oid", 'o'}, {"nspname", 't'}, {"nspowner", 'o'}, {"nspacl", 't'}},
       [](const Snapshot& s) {
         std::vector<Row> rows{
             {O(kPgCatalogNamespaceOid), T("pg_catalog"), O(kBootstrapUserOid), N()},
             {O(kPublicNamespaceOid), T("public"), O(kBootstrapUserOid), N()},
             {O(kInformationSchemaNamespaceOid), T("information_schema"), O(kBootstrapUserOid),
              N()}};
         for (const NamespaceDef& n : s.schemas) {
           rows.push_back({O(NspOid(s, n.name)), T(n.name), O(kBootstrapUserOid), N()});
         }
         return rows;
       }},
      {"pg_catalog",
       "pg_class",
       1259,
       false,
       {{"oid", 'o'},
        {"relname", 't'},
        {"relnamespace", 'o'},
        {"reltype", 'o'},
        {"reloftype", 'o'},
        {"relowner", 'o'},
        {"relam", 'o'},
        {"relfilenode", 'o'},
        {"reltablespace", 'o'},
        {"relpages", 'i'},
        {"reltuples", 'd'},
        {"relallvisible", 'i'},
        {"reltoastrelid", 'o'},
        {"relhasindex", 'b'},
        {"relisshared", 'b'},
        {"relpersistence", 't'},
        {"relkind", 't'},
        {"relnatts", 'i'},
        {"relchecks", 'i'},
        {"relhasrules", 'b'},
        {"relhastriggers", 'b'},
        {"relhassubclass", 'b'},
        {"relrowsecurity", 'b'},
        {"relforcerowsecurity", 'b'},
        {"relispopulated", 'b'},
        {"relreplident", 't'},
        {"relispartition", 'b'},
        {"relrewrite", 'o'},
        {"relacl", 't'},
        {"reloptions", 'T'},
        {"relpartbound", 't'}},
       [](const Snapshot& s) {
         std::vector<Row> rows;
         for (const RelationInfo& r : Relations(s)) {
           int64_t am = r.kind == "i"
                            ? (r.index != nullptr && r.index->IsRtree() ? kRtreeAmOid : 403)
                        : r.kind == "r" ? 2
                                        : 0;
           int64_t natts = 0, checks = 0;
           double tuples = -1;
           bool has_index = false;
           if (r.index != nullptr) {
             natts = static_cast<int64_t>(r.index->columns.size());
           } else if (r.table != nullptr) {
             natts = static_cast<int64_t>(r.table->schema().columns.size());
             checks = static_cast<int64_t>(r.table->schema().checks.size());
             tuples = static_cast<double>(r.table->live_rows());
             for (size_t t = 0; t < s.tables.size(); ++t) {
               if (s.tables[t].get() == r.table) has_index = !s.indexes[t].empty();
             }
           } else if (r.user_view != nullptr) {
             natts = static_cast<int64_t>(r.user_view->columns.size());
           } else if (r.sequence != nullptr) {
             natts = 3;  // last_value, log_cnt, is_called
           } else {
             natts = static_cast<int64_t>(r.system->columns.size());
           }
           const bool temp = (r.user_view != nullptr && r.user_view->temp_owner != 0) ||
                             (r.table != nullptr && r.table->schema().temp_owner != 0) ||
                             (r.sequence != nullptr && Catalog::IsTempSchema(r.sequence->nsp));
           // PostgreSQL implements foreign keys with triggers on both tables, and psql lists
           // "Foreign-key constraints:" / "Referenced by:" only when relhastriggers is set.
           bool triggers = false;
           if (r.index == nullptr && r.table != nullptr) {
             triggers = !r.table->schema().foreign_keys.empty();
             for (const auto& t : s.tables) {
               for (const ForeignKey& fk : t->schema().foreign_keys) {
                 triggers = triggers || fk.ref_table == r.table->id();
               }
             }
           }
           rows.push_back({O(r.oid),
                           T(r.name),
                           O(r.namespace_oid),
                           O(0),
                           O(0),
                           O(kBootstrapUserOid),
                           O(am),
                           O(r.system || r.user_view ? 0 : r.oid),
                           O(0),
                           I(0),
                           Value::Double(tuples),
                           I(0),
                           O(0),
                           B(has_index),
                           B(false),
                           T(temp ? "t" : "p"),
                           T(r.kind),
                           I(natts),
                           I(checks),
                           B(r.user_view != nullptr),
                           B(triggers),
                           B(false),
                           B(false),
                           B(false),
                           B(true),
                           T(r.kind == "v" ? "n" : "d"),
                           B(false),
                           O(0),
                           N(),
                           N(),
                           N()});
         }
         return rows;
       }},
      {"pg_catalog",
       "pg_attribute",
       1249,
       false,
       {{"attrelid", 'o'},       {"attname", 't'},     {"atttypid", 'o'},
        {"attstattarget", 'i'},  {"attlen", 'i'},      {"attnum", 'i'},
        {"attndims", 'i'},       {"attcacheoff", 'i'}, {"atttypmod", 'i'},
        {"attbyval", 'b'},       {"attalign", 't'},    {"attstorage", 't'},
        {"attcompression", 't'}, {"attnotnull", 'b'},  {"atthasdef", 'b'},
        {"atthasmissing", 'b'},  {"attidentity", 't'}, {"attgenerated", 't'},
        {"attisdropped", 'b'},   {"attislocal", 'b'},  {"attinhcount", 'i'},
        {"attcollation", 'o'},   {"attacl", 't'},      {"attoptions", 't'}},
       [](const Snapshot& s) {
         std::vector<Row> rows;
         auto add = [&](int64_t rel, int64_t num, const std::string& name, Type type, bool not_null,
                        bool has_default, bool dropped = false, bool has_missing = false) {
           const bool by_val = TypLen(type) > 0;
           rows.push_back({O(rel),
                           T(name),
                           O(dropped ? 0 : type.PgOid()),
                           I(-1),
                           I(TypLen(type)),
                           I(num),
                           I(0),
                           I(-1),
                           I(type.PgTypmod()),
                           B(by_val),
                           T(by_val ? "i" : "i"),
                           T(by_val                        ? "p"
                             : type.id == TypeId::kNumeric ? "m"
                                                           : "x"),
                           T(""),
                           B(not_null),
                           B(has_default),
                           B(has_missing),
                           T(""),
                           T(""),
                           B(dropped),
                           B(true),
                           I(0),
                           O(type.IsString() ? 100 : 0),
                           N(),
                           N()});
         };
         for (size_t t = 0; t < s.tables.size(); ++t) {
           const TableSchema& schema = s.tables[t]->schema();
           for (size_t c = 0; c < schema.columns.size(); ++c) {
             const Column& col = schema.columns[c];
             add(RelOid(schema.id), static_cast<int64_t>(c + 1), col.name, col.type, col.not_null,
                 !col.default_text.empty(), col.dropped, !col.missing.IsNull());
           }
           for (const auto& index : s.indexes[t]) {
             const IndexSchema& x = index->schema();
             for (size_t k = 0; k < x.columns.size(); ++k) {
               if (x.columns[k] == kExpressionKey) {
                 if (x.compiled == nullptr) continue;
                 add(RelOid(x.id), static_cast<int64_t>(k + 1), x.compiled->KeyName(k),
                     x.compiled->KeyType(k), false, false);
                 continue;
               }
               const Column& col = schema.columns[x.columns[k]];
               add(RelOid(x.id), static_cast<int64_t>(k + 1), col.name, col.type, false, false);
             }
           }
         }
         for (const auto& view : s.views) {
           for (size_t c = 0; c < view->columns.size(); ++c) {
             add(RelOid(view->id), static_cast<int64_t>(c + 1), view->columns[c].name,
                 view->columns[c].type, false, false);
           }
         }
         for (const SystemTable& st : Registry()) {
           for (size_t c = 0; c < st.columns.size(); ++c) {
             const Type type = ColType(st.columns[c].type);
             add(SystemOid(st), static_cast<int64_t>(c + 1), st.columns[c].name, type, false,
                 false);
           }
         }
         return rows;
       }},
      {"pg_catalog",
       "pg_type",
       1247,
       false,
       {{"oid", 'o'},          {"typname", 't'},      {"typnamespace", 'o'},
        {"typowner", 'o'},     {"typlen", 'i'},       {"typbyval", 'b'},
        {"typtype", 't'},      {"typcategory", 't'},  {"typispreferred", 'b'},
        {"typisdefined", 'b'}, {"typdelim", 't'},     {"typrelid", 'o'},
        {"typsubscript", 't'}, {"typelem", 'o'},      {"typarray", 'o'},
        {"typinput", 't'},     {"typoutput", 't'},    {"typreceive", 't'},
        {"typsend", 't'},      {"typmodin", 't'},     {"typmodout", 't'},
        {"typanalyze", 't'},   {"typalign", 't'},     {"typstorage", 't'},
        {"typnotnull", 'b'},   {"typbasetype", 'o'},  {"typtypmod", 'i'},
        {"typndims", 'i'},     {"typcollation", 'o'}, {"typdefault", 't'}},
       [](const Snapshot&) {
         std::vector<Row> rows;
         for (const BuiltinType& t : kTypes) {
           const std::string n = t.name;
           const bool by_val = t.len > 0 && t.len <= 8 && n != "name";
           const bool collatable = n == "text" || n == "varchar" || n == "bpchar" || n == "name";
           rows.push_back({O(t.oid),
                           T(n),
                           O(kPgCatalogNamespaceOid),
                           O(kBootstrapUserOid),
                           I(t.len),
                           B(by_val),
                           T(n == "unknown" ? "p" : "b"),
                           T(t.category),
                           B(n == "text" || n == "float8" || n == "bool" || n == "oid"),
                           B(true),
                           T(","),
                           O(0),
                           T("-"),
                           O(0),
                           O(t.array_oid),
                           T(n + "in"),
                           T(n + "out"),
                           T(n + "recv"),
                           T(n + "send"),
                           T("-"),
                           T("-"),
                           T("-"),
                           T(t.len == 8   ? "d"
                             : t.len == 2 ? "s"
                             : t.len == 1 ? "c"
                                          : "i"),
                           T(t.len > 0 ? "p" : "x"),
                           B(false),
                           O(0),
                           I(-1),
                           I(0),
                           O(collatable ? 100 : 0),
                           N()});
         }
         // The array types (columns and values of type T[]): "_" and the element's name.
         for (const BuiltinType& t : kTypes) {
           if (t.array_oid == 0) continue;
           const std::string n = t.name;
           const bool collatable = n == "text" || n == "varchar" || n == "bpchar" || n == "name";
           rows.push_back({O(t.array_oid),
                           T("_" + n),
                           O(kPgCatalogNamespaceOid),
                           O(kBootstrapUserOid),
                           I(-1),
                           B(false),
                           T("b"),
                           T("A"),
                           B(false),
                           B(true),
                           T(","),
                           O(0),
                           T("array_subscript_handler"),
                           O(t.oid),
                           O(0),
                           T("array_in"),
                           T("array_out"),
                           T("array_recv"),
                           T("array_send"),
                           T("-"),
                           T("-"),
                           T("array_typanalyze"),
                           T(t.len == 8 ? "d" : "i"),
                           T("x"),
                           B(false),
                           O(0),
                           I(-1),
                           I(0),
                           O(collatable ? 100 : 0),
                           N()});
         }
         return rows;
       }},
      {"pg_catalog",
       "pg_index",
       2610,
       false,
       {{"indexrelid", 'o'},     {"indrelid", 'o'},       {"indnatts", 'i'},
        {"indnkeyatts", 'i'},    {"indisunique", 'b'},    {"indnullsnotdistinct", 'b'},
        {"indisprimary", 'b'},   {"indisexclusion", 'b'}, {"indimmediate", 'b'},
        {"indisclustered", 'b'}, {"indisvalid", 'b'},     {"indcheckxmin", 'b'},
        {"indisready", 'b'},     {"indislive", 'b'},      {"indisreplident", 'b'},
        {"indkey", 'V'},         {"indcollation", 'W'},   {"indclass", 'W'},
        {"indoption", 'V'},      {"indexprs", 't'},       {"indpred", 't'}},
       [](const Snapshot& s) {
         std::vector<Row> rows;
         for (size_t t = 0; t < s.tables.size(); ++t) {
           for (const auto& index : s.indexes[t]) {
             const IndexSchema& x = index->schema();
             // int2vector / oidvector: arrays (unnest, generate_subscripts and ANY work on them;
             // subscripts start at 1 here, at 0 in PostgreSQL). indkey: 0 for an expression key;
             // indexprs and indpred hold the expressions' and the predicate's SQL text
             // (PostgreSQL stores node trees there).
             std::vector<Value> key, option, collation, opclass;
             std::string exprs;
             for (size_t k = 0; k < x.columns.size(); ++k) {
               key.push_back(Value::Int(x.columns[k] + 1));
               if (x.columns[k] == kExpressionKey) {
                 exprs += (exprs.empty() ? "" : ", ") +
                          KeyColumnText(s.tables[t]->schema(), x, k, false);
               }
               option.push_back(Value::Int(k < x.descending.size() && x.descending[k] ? 3 : 0));
               collation.push_back(Value::Int(0));
               opclass.push_back(Value::Int(0));
             }
             const int64_t n = static_cast<int64_t>(x.columns.size());
             rows.push_back({O(RelOid(x.id)),
                             O(RelOid(s.tables[t]->id())),
                             I(n),
                             I(n),
                             B(x.unique),
                             B(false),
                             B(x.kind == IndexKind::kPrimaryKey),
                             B(false),
                             B(true),
                             B(false),
                             B(true),
                             B(false),
                             B(true),
                             B(true),
                             B(false),
                             Value::Array(std::move(key)),
                             Value::Array(std::move(collation)),
                             Value::Array(std::move(opclass)),
                             Value::Array(std::move(option)),
                             exprs.empty() ? N() : T(exprs),
                             !x.IsPartial()          ? N()
                             : x.compiled != nullptr ? T(x.compiled->PredicateDisplay(false))
                                                     : T(x.predicate)});
           }
         }
         return rows;
       }},
      {"pg_catalog",
       "pg_am",
       2601,
       false,
       {{"oid", 'o'}, {"amname", 't'}, {"amhandler", 't'}, {"amtype", 't'}},
       [](const Snapshot&) {
         return std::vector<Row>{{O(2), T("heap"), T("heap_tableam_handler"), T("t")},
                                 {O(kRtreeAmOid), T("rtree"), T("rtreehandler"), T("i")},
                                 {O(403), T("btree"), T("bthandler"), T("i")},
                                 {O(783), T("gist"), T("gisthandler"), T("i")}};
       }},
      {"pg_catalog",
       "pg_attrdef",
       2604,
       false,
       {{"oid", 'o'}, {"adrelid", 'o'}, {"adnum", 'i'}, {"adbin", 't'}},
       [](const Snapshot& s) {
         std::vector<Row> rows;
         for (const auto& table : s.tables) {
           const TableSchema& schema = table->schema();
           for (size_t c = 0; c < schema.columns.size(); ++c) {
             if (schema.columns[c].default_text.empty()) continue;
             // The DEFAULT's text stands in for PostgreSQL's node tree (pg_get_expr shows it).
             rows.push_back({O(RelOid(schema.id) * 1000 + static_cast<int64_t>(c + 1)),
                             O(RelOid(schema.id)), I(static_cast<int64_t>(c + 1)),
                             T(schema.columns[c].default_text)});
           }
         }
         return rows;
       }},
      {"pg_catalog",
       "pg_constraint",
       2606,
       false,
       {{"oid", 'o'},           {"conname", 't'},      {"connamespace", 'o'},  {"contype", 't'},
        {"condeferrable", 'b'}, {"condeferred", 'b'},  {"convalidated", 'b'},  {"conrelid", 'o'},
        {"contypid", 'o'},      {"conindid", 'o'},     {"conparentid", 'o'},   {"confrelid", 'o'},
        {"confupdtype", 't'},   {"confdeltype", 't'},  {"confmatchtype", 't'}, {"conislocal", 'b'},
        {"coninhcount", 'i'},   {"connoinherit", 'b'}, {"conkey", 't'},        {"confkey", 't'},
        {"conbin", 't'}},
       [](const Snapshot& s) {
         std::vector<Row> rows;
         for (size_t t = 0; t < s.tables.size(); ++t) {
           for (const auto& index : s.indexes[t]) {
             const IndexSchema& x = index->schema();
             if (!x.IsConstraint()) continue;
             rows.push_back(ConstraintRow(RelOid(x.id), x.name,
                                          x.kind == IndexKind::kPrimaryKey ? "p" : "u",
                                          RelOid(s.tables[t]->id()), RelOid(x.id), x.columns, N()));
           }
           const TableSchema& schema = s.tables[t]->schema();
           for (size_t i = 0; i < schema.checks.size(); ++i) {
             const CheckConstraint& c = schema.checks[i];
             std::vector<int> cols;
             CheckColumns(schema, *c.expr, &cols);
             rows.push_back(ConstraintRow(CheckOid(schema.id, i), c.name, "c", RelOid(schema.id), 0,
                                          cols, T(c.text)));
           }
           for (size_t i = 0; i < schema.foreign_keys.size(); ++i) {
             const ForeignKey& fk = schema.foreign_keys[i];
             // conindid: the referenced table's unique index on the referenced columns.
             int64_t index_oid = 0;
             for (size_t p = 0; p < s.tables.size(); ++p) {
               if (s.tables[p]->id() != fk.ref_table) continue;
               for (const auto& index : s.indexes[p]) {
                 const std::vector<int>& x = index->schema().columns;
                 if (index->schema().unique && index->schema().IsPlain() &&
                     x.size() == fk.ref_columns.size() &&
                     std::is_permutation(x.begin(), x.end(), fk.ref_columns.begin())) {
                   index_oid = RelOid(index->schema().id);
                   break;
                 }
               }
             }
             Row row = ConstraintRow(ForeignKeyOid(schema.id, i), fk.name, "f", RelOid(schema.id),
                                     index_oid, fk.columns, N());
             std::string confkey = "{";
             for (size_t k = 0; k < fk.ref_columns.size(); ++k) {
               confkey += (k ? "," : "") + std::to_string(fk.ref_columns[k] + 1);
             }
             row[11] = O(RelOid(fk.ref_table));
             row[12] = T(std::string(1, fk.on_update));
             row[13] = T(std::string(1, fk.on_delete));
             row[14] = T(std::string(1, fk.match));
             row[19] = T(confkey + "}");
             rows.push_back(std::move(row));
           }
         }
         return rows;
       }},
      {"pg_catalog",
       "pg_database",
       1262,
       false,
       {{"oid", 'o'},
        {"datname", 't'},
        {"datdba", 'o'},
        {"encoding", 'i'},
        {"datlocprovider", 't'},
        {"datistemplate", 'b'},
        {"datallowconn", 'b'},
        {"datconnlimit", 'i'},
        {"datcollate", 't'},
        {"datctype", 't'},
        {"datacl", 't'}},
       [](const Snapshot&) {
         return std::vector<Row>{{O(16384 - 1), T(kDatabaseName), O(kBootstrapUserOid), I(6),
                                  T("c"), B(false), B(true), I(-1), T("C"), T("C"), N()}};
       }},
      {"pg_catalog",
       "pg_roles",
       0,
       true,
       {{"oid", 'o'},
        {"rolname", 't'},
        {"rolsuper", 'b'},
        {"rolinherit", 'b'},
        {"rolcreaterole", 'b'},
        {"rolcreatedb", 'b'},
        {"rolcanlogin", 'b'},
        {"rolreplication", 'b'},
        {"rolconnlimit", 'i'},
        {"rolpassword", 't'},
        {"rolvaliduntil", 't'},
        {"rolbypassrls", 'b'},
        {"rolconfig", 't'}},
       [](const Snapshot&) {
         return std::vector<Row>{{O(kBootstrapUserOid), T(kBootstrapUser), B(true), B(true),
                                  B(true), B(true), B(true), B(true), I(-1), T("********"), N(),
                                  B(true), N()}};
       }},
      // No enum types and no operator classes to name (indclass holds 0): empty, for the
      // tools that join them (SQLAlchemy's reflection).
      {"pg_catalog",
       "pg_enum",
       3501,
       false,
       {{"oid", 'o'}, {"enumtypid", 'o'}, {"enumsortorder", 'd'}, {"enumlabel", 't'}},
       [](const Snapshot&) { return std::vector<Row>{}; }},
      {"pg_catalog",
       "pg_opclass",
       2616,
       false,
       {{"oid", 'o'},
        {"opcmethod", 'o'},
        {"opcname", 't'},
        {"opcnamespace", 'o'},
        {"opcowner", 'o'},
        {"opcfamily", 'o'},
        {"opcintype", 'o'},
        {"opcdefault", 'b'},
        {"opckeytype", 'o'}},
       [](const Snapshot&) { return std::vector<Row>{}; }},
      {"pg_catalog",
       "pg_collation",
       3456,
       false,
       {{"oid", 'o'},
        {"collname", 't'},
        {"collnamespace", 'o'},
        {"collowner", 'o'},
        {"collprovider", 't'},
        {"collisdeterministic", 'b'},
        {"collencoding", 'i'},
        {"collcollate", 't'},
        {"collctype", 't'}},
       [](const Snapshot&) {
         std::vector<Row> rows;
         for (auto [oid, name, provider] :
              {std::tuple<int64_t, const char*, const char*>{100, "default", "d"},
               {950, "C", "c"},
               {951, "POSIX", "c"}}) {
           rows.push_back({O(oid), T(name), O(kPgCatalogNamespaceOid), O(kBootstrapUserOid),
                           T(provider), B(true), I(-1), oid == 100 ? N() : T(name),
                           oid == 100 ? N() : T(name)});
         }
         return rows;
       }},
      // Row-level security policies, extended statistics and publications: Meridian has
      // none, but psql's \\d asks for them (with their array columns).
      {"pg_catalog",
       "pg_policy",
       3256,
       false,
       {{"oid", 'o'},
        {"polname", 't'},
        {"polrelid", 'o'},
        {"polcmd", 't'},
        {"polpermissive", 'b'},
        {"polroles", 'O'},
        {"polqual", 't'},
        {"polwithcheck", 't'}},
       [](const Snapshot&) { return std::vector<Row>{}; }},
      {"pg_catalog",
       "pg_statistic_ext",
       3381,
       false,
       {{"oid", 'o'},
        {"stxrelid", 'o'},
        {"stxname", 't'},
        {"stxnamespace", 'o'},
        {"stxowner", 'o'},
        {"stxstattarget", 'i'},
        {"stxkeys", 'V'},
        {"stxkind", 'T'},
        {"stxexprs", 't'}},
       [](const Snapshot&) { return std::vector<Row>{}; }},
      {"pg_catalog",
       "pg_publication",
       6104,
       false,
       {{"oid", 'o'},
        {"pubname", 't'},
        {"pubowner", 'o'},
        {"puballtables", 'b'},
        {"pubinsert", 'b'},
        {"pubupdate", 'b'},
        {"pubdelete", 'b'},
        {"pubtruncate", 'b'},
        {"pubviaroot", 'b'}},
       [](const Snapshot&) { return std::vector<Row>{}; }},
      {"pg_catalog",
       "pg_publication_namespace",
       6237,
       false,
       {{"oid", 'o'}, {"pnpubid", 'o'}, {"pnnspid", 'o'}},
       [](const Snapshot&) { return std::vector<Row>{}; }},
      {"pg_catalog",
       "pg_publication_rel",
       6106,
       false,
       {{"oid", 'o'}, {"prpubid", 'o'}, {"prrelid", 'o'}, {"prqual", 't'}, {"prattrs", 'V'}},
       [](const Snapshot&) { return std::vector<Row>{}; }},
      // The locks being waited for: one row per transaction blocked on another's row
      // (TxnManager::WaitFor), as PostgreSQL shows a wait for a row's writer: a ShareLock on
      // the holder's transactionid, not granted. Granted locks are not listed, nor table
      // locks; no waitstart column. Tests poll `count(*) ... WHERE NOT granted` to see a
      // statement block (tests/sql/README.md, `statement ... async`).
      {"pg_catalog",
       "pg_locks",
       0,
       true,
       {{"locktype", 't'},
        {"database", 'o'},
        {"relation", 'o'},
        {"page", 'i'},
        {"tuple", 'i'},
        {"virtualxid", 't'},
        {"transactionid", 'o'},
        {"classid", 'o'},
        {"objid", 'o'},
        {"objsubid", 'i'},
        {"virtualtransaction", 't'},
        {"pid", 'i'},
        {"mode", 't'},
        {"granted", 'b'},
        {"fastpath", 'b'}},
       [](const Snapshot& s) {
         std::vector<Row> rows;
         for (const auto& [waiter, holder] : s.lock_waits) {
           const auto id = [](uint64_t txn) { return static_cast<int64_t>(txn & ~txn::kTxnIdBit); };
           rows.push_back({T("transactionid"), N(), N(), N(), N(), N(), O(id(holder)), N(), N(),
                           N(), T(std::to_string(id(waiter))), N(), T("ShareLock"), B(false),
                           B(false)});
         }
         return rows;
       }},
      // Meridian has no triggers (foreign keys are enforced without them); psql reads this
      // table for the tables whose relhastriggers is set.
      {"pg_catalog",
       "pg_trigger",
       2620,
       false,
       {{"oid", 'o'},
        {"tgrelid", 'o'},
        {"tgparentid", 'o'},
        {"tgname", 't'},
        {"tgfoid", 'o'},
        {"tgtype", 'i'},
        {"tgenabled", 't'},
        {"tgisinternal", 'b'},
        {"tgconstrrelid", 'o'},
        {"tgconstrindid", 'o'},
        {"tgconstraint", 'o'},
        {"tgdeferrable", 'b'},
        {"tginitdeferred", 'b'},
        {"tgnargs", 'i'}},
       [](const Snapshot&) { return std::vector<Row>{}; }},
      {"pg_catalog",
       "pg_inherits",
       2611,
       false,
       {{"inhrelid", 'o'}, {"inhparent", 'o'}, {"inhseqno", 'i'}, {"inhdetachpending", 'b'}},
       [](const Snapshot&) { return std::vector<Row>{}; }},
      {"pg_catalog",
       "pg_description",
       2609,
       false,
       {{"objoid", 'o'}, {"classoid", 'o'}, {"objsubid", 'i'}, {"description", 't'}},
       [](const Snapshot&) { return std::vector<Row>{}; }},
      {"pg_catalog",
       "pg_tables",
       0,
       true,
       {{"schemaname", 't'},
        {"tablename", 't'},
        {"tableowner", 't'},
        {"tablespace", 't'},
        {"hasindexes", 'b'},
        {"hasrules", 'b'},
        {"hastriggers", 'b'},
        {"rowsecurity", 'b'}},
       [](const Snapshot& s) {
         std::vector<Row> rows;
         for (size_t t = 0; t < s.tables.size(); ++t) {
           rows.push_back({T(s.tables[t]->schema().nsp), T(s.tables[t]->name()), T(kBootstrapUser),
                           N(), B(!s.indexes[t].empty()), B(false), B(false), B(false)});
         }
         for (const SystemTable& st : Registry()) {
           if (st.view) continue;
           rows.push_back({T(st.schema), T(st.name), T(kBootstrapUser), N(), B(false), B(false),
                           B(false), B(false)});
         }
         return rows;
       }},
      {"pg_catalog",
       "pg_rewrite",
       2618,
       false,
       {{"oid", 'o'},
        {"rulename", 't'},
        {"ev_class", 'o'},
        {"ev_type", 't'},
        {"ev_enabled", 't'},
        {"is_instead", 'b'}},
       // A view's _RETURN rule is its query (pg_views); there are no other rules.
       [](const Snapshot& s) {
         std::vector<Row> rows;
         for (const auto& view : s.views) {
           rows.push_back({O(RelOid(view->id) + kRuleOidOffset), T("_RETURN"), O(RelOid(view->id)),
                           T("1"), T("O"), B(true)});
         }
         return rows;
       }},
      {"pg_catalog",
       "pg_sequence",
       2224,
       false,
       {{"seqrelid", 'o'},
        {"seqtypid", 'o'},
        {"seqstart", 'o'},
        {"seqincrement", 'o'},
        {"seqmax", 'o'},
        {"seqmin", 'o'},
        {"seqcache", 'o'},
        {"seqcycle", 'b'}},
       [](const Snapshot& s) {
         std::vector<Row> rows;
         for (const auto& q : s.sequences) {
           rows.push_back({O(RelOid(q->id)), O(Type{q->type}.PgOid()), O(q->start), O(q->increment),
                           O(q->max_value), O(q->min_value), O(q->cache), B(q->cycle)});
         }
         return rows;
       }},
      {"pg_catalog",
       "pg_depend",
       2608,
       false,
       {{"classid", 'o'},
        {"objid", 'o'},
        {"objsubid", 'i'},
        {"refclassid", 'o'},
        {"refobjid", 'o'},
        {"refobjsubid", 'i'},
        {"deptype", 't'}},
       [](const Snapshot& s) {
         // Only what psql's \d of a sequence asks: a sequence OWNED BY a column ('a'; 'i' for
         // an identity column's).
         std::vector<Row> rows;
         for (const auto& q : s.sequences) {
           if (q->owner_table == 0) continue;
           rows.push_back({O(1259), O(RelOid(q->id)), I(0), O(1259), O(RelOid(q->owner_table)),
                           I(q->owner_column + 1), T(q->identity != 0 ? "i" : "a")});
         }
         return rows;
       }},
      {"information_schema",
       "sequences",
       0,
       true,
       {{"sequence_catalog", 't'},
        {"sequence_schema", 't'},
        {"sequence_name", 't'},
        {"data_type", 't'},
        {"numeric_precision", 'i'},
        {"numeric_precision_radix", 'i'},
        {"numeric_scale", 'i'},
        {"start_value", 't'},
        {"minimum_value", 't'},
        {"maximum_value", 't'},
        {"increment", 't'},
        {"cycle_option", 't'}},
       [](const Snapshot& s) {
         std::vector<Row> rows;
         for (const auto& q : s.sequences) {
           const int64_t bits = q->type == TypeId::kSmallInt  ? 16
                                : q->type == TypeId::kInteger ? 32
                                                              : 64;
           rows.push_back({T(kDatabaseName), T(q->nsp), T(q->name), T(Type{q->type}.Name()),
                           I(bits), I(2), I(0), T(std::to_string(q->start)),
                           T(std::to_string(q->min_value)), T(std::to_string(q->max_value)),
                           T(std::to_string(q->increment)), T(q->cycle ? "YES" : "NO")});
         }
         return rows;
       }},
      {"pg_catalog",
       "pg_views",
       0,
       true,
       {{"schemaname", 't'}, {"viewname", 't'}, {"viewowner", 't'}, {"definition", 't'}},
       [](const Snapshot& s) {
         std::vector<Row> rows;
         for (const auto& view : s.views) {
           rows.push_back(
               {T(view->nsp), T(view->name), T(kBootstrapUser), T(ViewDefinition(*view))});
         }
         for (const SystemTable& st : Registry()) {
           if (!st.view) continue;
           rows.push_back({T(st.schema), T(st.name), T(kBootstrapUser), N()});
         }
         return rows;
       }},
      {"information_schema",
       "views",
       0,
       true,
       {{"table_catalog", 't'},
        {"table_schema", 't'},
        {"table_name", 't'},
        {"view_definition", 't'},
        {"check_option", 't'},
        {"is_updatable", 't'},
        {"is_insertable_into", 't'},
        {"is_trigger_updatable", 't'},
        {"is_trigger_deletable", 't'},
        {"is_trigger_insertable_into", 't'}},
       [](const Snapshot& s) {
         std::vector<Row> rows;
         for (const auto& view : s.views) {
           rows.push_back({T(kDatabaseName), T(view->nsp), T(view->name), T(ViewDefinition(*view)),
                           T("NONE"), T("NO"), T("NO"), T("NO"), T("NO"), T("NO")});
         }
         return rows;
       }},
      {"pg_catalog",
       "pg_indexes",
       0,
       true,
       {{"schemaname", 't'},
        {"tablename", 't'},
        {"indexname", 't'},
        {"tablespace", 't'},
        {"indexdef", 't'}},
       [](const Snapshot& s) {
         std::vector<Row> rows;
         for (size_t t = 0; t < s.tables.size(); ++t) {
           for (const auto& index : s.indexes[t]) {
             rows.push_back({T(s.tables[t]->schema().nsp), T(s.tables[t]->name()),
                             T(index->schema().name), N(),
                             T(IndexDefinition(s.tables[t]->schema(), index->schema()))});
           }
         }
         return rows;
       }},
      {"information_schema",
       "schemata",
       0,
       true,
       {{"catalog_name", 't'},
        {"schema_name", 't'},
        {"schema_owner", 't'},
        {"default_character_set_catalog", 't'},
        {"default_character_set_schema", 't'},
        {"default_character_set_name", 't'},
        {"sql_path", 't'}},
       [](const Snapshot& s) {
         std::vector<Row> rows;
         for (const char* n : {"information_schema", "pg_catalog", "public"}) {
           rows.push_back({T(kDatabaseName), T(n), T(kBootstrapUser), N(), N(), N(), N()});
         }
         for (const NamespaceDef& n : s.schemas) {
           rows.push_back({T(kDatabaseName), T(n.name), T(n.owner), N(), N(), N(), N()});
         }
         return rows;
       }},
      {"information_schema",
       "tables",
       0,
       true,
       {{"table_catalog", 't'},
        {"table_schema", 't'},
        {"table_name", 't'},
        {"table_type", 't'},
        {"self_referencing_column_name", 't'},
        {"reference_generation", 't'},
        {"user_defined_type_catalog", 't'},
        {"user_defined_type_schema", 't'},
        {"user_defined_type_name", 't'},
        {"is_insertable_into", 't'},
        {"is_typed", 't'},
        {"commit_action", 't'}},
       [](const Snapshot& s) {
         std::vector<Row> rows;
         for (const auto& table : s.tables) {
           rows.push_back({T(kDatabaseName), T(table->schema().nsp), T(table->name()),
                           T(table->schema().temp_owner != 0 ? "LOCAL TEMPORARY" : "BASE TABLE"),
                           N(), N(), N(), N(), N(), T("YES"), T("NO"), N()});
         }
         for (const auto& view : s.views) {
           rows.push_back({T(kDatabaseName), T(view->nsp), T(view->name), T("VIEW"), N(), N(), N(),
                           N(), N(), T("NO"), T("NO"), N()});
         }
         for (const SystemTable& st : Registry()) {
           rows.push_back({T(kDatabaseName), T(st.schema), T(st.name),
                           T(st.view ? "VIEW" : "BASE TABLE"), N(), N(), N(), N(), N(), T("NO"),
                           T("NO"), N()});
         }
         return rows;
       }},
      {"information_schema",
       "columns",
       0,
       true,
       {{"table_catalog", 't'},
        {"table_schema", 't'},
        {"table_name", 't'},
        {"column_name", 't'},
        {"ordinal_position", 'i'},
        {"column_default", 't'},
        {"is_nullable", 't'},
        {"data_type", 't'},
        {"character_maximum_length", 'i'},
        {"character_octet_length", 'i'},
        {"numeric_precision", 'i'},
        {"numeric_precision_radix", 'i'},
        {"numeric_scale", 'i'},
        {"datetime_precision", 'i'},
        {"udt_catalog", 't'},
        {"udt_schema", 't'},
        {"udt_name", 't'},
        {"is_identity", 't'},
        {"is_generated", 't'},
        {"is_updatable", 't'}},
       [](const Snapshot& s) {
         std::vector<Row> rows;
         auto add = [&](const std::string& schema, const std::string& table, size_t pos,
                        const std::string& name, Type type, bool not_null,
                        const std::string& default_text, bool updatable) {
           Value max_len = N(), octets = N(), precision = N(), radix = N(), scale = N();
           Value datetime_precision = N();
           if ((type.id == TypeId::kVarchar || type.id == TypeId::kChar) && type.modifier >= 0) {
             max_len = I(type.modifier);
             octets = I(static_cast<int64_t>(type.modifier) * 4);
           } else if (type.IsString()) {
             octets = I(1073741824);
           }
           if (type.id == TypeId::kSmallInt) precision = I(16);
           if (type.id == TypeId::kInteger) precision = I(32);
           if (type.id == TypeId::kBigInt) precision = I(64);
           if (type.id == TypeId::kReal) precision = I(24);
           if (type.id == TypeId::kDouble) precision = I(53);
           if (type.IsNumeric()) radix = I(type.id == TypeId::kNumeric ? 10 : 2);
           if (type.IsIntegral()) scale = I(0);
           if (type.id == TypeId::kNumeric && type.modifier >= 0) {
             precision = I(numeric::TypmodPrecision(type.modifier));
             scale = I(numeric::TypmodScale(type.modifier));
           }
           if (type.id == TypeId::kDate) datetime_precision = I(0);
           if (type.id == TypeId::kTimestamp || type.id == TypeId::kTimestampTz ||
               type.id == TypeId::kTime || type.id == TypeId::kInterval)
             datetime_precision = I(type.modifier >= 0 ? type.modifier : 6);
           const BuiltinType* b = FindType(type.PgOid());
           rows.push_back({T(kDatabaseName),
                           T(schema),
                           T(table),
                           T(name),
                           I(static_cast<int64_t>(pos)),
                           default_text.empty() ? N() : T(default_text),
                           T(not_null ? "NO" : "YES"),
                           T(SqlTypeName(type)),
                           max_len,
                           octets,
                           precision,
                           radix,
                           scale,
                           datetime_precision,
                           T(kDatabaseName),
                           T("pg_catalog"),
                           T(b != nullptr ? b->name : "text"),
                           T("NO"),
                           T("NEVER"),
                           T(updatable ? "YES" : "NO")});
         };
         for (const auto& table : s.tables) {
           const TableSchema& schema = table->schema();
           for (size_t c = 0; c < schema.columns.size(); ++c) {
             const Column& col = schema.columns[c];
             if (col.dropped) continue;
             add(schema.nsp, schema.name, c + 1, col.name, col.type, col.not_null, col.default_text,
                 true);
           }
         }
         for (const auto& view : s.views) {
           for (size_t c = 0; c < view->columns.size(); ++c) {
             add(view->nsp, view->name, c + 1, view->columns[c].name, view->columns[c].type, false,
                 "", false);
           }
         }
         return rows;
       }},
  };
  return kTables;
}

Snapshot TakeSnapshot(const Catalog& catalog, uint64_t session = 0) {
  Snapshot s;
  s.tables = catalog.List();
  // Another session's TEMP tables are not shown (as its TEMP views are not).
  std::erase_if(s.tables, [session](const std::shared_ptr<Table>& t) {
    return t->schema().temp_owner != 0 && t->schema().temp_owner != session;
  });
  for (const auto& t : s.tables) s.indexes.push_back(t->IndexSnapshot());
  s.views = catalog.ListViews(session);
  for (const auto& seq : catalog.ListSequences()) s.sequences.push_back(seq->schema());
  s.schemas = catalog.ListSchemas();
  std::erase_if(s.schemas, [session](const NamespaceDef& n) {
    return Catalog::IsTempSchema(n.name) && n.name != TempSchemaName(session);
  });
  s.nsp_oids["public"] = kPublicNamespaceOid;
  for (const NamespaceDef& n : s.schemas) s.nsp_oids[n.name] = catalog.SchemaOid(n.name);
  if (catalog.txns() != nullptr) s.lock_waits = catalog.txns()->LockWaits();
  return s;
}

// One part of a qualified name as ::regclass reads it: "Quoted" kept, else lower-cased.
std::string NamePart(std::string_view part) {
  if (part.size() >= 2 && part.front() == '"' && part.back() == '"') {
    std::string out;
    for (size_t i = 1; i + 1 < part.size(); ++i) {
      out += part[i];
      if (part[i] == '"') ++i;
    }
    return out;
  }
  std::string out(part);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// "a.b" → ("a", "b"); "b" → ("", "b"), with NamePart rules (a dot inside quotes is kept).
std::pair<std::string, std::string> SplitName(std::string_view name) {
  bool quoted = false;
  for (size_t i = 0; i < name.size(); ++i) {
    if (name[i] == '"') quoted = !quoted;
    if (name[i] == '.' && !quoted) {
      return {NamePart(name.substr(0, i)), NamePart(name.substr(i + 1))};
    }
  }
  return {"", NamePart(name)};
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

}  // namespace

std::string QuoteIdent(const std::string& id) {
  bool plain = !id.empty() && (std::islower(static_cast<unsigned char>(id[0])) || id[0] == '_');
  for (char c : id) {
    if (!std::islower(static_cast<unsigned char>(c)) &&
        !std::isdigit(static_cast<unsigned char>(c)) && c != '_') {
      plain = false;
    }
  }
  if (plain) return id;
  std::string out = "\"";
  for (char c : id) {
    out += c;
    if (c == '"') out += '"';
  }
  return out + "\"";
}

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
  for (const Col& c : st->columns) {
    Column col;
    col.name = c.name;
    col.type = ColType(c.type);
    ts->columns.push_back(std::move(col));
  }
  return std::make_shared<Table>(std::move(ts), st->rows(TakeSnapshot(catalog, session)));
}

std::optional<int64_t> SystemTables::RelationOid(const Catalog& catalog, std::string_view name) {
  auto [schema, rel] = SplitName(name);
  if (schema.empty() || schema == "pg_catalog" || schema == "information_schema") {
    if (const SystemTable* st = FindSystemTable(schema, rel)) return SystemOid(*st);
  }
  if (schema == "pg_catalog" || schema == "information_schema") return std::nullopt;
  const std::string written = ast::QualifyName(schema, rel);
  if (std::shared_ptr<Table> t = catalog.Find(written)) return RelOid(t->id());
  if (auto view = catalog.FindView(written, CurrentSearchPath().session)) return RelOid(view->id);
  if (auto seq = catalog.FindSequence(written)) return RelOid(seq->schema()->id);
  if (std::shared_ptr<Table> t = catalog.FindIndexTable(written)) {
    for (const auto& index : t->IndexSnapshot()) {
      if (index->schema().name == rel) return RelOid(index->schema().id);
    }
  }
  return std::nullopt;
}

std::optional<std::string> SystemTables::RelationName(const Catalog& catalog, int64_t oid) {
  Snapshot s = TakeSnapshot(catalog, CurrentSearchPath().session);
  for (const RelationInfo& r : Relations(s)) {
    if (r.oid != oid) continue;
    // Names outside the search path are qualified, as PostgreSQL does.
    std::string n = QuoteIdent(r.name);
    if (r.namespace_oid == kInformationSchemaNamespaceOid) n = "information_schema." + n;
    if (r.system == nullptr && !catalog.IsVisible(RelNsp(r), r.name)) {
      n = QuoteIdent(RelNsp(r)) + "." + n;
    }
    return n;
  }
  return std::nullopt;
}

std::optional<int64_t> SystemTables::TypeOid(std::string_view name) {
  auto [schema, n] = SplitName(name);
  if (!schema.empty() && schema != "pg_catalog") return std::nullopt;
  static const std::map<std::string, std::string> kAliases = {
      {"integer", "int4"},
      {"int", "int4"},
      {"smallint", "int2"},
      {"bigint", "int8"},
      {"boolean", "bool"},
      {"real", "float4"},
      {"double precision", "float8"},
      {"float", "float8"},
      {"character varying", "varchar"},
      {"character", "bpchar"},
      {"decimal", "numeric"},
      {"timestamp without time zone", "timestamp"},
      {"timestamp with time zone", "timestamptz"},
      {"time without time zone", "time"},
      {"char", "bpchar"},
      {"\"char\"", "char"}};
  std::string key = n;
  if (auto it = kAliases.find(key); it != kAliases.end()) key = it->second;
  if (name == "\"char\"") key = "char";
  for (const BuiltinType& t : kTypes) {
    if (key == t.name) return t.oid;
  }
  return std::nullopt;
}

std::optional<std::string> SystemTables::TypeName(int64_t oid) {
  const BuiltinType* t = FindType(oid);
  if (t == nullptr) return std::nullopt;
  return std::string(t->display);
}

std::optional<int64_t> SystemTables::NamespaceOid(const Catalog& catalog, std::string_view name) {
  std::string n = NamePart(name);
  if (n == "pg_catalog") return kPgCatalogNamespaceOid;
  if (n == "public") return kPublicNamespaceOid;
  if (n == "information_schema") return kInformationSchemaNamespaceOid;
  if (int64_t oid = catalog.SchemaOid(n); oid != 0 && catalog.SchemaExists(n)) return oid;
  return std::nullopt;
}

std::optional<std::string> SystemTables::NamespaceName(const Catalog& catalog, int64_t oid) {
  if (oid == kPgCatalogNamespaceOid || oid == kPublicNamespaceOid ||
      oid == kInformationSchemaNamespaceOid) {
    return NamespaceNameOf(oid);
  }
  for (const NamespaceDef& n : catalog.ListSchemas()) {
    if (catalog.SchemaOid(n.name) == oid) return QuoteIdent(n.name);
  }
  return std::nullopt;
}

std::string SystemTables::FormatType(int64_t oid, int64_t typmod) {
  const BuiltinType* t = FindType(oid);
  if (t == nullptr) {
    for (const BuiltinType& e : kTypes) {  // an array type: its element's name and "[]"
      if (e.array_oid == oid) return FormatType(e.oid, typmod) + "[]";
    }
    return "???";
  }
  std::string out = t->display;
  if ((oid == 1043 || oid == 1042) && typmod >= 4) out += "(" + std::to_string(typmod - 4) + ")";
  if (oid == 1700 && typmod >= 4) {
    out += "(" + std::to_string(numeric::TypmodPrecision(static_cast<int32_t>(typmod - 4))) + "," +
           std::to_string(numeric::TypmodScale(static_cast<int32_t>(typmod - 4))) + ")";
  }
  if (oid == 1114 && typmod >= 0)
    out = "timestamp(" + std::to_string(typmod) + ") without time zone";
  if (oid == 1184 && typmod >= 0) out = "timestamp(" + std::to_string(typmod) + ") with time zone";
  if (oid == 1083 && typmod >= 0) out = "time(" + std::to_string(typmod) + ") without time zone";
  return out;
}

std::optional<std::string> SystemTables::IndexDef(const Catalog& catalog, int64_t oid,
                                                  int64_t column, bool pretty) {
  for (const auto& t : catalog.List()) {
    for (const auto& index : t->IndexSnapshot()) {
      if (RelOid(index->schema().id) != oid) continue;
      const IndexSchema& x = index->schema();
      if (column == 0) return IndexDefinition(t->schema(), x, pretty);
      // The n-th key alone: its column name (no DESC; PostgreSQL leaves the ordering out).
      if (column < 0 || column > static_cast<int64_t>(x.columns.size())) return std::string();
      return KeyColumnText(t->schema(), x, static_cast<size_t>(column - 1), pretty);
    }
  }
  return std::nullopt;
}

std::shared_ptr<Table> SystemTables::TableByOid(const Catalog& catalog, int64_t oid) {
  for (const auto& t : catalog.List()) {
    if (RelOid(t->id()) == oid) return t;
  }
  return nullptr;
}

bool SystemTables::IsUserTable(const Catalog& catalog, int64_t oid) {
  return TableByOid(catalog, oid) != nullptr;
}

std::optional<size_t> SystemTables::FindCheck(const Catalog& catalog, int64_t oid,
                                              std::shared_ptr<Table>* table) {
  for (const auto& t : catalog.List()) {
    const TableSchema& schema = t->schema();
    for (size_t i = 0; i < schema.checks.size(); ++i) {
      if (CheckOid(schema.id, i) == oid) {
        *table = t;
        return i;
      }
    }
  }
  return std::nullopt;
}

std::optional<std::string> SystemTables::ConstraintDef(const Catalog& catalog, int64_t oid) {
  for (const auto& t : catalog.List()) {
    for (const auto& index : t->IndexSnapshot()) {
      if (RelOid(index->schema().id) == oid && index->schema().IsConstraint()) {
        return ConstraintDefinition(t->schema(), index->schema());
      }
    }
    const TableSchema& schema = t->schema();
    for (size_t i = 0; i < schema.checks.size(); ++i) {
      if (CheckOid(schema.id, i) == oid) return CheckDefinition(schema.checks[i]);
    }
    for (size_t i = 0; i < schema.foreign_keys.size(); ++i) {
      if (ForeignKeyOid(schema.id, i) == oid) {
        return ForeignKeyDefinition(catalog, schema, schema.foreign_keys[i]);
      }
    }
  }
  return std::nullopt;
}

std::string SystemTables::UserName(int64_t oid) {
  if (oid == kBootstrapUserOid) return kBootstrapUser;
  return "unknown (OID=" + std::to_string(oid) + ")";
}

std::optional<std::string> SystemTables::ViewDef(const Catalog& catalog, int64_t oid) {
  for (const auto& view : catalog.ListViews()) {
    if (RelOid(view->id) == oid) return ViewDefinition(*view);
  }
  return std::nullopt;
}

bool SystemTables::RelationVisible(const Catalog& catalog, int64_t oid) {
  // The search path is public and pg_catalog: information_schema's views are not visible
  // (ORMs list "the views" as those pg_table_is_visible accepts).
  Snapshot s = TakeSnapshot(catalog, CurrentSearchPath().session);
  for (const RelationInfo& r : Relations(s)) {
    if (r.oid != oid) continue;
    if (r.system != nullptr) return r.namespace_oid != kInformationSchemaNamespaceOid;
    return catalog.IsVisible(RelNsp(r), r.name);
  }
  return false;
}

}  // namespace meridian::catalog
