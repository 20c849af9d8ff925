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
  if (!table.indexes.empty()) {
    // psql's footer: "t_pkey" PRIMARY KEY, btree (id)
    t.footer_lines.push_back("Indexes:");
    for (const auto& x : table.indexes) {
      std::string line = "    \"" + x.name + "\" ";
      if (x.primary_key) {
        line += "PRIMARY KEY, ";
      } else if (x.constraint) {
        line += "UNIQUE CONSTRAINT, ";
      } else if (x.unique) {
        line += "UNIQUE, ";
      }
      line += "btree (";
      for (size_t i = 0; i < x.columns.size(); ++i) {
        if (i > 0) line += ", ";
        line += x.columns[i];
        if (i < x.descending.size() && x.descending[i]) line += " DESC";
      }
      t.footer_lines.push_back(line + ")");
    }
  }
  return t;
}

TextTable IndexListTable(const std::vector<client::TableDescription>& tables) {
  std::vector<std::pair<std::string, std::string>> rows;  // (index, table)
  for (const auto& table : tables) {
    for (const auto& x : table.indexes) rows.emplace_back(x.name, table.name);
  }
  std::sort(rows.begin(), rows.end());
  TextTable t;
  t.title = "List of relations";
  t.headers = {"Name", "Type", "Table"};
  t.right_align = {false, false, false};
  for (const auto& [index, table] : rows) t.rows.push_back({index, "index", table});
  return t;
}

}  // namespace meridian::shell
