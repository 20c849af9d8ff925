// Schemas (PostgreSQL's namespaces) of relations and the search path that resolves the names a
// statement writes unqualified. Every relation lives in one schema: public (built in, oid 2200),
// a schema made by CREATE SCHEMA (oid 16384 + its id, from the relation id counter), or a
// session's pg_temp_<n> (TEMP tables). The catalog keys relations by Key(schema, name).
// A statement runs under its session's ScopedSearchPath (a thread-local, like the session time
// zone), which the catalog reads when it resolves an unqualified name.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace meridian::catalog {

inline constexpr const char* kPublicSchema = "public";

// A schema made by CREATE SCHEMA (public is built in and not one of these).
struct NamespaceDef {
  uint32_t id = 0;  // in the relation id space: pg_namespace oid = 16384 + id
  std::string name;
  std::string owner = "meridian";
};

// The catalog's key of relation name in schema nsp.
std::string RelationKey(const std::string& nsp, const std::string& name);

// The search path of the statement running on this thread.
struct SearchPath {
  std::vector<std::string> schemas;  // as set, "$user" and pg_temp entries included
  std::string user = "meridian";     // what "$user" names
  uint64_t session = 0;              // whose pg_temp schema is searched first (0: none)
  // The session's parameters as SHOW ALL lists them (SessionSettings::ShowAll), which
  // pg_settings shows: reached from here because this is what the catalog sees of the
  // session. Called only by that session's statements (the settings outlive them).
  std::function<std::vector<std::vector<std::string>>()> settings;
};

// The current thread's search path: `"$user", public` of no session unless a ScopedSearchPath
// set one.
const SearchPath& CurrentSearchPath();

class ScopedSearchPath {
 public:
  explicit ScopedSearchPath(const SearchPath* path);  // null: leaves the current one
  ~ScopedSearchPath();
  ScopedSearchPath(const ScopedSearchPath&) = delete;
  ScopedSearchPath& operator=(const ScopedSearchPath&) = delete;

 private:
  const SearchPath* previous_;
};

// Counts search_path changes of any session: Catalog::schema_version() adds it, so a cached
// plan bound under another path is not reused.
void NoteSearchPathChange();
uint64_t SearchPathChanges();

// A session's temporary schema: pg_temp_<session>.
std::string TempSchemaName(uint64_t session);
// Parses search_path's value as SET stores it ("\"$user\", public"): the items, unquoted.
std::vector<std::string> ParseSearchPath(const std::string& value);

}  // namespace meridian::catalog
