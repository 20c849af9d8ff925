// Catalog persistence: create/drop survive reopen, DEFAULTs are re-parsed, the file format
// round-trips odd names, a failed rewrite leaves the old catalog intact, corruption is caught.
#include "catalog/catalog.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <cstring>
#include <filesystem>
#include <fstream>

#include "catalog/catalog_file.h"
#include "catalog_fixture.h"
#include "storage/buffer_pool.h"

namespace meridian::catalog {
namespace {

class CatalogTest : public CatalogFixture {
 protected:
  static TableSchema Schema(const std::string& name) {
    TableSchema s;
    s.name = name;
    Column id{"id", Type::Integer(), true, "", nullptr, false, {}};
    Column label{"label", Type::Varchar(20), false, "'a b' || 'c'", nullptr, false, {}};
    Column weird{"we ird\n:col", Type::Double(), false, "", nullptr, false, {}};
    s.columns = {id, label, weird};
    s.primary_key = {0};
    return s;
  }
};

// text (SerializeCatalog's, format 10) with the header of an older version and without the
// array element field of its column lines (format 10 added it).
std::string WithVersion(std::string text, int version) {
  const std::string header = "MERIDIAN-CATALOG " + std::to_string(kCatalogFormatVersion);
  text.replace(text.find(header), header.size(), "MERIDIAN-CATALOG " + std::to_string(version));
  for (size_t at = text.find("\ncolumn "); at != std::string::npos;
       at = text.find("\ncolumn ", at + 1)) {
    size_t p = at + 8;  // the name: <length>:<bytes>
    const size_t colon = text.find(':', p);
    p = colon + 1 + std::stoul(text.substr(p, colon - p));
    p = text.find(' ', p + 1);  // after the type id
    p = text.find(' ', p + 1);  // after the modifier
    const size_t e = text.find(' ', p + 1);
    text.erase(p, e - p);  // " <element>"
  }
  return text;
}

// text (SerializeCatalog's, format 10, no schemas) as format 6 wrote it, header and end line;
// the callers remove the lines format 6 did not have.
std::string AsVersion6(std::string text) {
  text = WithVersion(std::move(text), 6);
  const size_t end = text.rfind(' ');  // the schema count of the end line
  return text.substr(0, end) + "\n";
}

TEST_F(CatalogTest, CreatePersistsAndReloads) {
  auto t = catalog_->CreateTable(Schema("t1"));
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_EQ((*t)->id(), 1u);
  ASSERT_TRUE(catalog_->CreateTable(Schema("t2")).ok());
  EXPECT_EQ(catalog_->CreateTable(Schema("t1")).status().sqlstate(), "42P07");
  EXPECT_TRUE(std::filesystem::exists(dir_ + "/tables/1.heap"));
  Reopen();
  auto t1 = catalog_->Find("t1");
  ASSERT_NE(t1, nullptr);
  const TableSchema& s = t1->schema();
  ASSERT_EQ(s.columns.size(), 3u);
  EXPECT_EQ(s.columns[0].name, "id");
  EXPECT_TRUE(s.columns[0].not_null);
  EXPECT_EQ(s.columns[1].type, Type::Varchar(20));
  EXPECT_EQ(s.columns[1].default_text, "'a b' || 'c'");
  // The DEFAULT was re-parsed into an AST.
  ASSERT_NE(s.columns[1].default_expr, nullptr);
  EXPECT_EQ(s.columns[1].default_expr->kind, ast::ExprKind::kBinary);
  EXPECT_EQ(s.columns[2].name, "we ird\n:col");
  EXPECT_EQ(s.primary_key, std::vector<int>{0});
  auto list = catalog_->List();
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(list[0]->name(), "t1");
  // Ids are never reused, even after a reopen.
  auto t3 = catalog_->CreateTable(Schema("t3"));
  ASSERT_TRUE(t3.ok());
  EXPECT_EQ((*t3)->id(), 3u);
}

TEST_F(CatalogTest, DropPersistsAndRemovesHeap) {
  auto t = catalog_->CreateTable(Schema("t1"));
  ASSERT_TRUE(t.ok());
  ASSERT_TRUE((*t)->lock().Lock(LockMode::kExclusive, nullptr).ok());
  ASSERT_TRUE(catalog_->DropTable(*t).ok());
  EXPECT_EQ((*t)->CheckUsable().sqlstate(), "42P01");
  (*t)->lock().Unlock(LockMode::kExclusive);
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/tables/1.heap"));
  Reopen();
  EXPECT_EQ(catalog_->Find("t1"), nullptr);
}

// AutoAnalyze: a table with rows but no statistics at once; one under steady changes at most
// once per kAutoAnalyzeInterval; one whose changes outnumber its rows at once.
TEST_F(CatalogTest, AutoAnalyzeThresholdAndInterval) {
  auto created = catalog_->CreateTable(Schema("t1"));
  ASSERT_TRUE(created.ok());
  const std::shared_ptr<Table>& t = *created;
  ASSERT_TRUE(catalog_->AutoAnalyze().ok());
  EXPECT_EQ(t->stats(), nullptr) << "an empty table without changes is left alone";

  t->SetLiveRows(10);  // rows but no statistics (as after a restart)
  ASSERT_TRUE(catalog_->AutoAnalyze().ok());
  ASSERT_NE(t->stats(), nullptr);
  const auto first = t->analyzed_at();
  EXPECT_GT(first.time_since_epoch().count(), 0);

  // Above 50 + 10% of 10,000 rows, below 50 + the rows, just after an ANALYZE: not yet.
  t->SetLiveRows(10000);
  t->NoteChanges(2000);
  ASSERT_TRUE(catalog_->AutoAnalyze().ok());
  EXPECT_EQ(t->changes_since_analyze(), 2000);
  EXPECT_EQ(t->analyzed_at(), first);

  // More changes than rows (a bulk load): at once, interval or not.
  t->NoteChanges(9000);
  ASSERT_TRUE(catalog_->AutoAnalyze().ok());
  EXPECT_EQ(t->changes_since_analyze(), 0);
  EXPECT_GT(t->analyzed_at(), first);
}

TEST_F(CatalogTest, FailedRewriteLeavesOldCatalog) {
  ASSERT_TRUE(catalog_->CreateTable(Schema("t1")).ok());
  // Make the temp file impossible to create: the rewrite fails before touching catalog.meta.
  std::filesystem::create_directory(dir_ + "/catalog.meta.tmp");
  auto failed = catalog_->CreateTable(Schema("t2"));
  EXPECT_FALSE(failed.ok());
  EXPECT_EQ(catalog_->Find("t2"), nullptr);
  std::filesystem::remove(dir_ + "/catalog.meta.tmp");
  Reopen();
  EXPECT_NE(catalog_->Find("t1"), nullptr);
  EXPECT_EQ(catalog_->Find("t2"), nullptr);
  ASSERT_TRUE(catalog_->CreateTable(Schema("t2")).ok());
}

TEST_F(CatalogTest, FormatRoundTripAndCorruptionDetected) {
  CatalogState state;
  state.next_table_id = 9;
  TableSchema s = Schema("x");
  s.id = 4;
  state.tables.push_back(s);
  std::string text = SerializeCatalog(state);
  auto parsed = ParseCatalog(text);
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_EQ(parsed->next_table_id, 9u);
  ASSERT_EQ(parsed->tables.size(), 1u);
  EXPECT_EQ(parsed->tables[0].columns[2].name, "we ird\n:col");
  EXPECT_EQ(SerializeCatalog(*parsed), text);
  // Truncated anywhere: detected.
  for (size_t cut : {size_t{5}, text.size() / 2, text.size() - 3}) {
    EXPECT_EQ(ParseCatalog(text.substr(0, cut)).status().sqlstate(), "XX001") << cut;
  }
  EXPECT_EQ(ParseCatalog("MERIDIAN-CATALOG 99\n").status().sqlstate(), "XX001");
}

// Format 10's array columns keep their element type (and its modifier); a version 9 column
// line (no element field) still reads; an array without an element is corruption.
TEST_F(CatalogTest, ArrayColumnsRoundTrip) {
  CatalogState state;
  state.next_table_id = 9;
  TableSchema s = Schema("x");
  s.id = 4;
  s.columns.push_back(
      Column{"tags", Type::Array(Type::Varchar(5)), false, "'{}'", nullptr, false, {}});
  s.columns.push_back(Column{"vals", Type::Array(Type::Integer()), false, "", nullptr, false, {}});
  state.tables.push_back(s);
  state.live_rows = {0};
  const std::string text = SerializeCatalog(state);
  auto parsed = ParseCatalog(text);
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_EQ(parsed->tables[0].columns[3].type, Type::Array(Type::Varchar(5)));
  EXPECT_EQ(parsed->tables[0].columns[4].type, Type::Array(Type::Integer()));
  EXPECT_EQ(parsed->tables[0].columns[0].type, Type::Integer());
  EXPECT_EQ(SerializeCatalog(*parsed), text);
  // An array column whose element field says "none": corruption.
  std::string broken = text;
  const size_t at = broken.find("4:vals 13 -1 2 ");
  ASSERT_NE(at, std::string::npos) << text;
  broken.replace(at, 15, "4:vals 13 -1 0 ");
  EXPECT_EQ(ParseCatalog(broken).status().sqlstate(), "XX001");
  // Version 9 (no element fields) of a table without arrays.
  CatalogState plain;
  plain.next_table_id = 9;
  plain.tables = {Schema("y")};
  plain.live_rows = {0};
  auto old = ParseCatalog(WithVersion(SerializeCatalog(plain), 9));
  ASSERT_TRUE(old.ok()) << old.status().ToString();
  EXPECT_EQ(old->tables[0].columns[1].type, Type::Varchar(20));
}

// Format 7's fkey lines: name, columns, referenced table and columns, match and actions; a
// version 6 table (no fkeys line) still reads, without foreign keys.
TEST_F(CatalogTest, ForeignKeysRoundTripAndOlderFormat) {
  CatalogState state;
  state.next_table_id = 9;
  TableSchema s = Schema("x");
  s.id = 4;
  ForeignKey fk;
  fk.name = "x \"odd\" fkey";
  fk.columns = {2, 0};
  fk.ref_table = 3;
  fk.ref_columns = {1, 0};
  fk.match = 'f';
  fk.on_delete = 'c';
  fk.on_update = 'n';
  s.foreign_keys.push_back(fk);
  state.tables.push_back(s);
  std::string text = SerializeCatalog(state);
  auto parsed = ParseCatalog(text);
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  ASSERT_EQ(parsed->tables[0].foreign_keys.size(), 1u);
  const ForeignKey& got = parsed->tables[0].foreign_keys[0];
  EXPECT_EQ(got.name, fk.name);
  EXPECT_EQ(got.columns, fk.columns);
  EXPECT_EQ(got.ref_table, 3u);
  EXPECT_EQ(got.ref_columns, fk.ref_columns);
  EXPECT_EQ(got.match, 'f');
  EXPECT_EQ(got.on_delete, 'c');
  EXPECT_EQ(got.on_update, 'n');
  EXPECT_EQ(parsed->tables[0].FindForeignKey(fk.name), &got);
  EXPECT_EQ(SerializeCatalog(*parsed), text);
  EXPECT_EQ(ParseCatalog(text.substr(0, text.find("fkey ") + 8)).status().sqlstate(), "XX001");
  // The same file as version 6 wrote it: no fkeys line.
  std::string v6 = text;
  v6 = AsVersion6(v6);
  const size_t from = v6.find("fkeys ");
  v6.erase(from, v6.find("rows ") - from);
  auto old = ParseCatalog(v6);
  ASSERT_TRUE(old.ok()) << old.status().ToString();
  EXPECT_TRUE(old->tables[0].foreign_keys.empty());
}

// Format 8's schema lines and schema-qualified names round-trip; an older file (no schema lines,
// no schema count at the end) reads as before, every relation in public.
TEST_F(CatalogTest, SchemasRoundTripAndOlderFormat) {
  CatalogState state;
  state.next_table_id = 9;
  state.schemas.push_back(NamespaceDef{7, "app", "meridian"});
  TableSchema a = Schema("t");
  a.id = 4;
  a.nsp = "app";
  TableSchema p = Schema("t");
  p.id = 5;
  state.tables = {a, p};
  state.live_rows = {0, 0};
  IndexSchema x;
  x.id = 6;
  x.name = "t_i";
  x.nsp = "app";
  x.table_id = 4;
  x.columns = {0};
  x.descending = {false};
  state.indexes = {x};
  const std::string text = SerializeCatalog(state);
  auto parsed = ParseCatalog(text);
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  ASSERT_EQ(parsed->schemas.size(), 1u);
  EXPECT_EQ(parsed->schemas[0].name, "app");
  EXPECT_EQ(parsed->schemas[0].id, 7u);
  ASSERT_EQ(parsed->tables.size(), 2u);
  EXPECT_EQ(parsed->tables[0].nsp, "app");
  EXPECT_EQ(parsed->tables[0].name, "t");
  EXPECT_EQ(parsed->tables[1].nsp, "public");
  EXPECT_EQ(parsed->indexes[0].nsp, "app");
  EXPECT_EQ(SerializeCatalog(*parsed), text);
  // A truncated schema line or a wrong schema count is corruption.
  EXPECT_EQ(ParseCatalog(text.substr(0, text.find("schema ") + 9)).status().sqlstate(), "XX001");
  std::string wrong = text;
  wrong.replace(wrong.rfind(" 1\n"), 3, " 2\n");
  EXPECT_EQ(ParseCatalog(wrong).status().sqlstate(), "XX001");
  // Version 7 (no schemas): everything in public.
  CatalogState plain;
  plain.next_table_id = 6;
  plain.tables = {p};
  plain.live_rows = {0};
  std::string v7 = SerializeCatalog(plain);
  v7 = WithVersion(v7, 7);
  v7.erase(v7.rfind(' '), v7.size() - v7.rfind(' '));
  v7 += "\n";
  auto old = ParseCatalog(v7);
  ASSERT_TRUE(old.ok()) << old.status().ToString() << "\n" << v7;
  EXPECT_TRUE(old->schemas.empty());
  EXPECT_EQ(old->tables[0].nsp, "public");
}

// Format 7's access method at the end of an index line; a version 6 line (without it) reads
// as a B+tree index; an R-tree index that claims uniqueness is corruption.
TEST_F(CatalogTest, IndexAccessMethodRoundTrips) {
  CatalogState state;
  state.next_table_id = 9;
  TableSchema s = Schema("x");
  s.id = 4;
  state.tables.push_back(s);
  IndexSchema r;
  r.id = 5;
  r.name = "x_r";
  r.table_id = 4;
  r.columns = {0, 1};
  r.descending = {false, false};
  r.method = IndexMethod::kRtree;
  IndexSchema b = r;
  b.id = 6;
  b.name = "x_b";
  b.method = IndexMethod::kBtree;
  state.indexes = {r, b};
  const std::string text = SerializeCatalog(state);
  auto parsed = ParseCatalog(text);
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  ASSERT_EQ(parsed->indexes.size(), 2u);
  EXPECT_TRUE(parsed->indexes[0].IsRtree());
  EXPECT_FALSE(parsed->indexes[1].IsRtree());
  EXPECT_EQ(SerializeCatalog(*parsed), text);
  // The same file as version 6: no method field, every index a B+tree.
  std::string v6 = text;
  v6 = AsVersion6(v6);
  v6.erase(v6.find("fkeys 0\n"), 8);  // version 6 has no fkeys line
  for (const char* line : {" 0 1 0 1 0:\n", " 0 1 0 0 0:\n"}) {
    const size_t at = v6.find(line);
    ASSERT_NE(at, std::string::npos) << text;
    v6.replace(at, std::strlen(line), " 0 1 0\n");
  }
  parsed = ParseCatalog(v6);
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString() << "\n" << v6;
  EXPECT_FALSE(parsed->indexes[0].IsRtree());
  EXPECT_FALSE(parsed->indexes[1].IsRtree());
  // A unique R-tree cannot be built: a file that says so is corrupt.
  state.indexes[0].unique = true;
  EXPECT_EQ(ParseCatalog(SerializeCatalog(state)).status().sqlstate(), "XX001");
}

// Format 8's expression keys (column -1 and the SQL text) and predicate on an index line;
// an expression key without its text is corruption.
TEST_F(CatalogTest, IndexExpressionsAndPredicateRoundTrip) {
  CatalogState state;
  state.next_table_id = 9;
  TableSchema s = Schema("x");
  s.id = 4;
  state.tables.push_back(s);
  IndexSchema e;
  e.id = 5;
  e.name = "x_lower_idx";
  e.table_id = 4;
  e.unique = true;
  e.columns = {kExpressionKey, 1};
  e.descending = {false, true};
  e.expressions = {"lower(b || 'a b')", ""};
  e.predicate = "a > 10 AND b IS NOT NULL";
  state.indexes = {e};
  const std::string text = SerializeCatalog(state);
  auto parsed = ParseCatalog(text);
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  ASSERT_EQ(parsed->indexes.size(), 1u);
  const IndexSchema& got = parsed->indexes[0];
  EXPECT_EQ(got.columns, e.columns);
  EXPECT_EQ(got.descending, e.descending);
  EXPECT_EQ(got.expressions, e.expressions);
  EXPECT_EQ(got.predicate, e.predicate);
  EXPECT_TRUE(got.HasExpressions());
  EXPECT_TRUE(got.IsPartial());
  EXPECT_FALSE(got.IsPlain());
  EXPECT_EQ(SerializeCatalog(*parsed), text);
  std::string broken = text;
  broken.replace(broken.find("17:lower(b || 'a b')"), 20, "0:");
  EXPECT_EQ(ParseCatalog(broken).status().sqlstate(), "XX001");
}

Column ViewColumn(std::string name, Type type) {
  Column c;
  c.name = std::move(name);
  c.type = type;
  return c;
}

// Format 5's view lines: columns (an array type too), the query text (re-parsed), the
// relations and table columns it reads; a TEMP view is never written; a version 4 file (no
// view lines, no view count) still reads.
TEST_F(CatalogTest, ViewsRoundTripAndPersist) {
  CatalogState state;
  state.next_table_id = 9;
  TableSchema s = Schema("x");
  s.id = 4;
  state.tables.push_back(s);
  ViewSchema v;
  v.id = 7;
  v.name = "v \"odd\"";
  v.columns.push_back(ViewColumn("a", Type::Integer()));
  v.columns.push_back(ViewColumn("arr", Type::Array(Type::Varchar(3))));
  v.query_text = "SELECT id, ARRAY['x'] FROM x -- comment\nWHERE id > 0";
  v.relations = {4};
  v.table_columns = {{4, 0}, {4, 2}};
  state.views.push_back(v);
  std::string text = SerializeCatalog(state);
  auto parsed = ParseCatalog(text);
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  ASSERT_EQ(parsed->views.size(), 1u);
  const ViewSchema& got = parsed->views[0];
  EXPECT_EQ(got.name, v.name);
  EXPECT_EQ(got.columns[1].type, Type::Array(Type::Varchar(3)));
  EXPECT_EQ(got.query_text, v.query_text);
  ASSERT_NE(got.query, nullptr);
  EXPECT_EQ(got.query->items.size(), 2u);
  EXPECT_EQ(got.relations, v.relations);
  EXPECT_EQ(got.table_columns, v.table_columns);
  EXPECT_TRUE(got.ReadsColumn(4, 2));
  EXPECT_FALSE(got.ReadsColumn(4, 1));
  EXPECT_EQ(SerializeCatalog(*parsed), text);
  for (size_t cut : {text.size() - 3, text.find("view ") + 10}) {
    EXPECT_EQ(ParseCatalog(text.substr(0, cut)).status().sqlstate(), "XX001") << cut;
  }
  // A query that no longer parses alone is corruption, not a crash.
  std::string bad = text;
  bad.replace(bad.find("SELECT id"), 6, "SELEC ");
  EXPECT_EQ(ParseCatalog(bad).status().sqlstate(), "XX001");
  // Version 4: no views.
  std::string v4 = "MERIDIAN-CATALOG 4\nnext_table_id 3\nend 0 0\n";
  auto old = ParseCatalog(v4);
  ASSERT_TRUE(old.ok()) << old.status().ToString();
  EXPECT_TRUE(old->views.empty());

  // Through the catalog: ids from the relation counter, dependents, TEMP views not persisted.
  auto t = catalog_->CreateTable(Schema("t1"));
  ASSERT_TRUE(t.ok());
  ViewSchema a;
  a.name = "va";
  a.columns.push_back(ViewColumn("id", Type::Integer()));
  a.query_text = "SELECT id FROM t1";
  a.query = std::move(*ParseCatalog(text)).views[0].query;
  a.relations = {(*t)->id()};
  a.table_columns = {{(*t)->id(), 0}};
  ASSERT_TRUE(catalog_->CreateView(a, false, 0).ok());
  EXPECT_EQ(catalog_->CreateView(a, false, 0).sqlstate(), "42P07");
  EXPECT_EQ(catalog_->CreateTable(Schema("va")).status().sqlstate(), "42P07");
  ViewSchema b = a;
  b.name = "vb";
  b.relations = {catalog_->FindView("va")->id};
  b.table_columns.clear();
  ASSERT_TRUE(catalog_->CreateView(b, false, 0).ok());
  ViewSchema temp = a;
  temp.name = "vt";
  temp.temp_owner = 42;
  ASSERT_TRUE(catalog_->CreateView(temp, false, 42).ok());
  EXPECT_EQ(catalog_->FindView("vt"), nullptr);  // another session
  EXPECT_NE(catalog_->FindView("vt", 42), nullptr);
  EXPECT_EQ(catalog_->CreateView(temp, true, 7).sqlstate(), "42P07");
  std::vector<std::string> deps;
  for (const auto& d : catalog_->DependentViews({(*t)->id()})) deps.push_back(d->name);
  // In key order (the TEMP view's schema pg_temp_42 sorts before public), dependents after.
  EXPECT_EQ(deps, (std::vector<std::string>{"vt", "va", "vb"}));
  const std::pair<uint32_t, int> col{(*t)->id(), 0};
  deps.clear();
  for (const auto& d : catalog_->DependentViews({}, &col)) deps.push_back(d->name);
  EXPECT_EQ(deps, (std::vector<std::string>{"vt", "va", "vb"}));
  const std::pair<uint32_t, int> other{(*t)->id(), 1};
  EXPECT_TRUE(catalog_->DependentViews({}, &other).empty());
  Reopen();
  EXPECT_NE(catalog_->FindView("va"), nullptr);
  EXPECT_NE(catalog_->FindView("vb"), nullptr);
  EXPECT_EQ(catalog_->FindView("vt", 42), nullptr);
  ASSERT_TRUE(catalog_->DropViews({catalog_->FindView("vb")->id}).ok());
  Reopen();
  EXPECT_EQ(catalog_->FindView("vb"), nullptr);
  EXPECT_EQ(catalog_->ListViews().size(), 1u);
}

TEST_F(CatalogTest, CorruptFileFailsOpen) {
  ASSERT_TRUE(catalog_->CreateTable(Schema("t1")).ok());
  ASSERT_TRUE(catalog_->Close().ok());
  catalog_.reset();
  std::ofstream(dir_ + "/catalog.meta", std::ios::trunc) << "MERIDIAN-CATALOG 1\nnext_table_id";
  auto c = Catalog::Open(dir_, pool_.get());
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().sqlstate(), "XX001");
}

TEST(TypeFromSpecTest, Mapping) {
  auto t = [](const char* name, int32_t mod = -1) {
    ast::TypeSpec spec;
    spec.name = name;
    spec.modifier = mod;
    return TypeFromSpec(spec);
  };
  EXPECT_EQ(t("smallint").value(), Type::SmallInt());
  EXPECT_EQ(t("real").value(), Type::Real());
  EXPECT_EQ(t("char", 4).value(), Type::Char(4));
  EXPECT_EQ(t("char").value(), Type::Char(1));
  EXPECT_EQ(t("varchar").value(), Type::Varchar(-1));
  EXPECT_EQ(t("numeric").value(), Type::Numeric());
  EXPECT_EQ(t("numeric", (10 << 16) | 2).value(), Type::Numeric((10 << 16) | 2));
  EXPECT_EQ(t("date").value(), Type::Date());
  EXPECT_EQ(t("timestamp", 3).value(), Type::Timestamp(3));
  EXPECT_EQ(t("time").value(), Type::Time());
  EXPECT_EQ(t("timestamptz", 2).value(), Type::TimestampTz(2));
  EXPECT_EQ(t("interval").value(), Type::Interval());
  EXPECT_EQ(t("uuid").value(), Type::Uuid());
  EXPECT_EQ(t("bytea").value(), Type::Bytea());
  EXPECT_EQ(t("json").value(), Type::Json());
  EXPECT_EQ(t("jsonb").value(), Type::Jsonb());
  EXPECT_EQ(t("blob").status().sqlstate(), "42704");
}

}  // namespace
}  // namespace meridian::catalog
