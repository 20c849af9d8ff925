// libFuzzer harness: SQL text -> result through the engine's public API (meridian/database.h).
// One Database per process on a fresh temp directory with a few small tables (fixture below).
// Each input is run as SQL text in a new session inside BEGIN ... ROLLBACK (DDL is
// transactional), with statement_timeout, a 1-second ExecControl deadline and a small work_mem;
// errors are expected and ignored. A crash, an ASan or UBSan report, or a hang beyond libFuzzer's
// -timeout is a bug (tests/fuzz/README.md, invariant 1).
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "meridian/database.h"

namespace {

using meridian::Database;
using meridian::DatabaseOptions;
using meridian::ExecControl;
using meridian::Row;
using meridian::Session;

// Tables every input may read and change (its changes are rolled back): ints, text, numeric,
// dates, a JSON column, NULLs, a primary key, a secondary index, a view and a sequence.
constexpr const char* kFixture = R"sql(
CREATE TABLE t (a INT PRIMARY KEY, b TEXT, c NUMERIC(10,2), d DATE, e BOOLEAN);
INSERT INTO t VALUES (1, 'one', 1.50, '2024-01-01', true), (2, 'two', NULL, '2024-02-29', false),
  (3, NULL, -3.25, NULL, NULL), (4, 'four', 1000.00, '1999-12-31', true), (5, 'Five', 0, '2000-01-01', false);
CREATE INDEX t_b ON t (b);
CREATE TABLE u (x BIGINT, y DOUBLE PRECISION, z VARCHAR(20), j JSONB, ts TIMESTAMP);
INSERT INTO u VALUES (1, 0.5, 'a', '{"k": 1}', '2024-01-01 10:00:00'), (2, -1e10, 'bb', '[1,2,3]', NULL),
  (NULL, NULL, NULL, NULL, NULL), (3, 3.0, 'a', '"s"', '1970-01-01 00:00:00');
CREATE TABLE s (id SERIAL PRIMARY KEY, t_a INT REFERENCES t(a), v INT UNIQUE);
INSERT INTO s (t_a, v) VALUES (1, 10), (2, 20), (2, 30), (NULL, 40);
CREATE VIEW tv AS SELECT a, b FROM t WHERE a > 1;
CREATE SEQUENCE seq;
ANALYZE;
)sql";

std::unique_ptr<Database> g_db;

// Runs every statement of sql, draining results; returns false on the first error.
bool Run(Session& session, std::string_view sql, ExecControl& ctl) {
  auto request = session.Parse(sql);
  if (!request.ok()) return false;
  std::vector<Row> rows;
  for (size_t i = 0; i < (*request)->size(); ++i) {
    auto cursor = (*request)->Start(i, ctl);
    if (!cursor.ok()) return false;
    if (auto* copy = (*cursor)->copy_in()) {  // COPY FROM STDIN: feed it a little data
      if (!copy->Write("1\t2\n", ctl).ok() || !copy->Finish(ctl).ok()) return false;
    }
    while (true) {
      rows.clear();
      auto more = (*cursor)->Fetch(256, 1 << 20, ctl, &rows);
      if (!more.ok()) return false;
      for (const Row& row : rows) {
        for (const auto& v : row) (void)v.ToString();  // every value must print
      }
      if (!*more) break;
    }
    (void)(*cursor)->CommandTag();
  }
  return true;
}

std::string g_dir;

void Setup() {
  const char* tmp = getenv("TMPDIR");
  std::string tmpl = std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") +
                     "/meridian-fuzz-sql-XXXXXX";
  const char* dir = mkdtemp(tmpl.data());
  if (dir == nullptr) {
    fprintf(stderr, "fuzz_sql: cannot create %s: %s (does TMPDIR exist?)\n", tmpl.c_str(),
            strerror(errno));
    abort();
  }
  g_dir = dir;
  DatabaseOptions options;
  options.data_dir = std::string(dir) + "/data";
  options.buffer_pool_mb = 16;
  options.synchronous_commit = false;
  auto db = Database::Open(options);
  if (!db.ok()) {
    fprintf(stderr, "fuzz_sql: Open failed: %s\n", db.status().ToString().c_str());
    abort();
  }
  g_db = std::move(db).value();
  auto session = g_db->NewSession();
  ExecControl ctl;
  if (!Run(*session, kFixture, ctl)) {
    fprintf(stderr, "fuzz_sql: fixture failed\n");
    abort();
  }
  // A run that ends normally (-max_total_time, -runs) closes the database and removes its
  // directory; after a crash it stays for a look (run_fuzz.sh points TMPDIR into build-fuzz).
  atexit([] {
    (void)g_db->Close();
    g_db.reset();
    std::error_code ec;
    std::filesystem::remove_all(g_dir, ec);
  });
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  Setup();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 4096) return 0;
  std::string_view sql(reinterpret_cast<const char*>(data), size);
  auto session = g_db->NewSession();
  ExecControl setup;
  Run(*session, "SET statement_timeout = 1000; SET work_mem = '256kB'; BEGIN", setup);
  ExecControl ctl;
  ctl.SetDeadline(ExecControl::Clock::now() + std::chrono::seconds(1));
  Run(*session, sql, ctl);
  ExecControl end;
  Run(*session, "ROLLBACK", end);
  return 0;
}
