// The external sort (engine/execution/sort.cc, spill.h): work_mem, spilling and merging runs
// (stability across runs, EXPLAIN ANALYZE's Sort Method line, nothing left in the temporary
// directory), a cancelled sort, and the spill row codec for every value kind.

#include "execution/spill.h"
#include "sql_test_util.h"

namespace meridian::testing {
namespace {

using Strings = std::vector<std::string>;

class ExternalSortTest : public SqlTest {
 protected:
  void SetUp() override {
    SqlTest::SetUp();
    ASSERT_TRUE(Q("CREATE TABLE s (id INT PRIMARY KEY, k INT, t TEXT)").status.ok());
    // k has few values, so most rows tie on it: order among ties shows stability.
    ASSERT_TRUE(Q("INSERT INTO s SELECT i, i % 7, 'row ' || i FROM generate_series(1, 20000) i")
                    .status.ok());
  }
};

TEST_F(ExternalSortTest, SpillsBeyondWorkMemAndMatchesTheInMemorySort) {
  const std::string query = "SELECT id, k, t FROM s ORDER BY k DESC, t";
  const Strings in_memory = Rows(query);
  ASSERT_EQ(in_memory.size(), 20000u);
  ASSERT_TRUE(Q("SET work_mem = '64kB'").status.ok());
  EXPECT_EQ(Rows("SHOW work_mem"), (Strings{"64kB"}));
  EXPECT_EQ(Rows(query), in_memory);
  // EXPLAIN ANALYZE says which method ran, as PostgreSQL does.
  Strings plan = Rows("EXPLAIN ANALYZE " + query);
  bool external = false;
  for (const std::string& line : plan) {
    external |= line.find("Sort Method: external merge  Disk: ") != std::string::npos;
  }
  EXPECT_TRUE(external) << ::testing::PrintToString(plan);
  ASSERT_TRUE(Q("RESET work_mem").status.ok());
  plan = Rows("EXPLAIN ANALYZE " + query);
  bool quicksort = false;
  for (const std::string& line : plan) {
    quicksort |= line.find("Sort Method: quicksort  Memory: ") != std::string::npos;
  }
  EXPECT_TRUE(quicksort) << ::testing::PrintToString(plan);
  EXPECT_EQ(TempFiles(), 0u) << "temporary files are unnamed and gone with the sort";
}

TEST_F(ExternalSortTest, TiesKeepTheirInputOrderAcrossRuns) {
  // Input in id order (a subquery sorted by id), then a stable sort on k alone: within each k
  // the ids must still ascend, though the ties are spread over many runs.
  ASSERT_TRUE(Q("SET work_mem = '64kB'").status.ok());
  const Strings rows = Rows("SELECT k, id FROM (SELECT k, id FROM s ORDER BY id) x ORDER BY k");
  ASSERT_EQ(rows.size(), 20000u);
  std::string last_k;
  int64_t last_id = -1;
  for (const std::string& r : rows) {
    const std::string k = r.substr(0, r.find('|'));
    const int64_t id = std::stoll(r.substr(r.find('|') + 1));
    if (k == last_k) {
      ASSERT_LT(last_id, id) << "k " << k;
    }
    last_k = k;
    last_id = id;
  }
}

TEST_F(ExternalSortTest, WorkMemValuesAndErrorsAsPostgres) {
  EXPECT_EQ(Rows("SHOW work_mem"), (Strings{"64MB"}));
  ASSERT_TRUE(Q("SET work_mem = '2048kB'").status.ok());
  EXPECT_EQ(Rows("SHOW work_mem"), (Strings{"2MB"}));
  ASSERT_TRUE(Q("SET work_mem = 1000").status.ok());
  EXPECT_EQ(Rows("SHOW work_mem"), (Strings{"1000kB"}));
  ASSERT_TRUE(Q("SET work_mem = '1GB'").status.ok());
  EXPECT_EQ(Rows("SHOW work_mem"), (Strings{"1GB"}));
  Err("SET work_mem = '3mb'", "22023");  // units are case-sensitive
  Err("SET work_mem = 10", "22023");     // below 64kB
}

TEST_F(ExternalSortTest, CancelledSortStopsAndTheSessionGoesOn) {
  ASSERT_TRUE(Q("SET work_mem = '64kB'").status.ok());
  ExecControl ctl;
  ctl.Cancel();
  SqlResult r = RunSql(*session_, "SELECT id FROM s ORDER BY t", &ctl);
  EXPECT_EQ(r.status.sqlstate(), "57014");
  ExecControl fresh;
  EXPECT_EQ(RunSql(*session_, "SELECT count(*) FROM (SELECT id FROM s ORDER BY t) x", &fresh)
                .rows,
            (Strings{"20000"}));
}

TEST(SpillCodec, EveryValueKindRoundTripsThroughAFile) {
  using exec::SpillFile;
  TempDir dir;
  Numeric n;
  n.mantissa = -123456789012345;
  n.scale = 4;
  const std::string big(600000, 'x');  // longer than a read buffer
  const Row row = {Value::Null(),
                   Value::Bool(true),
                   Value::Bool(false),
                   Value::Int(-42),
                   Value::Double(2.5),
                   Value::String("héllo"),
                   Value::String(big),
                   Value::Decimal(n),
                   Value::DateVal(Date{-3}),
                   Value::TimestampVal(Timestamp{1234567890123}),
                   Value::Real(1.5f),
                   Value::Array({Value::Int(1), Value::Null(), Value::String("a")})};
  auto file = SpillFile::Create(dir.path() + "/tmp");
  ASSERT_TRUE(file.ok()) << file.status().message();
  for (int i = 0; i < 3; ++i) ASSERT_TRUE((*file)->Append(row).ok());
  ASSERT_TRUE((*file)->Append(Row{}).ok());
  ASSERT_TRUE((*file)->Finish().ok());
  SpillFile::Reader reader(file->get());
  Row back;
  for (int i = 0; i < 3; ++i) {
    auto more = reader.Next(&back);
    ASSERT_TRUE(more.ok() && *more) << i;
    EXPECT_EQ(back, row) << i;
  }
  auto empty = reader.Next(&back);
  ASSERT_TRUE(empty.ok() && *empty);
  EXPECT_TRUE(back.empty());
  auto end = reader.Next(&back);
  ASSERT_TRUE(end.ok());
  EXPECT_FALSE(*end);
  // A truncated encoding is not a row.
  std::string bytes;
  exec::EncodeSpillRow(row, &bytes);
  size_t pos = 0;
  auto cut = exec::DecodeSpillRow(std::string_view(bytes).substr(0, bytes.size() - 1), &pos, &back);
  ASSERT_TRUE(cut.ok());
  EXPECT_FALSE(*cut);
  EXPECT_EQ(pos, 0u);
}

}  // namespace
}  // namespace meridian::testing
