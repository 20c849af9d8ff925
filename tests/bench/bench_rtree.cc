// bench_rtree: the QuickDB paper's R-tree evaluation (section 3.3, Table 5) for Meridian's
// R*-tree used directly through the storage API (BufferPool + RTree), against Boost.Geometry's
// rtree (rstar<16>, quadratic<16>), libspatialindex's R*-tree and SQLite's R*Tree module, on
// the same 5-D points and query boxes, printed as one table with ratios. Method and usage:
// docs/benchmarks.md; results: tests/bench/RESULTS.md.
#include <spatialindex/SpatialIndex.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <time.h>

#include <boost/geometry.hpp>
#include <boost/geometry/index/rtree.hpp>
#include <boost/iterator/function_output_iterator.hpp>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "meridian/status.h"
#include "storage/buffer_pool.h"
#include "storage/rtree.h"

namespace {

namespace bg = boost::geometry;
namespace bgi = boost::geometry::index;
using meridian::storage::Box;
using meridian::storage::BufferPool;
using meridian::storage::Rid;
using meridian::storage::RTree;
using meridian::storage::RTreeOp;

constexpr size_t kDims = 5;

struct Config {
  size_t n = 5000000;
  size_t queries[3] = {20000, 5000, 200};
  double targets[3] = {1, 300, 45000};  // average result counts aimed at
  std::string engines = "meridian,meridian20,bulk,boost-rstar,boost-quadratic,spatialindex,sqlite";
  bool smoke = false;
  // Times by this thread's CPU time (user + system, CLOCK_THREAD_CPUTIME_ID) instead of the
  // wall clock: on a shared, overloaded machine the wall clock measures the other processes.
  bool cpu_clock = false;
};

struct Group {
  std::vector<Box> boxes;
  std::vector<uint64_t> expected;  // Meridian's counts, compared with every other engine's
  double average = 0;
};

// One row of the result table.
struct Row {
  std::string name;
  double insert_per_s = 0;  // one-by-one inserts
  double build_s = 0;       // the whole build (inserts or bulk load)
  double qps[3] = {0, 0, 0};
  double bytes_per_entry = 0;  // 0 = not measurable
  bool ran = false;
};

bool g_cpu_clock = false;  // Config::cpu_clock, set once before any timing

// Seconds on the chosen clock. Every engine runs in this thread (none starts threads of its
// own), so its thread CPU time is all the CPU time it used.
double Now() {
  if (g_cpu_clock) {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
  }
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

void Check(const meridian::Status& st, const char* what) {
  if (!st.ok()) {
    std::fprintf(stderr, "bench_rtree: %s: %s\n", what, st.ToString().c_str());
    std::exit(1);
  }
}

bool Wants(const Config& cfg, const std::string& engine) {
  return ("," + cfg.engines + ",").find("," + engine + ",") != std::string::npos;
}

// Times the query groups; count(g, i) answers query i of group g. When expected counts exist
// the answers must match them (a wrong engine fails the run instead of looking fast).
bool RunQueries(const char* name, std::vector<Group>* groups,
                const std::function<uint64_t(size_t, const Box&)>& count, Row* row, bool exact) {
  bool ok = true;
  for (size_t g = 0; g < groups->size(); ++g) {
    Group& grp = (*groups)[g];
    std::vector<uint64_t> got(grp.boxes.size());
    double t0 = Now();
    for (size_t i = 0; i < grp.boxes.size(); ++i) got[i] = count(g, grp.boxes[i]);
    double dt = Now() - t0;
    row->qps[g] = static_cast<double>(grp.boxes.size()) / dt;
    if (grp.expected.empty()) {
      grp.expected = got;
      uint64_t sum = 0;
      for (uint64_t c : got) sum += c;
      grp.average = static_cast<double>(sum) / static_cast<double>(got.size());
      continue;
    }
    size_t mismatches = 0;
    for (size_t i = 0; i < got.size(); ++i) {
      // SQLite's R*Tree stores float32 boxes rounded outwards: it may report a point lying
      // within float32 rounding of a query edge, never miss one.
      if (exact ? got[i] != grp.expected[i] : got[i] < grp.expected[i]) ++mismatches;
    }
    if (mismatches != 0) {
      std::fprintf(stderr, "bench_rtree: %s: %zu of %zu answers in group %zu differ\n", name,
                   mismatches, got.size(), g + 1);
      ok = false;
    }
  }
  return ok;
}

// ---- Meridian ----

Box PointBox(const double* p) { return Box::Point(std::span<const double>(p, kDims)); }

Rid RidOf(size_t i) {
  return Rid{static_cast<uint32_t>(i / 100 + 1), static_cast<uint16_t>(i % 100)};
}

bool RunMeridian(const Config& cfg, const std::string& dir, const std::vector<double>& pts,
                 std::vector<Group>* groups, std::vector<Row>* rows) {
  const size_t n = cfg.n;
  const std::string path = dir + "/rtree.idx";
  // Pool frames: generous for the index (entries take 88 bytes, nodes ~70% full).
  const size_t frames = std::max<size_t>(1024, n * 88 / 8192 * 2);
  size_t pages = 0;
  bool ok = true;
  {
    BufferPool pool(frames);
    auto t = RTree::Open(&pool, path, {.dims = kDims});
    Check(t.status(), "open");
    Row row{.name = "Meridian R*-tree (pool holds index)"};
    double t0 = Now();
    for (size_t i = 0; i < n; ++i)
      Check((*t)->Insert(PointBox(&pts[i * kDims]), RidOf(i)), "insert");
    double dt = Now() - t0;
    row.insert_per_s = static_cast<double>(n) / dt;
    row.build_s = dt;
    pages = pool.PageCount((*t)->file_id());
    row.bytes_per_entry = static_cast<double>(pages) * 8192 / static_cast<double>(n);
    ok &= RunQueries(
        row.name.c_str(), groups,
        [&](size_t, const Box& q) { return *(*t)->Count(RTreeOp::kOverlaps, q); }, &row, true);
    if (cfg.smoke) {
      auto st = (*t)->Verify();
      Check(st.status(), "verify");
      std::printf("verify: %llu entries, height %u, %u leaves, least fill %zu of %zu\n",
                  static_cast<unsigned long long>(st->entries), st->height, st->leaf_pages,
                  st->min_fill, (*t)->capacity());
    }
    row.ran = true;
    rows->push_back(row);
    Check((*t)->Close(), "close");
  }
  if (Wants(cfg, "meridian20")) {
    // The same file through a pool of 20% of its pages: most node visits below the top
    // levels are misses (a read from the OS page cache and a checksum).
    BufferPool pool(std::max<size_t>(16, pages / 5));
    auto t = RTree::Open(&pool, path);
    Check(t.status(), "reopen");
    Row row{.name = "Meridian R*-tree (pool 20% of index)"};
    row.bytes_per_entry = static_cast<double>(pages) * 8192 / static_cast<double>(n);
    ok &= RunQueries(
        row.name.c_str(), groups,
        [&](size_t, const Box& q) { return *(*t)->Count(RTreeOp::kOverlaps, q); }, &row, true);
    row.ran = true;
    rows->push_back(row);
  }
  if (Wants(cfg, "bulk")) {
    BufferPool pool(frames);
    auto t = RTree::Open(&pool, dir + "/bulk.idx", {.dims = kDims, .fill_factor = 0.9});
    Check(t.status(), "open");
    Row row{.name = "Meridian R*-tree, STR bulk load"};
    double t0 = Now();
    Check((*t)->BulkLoad(n,
                         [&](size_t i, Box* b, Rid* r) {
                           *b = PointBox(&pts[i * kDims]);
                           *r = RidOf(i);
                         }),
          "bulk load");
    row.build_s = Now() - t0;
    row.bytes_per_entry =
        static_cast<double>(pool.PageCount((*t)->file_id())) * 8192 / static_cast<double>(n);
    ok &= RunQueries(
        row.name.c_str(), groups,
        [&](size_t, const Box& q) { return *(*t)->Count(RTreeOp::kOverlaps, q); }, &row, true);
    if (cfg.smoke) Check((*t)->Verify().status(), "verify bulk");
    row.ran = true;
    rows->push_back(row);
  }
  return ok;
}

// ---- Boost.Geometry ----

using BPoint = bg::model::point<double, kDims, bg::cs::cartesian>;
using BBox = bg::model::box<BPoint>;
using BValue = std::pair<BPoint, uint32_t>;

BPoint ToBPoint(const double* p) {
  BPoint b;
  bg::set<0>(b, p[0]);
  bg::set<1>(b, p[1]);
  bg::set<2>(b, p[2]);
  bg::set<3>(b, p[3]);
  bg::set<4>(b, p[4]);
  return b;
}

template <typename Params>
bool RunBoost(const char* name, const Config& cfg, const std::vector<double>& pts,
              std::vector<Group>* groups, std::vector<Row>* rows, bool packed) {
  Row row{.name = name};
  bgi::rtree<BValue, Params> tree;
  double t0 = Now();
  if (packed) {
    std::vector<BValue> values;
    values.reserve(cfg.n);
    for (size_t i = 0; i < cfg.n; ++i) values.emplace_back(ToBPoint(&pts[i * kDims]), i);
    t0 = Now();  // the packing constructor alone
    bgi::rtree<BValue, Params> built(values.begin(), values.end());
    tree = std::move(built);
  } else {
    for (size_t i = 0; i < cfg.n; ++i) {
      tree.insert(BValue(ToBPoint(&pts[i * kDims]), static_cast<uint32_t>(i)));
    }
  }
  double dt = Now() - t0;
  row.build_s = dt;
  if (!packed) row.insert_per_s = static_cast<double>(cfg.n) / dt;
  bool ok = RunQueries(
      name, groups,
      [&](size_t, const Box& q) {
        BBox box(ToBPoint(q.lo), ToBPoint(q.hi));
        uint64_t c = 0;
        tree.query(bgi::intersects(box),
                   boost::make_function_output_iterator([&](const BValue&) { ++c; }));
        return c;
      },
      &row, true);
  row.ran = true;
  rows->push_back(row);
  return ok;
}

// ---- libspatialindex ----

class CountVisitor : public SpatialIndex::IVisitor {
 public:
  void visitNode(const SpatialIndex::INode&) override {}
  void visitData(const SpatialIndex::IData&) override { ++count; }
  void visitData(std::vector<const SpatialIndex::IData*>& v) override { count += v.size(); }
  uint64_t count = 0;
};

bool RunSpatialIndex(const Config& cfg, const std::vector<double>& pts, std::vector<Group>* groups,
                     std::vector<Row>* rows) {
  Row row{.name = "libspatialindex R*-tree (memory)"};
  std::unique_ptr<SpatialIndex::IStorageManager> mem(
      SpatialIndex::StorageManager::createNewMemoryStorageManager());
  SpatialIndex::id_type index_id;
  // Fill factor 0.7 and 100 entries per node: the library's documented example settings.
  std::unique_ptr<SpatialIndex::ISpatialIndex> tree(SpatialIndex::RTree::createNewRTree(
      *mem, 0.7, 100, 100, kDims, SpatialIndex::RTree::RV_RSTAR, index_id));
  double t0 = Now();
  for (size_t i = 0; i < cfg.n; ++i) {
    SpatialIndex::Point p(&pts[i * kDims], kDims);
    tree->insertData(0, nullptr, p, static_cast<SpatialIndex::id_type>(i));
  }
  double dt = Now() - t0;
  row.build_s = dt;
  row.insert_per_s = static_cast<double>(cfg.n) / dt;
  bool ok = RunQueries(
      row.name.c_str(), groups,
      [&](size_t, const Box& q) {
        SpatialIndex::Region r(q.lo, q.hi, kDims);
        CountVisitor v;
        tree->intersectsWithQuery(r, v);
        return v.count;
      },
      &row, true);
  row.ran = true;
  rows->push_back(row);
  return ok;
}

// ---- SQLite R*Tree ----

void Exec(sqlite3* db, const char* sql) {
  char* err = nullptr;
  if (sqlite3_exec(db, sql, nullptr, nullptr, &err) != SQLITE_OK) {
    std::fprintf(stderr, "bench_rtree: sqlite: %s: %s\n", sql, err ? err : "?");
    std::exit(1);
  }
}

bool RunSqlite(const Config& cfg, const std::vector<double>& pts, std::vector<Group>* groups,
               std::vector<Row>* rows) {
  Row row{.name = "SQLite R*Tree (in memory)"};
  sqlite3* db = nullptr;
  if (sqlite3_open(":memory:", &db) != SQLITE_OK) return false;
  Exec(db, "PRAGMA page_size=8192");
  Exec(db, "PRAGMA cache_size=-4000000");
  Exec(db,
       "CREATE VIRTUAL TABLE rt USING rtree(id, x0lo, x0hi, x1lo, x1hi, x2lo, x2hi, x3lo, x3hi, "
       "x4lo, x4hi)");
  sqlite3_stmt* ins = nullptr;
  sqlite3_prepare_v2(db, "INSERT INTO rt VALUES (?,?,?,?,?,?,?,?,?,?,?)", -1, &ins, nullptr);
  double t0 = Now();
  Exec(db, "BEGIN");
  for (size_t i = 0; i < cfg.n; ++i) {
    sqlite3_bind_int64(ins, 1, static_cast<sqlite3_int64>(i));
    for (size_t d = 0; d < kDims; ++d) {
      sqlite3_bind_double(ins, static_cast<int>(2 + 2 * d), pts[i * kDims + d]);
      sqlite3_bind_double(ins, static_cast<int>(3 + 2 * d), pts[i * kDims + d]);
    }
    if (sqlite3_step(ins) != SQLITE_DONE) {
      std::fprintf(stderr, "bench_rtree: sqlite insert: %s\n", sqlite3_errmsg(db));
      return false;
    }
    sqlite3_reset(ins);
  }
  Exec(db, "COMMIT");
  double dt = Now() - t0;
  sqlite3_finalize(ins);
  row.build_s = dt;
  row.insert_per_s = static_cast<double>(cfg.n) / dt;
  sqlite3_stmt* st = nullptr;
  sqlite3_prepare_v2(db, "PRAGMA page_count", -1, &st, nullptr);
  if (sqlite3_step(st) == SQLITE_ROW) {
    row.bytes_per_entry =
        static_cast<double>(sqlite3_column_int64(st, 0)) * 8192 / static_cast<double>(cfg.n);
  }
  sqlite3_finalize(st);
  sqlite3_stmt* q = nullptr;
  sqlite3_prepare_v2(db,
                     "SELECT count(*) FROM rt WHERE x0hi >= ?1 AND x0lo <= ?2 AND x1hi >= ?3 AND "
                     "x1lo <= ?4 AND x2hi >= ?5 AND x2lo <= ?6 AND x3hi >= ?7 AND x3lo <= ?8 AND "
                     "x4hi >= ?9 AND x4lo <= ?10",
                     -1, &q, nullptr);
  Exec(db, "BEGIN");
  bool ok = RunQueries(
      row.name.c_str(), groups,
      [&](size_t, const Box& b) {
        for (size_t d = 0; d < kDims; ++d) {
          sqlite3_bind_double(q, static_cast<int>(1 + 2 * d), b.lo[d]);
          sqlite3_bind_double(q, static_cast<int>(2 + 2 * d), b.hi[d]);
        }
        uint64_t c = 0;
        if (sqlite3_step(q) == SQLITE_ROW) c = static_cast<uint64_t>(sqlite3_column_int64(q, 0));
        sqlite3_reset(q);
        return c;
      },
      &row, false);
  Exec(db, "COMMIT");
  sqlite3_finalize(q);
  sqlite3_close(db);
  row.ran = true;
  rows->push_back(row);
  return ok;
}

// ---- main ----

void Usage() {
  std::fprintf(
      stderr,
      "usage: bench_rtree [--n N] [--queries Q1,Q2,Q3] [--engines LIST] [--cpu-clock] [--smoke]\n"
      "  --n N         5-D points inserted (default 5,000,000)\n"
      "  --queries     queries per group (default 20000,5000,200)\n"
      "  --engines     subset of %s\n"
      "  --cpu-clock   time by this thread's CPU time, not the wall clock (shared machine)\n"
      "  --smoke       N = 20,000, few queries, Verify: checks the harness in seconds\n",
      Config().engines.c_str());
}

Config ParseArgs(int argc, char** argv) {
  Config cfg;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        Usage();
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--n") {
      cfg.n = std::stoull(value());
    } else if (a == "--queries") {
      std::string v = value();
      if (std::sscanf(v.c_str(), "%zu,%zu,%zu", &cfg.queries[0], &cfg.queries[1],
                      &cfg.queries[2]) != 3) {
        Usage();
        std::exit(2);
      }
    } else if (a == "--engines") {
      cfg.engines = value();
    } else if (a == "--cpu-clock") {
      cfg.cpu_clock = true;
    } else if (a == "--smoke") {
      cfg.smoke = true;
      cfg.n = 20000;
      cfg.queries[0] = 2000;
      cfg.queries[1] = 500;
      cfg.queries[2] = 20;
    } else {
      Usage();
      std::exit(2);
    }
  }
  // A group cannot average more results than a quarter of the points.
  for (double& t : cfg.targets) t = std::min(t, static_cast<double>(cfg.n) / 4);
  return cfg;
}

}  // namespace

int main(int argc, char** argv) {
  Config cfg = ParseArgs(argc, argv);
  g_cpu_clock = cfg.cpu_clock;
  const size_t n = cfg.n;
  std::mt19937_64 rng(20261125);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::vector<double> pts(n * kDims);
  for (double& x : pts) x = unit(rng);
  // Cubes of side s lying inside the unit cube hold N·s^5 points on average.
  std::vector<Group> groups(3);
  for (size_t g = 0; g < 3; ++g) {
    const double side = std::pow(cfg.targets[g] / static_cast<double>(n), 1.0 / kDims);
    for (size_t i = 0; i < cfg.queries[g]; ++i) {
      Box b;
      for (size_t d = 0; d < kDims; ++d) {
        b.lo[d] = unit(rng) * (1 - side);
        b.hi[d] = b.lo[d] + side;
      }
      groups[g].boxes.push_back(b);
    }
  }
  char tmpl[] = "/tmp/bench_rtree_XXXXXX";
  const char* dir = mkdtemp(tmpl);
  if (dir == nullptr) {
    std::perror("mkdtemp");
    return 1;
  }
  std::printf(
      "bench_rtree: N = %zu uniformly random %zu-D points, queries per group %zu / %zu / "
      "%zu, %s\n",
      n, kDims, cfg.queries[0], cfg.queries[1], cfg.queries[2],
      cfg.cpu_clock ? "thread CPU time" : "wall clock");
  std::fflush(stdout);
  std::vector<Row> rows;
  bool ok = true;
  if (Wants(cfg, "meridian")) ok &= RunMeridian(cfg, dir, pts, &groups, &rows);
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
  if (Wants(cfg, "boost-rstar")) {
    ok &=
        RunBoost<bgi::rstar<16>>("Boost.Geometry rtree rstar<16>", cfg, pts, &groups, &rows, false);
    ok &= RunBoost<bgi::rstar<16>>("Boost.Geometry rstar<16>, packing", cfg, pts, &groups, &rows,
                                   true);
  }
  if (Wants(cfg, "boost-quadratic")) {
    ok &= RunBoost<bgi::quadratic<16>>("Boost.Geometry rtree quadratic<16>", cfg, pts, &groups,
                                       &rows, false);
  }
  if (Wants(cfg, "spatialindex")) ok &= RunSpatialIndex(cfg, pts, &groups, &rows);
  if (Wants(cfg, "sqlite")) ok &= RunSqlite(cfg, pts, &groups, &rows);

  std::printf(
      "\naverage results per query: group 1 %.1f (aim %.0f), group 2 %.1f (aim %.0f), "
      "group 3 %.1f (aim %.0f)\n\n",
      groups[0].average, cfg.targets[0], groups[1].average, cfg.targets[1], groups[2].average,
      cfg.targets[2]);
  std::printf("%-40s %12s %10s %12s %12s %12s %8s\n", "engine", "inserts/s", "build s", "q/s grp 1",
              "q/s grp 2", "q/s grp 3", "B/entry");
  for (const Row& r : rows) {
    char ins[32] = "-", bpe[32] = "-";
    if (r.insert_per_s > 0) std::snprintf(ins, sizeof ins, "%.0f", r.insert_per_s);
    if (r.bytes_per_entry > 0) std::snprintf(bpe, sizeof bpe, "%.1f", r.bytes_per_entry);
    char build[32] = "-";
    if (r.build_s > 0) std::snprintf(build, sizeof build, "%.2f", r.build_s);
    std::printf("%-40s %12s %10s %12.0f %12.0f %12.1f %8s\n", r.name.c_str(), ins, build, r.qps[0],
                r.qps[1], r.qps[2], bpe);
  }
  if (!rows.empty() && rows[0].name.rfind("Meridian", 0) == 0) {
    const Row& m = rows[0];
    std::printf("\nratios, Meridian (pool holds index) / engine (> 1: Meridian faster)\n");
    std::printf("%-40s %12s %12s %12s %12s\n", "engine", "inserts", "grp 1", "grp 2", "grp 3");
    for (size_t i = 1; i < rows.size(); ++i) {
      const Row& r = rows[i];
      char ins[32] = "-";
      if (r.insert_per_s > 0)
        std::snprintf(ins, sizeof ins, "%.2f", m.insert_per_s / r.insert_per_s);
      std::printf("%-40s %12s %12.2f %12.2f %12.2f\n", r.name.c_str(), ins, m.qps[0] / r.qps[0],
                  m.qps[1] / r.qps[1], m.qps[2] / r.qps[2]);
    }
  }
  if (!ok) {
    std::fprintf(stderr, "bench_rtree: engines disagree on some answers\n");
    return 1;
  }
  return 0;
}
