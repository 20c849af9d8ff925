// Table schemas as the catalog stores them: columns (name, type, NOT NULL, DEFAULT), the
// primary key and CHECK constraints. A TableSchema is immutable once published; ALTER TABLE
// publishes a new one (Table::SetSchema), so one is shared freely between threads without
// locking.
//
// Column positions are stable, as PostgreSQL's attnum: a stored tuple holds one slot per
// position. ADD COLUMN appends a position (rows stored before hold fewer slots and read the
// column's `missing` value); DROP COLUMN keeps the position as a dropped column (PostgreSQL's
// attisdropped, renamed "........pg.dropped.N........") that every name lookup, `*` and
// column list skips, and whose slot new rows store as NULL. Types never change.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "meridian/parser/ast.h"
#include "meridian/status.h"
#include "meridian/value.h"

namespace meridian::catalog {

struct Column {
  std::string name;
  Type type;
  bool not_null = false;
  std::string default_text;                       // DEFAULT's SQL text; empty when none
  std::shared_ptr<const ast::Expr> default_expr;  // parsed default_text; null when none
  bool dropped = false;  // ALTER TABLE DROP COLUMN: a hidden slot (see the top of this file)
  // What rows stored before ADD COLUMN read for this column (PostgreSQL's attmissingval): the
  // DEFAULT evaluated once when the column was added, else NULL.
  Value missing;
};

// CHECK (expr), column or table constraint: name (PostgreSQL's default "<table>_<column>_check"
// or "<table>_check") and the expression's SQL text, re-parsed when the catalog is read.
struct CheckConstraint {
  std::string name;
  std::string text;
  std::shared_ptr<const ast::Expr> expr;
};

// FOREIGN KEY (columns) REFERENCES ref_table (ref_columns), stored with the referencing
// table: name (PostgreSQL's default "<table>_<columns joined by _>_fkey"), the referencing
// column positions and, in the same order, the referenced table's id and column positions
// (which a PRIMARY KEY or UNIQUE index of ref_table covers exactly). Actions use PostgreSQL's
// confdeltype letters: 'a' NO ACTION, 'r' RESTRICT, 'c' CASCADE, 'n' SET NULL, 'd' SET DEFAULT;
// match 's' SIMPLE or 'f' FULL. Enforced by engine/execution/foreign_keys.cc.
struct ForeignKey {
  std::string name;
  std::vector<int> columns;
  uint32_t ref_table = 0;
  std::vector<int> ref_columns;
  char match = 's';
  char on_delete = 'a';
  char on_update = 'a';
};

struct TableSchema {
  uint32_t id = 0;
  std::string name;
  std::string nsp = "public";  // its schema (namespace.h); pg_temp_<n> for a TEMP table
  // TEMP table: the session (SessionSettings::session_id) that owns it and its ON COMMIT action
  // (ast::OnCommit as a number); never written to disk. 0 for a permanent table.
  uint64_t temp_owner = 0;
  int on_commit = 0;
  std::vector<Column> columns;
  std::vector<int> primary_key;  // column indexes, in key order; empty when none
  std::vector<CheckConstraint> checks;
  std::vector<ForeignKey> foreign_keys;

  // Index of the (not dropped) column named name, or -1.
  int FindColumn(const std::string& column) const;
  // Positions of the columns that are not dropped, in order (what `*` and INSERT expand to).
  std::vector<int> LiveColumns() const;
  // The CHECK constraint named name, or null.
  const CheckConstraint* FindCheck(const std::string& name) const;
  // The foreign key named name, or null.
  const ForeignKey* FindForeignKey(const std::string& name) const;
  std::vector<Type> Types() const;
  bool IsPrimaryKeyColumn(int index) const;
  // PostgreSQL's name of the primary key constraint: "<table>_pkey".
  std::string PrimaryKeyName() const { return name + "_pkey"; }
};

// CREATE VIEW: a named query, stored as its SQL text and expanded where FROM names it (the
// binder binds the parsed query as a derived table). Immutable once published; CREATE OR
// REPLACE publishes a new one under the same id. The view reads its relations by name, so the
// catalog keeps what it depends on: the relations (tables and views) its query names and the
// table columns (id, position) it reads. DROP of one of them, or DROP COLUMN of one of those
// columns, is refused (2BP01) unless CASCADE drops the view too; renaming a table or a column
// a view reads is refused (0A000): the stored text names them.
struct ViewSchema {
  uint32_t id = 0;
  std::string name;
  std::string nsp = "public";                    // its schema
  std::vector<Column> columns;                   // output names (after the column list) and types
  std::string query_text;                        // the query's SQL text as written
  std::shared_ptr<const ast::SelectStmt> query;  // query_text parsed
  std::vector<uint32_t> relations;               // ids of the tables and views it names
  std::vector<std::pair<uint32_t, int>> table_columns;  // (table id, column position) it reads
  // TEMP view: the backend pid of the session that made it (never written to disk, dropped
  // when that session ends, visible to it alone); 0 for a permanent view.
  uint64_t temp_owner = 0;

  bool ReadsRelation(uint32_t relation_id) const;
  bool ReadsColumn(uint32_t table_id, int position) const;
};

// Maps a parsed type (canonical lower-case name, see ast::TypeSpec) to a Meridian type:
// smallint → integer, real → double precision, char(n) → varchar(n). 42704 for unknown names.
Result<Type> TypeFromSpec(const ast::TypeSpec& spec);
// TypeFromSpec for a table column (CheckColumnType).
Result<Type> ColumnTypeFromSpec(const ast::TypeSpec& spec);
// 0A000 for a type no column may have (record, an array of records, int2vector/oidvector);
// one-dimensional arrays of the other types are column types.
Status CheckColumnType(Type type, uint32_t position);

}  // namespace meridian::catalog
