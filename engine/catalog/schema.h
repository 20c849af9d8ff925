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

struct TableSchema {
  uint32_t id = 0;
  std::string name;
  std::vector<Column> columns;
  std::vector<int> primary_key;  // column indexes, in key order; empty when none
  std::vector<CheckConstraint> checks;

  // Index of the (not dropped) column named name, or -1.
  int FindColumn(const std::string& column) const;
  // Positions of the columns that are not dropped, in order (what `*` and INSERT expand to).
  std::vector<int> LiveColumns() const;
  // The CHECK constraint named name, or null.
  const CheckConstraint* FindCheck(const std::string& name) const;
  std::vector<Type> Types() const;
  bool IsPrimaryKeyColumn(int index) const;
  // PostgreSQL's name of the primary key constraint: "<table>_pkey".
  std::string PrimaryKeyName() const { return name + "_pkey"; }
};

// Maps a parsed type (canonical lower-case name, see ast::TypeSpec) to a Meridian type:
// smallint → integer, real → double precision, char(n) → varchar(n). 42704 for unknown names.
Result<Type> TypeFromSpec(const ast::TypeSpec& spec);
// TypeFromSpec for a table column: arrays are values only (0A000).
Result<Type> ColumnTypeFromSpec(const ast::TypeSpec& spec);
// 0A000 "array columns are not supported yet" for an array type, else OK.
Status CheckColumnType(Type type, uint32_t position);

}  // namespace meridian::catalog
