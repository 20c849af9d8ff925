// The catalog's on-disk form, data_dir/catalog.meta: a versioned text file rewritten whole and
// atomically on every DDL (write catalog.meta.tmp, fsync, rename over catalog.meta, fsync the
// directory), so a crash leaves either the old or the new catalog, never a mix.
//
// Format (version 10); every string is length-prefixed as <byte length>:<bytes>:
//   MERIDIAN-CATALOG 10
//   next_table_id <n>                         next relation id (tables and indexes share them)
//   schema <id> <name> <owner>                once per CREATE SCHEMA schema (namespace.h), in id
//                                             order; a relation outside public is written with
//                                             its name as <schema> 0x1F <name>
//   table <id> <name> <column count>          once per table, followed by its lines:
//   column <name> <TypeId number> <modifier> <array element TypeId, 0 unless an array>
//          <not_null 0|1> <default SQL text, maybe 0:>
//          <dropped 0|1> <missing value>      one per position, dropped ones too; the missing
//                                             value (schema.h) is the hex of a one-column
//                                             tuple (storage/tuple.h), 0: for NULL
//   pk <k> <column index>...                  k = 0 when the table has no primary key
//   checks <k>                                then k lines: check <name> <expression SQL text>
//   fkeys <k>                                 then k lines (schema.h ForeignKey):
//          fkey <name> <referenced table id> <n> <column>... (n) <referenced column>... (n)
//               <match> <on_delete> <on_update>   (the letters as numbers: 's' = 115)
//   rows <n>                                  live row estimate when the file was written
//   index <id> <name> <table id> <kind> <unique 0|1> <k> (<column> <desc 0|1> [<expr>])...
//         <method> <predicate>
//                                             once per index, after every table; kind is
//                                             IndexKind (0 index, 1 primary key, 2 unique),
//                                             method IndexMethod (0 btree, 1 rtree); column
//                                             -1 is an expression key, followed by its SQL
//                                             text; predicate: a partial index's WHERE as SQL
//                                             text, 0: for none (both re-bound at open)
//   view <id> <name> <k> (<column name> <TypeId> <modifier> <array element TypeId>)...
//        <query SQL text>
//        <r> <relation id>... <c> (<table id> <column position>)...
//                                             once per permanent view (ViewSchema), after the
//                                             indexes, in id order; the query is re-parsed at
//                                             open (and bound only when a statement uses it)
//   sequence <id> <name> <TypeId> <increment> <min> <max> <start> <cache> <cycle 0|1>
//        <owner table id, 0: none> <owner column position, -1: none> <identity 0|'a'|'d' as a
//        number>
//                                             once per sequence, after the views, in id order;
//                                             the counter is in tables/<id>.seq (sequence.h)
//   end <table count> <index count> <view count> <sequence count> <schema count>
//                                             detects a truncated file
// Version 10 added the array element type of the column line (array columns).
// Version 9 added expression keys (column -1 and its text) and the predicate of the index line.
// Version 8 added the schema lines, schema-qualified names and the schema count of the end line.
// Version 7 added the fkeys line and its fkey lines (versions 1-6 have no foreign keys) and
// the access method at the end of the index line (older files: btree).
// Version 6 added the sequence lines and the sequence count of the end line.
// Version 5 added the view lines and the view count of the end line; versions 1-4 are read as
// before (no views).
// Version 4 has the lines of version 3; it says that index files are kept as checkpoint
// images (docs/txn.md section 5), so recovery may use them instead of rebuilding.
// Version 3 is read as such, but an unclean stop of it rebuilds every index.
// Version 2 (no dropped/missing fields, no checks line) is still read, and version 1 (no
// rows/index lines either, "end <table count>"): Catalog::Open then creates the primary-key
// indexes that version 1 kept in memory only.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "catalog/index.h"
#include "catalog/namespace.h"
#include "catalog/schema.h"
#include "catalog/sequence.h"
#include "meridian/status.h"
#include "storage/file.h"

namespace meridian::catalog {

inline constexpr int kCatalogFormatVersion = 10;
inline constexpr const char* kCatalogFileName = "catalog.meta";

struct CatalogState {
  int version = kCatalogFormatVersion;  // of the file read; writes always use the newest
  uint32_t next_table_id = 1;
  std::vector<TableSchema> tables;
  std::vector<int64_t> live_rows;  // parallel to tables
  std::vector<IndexSchema> indexes;
  std::vector<ViewSchema> views;          // permanent views only, in id order
  std::vector<SequenceSchema> sequences;  // in id order
  std::vector<NamespaceDef> schemas;      // CREATE SCHEMA schemas, in id order
};

std::string SerializeCatalog(const CatalogState& state);
// Parses SerializeCatalog's output and re-parses every DEFAULT and CHECK with
// parser::ParseExpression and every view's query with parser::Parse.
// XX001 on malformed input.
Result<CatalogState> ParseCatalog(std::string_view text);

// Atomically replaces dir/catalog.meta with state.
Status WriteCatalogFile(storage::FileSystem* fs, const std::string& dir, const CatalogState& state);
// Reads dir/catalog.meta; an absent file gives an empty state (a new database).
Result<CatalogState> ReadCatalogFile(storage::FileSystem* fs, const std::string& dir);

}  // namespace meridian::catalog
