// information_schema: schemata, tables, columns, views and sequences (the SQL standard's
// catalog views, with the columns tools read: columns has 20 of PostgreSQL's 44).
#include "catalog/system/builtin_types.h"
#include "catalog/system/system_table.h"

namespace meridian::catalog::system {

namespace {

std::string SqlTypeName(Type t) {
  return t.id == TypeId::kVarchar ? "character varying" : t.Name();
}

}  // namespace

static std::vector<Row> InformationSchemaSequencesRows(const Snapshot& s) {
  std::vector<Row> rows;
  for (const auto& q : s.sequences) {
    const int64_t bits = q->type == TypeId::kSmallInt ? 16 : q->type == TypeId::kInteger ? 32 : 64;
    rows.push_back({T(kDatabaseName), T(q->nsp), T(q->name), T(Type{q->type}.Name()), I(bits), I(2),
                    I(0), T(std::to_string(q->start)), T(std::to_string(q->min_value)),
                    T(std::to_string(q->max_value)), T(std::to_string(q->increment)),
                    T(q->cycle ? "YES" : "NO")});
  }
  return rows;
}

SystemTable InformationSchemaSequences() {
  return {"information_schema",
          "sequences",
          0,
          true,
          {{"sequence_catalog", Type::Text()},
           {"sequence_schema", Type::Text()},
           {"sequence_name", Type::Text()},
           {"data_type", Type::Text()},
           {"numeric_precision", Type::Integer()},
           {"numeric_precision_radix", Type::Integer()},
           {"numeric_scale", Type::Integer()},
           {"start_value", Type::Text()},
           {"minimum_value", Type::Text()},
           {"maximum_value", Type::Text()},
           {"increment", Type::Text()},
           {"cycle_option", Type::Text()}},
          InformationSchemaSequencesRows};
}

static std::vector<Row> InformationSchemaViewsRows(const Snapshot& s) {
  std::vector<Row> rows;
  for (const auto& view : s.views) {
    rows.push_back({T(kDatabaseName), T(view->nsp), T(view->name), T(ViewDefinition(s, *view)),
                    T("NONE"), T("NO"), T("NO"), T("NO"), T("NO"), T("NO")});
  }
  return rows;
}

SystemTable InformationSchemaViews() {
  return {"information_schema",
          "views",
          0,
          true,
          {{"table_catalog", Type::Text()},
           {"table_schema", Type::Text()},
           {"table_name", Type::Text()},
           {"view_definition", Type::Text()},
           {"check_option", Type::Text()},
           {"is_updatable", Type::Text()},
           {"is_insertable_into", Type::Text()},
           {"is_trigger_updatable", Type::Text()},
           {"is_trigger_deletable", Type::Text()},
           {"is_trigger_insertable_into", Type::Text()}},
          InformationSchemaViewsRows};
}

static std::vector<Row> InformationSchemaSchemataRows(const Snapshot& s) {
  std::vector<Row> rows;
  for (const char* n : {"information_schema", "pg_catalog", "public"}) {
    rows.push_back({T(kDatabaseName), T(n), T(kBootstrapUser), N(), N(), N(), N()});
  }
  for (const NamespaceDef& n : s.schemas) {
    rows.push_back({T(kDatabaseName), T(n.name), T(n.owner), N(), N(), N(), N()});
  }
  return rows;
}

SystemTable InformationSchemaSchemata() {
  return {"information_schema",
          "schemata",
          0,
          true,
          {{"catalog_name", Type::Text()},
           {"schema_name", Type::Text()},
           {"schema_owner", Type::Text()},
           {"default_character_set_catalog", Type::Text()},
           {"default_character_set_schema", Type::Text()},
           {"default_character_set_name", Type::Text()},
           {"sql_path", Type::Text()}},
          InformationSchemaSchemataRows};
}

static std::vector<Row> InformationSchemaTablesRows(const Snapshot& s) {
  std::vector<Row> rows;
  for (const auto& table : s.tables) {
    rows.push_back({T(kDatabaseName), T(table->schema().nsp), T(table->name()),
                    T(table->schema().temp_owner != 0 ? "LOCAL TEMPORARY" : "BASE TABLE"), N(), N(),
                    N(), N(), N(), T("YES"), T("NO"), N()});
  }
  for (const auto& view : s.views) {
    rows.push_back({T(kDatabaseName), T(view->nsp), T(view->name), T("VIEW"), N(), N(), N(), N(),
                    N(), T("NO"), T("NO"), N()});
  }
  for (const SystemTable& st : Registry()) {
    rows.push_back({T(kDatabaseName), T(st.schema), T(st.name), T(st.view ? "VIEW" : "BASE TABLE"),
                    N(), N(), N(), N(), N(), T("NO"), T("NO"), N()});
  }
  return rows;
}

SystemTable InformationSchemaTables() {
  return {"information_schema",
          "tables",
          0,
          true,
          {{"table_catalog", Type::Text()},
           {"table_schema", Type::Text()},
           {"table_name", Type::Text()},
           {"table_type", Type::Text()},
           {"self_referencing_column_name", Type::Text()},
           {"reference_generation", Type::Text()},
           {"user_defined_type_catalog", Type::Text()},
           {"user_defined_type_schema", Type::Text()},
           {"user_defined_type_name", Type::Text()},
           {"is_insertable_into", Type::Text()},
           {"is_typed", Type::Text()},
           {"commit_action", Type::Text()}},
          InformationSchemaTablesRows};
}

static std::vector<Row> InformationSchemaColumnsRows(const Snapshot& s) {
  std::vector<Row> rows;
  auto add = [&](const std::string& schema, const std::string& table, size_t pos,
                 const std::string& name, Type type, bool not_null, const std::string& default_text,
                 bool updatable) {
    Value max_len = N(), octets = N(), precision = N(), radix = N(), scale = N();
    Value datetime_precision = N();
    if ((type.id == TypeId::kVarchar || type.id == TypeId::kChar) && type.modifier >= 0) {
      max_len = I(type.modifier);
      octets = I(static_cast<int64_t>(type.modifier) * 4);
    } else if (type.IsString()) {
      octets = I(1073741824);
    }
    if (type.id == TypeId::kSmallInt) precision = I(16);
    if (type.id == TypeId::kInteger) precision = I(32);
    if (type.id == TypeId::kBigInt) precision = I(64);
    if (type.id == TypeId::kReal) precision = I(24);
    if (type.id == TypeId::kDouble) precision = I(53);
    if (type.IsNumeric()) radix = I(type.id == TypeId::kNumeric ? 10 : 2);
    if (type.IsIntegral()) scale = I(0);
    if (type.id == TypeId::kNumeric && type.modifier >= 0) {
      precision = I(numeric::TypmodPrecision(type.modifier));
      scale = I(numeric::TypmodScale(type.modifier));
    }
    if (type.id == TypeId::kDate) datetime_precision = I(0);
    if (type.id == TypeId::kTimestamp || type.id == TypeId::kTimestampTz ||
        type.id == TypeId::kTime || type.id == TypeId::kInterval)
      datetime_precision = I(type.modifier >= 0 ? type.modifier : 6);
    const BuiltinType* b = FindBuiltinType(type.PgOid());
    rows.push_back({T(kDatabaseName),
                    T(schema),
                    T(table),
                    T(name),
                    I(static_cast<int64_t>(pos)),
                    default_text.empty() ? N() : T(default_text),
                    T(not_null ? "NO" : "YES"),
                    T(SqlTypeName(type)),
                    max_len,
                    octets,
                    precision,
                    radix,
                    scale,
                    datetime_precision,
                    T(kDatabaseName),
                    T("pg_catalog"),
                    T(b != nullptr ? b->name : "text"),
                    T("NO"),
                    T("NEVER"),
                    T(updatable ? "YES" : "NO")});
  };
  for (const auto& table : s.tables) {
    const TableSchema& schema = table->schema();
    for (size_t c = 0; c < schema.columns.size(); ++c) {
      const Column& col = schema.columns[c];
      if (col.dropped) continue;
      add(schema.nsp, schema.name, c + 1, col.name, col.type, col.not_null, col.default_text, true);
    }
  }
  for (const auto& view : s.views) {
    for (size_t c = 0; c < view->columns.size(); ++c) {
      add(view->nsp, view->name, c + 1, view->columns[c].name, view->columns[c].type, false, "",
          false);
    }
  }
  return rows;
}

SystemTable InformationSchemaColumns() {
  return {"information_schema",
          "columns",
          0,
          true,
          {{"table_catalog", Type::Text()},
           {"table_schema", Type::Text()},
           {"table_name", Type::Text()},
           {"column_name", Type::Text()},
           {"ordinal_position", Type::Integer()},
           {"column_default", Type::Text()},
           {"is_nullable", Type::Text()},
           {"data_type", Type::Text()},
           {"character_maximum_length", Type::Integer()},
           {"character_octet_length", Type::Integer()},
           {"numeric_precision", Type::Integer()},
           {"numeric_precision_radix", Type::Integer()},
           {"numeric_scale", Type::Integer()},
           {"datetime_precision", Type::Integer()},
           {"udt_catalog", Type::Text()},
           {"udt_schema", Type::Text()},
           {"udt_name", Type::Text()},
           {"is_identity", Type::Text()},
           {"is_generated", Type::Text()},
           {"is_updatable", Type::Text()}},
          InformationSchemaColumnsRows};
}

}  // namespace meridian::catalog::system
