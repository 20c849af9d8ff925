// Names and oids of objects, for ::regclass, ::regtype, ::regnamespace and the catalog
// functions (format_type, pg_get_indexdef, pg_get_constraintdef, pg_get_viewdef,
// pg_table_is_visible, ...): SystemTables' lookups (catalog/system_tables.h).
#include <cctype>

#include "catalog/system/builtin_types.h"
#include "catalog/system/system_table.h"

namespace meridian::catalog {

using system::BuiltinType;
using system::BuiltinTypes;
using system::CheckDefinition;
using system::ConstraintDefinition;
using system::FindBuiltinType;
using system::FindSystemTable;
using system::ForeignKeyDefinition;
using system::IndexDefinition;
using system::KeyColumnText;
using system::RelationInfo;
using system::Relations;
using system::Snapshot;
using system::SystemOid;
using system::SystemTable;
using system::TakeSnapshot;
using system::ViewDefinition;

namespace {

// The schema of a user relation.
std::string RelNsp(const RelationInfo& r) {
  if (r.table != nullptr) return r.table->schema().nsp;
  if (r.user_view != nullptr) return r.user_view->nsp;
  if (r.sequence != nullptr) return r.sequence->nsp;
  return kPublicSchema;
}

std::string NamespaceNameOf(int64_t oid) {
  if (oid == kOidPgCatalogNamespace) return "pg_catalog";
  if (oid == kOidInformationSchemaNamespace) return "information_schema";
  return "public";
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

std::optional<int64_t> SystemTables::RelationOid(const Catalog& catalog, std::string_view name) {
  auto [schema, rel] = SplitName(name);
  if (schema.empty() || schema == "pg_catalog" || schema == "information_schema") {
    if (const SystemTable* st = FindSystemTable(schema, rel)) return SystemOid(*st);
  }
  if (schema == "pg_catalog" || schema == "information_schema") return std::nullopt;
  const std::string written = ast::QualifyName(schema, rel);
  if (std::shared_ptr<Table> t = catalog.Find(written)) return RelationOidOf(t->id());
  if (auto view = catalog.FindView(written, CurrentSearchPath().session))
    return RelationOidOf(view->id);
  if (auto seq = catalog.FindSequence(written)) return RelationOidOf(seq->schema()->id);
  if (std::shared_ptr<Table> t = catalog.FindIndexTable(written)) {
    for (const auto& index : t->IndexSnapshot()) {
      if (index->schema().name == rel) return RelationOidOf(index->schema().id);
    }
  }
  return std::nullopt;
}

int64_t SystemTables::TableOid(const Table& table) {
  const uint32_t id = table.id();
  using system::kSequenceRelationIdBase;
  using system::kSystemTableIdBase;
  if (id >= kSystemTableIdBase && id - kSystemTableIdBase < system::Registry().size()) {
    return system::SystemOid(system::Registry()[id - kSystemTableIdBase]);
  }
  if (id >= kSequenceRelationIdBase && id < kSystemTableIdBase) {
    return RelationOidOf(id - kSequenceRelationIdBase);
  }
  return RelationOidOf(id);
}

std::optional<std::string> SystemTables::RelationName(const Catalog& catalog, int64_t oid) {
  Snapshot s = TakeSnapshot(catalog, CurrentSearchPath().session);
  for (const RelationInfo& r : Relations(s)) {
    if (r.oid != oid) continue;
    // Names outside the search path are qualified, as PostgreSQL does.
    std::string n = QuoteIdent(r.name);
    if (r.namespace_oid == kOidInformationSchemaNamespace) n = "information_schema." + n;
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
  const bool array = key.size() > 2 && key.compare(key.size() - 2, 2, "[]") == 0;
  if (array) key.resize(key.size() - 2);  // an array type: its element's array_oid
  if (auto it = kAliases.find(key); it != kAliases.end()) key = it->second;
  if (name == "\"char\"") key = "char";
  for (const BuiltinType& t : BuiltinTypes()) {
    if (key != t.name) continue;
    if (!array) return t.oid;
    if (t.array_oid != 0) return t.array_oid;
  }
  return std::nullopt;
}

std::optional<std::string> SystemTables::TypeName(int64_t oid) {
  if (const BuiltinType* t = FindBuiltinType(oid); t != nullptr) return std::string(t->display);
  for (const BuiltinType& e : BuiltinTypes()) {  // an array type: its element's name and "[]"
    if (e.array_oid == oid) return std::string(e.display) + "[]";
  }
  return std::nullopt;
}

std::optional<int64_t> SystemTables::NamespaceOid(const Catalog& catalog, std::string_view name) {
  std::string n = NamePart(name);
  if (n == "pg_catalog") return kOidPgCatalogNamespace;
  if (n == "public") return kOidPublicNamespace;
  if (n == "information_schema") return kOidInformationSchemaNamespace;
  if (int64_t oid = catalog.SchemaOid(n); oid != 0 && catalog.SchemaExists(n)) return oid;
  return std::nullopt;
}

std::optional<std::string> SystemTables::NamespaceName(const Catalog& catalog, int64_t oid) {
  if (oid == kOidPgCatalogNamespace || oid == kOidPublicNamespace ||
      oid == kOidInformationSchemaNamespace) {
    return NamespaceNameOf(oid);
  }
  for (const NamespaceDef& n : catalog.ListSchemas()) {
    if (catalog.SchemaOid(n.name) == oid) return QuoteIdent(n.name);
  }
  return std::nullopt;
}

std::string SystemTables::FormatType(int64_t oid, int64_t typmod) {
  const BuiltinType* t = FindBuiltinType(oid);
  if (t == nullptr) {
    for (const BuiltinType& e : BuiltinTypes()) {  // an array type: its element's name and "[]"
      if (e.array_oid == oid) return FormatType(e.oid, typmod) + "[]";
    }
    return "???";
  }
  std::string out = t->display;
  if ((oid == kOidVarchar || oid == kOidBpchar) && typmod >= 4)
    out += "(" + std::to_string(typmod - 4) + ")";
  if (oid == kOidNumeric && typmod >= 4) {
    out += "(" + std::to_string(numeric::TypmodPrecision(static_cast<int32_t>(typmod - 4))) + "," +
           std::to_string(numeric::TypmodScale(static_cast<int32_t>(typmod - 4))) + ")";
  }
  if (oid == kOidTimestamp && typmod >= 0)
    out = "timestamp(" + std::to_string(typmod) + ") without time zone";
  if (oid == kOidTimestampTz && typmod >= 0)
    out = "timestamp(" + std::to_string(typmod) + ") with time zone";
  if (oid == kOidTime && typmod >= 0)
    out = "time(" + std::to_string(typmod) + ") without time zone";
  return out;
}

std::optional<std::string> SystemTables::IndexDef(const Catalog& catalog, int64_t oid,
                                                  int64_t column, bool pretty) {
  for (const auto& t : catalog.List()) {
    for (const auto& index : t->IndexSnapshot()) {
      if (RelationOidOf(index->schema().id) != oid) continue;
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
    if (RelationOidOf(t->id()) == oid) return t;
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
      if (CheckOidOf(schema.id, i) == oid) {
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
      if (RelationOidOf(index->schema().id) == oid && index->schema().IsConstraint()) {
        return ConstraintDefinition(t->schema(), index->schema());
      }
    }
    const TableSchema& schema = t->schema();
    for (size_t i = 0; i < schema.checks.size(); ++i) {
      if (CheckOidOf(schema.id, i) == oid) return CheckDefinition(schema.checks[i]);
    }
    for (size_t i = 0; i < schema.foreign_keys.size(); ++i) {
      if (ForeignKeyOidOf(schema.id, i) == oid) {
        return ForeignKeyDefinition(catalog, schema, schema.foreign_keys[i]);
      }
    }
  }
  return std::nullopt;
}

std::string SystemTables::UserName(int64_t oid) {
  if (oid == kOidBootstrapSuperuser) return system::kBootstrapUser;
  return "unknown (OID=" + std::to_string(oid) + ")";
}

std::optional<std::string> SystemTables::ViewDef(const Catalog& catalog, int64_t oid) {
  const system::Snapshot s = system::TakeSnapshot(catalog, CurrentSearchPath().session);
  for (const auto& view : s.views) {
    if (RelationOidOf(view->id) == oid) return ViewDefinition(s, *view);
  }
  return std::nullopt;
}

bool SystemTables::RelationVisible(const Catalog& catalog, int64_t oid) {
  // The search path is public and pg_catalog: information_schema's views are not visible
  // (ORMs list "the views" as those pg_table_is_visible accepts).
  Snapshot s = TakeSnapshot(catalog, CurrentSearchPath().session);
  for (const RelationInfo& r : Relations(s)) {
    if (r.oid != oid) continue;
    if (r.system != nullptr) return r.namespace_oid != kOidInformationSchemaNamespace;
    return catalog.IsVisible(RelNsp(r), r.name);
  }
  return false;
}

}  // namespace meridian::catalog
