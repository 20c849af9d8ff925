// Builds the shell's \dt and \d TABLE displays from DescribeCatalog results, as psql-like
// aligned tables.
#pragma once

#include <vector>

#include "meridian/client/catalog.h"
#include "shell/result_printer.h"

namespace meridian::shell {

// "List of relations": Name | Type | Columns, sorted by name.
TextTable TableListTable(std::vector<client::TableDescription> tables);

// Table "t": Column | Type | Nullable | Default, then "Primary key: (a, b)" when there is one.
TextTable TableDetailTable(const client::TableDescription& table);
// \di: every index with its table, by index name.
TextTable IndexListTable(const std::vector<client::TableDescription>& tables);

}  // namespace meridian::shell
