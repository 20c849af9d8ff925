// Catalog descriptions returned by Connection::DescribeCatalog (for the shell's \dt and \d).
#pragma once

#include <string>
#include <vector>

#include "meridian/client/value.h"

namespace meridian::client {

struct ColumnDescription {
  std::string name;
  ColumnInfo type;  // name, type_name, type_mod, pg_oid
  bool not_null = false;
  std::string default_expr;  // SQL text; empty when none
  bool primary_key = false;
};

struct IndexDescription {
  std::string name;
  std::vector<std::string> columns;  // key columns, in key order
  std::vector<bool> descending;      // per key column
  bool unique = false;
  bool primary_key = false;  // backs the PRIMARY KEY
  bool constraint = false;   // backs a PRIMARY KEY or UNIQUE constraint
};

struct TableDescription {
  std::string name;
  std::vector<ColumnDescription> columns;
  std::vector<std::string> primary_key;   // column names, in key order
  std::vector<IndexDescription> indexes;  // in creation order
};

}  // namespace meridian::client
