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

#include "fuzz_fixture.h"
#include "meridian/database.h"

namespace {

using meridian::Database;
using meridian::DatabaseOptions;
using meridian::ExecControl;
using meridian::Row;
using meridian::Session;
using meridian::fuzz::kFixtureSql;
using meridian::fuzz::MakeTempDir;

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
  g_dir = MakeTempDir("fuzz_sql");
  DatabaseOptions options;
  options.data_dir = g_dir + "/data";
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
  if (!Run(*session, kFixtureSql, ctl)) {
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
