// System tables: read-only pg_catalog and information_schema tables computed from the catalog
// when a statement names them (psql's \dt / \d / \di, driver type lookups, information_schema
// queries). Each is a Table whose rows live in memory (table.h), so binding, planning and
// execution treat it as any other table. Also the name <-> object id mappings behind
// ::regclass, ::regtype and ::regnamespace and the catalog functions (format_type,
// pg_get_indexdef, ...). The tables are defined in catalog/system/ (its README.md); object ids
// follow PostgreSQL and are named in meridian/pg_oids.h.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "catalog/table.h"

namespace meridian::catalog {

// PostgreSQL's quote_ident: a plain lower-case name as it is, anything else in double quotes
// (embedded quotes doubled).
std::string QuoteIdent(const std::string& id);

class Catalog;
class Sequence;

class SystemTables {
 public:
  // The system table schema.name, built from the catalog now (an empty schema searches
  // pg_catalog, which PostgreSQL's search path puts first); null when there is none.
  static std::shared_ptr<Table> Build(const Catalog& catalog, std::string_view schema,
                                      std::string_view name, uint64_t session = 0);
  // A sequence as a relation (SELECT last_value, log_cnt, is_called FROM seq): one row, its
  // state now.
  static std::shared_ptr<Table> SequenceRelation(const Sequence& sequence);
  // Whether Build would find schema.name.
  static bool Exists(std::string_view schema, std::string_view name);

  // ::regclass and friends: a name as written ("t", "public.t", "pg_catalog.pg_class",
  // quoted parts kept) to its oid, and an oid to the name PostgreSQL prints.
  static std::optional<int64_t> RelationOid(const Catalog& catalog, std::string_view name);
  static std::optional<std::string> RelationName(const Catalog& catalog, int64_t oid);
  static std::optional<int64_t> TypeOid(std::string_view name);
  static std::optional<std::string> TypeName(int64_t oid);
  static std::optional<int64_t> NamespaceOid(const Catalog& catalog, std::string_view name);
  static std::optional<std::string> NamespaceName(const Catalog& catalog, int64_t oid);

  // format_type(oid, typmod): "integer", "character varying(20)"; "???" for unknown oids.
  static std::string FormatType(int64_t oid, int64_t typmod);
  // pg_get_indexdef / pg_get_constraintdef of an index (a constraint shares its index's oid);
  // nullopt when no such object exists.
  // pg_get_indexdef(oid, column): column 0 the CREATE INDEX statement, n the n-th key column
  // ('' beyond the last, as PostgreSQL).
  // pretty: pg_get_indexdef's third argument (no schema, pretty expressions).
  static std::optional<std::string> IndexDef(const Catalog& catalog, int64_t oid,
                                             int64_t column = 0, bool pretty = false);
  // A table's pg_class oid (its tableoid): a user table's or a system table's.
  static int64_t TableOid(const Table& table);
  // The user table with this oid, or null.
  static std::shared_ptr<Table> TableByOid(const Catalog& catalog, int64_t oid);
  // The CHECK constraint with this pg_constraint oid: its position in its table's
  // schema().checks, with the table in *table; nullopt when no CHECK has it.
  static std::optional<size_t> FindCheck(const Catalog& catalog, int64_t oid,
                                         std::shared_ptr<Table>* table);
  // pg_relation_is_publishable: an ordinary user table (not a system table, not an index).
  static bool IsUserTable(const Catalog& catalog, int64_t oid);
  static std::optional<std::string> ConstraintDef(const Catalog& catalog, int64_t oid);
  // pg_get_viewdef(oid): the view's query (as written); nullopt when oid is no view.
  static std::optional<std::string> ViewDef(const Catalog& catalog, int64_t oid);
  // pg_get_userbyid: the owner's name, or "unknown (OID=n)".
  static std::string UserName(int64_t oid);
  // pg_table_is_visible: whether the relation exists (every schema is on the search path).
  static bool RelationVisible(const Catalog& catalog, int64_t oid);
};

}  // namespace meridian::catalog
