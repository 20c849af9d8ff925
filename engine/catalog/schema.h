// Table schemas as the catalog stores them: columns (name, type, NOT NULL, DEFAULT) and the
// primary key. A TableSchema is immutable once the table exists (there is no ALTER TABLE yet),
// so it is shared freely between threads without locking.
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
};

struct TableSchema {
  uint32_t id = 0;
  std::string name;
  std::vector<Column> columns;
  std::vector<int> primary_key;  // column indexes, in key order; empty when none

  // Index of the column named name, or -1.
  int FindColumn(const std::string& column) const;
  std::vector<Type> Types() const;
  bool IsPrimaryKeyColumn(int index) const;
  // PostgreSQL's name of the primary key constraint: "<table>_pkey".
  std::string PrimaryKeyName() const { return name + "_pkey"; }
};

// Maps a parsed type (canonical lower-case name, see ast::TypeSpec) to a Meridian type:
// smallint → integer, real → double precision, char(n) → varchar(n). 42704 for unknown names.
Result<Type> TypeFromSpec(const ast::TypeSpec& spec);

}  // namespace meridian::catalog
