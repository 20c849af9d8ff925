// \dt and \d displays (see catalog_format.h).
#include "shell/catalog_format.h"

#include <algorithm>

namespace meridian::shell {

TextTable TableListTable(std::vector<client::TableDescription> tables) {
  std::sort(tables.begin(), tables.end(),
            [](const auto& a, const auto& b) { return a.name < b.name; });
  TextTable t;
  t.title = "List of relations";
  t.headers = {"Name", "Type", "Columns"};
  t.right_align = {false, false, true};
  for (const auto& table : tables) {
    t.rows.push_back({table.name, "table", std::to_string(table.columns.size())});
  }
  return t;
}

TextTable TableDetailTable(const client::TableDescription& table) {
  TextTable t;
  t.title = "Table \"" + table.name + "\"";
  t.headers = {"Column", "Type", "Nullable", "Default"};
  t.right_align = {false, false, false, false};
  t.footer = false;
  for (const auto& c : table.columns) {
    t.rows.push_back({c.name, c.type.DisplayType(), c.not_null ? "not null" : "", c.default_expr});
  }
  if (!table.primary_key.empty()) {
    std::string line = "Primary key: (";
    for (size_t i = 0; i < table.primary_key.size(); ++i) {
      if (i > 0) line += ", ";
      line += table.primary_key[i];
    }
    t.footer_lines.push_back(line + ")");
  }
  return t;
}

}  // namespace meridian::shell
