// pg_class, pg_attribute, pg_index, pg_am, pg_attrdef, pg_constraint, pg_trigger, pg_inherits,
// pg_description, pg_rewrite, pg_sequence, pg_depend: every relation (user tables, indexes,
// views, sequences and the system tables themselves), their columns, keys and constraints.
#include <algorithm>

#include "catalog/system/builtin_types.h"
#include "catalog/system/system_table.h"

namespace meridian::catalog::system {

namespace {

// A pg_constraint row: contype 'p', 'u', 'c' or 'f', its table's schema and the table, its index
// (0 for none), conkey (0-based positions) and conbin.
Row ConstraintRow(int64_t oid, const std::string& name, const char* type, int64_t nsp, int64_t rel,
                  int64_t index, const std::vector<int>& key, Value bin) {
  std::string conkey = "{";
  for (size_t k = 0; k < key.size(); ++k) conkey += (k ? "," : "") + std::to_string(key[k] + 1);
  conkey += "}";
  const bool check = std::string(type) == "c";
  return {O(oid), T(name), O(nsp),   T(type),   B(false),  B(false), B(true),
          O(rel), O(0),    O(index), O(0),      O(0),      T(" "),   T(" "),
          T(" "), B(true), I(0),     B(!check), T(conkey), N(),      std::move(bin)};
}

}  // namespace

static std::vector<Row> PgClassRows(const Snapshot& s) {
  std::vector<Row> rows;
  for (const RelationInfo& r : Relations(s)) {
    int64_t am = r.kind == "i"
                     ? (r.index != nullptr && r.index->IsRtree() ? kOidRtreeAm : kOidBtreeAm)
                 : r.kind == "r" ? kOidHeapAm
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
                    O(kOidBootstrapSuperuser),
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
                    I(0),
                    I(0),
                    N(),
                    N(),
                    N()});
  }
  return rows;
}

SystemTable PgClass() {
  return {"pg_catalog",
          "pg_class",
          kOidPgClass,
          false,
          {{"oid", kOidColumn},
           {"relname", Type::Text()},
           {"relnamespace", kOidColumn},
           {"reltype", kOidColumn},
           {"reloftype", kOidColumn},
           {"relowner", kOidColumn},
           {"relam", kOidColumn},
           {"relfilenode", kOidColumn},
           {"reltablespace", kOidColumn},
           {"relpages", Type::Integer()},
           {"reltuples", Type::Double()},
           {"relallvisible", Type::Integer()},
           {"reltoastrelid", kOidColumn},
           {"relhasindex", Type::Boolean()},
           {"relisshared", Type::Boolean()},
           {"relpersistence", Type::Text()},
           {"relkind", Type::Text()},
           {"relnatts", Type::Integer()},
           {"relchecks", Type::Integer()},
           {"relhasrules", Type::Boolean()},
           {"relhastriggers", Type::Boolean()},
           {"relhassubclass", Type::Boolean()},
           {"relrowsecurity", Type::Boolean()},
           {"relforcerowsecurity", Type::Boolean()},
           {"relispopulated", Type::Boolean()},
           {"relreplident", Type::Text()},
           {"relispartition", Type::Boolean()},
           {"relrewrite", kOidColumn},
           {"relfrozenxid", Type::Integer()},  // xid: 0, no transaction id wraps around here
           {"relminmxid", Type::Integer()},
           {"relacl", Type::Text()},
           {"reloptions", Type::Array(Type::Text())},
           {"relpartbound", Type::Text()}},
          PgClassRows};
}

static std::vector<Row> PgAttributeRows(const Snapshot& s) {
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
                    O(type.IsString() ? kOidDefaultCollation : 0),
                    N(),
                    N(),
                    N(),
                    N()});
  };
  for (size_t t = 0; t < s.tables.size(); ++t) {
    const TableSchema& schema = s.tables[t]->schema();
    for (size_t c = 0; c < schema.columns.size(); ++c) {
      const Column& col = schema.columns[c];
      add(RelationOidOf(schema.id), static_cast<int64_t>(c + 1), col.name, col.type, col.not_null,
          !col.default_text.empty(), col.dropped, !col.missing.IsNull());
    }
    for (const auto& index : s.indexes[t]) {
      const IndexSchema& x = index->schema();
      for (size_t k = 0; k < x.columns.size(); ++k) {
        if (x.columns[k] == kExpressionKey) {
          if (x.compiled == nullptr) continue;
          add(RelationOidOf(x.id), static_cast<int64_t>(k + 1), x.compiled->KeyName(k),
              x.compiled->KeyType(k), false, false);
          continue;
        }
        const Column& col = schema.columns[x.columns[k]];
        add(RelationOidOf(x.id), static_cast<int64_t>(k + 1), col.name, col.type, false, false);
      }
    }
  }
  for (const auto& view : s.views) {
    for (size_t c = 0; c < view->columns.size(); ++c) {
      add(RelationOidOf(view->id), static_cast<int64_t>(c + 1), view->columns[c].name,
          view->columns[c].type, false, false);
    }
  }
  for (const SystemTable& st : Registry()) {
    for (size_t c = 0; c < st.columns.size(); ++c) {
      const Type type = st.columns[c].type;
      add(SystemOid(st), static_cast<int64_t>(c + 1), st.columns[c].name, type, false, false);
    }
  }
  return rows;
}

SystemTable PgAttribute() {
  return {"pg_catalog",
          "pg_attribute",
          kOidPgAttribute,
          false,
          {{"attrelid", kOidColumn},
           {"attname", Type::Text()},
           {"atttypid", kOidColumn},
           {"attstattarget", Type::Integer()},
           {"attlen", Type::Integer()},
           {"attnum", Type::Integer()},
           {"attndims", Type::Integer()},
           {"attcacheoff", Type::Integer()},
           {"atttypmod", Type::Integer()},
           {"attbyval", Type::Boolean()},
           {"attalign", Type::Text()},
           {"attstorage", Type::Text()},
           {"attcompression", Type::Text()},
           {"attnotnull", Type::Boolean()},
           {"atthasdef", Type::Boolean()},
           {"atthasmissing", Type::Boolean()},
           {"attidentity", Type::Text()},
           {"attgenerated", Type::Text()},
           {"attisdropped", Type::Boolean()},
           {"attislocal", Type::Boolean()},
           {"attinhcount", Type::Integer()},
           {"attcollation", kOidColumn},
           {"attacl", Type::Text()},
           {"attoptions", Type::Array(Type::Text())},
           {"attfdwoptions", Type::Array(Type::Text())},
           {"attmissingval", Type::Text()}},
          PgAttributeRows};
}

static std::vector<Row> PgIndexRows(const Snapshot& s) {
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
          exprs += (exprs.empty() ? "" : ", ") + KeyColumnText(s.tables[t]->schema(), x, k, false);
        }
        option.push_back(Value::Int(k < x.descending.size() && x.descending[k] ? 3 : 0));
        collation.push_back(Value::Int(0));
        opclass.push_back(Value::Int(0));
      }
      const int64_t n = static_cast<int64_t>(x.columns.size());
      rows.push_back({O(RelationOidOf(x.id)),
                      O(RelationOidOf(s.tables[t]->id())),
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
}

SystemTable PgIndex() {
  return {"pg_catalog",
          "pg_index",
          kOidPgIndex,
          false,
          {{"indexrelid", kOidColumn},
           {"indrelid", kOidColumn},
           {"indnatts", Type::Integer()},
           {"indnkeyatts", Type::Integer()},
           {"indisunique", Type::Boolean()},
           {"indnullsnotdistinct", Type::Boolean()},
           {"indisprimary", Type::Boolean()},
           {"indisexclusion", Type::Boolean()},
           {"indimmediate", Type::Boolean()},
           {"indisclustered", Type::Boolean()},
           {"indisvalid", Type::Boolean()},
           {"indcheckxmin", Type::Boolean()},
           {"indisready", Type::Boolean()},
           {"indislive", Type::Boolean()},
           {"indisreplident", Type::Boolean()},
           {"indkey", Type::Int2Vector()},
           {"indcollation", Type::OidVector()},
           {"indclass", Type::OidVector()},
           {"indoption", Type::Int2Vector()},
           {"indexprs", Type::Text()},
           {"indpred", Type::Text()}},
          PgIndexRows};
}

static std::vector<Row> PgAmRows(const Snapshot&) {
  return std::vector<Row>{{O(kOidHeapAm), T("heap"), T("heap_tableam_handler"), T("t")},
                          {O(kOidRtreeAm), T("rtree"), T("rtreehandler"), T("i")},
                          {O(kOidBtreeAm), T("btree"), T("bthandler"), T("i")},
                          {O(kOidGistAm), T("gist"), T("gisthandler"), T("i")}};
}

SystemTable PgAm() {
  return {"pg_catalog",
          "pg_am",
          kOidPgAm,
          false,
          {{"oid", kOidColumn},
           {"amname", Type::Text()},
           {"amhandler", Type::Text()},
           {"amtype", Type::Text()}},
          PgAmRows};
}

static std::vector<Row> PgAttrdefRows(const Snapshot& s) {
  std::vector<Row> rows;
  for (const auto& table : s.tables) {
    const TableSchema& schema = table->schema();
    for (size_t c = 0; c < schema.columns.size(); ++c) {
      if (schema.columns[c].default_text.empty()) continue;
      // The DEFAULT's text stands in for PostgreSQL's node tree (pg_get_expr shows it).
      rows.push_back({O(AttrDefOidOf(schema.id, static_cast<int64_t>(c + 1))),
                      O(RelationOidOf(schema.id)), I(static_cast<int64_t>(c + 1)),
                      T(DefaultDefinition(s, schema.columns[c].default_text))});
    }
  }
  return rows;
}

SystemTable PgAttrdef() {
  return {"pg_catalog",
          "pg_attrdef",
          kOidPgAttrdef,
          false,
          {{"oid", kOidColumn},
           {"adrelid", kOidColumn},
           {"adnum", Type::Integer()},
           {"adbin", Type::Text()}},
          PgAttrdefRows};
}

static std::vector<Row> PgConstraintRows(const Snapshot& s) {
  std::vector<Row> rows;
  for (size_t t = 0; t < s.tables.size(); ++t) {
    const auto nsp_it = s.nsp_oids.find(s.tables[t]->schema().nsp);
    const int64_t nsp = nsp_it == s.nsp_oids.end() ? kOidPublicNamespace : nsp_it->second;
    for (const auto& index : s.indexes[t]) {
      const IndexSchema& x = index->schema();
      if (!x.IsConstraint()) continue;
      rows.push_back(ConstraintRow(
          RelationOidOf(x.id), x.name, x.kind == IndexKind::kPrimaryKey ? "p" : "u", nsp,
          RelationOidOf(s.tables[t]->id()), RelationOidOf(x.id), x.columns, N()));
    }
    const TableSchema& schema = s.tables[t]->schema();
    for (size_t i = 0; i < schema.checks.size(); ++i) {
      const CheckConstraint& c = schema.checks[i];
      std::vector<int> cols;
      CheckColumns(schema, *c.expr, &cols);
      rows.push_back(ConstraintRow(CheckOidOf(schema.id, i), c.name, "c", nsp,
                                   RelationOidOf(schema.id), 0, cols, T(c.text)));
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
            index_oid = RelationOidOf(index->schema().id);
            break;
          }
        }
      }
      Row row = ConstraintRow(ForeignKeyOidOf(schema.id, i), fk.name, "f", nsp,
                              RelationOidOf(schema.id), index_oid, fk.columns, N());
      std::string confkey = "{";
      for (size_t k = 0; k < fk.ref_columns.size(); ++k) {
        confkey += (k ? "," : "") + std::to_string(fk.ref_columns[k] + 1);
      }
      row[11] = O(RelationOidOf(fk.ref_table));
      row[12] = T(std::string(1, fk.on_update));
      row[13] = T(std::string(1, fk.on_delete));
      row[14] = T(std::string(1, fk.match));
      row[19] = T(confkey + "}");
      rows.push_back(std::move(row));
    }
  }
  return rows;
}

SystemTable PgConstraint() {
  return {"pg_catalog",
          "pg_constraint",
          kOidPgConstraint,
          false,
          {{"oid", kOidColumn},
           {"conname", Type::Text()},
           {"connamespace", kOidColumn},
           {"contype", Type::Text()},
           {"condeferrable", Type::Boolean()},
           {"condeferred", Type::Boolean()},
           {"convalidated", Type::Boolean()},
           {"conrelid", kOidColumn},
           {"contypid", kOidColumn},
           {"conindid", kOidColumn},
           {"conparentid", kOidColumn},
           {"confrelid", kOidColumn},
           {"confupdtype", Type::Text()},
           {"confdeltype", Type::Text()},
           {"confmatchtype", Type::Text()},
           {"conislocal", Type::Boolean()},
           {"coninhcount", Type::Integer()},
           {"connoinherit", Type::Boolean()},
           {"conkey", Type::Text()},
           {"confkey", Type::Text()},
           {"conbin", Type::Text()}},
          PgConstraintRows};
}

// Meridian has no triggers (foreign keys are enforced without them); psql reads this
// table for the tables whose relhastriggers is set.
SystemTable PgTrigger() {
  return {"pg_catalog",
          "pg_trigger",
          kOidPgTrigger,
          false,
          {{"oid", kOidColumn},
           {"tgrelid", kOidColumn},
           {"tgparentid", kOidColumn},
           {"tgname", Type::Text()},
           {"tgfoid", kOidColumn},
           {"tgtype", Type::Integer()},
           {"tgenabled", Type::Text()},
           {"tgisinternal", Type::Boolean()},
           {"tgconstrrelid", kOidColumn},
           {"tgconstrindid", kOidColumn},
           {"tgconstraint", kOidColumn},
           {"tgdeferrable", Type::Boolean()},
           {"tginitdeferred", Type::Boolean()},
           {"tgnargs", Type::Integer()}},
          [](const Snapshot&) { return std::vector<Row>{}; }};
}

SystemTable PgInherits() {
  return {"pg_catalog",
          "pg_inherits",
          kOidPgInherits,
          false,
          {{"inhrelid", kOidColumn},
           {"inhparent", kOidColumn},
           {"inhseqno", Type::Integer()},
           {"inhdetachpending", Type::Boolean()}},
          [](const Snapshot&) { return std::vector<Row>{}; }};
}

SystemTable PgDescription() {
  return {"pg_catalog",
          "pg_description",
          kOidPgDescription,
          false,
          {{"objoid", kOidColumn},
           {"classoid", kOidColumn},
           {"objsubid", Type::Integer()},
           {"description", Type::Text()}},
          // The public schema's comment, as in PostgreSQL (pg_dump otherwise writes a
          // COMMENT ON SCHEMA public IS '' to drop it); COMMENT ON is not supported.
          [](const Snapshot&) {
            return std::vector<Row>{
                {O(kOidPublicNamespace), O(kOidPgNamespace), I(0), T("standard public schema")}};
          }};
}

// A view's _RETURN rule is its query (pg_views); there are no other rules.
static std::vector<Row> PgRewriteRows(const Snapshot& s) {
  std::vector<Row> rows;
  for (const auto& view : s.views) {
    rows.push_back({O(RuleOidOf(view->id)), T("_RETURN"), O(RelationOidOf(view->id)), T("1"),
                    T("O"), B(true)});
  }
  return rows;
}

SystemTable PgRewrite() {
  return {"pg_catalog",
          "pg_rewrite",
          kOidPgRewrite,
          false,
          {{"oid", kOidColumn},
           {"rulename", Type::Text()},
           {"ev_class", kOidColumn},
           {"ev_type", Type::Text()},
           {"ev_enabled", Type::Text()},
           {"is_instead", Type::Boolean()}},
          PgRewriteRows};
}

static std::vector<Row> PgSequenceRows(const Snapshot& s) {
  std::vector<Row> rows;
  for (const auto& q : s.sequences) {
    rows.push_back({O(RelationOidOf(q->id)), O(Type{q->type}.PgOid()), O(q->start), O(q->increment),
                    O(q->max_value), O(q->min_value), O(q->cache), B(q->cycle)});
  }
  return rows;
}

SystemTable PgSequence() {
  return {"pg_catalog",
          "pg_sequence",
          kOidPgSequence,
          false,
          {{"seqrelid", kOidColumn},
           {"seqtypid", kOidColumn},
           {"seqstart", kOidColumn},
           {"seqincrement", kOidColumn},
           {"seqmax", kOidColumn},
           {"seqmin", kOidColumn},
           {"seqcache", kOidColumn},
           {"seqcycle", Type::Boolean()}},
          PgSequenceRows};
}

static std::vector<Row> PgDependRows(const Snapshot& s) {
  // A sequence OWNED BY a column ('a'; 'i' for an identity column's), what psql's \d of a
  // sequence asks.
  std::vector<Row> rows;
  for (const auto& q : s.sequences) {
    if (q->owner_table == 0) continue;
    rows.push_back({O(kOidPgClass), O(RelationOidOf(q->id)), I(0), O(kOidPgClass),
                    O(RelationOidOf(q->owner_table)), I(q->owner_column + 1),
                    T(q->identity != 0 ? "i" : "a")});
  }
  // A column DEFAULT depends on the sequences it names (`nextval('s'::regclass)`): with the
  // sequence OWNED BY the column this is the loop pg_dump breaks by setting the default after
  // CREATE SEQUENCE.
  for (const auto& table : s.tables) {
    const TableSchema& schema = table->schema();
    for (size_t c = 0; c < schema.columns.size(); ++c) {
      for (const std::string& name : RegclassLiterals(schema.columns[c].default_text)) {
        for (const auto& q : s.sequences) {
          if (q->name != name) continue;
          rows.push_back({O(kOidPgAttrdef), O(AttrDefOidOf(schema.id, static_cast<int64_t>(c + 1))),
                          I(0), O(kOidPgClass), O(RelationOidOf(q->id)), I(0), T("n")});
        }
      }
    }
  }
  // A view's _RETURN rule belongs to the view ('i') and depends on every relation the query
  // reads ('n'): pg_dump orders a view after its tables by these.
  for (const auto& view : s.views) {
    const int64_t rule = RuleOidOf(view->id);
    rows.push_back({O(kOidPgRewrite), O(rule), I(0), O(kOidPgClass), O(RelationOidOf(view->id)),
                    I(0), T("i")});
    for (uint32_t rel : view->relations) {
      rows.push_back(
          {O(kOidPgRewrite), O(rule), I(0), O(kOidPgClass), O(RelationOidOf(rel)), I(0), T("n")});
    }
  }
  return rows;
}

SystemTable PgDepend() {
  return {"pg_catalog",
          "pg_depend",
          kOidPgDepend,
          false,
          {{"classid", kOidColumn},
           {"objid", kOidColumn},
           {"objsubid", Type::Integer()},
           {"refclassid", kOidColumn},
           {"refobjid", kOidColumn},
           {"refobjsubid", Type::Integer()},
           {"deptype", Type::Text()}},
          PgDependRows};
}

}  // namespace meridian::catalog::system
