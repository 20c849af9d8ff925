// The catalog's on-disk form, data_dir/catalog.meta: a versioned text file rewritten whole and
// atomically on every DDL (write catalog.meta.tmp, fsync, rename over catalog.meta, fsync the
// directory), so a crash leaves either the old or the new catalog, never a mix.
//
// Format (version 1); every string is length-prefixed as <byte length>:<bytes>:
//   MERIDIAN-CATALOG 1
//   next_table_id <n>
//   table <id> <name> <column count>          once per table, followed by its lines:
//   column <name> <TypeId number> <modifier> <not_null 0|1> <default SQL text, maybe 0:>
//   pk <k> <column index>...                  k = 0 when the table has no primary key
//   end <table count>                         detects a truncated file
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "catalog/schema.h"
#include "meridian/status.h"
#include "storage/file.h"

namespace meridian::catalog {

inline constexpr int kCatalogFormatVersion = 1;
inline constexpr const char* kCatalogFileName = "catalog.meta";

struct CatalogState {
  uint32_t next_table_id = 1;
  std::vector<TableSchema> tables;
};

std::string SerializeCatalog(const CatalogState& state);
// Parses SerializeCatalog's output and re-parses every DEFAULT with parser::ParseExpression.
// XX001 on malformed input.
Result<CatalogState> ParseCatalog(std::string_view text);

// Atomically replaces dir/catalog.meta with state.
Status WriteCatalogFile(storage::FileSystem* fs, const std::string& dir, const CatalogState& state);
// Reads dir/catalog.meta; an absent file gives an empty state (a new database).
Result<CatalogState> ReadCatalogFile(storage::FileSystem* fs, const std::string& dir);

}  // namespace meridian::catalog
