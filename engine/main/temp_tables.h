// TEMP tables' lifetime (PostgreSQL's): ON COMMIT DELETE ROWS empties them and ON COMMIT DROP
// drops them when a transaction of their session commits; every TEMP table of a session goes
// when the session ends. They live in the session's pg_temp_<n> schema (catalog/namespace.h)
// and are never written to catalog.meta, so a restart never sees them (Catalog::Open removes
// their files).
#pragma once

#include <cstdint>

#include "catalog/catalog.h"

namespace meridian::exec {

// After a commit of session's transaction: the ON COMMIT actions of its TEMP tables.
void RunOnCommitActions(catalog::Catalog* catalog, uint64_t session);
// At the end of session: its TEMP tables (and what depends on them) and TEMP sequences are
// dropped.
void DropSessionTempTables(catalog::Catalog* catalog, uint64_t session);

}  // namespace meridian::exec
