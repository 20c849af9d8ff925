// pg_tables, pg_views and pg_indexes: PostgreSQL's system views over the relations.
#include "catalog/system/system_table.h"

namespace meridian::catalog::system {

static std::vector<Row> PgTablesRows(const Snapshot& s) {
  std::vector<Row> rows;
  for (size_t t = 0; t < s.tables.size(); ++t) {
    rows.push_back({T(s.tables[t]->schema().nsp), T(s.tables[t]->name()), T(kBootstrapUser), N(),
                    B(!s.indexes[t].empty()), B(false), B(false), B(false)});
  }
  for (const SystemTable& st : Registry()) {
    if (st.view) continue;
    rows.push_back(
        {T(st.schema), T(st.name), T(kBootstrapUser), N(), B(false), B(false), B(false), B(false)});
  }
  return rows;
}

SystemTable PgTables() {
  return {"pg_catalog",
          "pg_tables",
          0,
          true,
          {{"schemaname", Type::Text()},
           {"tablename", Type::Text()},
           {"tableowner", Type::Text()},
           {"tablespace", Type::Text()},
           {"hasindexes", Type::Boolean()},
           {"hasrules", Type::Boolean()},
           {"hastriggers", Type::Boolean()},
           {"rowsecurity", Type::Boolean()}},
          PgTablesRows};
}

static std::vector<Row> PgViewsRows(const Snapshot& s) {
  std::vector<Row> rows;
  for (const auto& view : s.views) {
    rows.push_back({T(view->nsp), T(view->name), T(kBootstrapUser), T(ViewDefinition(s, *view))});
  }
  for (const SystemTable& st : Registry()) {
    if (!st.view) continue;
    rows.push_back({T(st.schema), T(st.name), T(kBootstrapUser), N()});
  }
  return rows;
}

SystemTable PgViews() {
  return {"pg_catalog",
          "pg_views",
          0,
          true,
          {{"schemaname", Type::Text()},
           {"viewname", Type::Text()},
           {"viewowner", Type::Text()},
           {"definition", Type::Text()}},
          PgViewsRows};
}

static std::vector<Row> PgIndexesRows(const Snapshot& s) {
  std::vector<Row> rows;
  for (size_t t = 0; t < s.tables.size(); ++t) {
    for (const auto& index : s.indexes[t]) {
      rows.push_back({T(s.tables[t]->schema().nsp), T(s.tables[t]->name()), T(index->schema().name),
                      N(), T(IndexDefinition(s.tables[t]->schema(), index->schema()))});
    }
  }
  return rows;
}

SystemTable PgIndexes() {
  return {"pg_catalog",
          "pg_indexes",
          0,
          true,
          {{"schemaname", Type::Text()},
           {"tablename", Type::Text()},
           {"indexname", Type::Text()},
           {"tablespace", Type::Text()},
           {"indexdef", Type::Text()}},
          PgIndexesRows};
}

}  // namespace meridian::catalog::system
