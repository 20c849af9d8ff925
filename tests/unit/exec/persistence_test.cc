// Durability across Close/Open, the data-directory lock, and a table ~10x larger than the
// buffer pool scanned and filtered correctly.
#include <chrono>
#include <filesystem>

#include "sql_test_util.h"

namespace meridian::testing {
namespace {

using Strings = std::vector<std::string>;

class PersistenceTest : public SqlTest {};

TEST_F(PersistenceTest, DataSurvivesCloseAndReopen) {
  ASSERT_TRUE(Q("CREATE TABLE t (id INT PRIMARY KEY, s VARCHAR(10) DEFAULT 'dflt', "
                "d DOUBLE PRECISION NOT NULL)")
                  .status.ok());
  ASSERT_TRUE(Q("CREATE TABLE gone (x INT)").status.ok());
  ASSERT_TRUE(Q("INSERT INTO t (id, d) VALUES (1, 0.5), (2, 1.5)").status.ok());
  ASSERT_TRUE(Q("UPDATE t SET s = 'upd' WHERE id = 2").status.ok());
  ASSERT_TRUE(Q("DROP TABLE gone").status.ok());
  Reopen();
  EXPECT_EQ(Rows("SELECT id, s, d FROM t ORDER BY id"), (Strings{"1|dflt|0.5", "2|upd|1.5"}));
  // Defaults were re-parsed, the primary key set rebuilt, the dropped table stays dropped.
  ASSERT_TRUE(Q("INSERT INTO t (id, d) VALUES (3, 2)").status.ok());
  EXPECT_EQ(Rows("SELECT s FROM t WHERE id = 3"), (Strings{"dflt"}));
  EXPECT_EQ(Err("INSERT INTO t (id, d) VALUES (1, 0)", "23505").error().detail,
            "Key (id)=(1) already exists.");
  Err("SELECT * FROM gone", "42P01");
  ASSERT_TRUE(Q("CREATE TABLE gone (y TEXT)").status.ok());
  ASSERT_TRUE(db_->Checkpoint().ok());
  Reopen();
  EXPECT_EQ(Rows("SELECT count(*) FROM t"), (Strings{"3"}));
  EXPECT_EQ(Rows("SELECT count(*) FROM gone"), (Strings{"0"}));
  auto desc = db_->DescribeTables("");
  ASSERT_TRUE(desc.ok());
  ASSERT_EQ(desc->size(), 2u);
  EXPECT_EQ((*desc)[0].name, "gone");
  EXPECT_EQ((*desc)[1].primary_key, (Strings{"id"}));
  EXPECT_TRUE((*desc)[1].columns[0].primary_key);
  EXPECT_TRUE((*desc)[1].columns[2].not_null);
}

TEST_F(PersistenceTest, SecondOpenFailsNamingTheHolder) {
  DatabaseOptions options;
  options.data_dir = dir_.path() + "/data";
  auto second = Database::Open(options);
  ASSERT_FALSE(second.ok());
  EXPECT_NE(second.status().message().find("is in use by another meridiand (pid " +
                                           std::to_string(getpid()) + ")"),
            std::string::npos)
      << second.status().message();
  // After Close the directory can be opened again; the closed handle refuses work.
  ASSERT_TRUE(db_->Close().ok());
  ASSERT_TRUE(db_->Close().ok());  // idempotent
  EXPECT_FALSE(session_->Parse("SELECT 1").ok());
  EXPECT_FALSE(db_->Checkpoint().ok());
  auto third = Database::Open(options);
  ASSERT_TRUE(third.ok()) << third.status().ToString();
  ASSERT_TRUE((*third)->Close().ok());
  db_.reset();
}

TEST_F(PersistenceTest, TableLargerThanBufferPool) {
  Reopen(/*buffer_pool_mb=*/1);
  const std::string pad(150, 'p');
  ASSERT_TRUE(Q("CREATE TABLE big (id INT, grp INT, pad TEXT)").status.ok());
  ASSERT_TRUE(Q("INSERT INTO big VALUES (0, 0, '" + pad + "')").status.ok());
  // Doubling: 2^17 = 131072 rows of ~170 bytes, about 22 MB of tuples against a 1 MiB pool.
  for (int i = 0; i < 17; ++i) {
    std::string n = std::to_string(1 << i);
    ASSERT_TRUE(
        Q("INSERT INTO big SELECT id + " + n + ", (id + " + n + ") % 7, pad FROM big").status.ok());
  }
  EXPECT_EQ(Rows("SELECT count(*), sum(id), min(id), max(id) FROM big"),
            (Strings{"131072|8589869056|0|131071"}));
  EXPECT_EQ(Rows("SELECT count(*) FROM big WHERE grp = 3 AND length(pad) = 150"),
            (Strings{"18725"}));
  EXPECT_EQ(Rows("SELECT id FROM big WHERE id % 50000 = 0 ORDER BY id"),
            (Strings{"0", "50000", "100000"}));
  Reopen(/*buffer_pool_mb=*/1);
  // The heap really is about ten times the pool.
  EXPECT_GT(std::filesystem::file_size(dir_.path() + "/data/tables/1.heap"), 10u << 20);
  EXPECT_EQ(Rows("SELECT count(*), sum(id) FROM big WHERE grp <> 3"),
            (Strings{"112347|7362688731"}));
}

}  // namespace
}  // namespace meridian::testing
