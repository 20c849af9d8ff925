// bench_prepared_dml: the per-execution cost of a single-row UPDATE by primary key and a
// single-row INSERT through the in-process engine API, three ways in one run: literal SQL
// (parse, bind, plan each time), parsed once with $n parameters but no plan cache (a Request
// from Session::Parse started with parameters: binds and plans each time, which is what a
// prepared INSERT/UPDATE/DELETE did before it had a plan cache), and prepared once
// (Session::Prepare: the plan cache skips binding and planning). A prepared point SELECT is the
// reference. Rounds alternate the variants so machine noise hits each alike; the best round of
// each counts. Usage: docs/benchmarks.md; results: tests/bench/RESULTS.md.
#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "meridian/database.h"
#include "temp_dir.h"

namespace {

using meridian::Status;
using meridian::Type;
using meridian::Value;

[[noreturn]] void Die(const std::string& what) {
  std::fprintf(stderr, "bench_prepared_dml: %s\n", what.c_str());
  std::exit(1);
}

void Check(const Status& st, const char* what) {
  if (!st.ok()) Die(std::string(what) + ": " + st.ToString());
}

double Now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

struct Config {
  uint64_t n = 100'000;      // rows loaded
  uint64_t ops = 20'000;     // executions per variant and round
  int rounds = 5;            // the best round counts
  uint64_t per_txn = 1'000;  // executions per transaction (BEGIN ... COMMIT)
};

constexpr const char* kCreateTable =
    "CREATE TABLE t (k BIGINT PRIMARY KEY, c1 INTEGER, c2 INTEGER, c3 INTEGER, c4 INTEGER, "
    "c5 INTEGER)";

// Runs every statement of sql, fetching and dropping rows; returns the last one's row count.
uint64_t Exec(meridian::Session* s, const std::string& sql) {
  auto req = s->Parse(sql);
  Check(req.status(), "parse");
  meridian::ExecControl ctl;
  uint64_t rows = 0;
  for (size_t i = 0; i < (*req)->size(); ++i) {
    auto cursor = (*req)->Start(i, ctl);
    Check(cursor.status(), sql.c_str());
    std::vector<meridian::Row> out;
    while (true) {
      auto more = (*cursor)->Fetch(1024, 1 << 20, ctl, &out);
      Check(more.status(), "fetch");
      if (!*more) break;
    }
    rows = (*cursor)->RowCount();
  }
  return rows;
}

// Starts statement 0 of request with values; returns its row count (affected or fetched).
uint64_t Start(meridian::Request& request, std::vector<Value> values, std::vector<Type> types) {
  meridian::ExecControl ctl;
  meridian::StatementParams params{std::move(values), std::move(types)};
  auto cursor = request.Start(0, ctl, params);
  Check(cursor.status(), "start");
  std::vector<meridian::Row> out;
  while (true) {
    auto more = (*cursor)->Fetch(1024, 1 << 20, ctl, &out);
    Check(more.status(), "fetch");
    if (!*more) break;
  }
  return (*cursor)->RowCount();
}

// One execution by index i; returns its row count (1 when right).
using Op = std::function<uint64_t(uint64_t)>;

struct Variant {
  std::string name;
  Op op;
  double best_us = 1e30;
};

// Times ops executions of v in transactions of cfg.per_txn; mean microseconds per execution.
double Time(meridian::Session* s, const Config& cfg, const Op& op, uint64_t base) {
  double t0 = Now();
  for (uint64_t i = 0; i < cfg.ops; ++i) {
    if (i % cfg.per_txn == 0) Exec(s, "BEGIN");
    if (op(base + i) != 1) Die("an execution did not affect exactly one row");
    if ((i + 1) % cfg.per_txn == 0 || i + 1 == cfg.ops) Exec(s, "COMMIT");
  }
  return (Now() - t0) * 1e6 / static_cast<double>(cfg.ops);
}

void RunGroup(const char* title, meridian::Session* s, const Config& cfg,
              std::vector<Variant>* variants, const std::function<uint64_t(int, size_t)>& base) {
  for (int r = 0; r < cfg.rounds; ++r) {
    for (size_t v = 0; v < variants->size(); ++v) {
      Variant& var = (*variants)[v];
      var.best_us = std::min(var.best_us, Time(s, cfg, var.op, base(r, v)));
    }
  }
  const double baseline = variants->front().best_us;
  std::printf("\n%s\n\n| Variant | us per execution | Time vs first row |\n|---|---:|---:|\n",
              title);
  for (const Variant& v : *variants) {
    std::printf("| %s | %.2f | %.2fx |\n", v.name.c_str(), v.best_us, v.best_us / baseline);
  }
  std::fflush(stdout);
}

// One statement twice: parsed once (Session::Parse: no plan cache) and prepared (Session::Prepare).
struct Requests {
  std::shared_ptr<meridian::Request> once;
  std::shared_ptr<meridian::Request> cached;
};

Requests ParseAndPrepare(meridian::Session* s, const std::string& name, const std::string& sql,
                         const std::vector<Type>& types) {
  auto parsed = s->Parse(sql);
  Check(parsed.status(), sql.c_str());
  auto prepared = s->Prepare(name, sql, types);
  Check(prepared.status(), sql.c_str());
  return {std::move(parsed).value(), prepared->request};
}

std::string Row(int64_t k) {
  return "(" + std::to_string(k) + ", " + std::to_string(k % 1000) + ", 2, 3, 4, 5)";
}

}  // namespace

int main(int argc, char** argv) {
  Config cfg;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--smoke") {
      cfg.n = 2'000;
      cfg.ops = 500;
      cfg.rounds = 1;
      cfg.per_txn = 100;
    } else if (a == "--n" && i + 1 < argc) {
      cfg.n = std::stoull(argv[++i]);
    } else if (a == "--ops" && i + 1 < argc) {
      cfg.ops = std::stoull(argv[++i]);
    } else if (a == "--rounds" && i + 1 < argc) {
      cfg.rounds = std::stoi(argv[++i]);
    } else {
      std::fprintf(stderr,
                   "usage: bench_prepared_dml [--n N] [--ops OPS] [--rounds R] [--smoke]\n");
      return 2;
    }
  }
  if (cfg.n == 0 || cfg.ops == 0 || cfg.rounds <= 0) Die("sizes must be positive");
  meridian::testutil::TempDir tmp;
  meridian::DatabaseOptions opts;
  opts.data_dir = tmp.path() + "/engine";
  opts.buffer_pool_mb = 128;
  opts.synchronous_commit = false;  // the statements' cost, not fdatasync's
  auto db = meridian::Database::Open(opts);
  Check(db.status(), "Database::Open");
  auto session = (*db)->NewSession();
  meridian::Session* s = session.get();
  Exec(s, kCreateTable);
  for (uint64_t start = 0; start < cfg.n; start += 1000) {
    std::string sql = "INSERT INTO t VALUES ";
    for (uint64_t i = start; i < std::min(cfg.n, start + 1000); ++i) {
      sql += (i > start ? ", " : "") + Row(static_cast<int64_t>(2 * i + 1));
    }
    Exec(s, sql);
  }
  Exec(s, "ANALYZE t");
  const auto key = [&](uint64_t i) { return static_cast<int64_t>(2 * (i % cfg.n) + 1); };
  std::printf("bench_prepared_dml: %" PRIu64
              " rows (k BIGINT PRIMARY KEY, c1..c5 INTEGER), "
              "%" PRIu64 " executions per variant and round, best of %d rounds, %" PRIu64
              " executions per transaction, asynchronous commit\n",
              cfg.n, cfg.ops, cfg.rounds, cfg.per_txn);

  // UPDATE by primary key.
  const std::string update = "UPDATE t SET c1 = c1 + 1 WHERE k = $1";
  const std::vector<Type> bigint{Type::BigInt()};
  const Requests upd = ParseAndPrepare(s, "upd", update, bigint);
  std::vector<Variant> updates = {
      {"literal SQL (parse, bind, plan each time)",
       [&](uint64_t i) {
         return Exec(s, "UPDATE t SET c1 = c1 + 1 WHERE k = " + std::to_string(key(i)));
       }},
      {"parsed once, $1, no plan cache (bind + plan each time)",
       [&](uint64_t i) { return Start(*upd.once, {Value::Int(key(i))}, bigint); }},
      {"prepared once, $1, plan cache",
       [&](uint64_t i) { return Start(*upd.cached, {Value::Int(key(i))}, bigint); }},
  };
  RunGroup("UPDATE t SET c1 = c1 + 1 WHERE k = <key> (one row by primary key)", s, cfg, &updates,
           [&](int r, size_t v) { return (static_cast<uint64_t>(r) * 3 + v) * cfg.ops; });

  // INSERT of one new row (keys above the loaded ones; each variant and round its own range).
  const std::string insert = "INSERT INTO t VALUES ($1, $2, $3, $4, $5, $6)";
  const std::vector<Type> types{Type::BigInt(),  Type::Integer(), Type::Integer(),
                                Type::Integer(), Type::Integer(), Type::Integer()};
  const Requests ins = ParseAndPrepare(s, "ins", insert, types);
  const auto new_key = [&](uint64_t i) { return static_cast<int64_t>(2 * (cfg.n + i)); };
  const auto values = [&](uint64_t i) {
    const int64_t k = new_key(i);
    return std::vector<Value>{Value::Int(k), Value::Int(k % 1000), Value::Int(2),
                              Value::Int(3), Value::Int(4),        Value::Int(5)};
  };
  std::vector<Variant> inserts = {
      {"literal SQL (parse, bind, plan each time)",
       [&](uint64_t i) { return Exec(s, "INSERT INTO t VALUES " + Row(new_key(i))); }},
      {"parsed once, $1..$6, no plan cache (bind + plan each time)",
       [&](uint64_t i) { return Start(*ins.once, values(i), types); }},
      {"prepared once, $1..$6, plan cache",
       [&](uint64_t i) { return Start(*ins.cached, values(i), types); }},
  };
  RunGroup("INSERT INTO t VALUES (<six values>) (one new row, primary key checked)", s, cfg,
           &inserts, [&](int r, size_t v) { return (static_cast<uint64_t>(r) * 3 + v) * cfg.ops; });

  // The reference: the prepared point SELECT (cached since before this change).
  const std::string select = "SELECT * FROM t WHERE k = $1";
  const Requests sel = ParseAndPrepare(s, "sel", select, bigint);
  std::vector<Variant> selects = {
      {"parsed once, $1, no plan cache (bind + plan each time)",
       [&](uint64_t i) { return Start(*sel.once, {Value::Int(key(i))}, bigint); }},
      {"prepared once, $1, plan cache",
       [&](uint64_t i) { return Start(*sel.cached, {Value::Int(key(i))}, bigint); }},
  };
  RunGroup("SELECT * FROM t WHERE k = <key> (reference)", s, cfg, &selects,
           [&](int r, size_t v) { return (static_cast<uint64_t>(r) * 2 + v) * cfg.ops; });

  const meridian::PlanCacheStats u = upd.cached->plan_cache_stats();
  const meridian::PlanCacheStats n = ins.cached->plan_cache_stats();
  // Planned more than once: automatic ANALYZE after enough changed rows replans (plan_cache.h).
  std::printf("\nplan cache: prepared UPDATE reused %" PRIu64 " / planned %" PRIu64
              ", prepared INSERT reused %" PRIu64 " / planned %" PRIu64 "\n",
              u.reused, u.planned, n.reused, n.planned);
  if (u.reused == 0 || n.reused == 0) Die("the prepared statements never reused their plans");
  Check((*db)->Close(), "Database::Close");
  return 0;
}
