// The system tables (engine/catalog/system/README.md): every row matches its table's declared
// column types, positions and oids stay what clients have seen (the registry is append-only),
// and the built-in types agree with Type::PgOid.
#include "catalog/system_tables.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <set>

#include "catalog/catalog.h"
#include "catalog/system/builtin_types.h"
#include "catalog/system/system_table.h"
#include "catalog_fixture.h"
#include "meridian/pg_oids.h"
#include "storage/buffer_pool.h"

namespace meridian::catalog {
namespace {

class SystemTablesTest : public CatalogFixture {
 protected:
  void SetUp() override {
    CatalogFixture::SetUp();
    if (HasFatalFailure()) return;
    TableSchema s;
    s.name = "t";
    s.columns = {Column{"id", Type::Integer(), true, "", nullptr, false, {}},
                 Column{"tags", Type::Array(Type::Varchar(8)), false, "", nullptr, false, {}},
                 Column{"price", Type::Numeric(), false, "0", nullptr, false, {}}};
    s.primary_key = {0};
    auto t = catalog_->CreateTable(std::move(s));
    ASSERT_TRUE(t.ok()) << t.status().ToString();
    IndexSchema pkey;
    pkey.name = "t_pkey";
    pkey.kind = IndexKind::kPrimaryKey;
    pkey.unique = true;
    pkey.columns = {0};
    pkey.descending = {false};
    ASSERT_TRUE(catalog_->CreateIndex(*t, std::move(pkey)).ok());  // no other thread: no lock
  }
};

// Whether a value may be stored in a column of type t (NULL in any).
bool Fits(const Value& v, Type t) {
  if (v.IsNull()) return true;
  if (t.IsArray()) return v.IsArray();
  switch (t.id) {
    case TypeId::kBigInt:
    case TypeId::kInteger:
    case TypeId::kSmallInt:
      return v.IsInt();
    case TypeId::kText:
      return v.IsString();
    case TypeId::kBoolean:
      return v.IsBool();
    case TypeId::kDouble:
      return v.IsDouble();
    default:
      return false;  // system tables declare no other type
  }
}

TEST_F(SystemTablesTest, EveryRowMatchesItsDeclaredColumns) {
  for (const system::SystemTable& st : system::Registry()) {
    SCOPED_TRACE(std::string(st.schema) + "." + st.name);
    ASSERT_TRUE(SystemTables::Exists(st.schema, st.name));
    std::shared_ptr<Table> table = SystemTables::Build(*catalog_, st.schema, st.name);
    ASSERT_NE(table, nullptr);
    ASSERT_EQ(table->schema().columns.size(), st.columns.size());
    for (size_t c = 0; c < st.columns.size(); ++c) {
      EXPECT_EQ(table->schema().columns[c].type, st.columns[c].type);
    }
    ASSERT_NE(table->system_rows(), nullptr);
    for (const Row& row : *table->system_rows()) {
      ASSERT_EQ(row.size(), st.columns.size());
      for (size_t c = 0; c < row.size(); ++c) {
        EXPECT_TRUE(Fits(row[c], st.columns[c].type)) << st.columns[c].name;
      }
    }
  }
  // The user table shows up where it should: pg_class, pg_index, pg_constraint, pg_attrdef.
  auto rows = [&](const char* name) {
    return SystemTables::Build(*catalog_, "pg_catalog", name)->system_rows()->size();
  };
  EXPECT_EQ(rows("pg_index"), 1u);
  EXPECT_EQ(rows("pg_constraint"), 1u);
  EXPECT_EQ(rows("pg_attrdef"), 1u);
  EXPECT_GE(rows("pg_class"), system::Registry().size() + 2);  // t and t_pkey
}

TEST_F(SystemTablesTest, PositionsAndOidsAreStable) {
  const auto& registry = system::Registry();
  std::set<std::string> names;
  std::set<int64_t> oids;
  for (size_t i = 0; i < registry.size(); ++i) {
    const system::SystemTable& st = registry[i];
    EXPECT_TRUE(names.insert(std::string(st.schema) + "." + st.name).second) << st.name;
    const int64_t oid = system::SystemOid(st);
    EXPECT_TRUE(oids.insert(oid).second) << st.name;
    EXPECT_LT(oid, kOidFirstNormal) << st.name;
    EXPECT_EQ(st.view, st.oid == 0) << st.name;  // catalogs have PostgreSQL's oid, views none
    if (st.view) {
      EXPECT_EQ(oid, kOidSystemViewBase + static_cast<int64_t>(i));
    }
    EXPECT_EQ(SystemTables::Build(*catalog_, st.schema, st.name)->id(),
              system::kSystemTableIdBase + i);
  }
  // What clients have seen (README invariant 1: append only).
  auto oid_of = [&](const char* name) {
    return SystemTables::RelationOid(*catalog_, name).value_or(-1);
  };
  EXPECT_EQ(oid_of("pg_namespace"), kOidPgNamespace);
  EXPECT_EQ(oid_of("pg_roles"), 15393);
  EXPECT_EQ(oid_of("pg_locks"), 15402);
  EXPECT_EQ(oid_of("pg_tables"), 15406);
  EXPECT_EQ(oid_of("information_schema.sequences"), 15410);
  EXPECT_EQ(oid_of("information_schema.columns"), 15416);
  EXPECT_EQ(oid_of("pg_extension"), kOidPgExtension);
  EXPECT_EQ(oid_of("pg_seclabels"), 15443);
  EXPECT_EQ(oid_of("pg_settings"), 15444);
  EXPECT_EQ(registry.front().name, std::string("pg_namespace"));
  EXPECT_EQ(oid_of("pg_db_role_setting"), kOidPgDbRoleSetting);
  EXPECT_EQ(registry.back().name, std::string("pg_db_role_setting"));
}

TEST(BuiltinTypesTest, AgreeWithTypePgOid) {
  for (int id = 0; id <= kMaxTypeId; ++id) {
    const Type t{static_cast<TypeId>(id), -1};
    if (t.id == TypeId::kArray || t.id == TypeId::kRecord) continue;
    SCOPED_TRACE(t.Name());
    const system::BuiltinType* b = system::FindBuiltinType(t.PgOid());
    ASSERT_NE(b, nullptr);
    EXPECT_EQ(SystemTables::FormatType(t.PgOid(), -1), t.Name());
    if (t.id == TypeId::kUnknown) continue;  // unknown has no array type
    EXPECT_EQ(Type::Array(t).PgOid(), b->array_oid);
    EXPECT_EQ(SystemTables::FormatType(b->array_oid, -1), t.Name() + "[]");
  }
  EXPECT_EQ(Type::Int2Vector().PgOid(), kOidInt2Vector);
  EXPECT_EQ(Type::OidVector().PgOid(), kOidOidVector);
  EXPECT_EQ(SystemTables::TypeOid("integer"), kOidInt4);
  EXPECT_EQ(SystemTables::TypeName(kOidVarchar), "character varying");
}

}  // namespace
}  // namespace meridian::catalog
