// bench_access: the QuickDB paper's Tables 2 and 3 (B-tree and heap access methods) for
// Meridian's storage engine (BufferPool + BTree / HeapFile used directly), SQLite and Berkeley
// DB, with the same records, cache bytes, page size and query keys, printed as one table with
// ratios. Usage and method: docs/benchmarks.md; results: tests/bench/RESULTS.md.
#include <db_cxx.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <numeric>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "meridian/status.h"
#include "storage/btree.h"
#include "storage/buffer_pool.h"
#include "storage/heap_file.h"

namespace {

using meridian::Result;
using meridian::Status;

constexpr size_t kKeySize = 8;     // big-endian u64: memcmp order == numeric order
constexpr size_t kValueSize = 20;  // five 32-bit integers
constexpr size_t kRecordSize = kKeySize + kValueSize;
constexpr size_t kBenchPageSize = 8192;

#define BENCH_CHECK(expr)                                                            \
  do {                                                                               \
    Status _st = (expr);                                                             \
    if (!_st.ok()) {                                                                 \
      std::fprintf(stderr, "bench_access: %s: %s\n", #expr, _st.ToString().c_str()); \
      std::exit(1);                                                                  \
    }                                                                                \
  } while (0)

// ---- Workload ----

struct Config {
  uint64_t n = 5'000'000;
  uint64_t queries = 1'000'000;
  std::string dir;  // empty: mkdtemp under /tmp
  std::vector<std::string> engines = {"meridian", "sqlite", "bdb"};
  bool run_btree = true;
  bool run_heap = true;
  bool verify = false;        // BTree::Verify after each Meridian build (not timed)
  double fits_factor = 4.0;   // "fits" cache = fits_factor x data bytes
  double small_factor = 0.8;  // "limited" cache = small_factor x data bytes
};

// Record i: key = big-endian (i * 2 + 1), value = five int32 derived from i.
void MakeKey(uint64_t i, char* out) {
  uint64_t k = i * 2 + 1;
  for (int b = 7; b >= 0; --b) {
    out[b] = static_cast<char>(k & 0xff);
    k >>= 8;
  }
}

void MakeValue(uint64_t i, char* out) {
  int32_t v[5] = {static_cast<int32_t>(i), static_cast<int32_t>(i * 3), static_cast<int32_t>(~i),
                  static_cast<int32_t>(i >> 7), 42};
  std::memcpy(out, v, kValueSize);
}

struct Workload {
  std::vector<uint32_t> random_order;  // a permutation of [0, n), fixed seed
  std::vector<uint32_t> query_ids;     // uniform draws from [0, n), fixed seed
};

Workload MakeWorkload(const Config& cfg) {
  Workload w;
  w.random_order.resize(cfg.n);
  std::iota(w.random_order.begin(), w.random_order.end(), 0u);
  std::mt19937_64 rng(20240501);
  std::shuffle(w.random_order.begin(), w.random_order.end(), rng);
  std::mt19937_64 qrng(7);
  std::uniform_int_distribution<uint64_t> dist(0, cfg.n - 1);
  w.query_ids.resize(cfg.queries);
  for (auto& q : w.query_ids) q = static_cast<uint32_t>(dist(qrng));
  return w;
}

double Now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

uint64_t FileBytes(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 ? static_cast<uint64_t>(st.st_size) : 0;
}

// Writes back and evicts a file from the OS page cache (works without root for clean pages).
void EvictFromOsCache(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  ::fdatasync(fd);
  ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
  ::close(fd);
}

// ---- Engines ----

// One engine under test. Tree: unique keys of 8 bytes, 20-byte values. Heap: 28-byte records
// appended in order. Finish*() is the durability point and is part of the timed phase.
class Engine {
 public:
  virtual ~Engine() = default;
  virtual const char* name() const = 0;
  virtual const char* durability() const = 0;

  virtual Status OpenTree(const std::string& dir, size_t cache_bytes) = 0;
  virtual Status TreeInsert(const char* key, const char* value) = 0;
  virtual Status FinishTree() = 0;
  // Copies the 20-byte value into out; false when the key is absent.
  virtual Result<bool> TreeGet(const char* key, char* out) = 0;
  virtual Status CloseTree() = 0;
  // Checks the tree just built and describes its shape ("" when the engine cannot).
  virtual Result<std::string> VerifyTree() { return std::string(); }

  virtual Status OpenHeap(const std::string& dir, size_t cache_bytes) = 0;
  virtual Status HeapAppend(const char* record) = 0;
  virtual Status FinishHeap() = 0;
  // Reads every record; returns the count and adds a checksum of the bytes to *sum.
  virtual Result<uint64_t> ScanHeap(uint64_t* sum) = 0;
  virtual Status CloseHeap() = 0;

  // Files the engine wrote in dir (for sizes and OS cache eviction).
  virtual std::vector<std::string> TreeFiles(const std::string& dir) const = 0;
  virtual std::vector<std::string> HeapFiles(const std::string& dir) const = 0;
};

uint64_t Checksum(const char* p, size_t n) {
  uint64_t s = 0;
  for (size_t i = 0; i < n; ++i) s = s * 31 + static_cast<unsigned char>(p[i]);
  return s;
}

class MeridianEngine final : public Engine {
 public:
  const char* name() const override { return "Meridian"; }
  const char* durability() const override {
    return "BTree::Flush / HeapFile::Flush: write dirty pages + fdatasync";
  }

  Status OpenTree(const std::string& dir, size_t cache_bytes) override {
    pool_ = std::make_unique<meridian::storage::BufferPool>(cache_bytes / kBenchPageSize);
    auto t = meridian::storage::BTree::Open(pool_.get(), dir + "/meridian.idx", {.unique = true});
    if (!t.ok()) return t.status();
    tree_ = std::move(*t);
    return Status::Ok();
  }
  Status TreeInsert(const char* key, const char* value) override {
    return tree_->Insert(std::string_view(key, kKeySize), std::string_view(value, kValueSize));
  }
  Status FinishTree() override { return tree_->Flush(); }
  Result<bool> TreeGet(const char* key, char* out) override {
    auto found = tree_->LookupFirst(std::string_view(key, kKeySize), &value_);
    if (!found.ok() || !*found) return found;
    std::memcpy(out, value_.data(), std::min(value_.size(), kValueSize));
    return true;
  }
  Result<std::string> VerifyTree() override {
    auto v = tree_->Verify(/*check_pins=*/true);
    if (!v.ok()) return v.status();
    const auto ps = pool_->stats();
    char buf[320];
    std::snprintf(buf, sizeof(buf),
                  "height %u, %u leaves (%.1f entries each), %u internal, %u free pages; pool: "
                  "%" PRIu64 " hits, %" PRIu64 " misses, %" PRIu64 " evictions, %" PRIu64 " writes",
                  v->height, v->leaf_pages, static_cast<double>(v->entries) / v->leaf_pages,
                  v->internal_pages, v->free_pages, ps.hits, ps.misses, ps.evictions, ps.writes);
    return std::string(buf);
  }
  Status CloseTree() override {
    Status st = tree_->Close();
    tree_.reset();
    pool_.reset();
    return st;
  }

  Status OpenHeap(const std::string& dir, size_t cache_bytes) override {
    pool_ = std::make_unique<meridian::storage::BufferPool>(cache_bytes / kBenchPageSize);
    auto h = meridian::storage::HeapFile::Open(pool_.get(), dir + "/meridian.heap");
    if (!h.ok()) return h.status();
    heap_ = std::move(*h);
    return Status::Ok();
  }
  Status HeapAppend(const char* record) override {
    return heap_->Insert(std::string_view(record, kRecordSize)).status();
  }
  Status FinishHeap() override { return heap_->Flush(); }
  Result<uint64_t> ScanHeap(uint64_t* sum) override {
    auto cursor = heap_->Scan();
    meridian::storage::Rid rid;
    std::string tuple;
    uint64_t count = 0;
    while (true) {
      auto more = cursor.Next(&rid, &tuple);
      if (!more.ok()) return more.status();
      if (!*more) break;
      *sum += Checksum(tuple.data(), tuple.size());
      ++count;
    }
    return count;
  }
  Status CloseHeap() override {
    Status st = heap_->Close();
    heap_.reset();
    pool_.reset();
    return st;
  }

  std::vector<std::string> TreeFiles(const std::string& dir) const override {
    return {dir + "/meridian.idx"};
  }
  std::vector<std::string> HeapFiles(const std::string& dir) const override {
    return {dir + "/meridian.heap"};
  }

 private:
  std::unique_ptr<meridian::storage::BufferPool> pool_;
  std::unique_ptr<meridian::storage::BTree> tree_;
  std::unique_ptr<meridian::storage::HeapFile> heap_;
  std::string value_;  // LookupFirst's output, reused across queries
};

class SqliteEngine final : public Engine {
 public:
  ~SqliteEngine() override { Close(); }
  const char* name() const override { return "SQLite"; }
  const char* durability() const override {
    return "one transaction, COMMIT (journal_mode=WAL, synchronous=OFF: no fsync; the "
           "auto-checkpoint at COMMIT copies the WAL into the database file)";
  }

  Status OpenTree(const std::string& dir, size_t cache_bytes) override {
    path_ = dir + "/sqlite_tree.db";
    if (Status st = Open(path_, cache_bytes); !st.ok()) return st;
    if (Status st = Exec("CREATE TABLE t(k BLOB PRIMARY KEY, v BLOB) WITHOUT ROWID"); !st.ok()) {
      return st;
    }
    if (Status st = Prepare("INSERT INTO t(k, v) VALUES(?, ?)", &insert_); !st.ok()) return st;
    if (Status st = Prepare("SELECT v FROM t WHERE k = ?", &select_); !st.ok()) return st;
    return Exec("BEGIN");
  }
  Status TreeInsert(const char* key, const char* value) override {
    sqlite3_bind_blob(insert_, 1, key, kKeySize, SQLITE_STATIC);
    sqlite3_bind_blob(insert_, 2, value, kValueSize, SQLITE_STATIC);
    int rc = sqlite3_step(insert_);
    sqlite3_reset(insert_);
    return rc == SQLITE_DONE ? Status::Ok() : Error("insert");
  }
  Status FinishTree() override {
    if (Status st = Exec("COMMIT"); !st.ok()) return st;
    return Exec("BEGIN");  // point queries run in one read transaction
  }
  Result<bool> TreeGet(const char* key, char* out) override {
    sqlite3_bind_blob(select_, 1, key, kKeySize, SQLITE_STATIC);
    int rc = sqlite3_step(select_);
    bool found = false;
    if (rc == SQLITE_ROW) {
      int n = sqlite3_column_bytes(select_, 0);
      std::memcpy(out, sqlite3_column_blob(select_, 0), std::min<size_t>(n, kValueSize));
      found = true;
    } else if (rc != SQLITE_DONE) {
      sqlite3_reset(select_);
      return Error("select");
    }
    sqlite3_reset(select_);
    return found;
  }
  Status CloseTree() override {
    Status st = Exec("COMMIT");
    Close();
    return st;
  }

  Status OpenHeap(const std::string& dir, size_t cache_bytes) override {
    path_ = dir + "/sqlite_heap.db";
    if (Status st = Open(path_, cache_bytes); !st.ok()) return st;
    if (Status st = Exec("CREATE TABLE IF NOT EXISTS h(r BLOB)"); !st.ok()) return st;
    if (Status st = Prepare("INSERT INTO h(r) VALUES(?)", &insert_); !st.ok()) return st;
    if (Status st = Prepare("SELECT r FROM h", &select_); !st.ok()) return st;
    return Exec("BEGIN");
  }
  Status HeapAppend(const char* record) override {
    sqlite3_bind_blob(insert_, 1, record, kRecordSize, SQLITE_STATIC);
    int rc = sqlite3_step(insert_);
    sqlite3_reset(insert_);
    return rc == SQLITE_DONE ? Status::Ok() : Error("insert");
  }
  Status FinishHeap() override { return Exec("COMMIT"); }
  Result<uint64_t> ScanHeap(uint64_t* sum) override {
    uint64_t count = 0;
    int rc;
    while ((rc = sqlite3_step(select_)) == SQLITE_ROW) {
      const char* p = static_cast<const char*>(sqlite3_column_blob(select_, 0));
      *sum += Checksum(p, static_cast<size_t>(sqlite3_column_bytes(select_, 0)));
      ++count;
    }
    sqlite3_reset(select_);
    if (rc != SQLITE_DONE) return Error("scan");
    return count;
  }
  Status CloseHeap() override {
    Close();
    return Status::Ok();
  }

  std::vector<std::string> TreeFiles(const std::string& dir) const override {
    return {dir + "/sqlite_tree.db", dir + "/sqlite_tree.db-wal"};
  }
  std::vector<std::string> HeapFiles(const std::string& dir) const override {
    return {dir + "/sqlite_heap.db", dir + "/sqlite_heap.db-wal"};
  }

 private:
  Status Open(const std::string& path, size_t cache_bytes) {
    if (sqlite3_open(path.c_str(), &db_) != SQLITE_OK) return Error("open");
    const std::string cache = "PRAGMA cache_size=-" + std::to_string(cache_bytes / 1024);
    for (const char* sql : {"PRAGMA page_size=8192", "PRAGMA journal_mode=WAL",
                            "PRAGMA synchronous=OFF", cache.c_str()}) {
      if (Status st = Exec(sql); !st.ok()) return st;
    }
    return Status::Ok();
  }
  void Close() {
    sqlite3_finalize(insert_);
    sqlite3_finalize(select_);
    insert_ = select_ = nullptr;
    if (db_ != nullptr) sqlite3_close(db_);
    db_ = nullptr;
  }
  Status Exec(const char* sql) {
    char* err = nullptr;
    if (sqlite3_exec(db_, sql, nullptr, nullptr, &err) != SQLITE_OK) {
      std::string msg = std::string("sqlite: ") + sql + ": " + (err ? err : "?");
      sqlite3_free(err);
      return Status::Internal(msg);
    }
    return Status::Ok();
  }
  Status Exec(const std::string& sql) { return Exec(sql.c_str()); }
  Status Prepare(const char* sql, sqlite3_stmt** stmt) {
    return sqlite3_prepare_v2(db_, sql, -1, stmt, nullptr) == SQLITE_OK ? Status::Ok() : Error(sql);
  }
  Status Error(const char* what) {
    return Status::Internal(std::string("sqlite ") + what + ": " + sqlite3_errmsg(db_));
  }

  std::string path_;
  sqlite3* db_ = nullptr;
  sqlite3_stmt* insert_ = nullptr;
  sqlite3_stmt* select_ = nullptr;
};

class BdbEngine final : public Engine {
 public:
  ~BdbEngine() override { [[maybe_unused]] Status st = Close(); }
  const char* name() const override { return "BDB"; }
  const char* durability() const override {
    return "DB->sync: write dirty pages + fsync (no transactions, no log)";
  }

  Status OpenTree(const std::string& dir, size_t cache_bytes) override {
    return Open(dir, "bdb_tree.db", DB_BTREE, cache_bytes);
  }
  Status TreeInsert(const char* key, const char* value) override {
    Dbt k(const_cast<char*>(key), kKeySize), v(const_cast<char*>(value), kValueSize);
    return Check(db_->put(nullptr, &k, &v, DB_NOOVERWRITE), "put");
  }
  Status FinishTree() override { return Check(db_->sync(0), "sync"); }
  Result<bool> TreeGet(const char* key, char* out) override {
    Dbt k(const_cast<char*>(key), kKeySize), v;
    v.set_data(out);
    v.set_ulen(kValueSize);
    v.set_flags(DB_DBT_USERMEM);
    int rc = db_->get(nullptr, &k, &v, 0);
    if (rc == DB_NOTFOUND) return false;
    if (Status st = Check(rc, "get"); !st.ok()) return st;
    return true;
  }
  Status CloseTree() override { return Close(); }

  Status OpenHeap(const std::string& dir, size_t cache_bytes) override {
    return Open(dir, "bdb_heap.db", DB_QUEUE, cache_bytes);
  }
  Status HeapAppend(const char* record) override {
    db_recno_t recno = 0;
    Dbt k(&recno, sizeof(recno)), v(const_cast<char*>(record), kRecordSize);
    k.set_ulen(sizeof(recno));
    k.set_flags(DB_DBT_USERMEM);
    return Check(db_->put(nullptr, &k, &v, DB_APPEND), "append");
  }
  Status FinishHeap() override { return Check(db_->sync(0), "sync"); }
  Result<uint64_t> ScanHeap(uint64_t* sum) override {
    Dbc* cursor = nullptr;
    if (Status st = Check(db_->cursor(nullptr, &cursor, 0), "cursor"); !st.ok()) return st;
    Dbt k, v;
    uint64_t count = 0;
    int rc;
    while ((rc = cursor->get(&k, &v, DB_NEXT)) == 0) {
      *sum += Checksum(static_cast<const char*>(v.get_data()), v.get_size());
      ++count;
    }
    cursor->close();
    if (rc != DB_NOTFOUND) return Check(rc, "scan");
    return count;
  }
  Status CloseHeap() override { return Close(); }

  std::vector<std::string> TreeFiles(const std::string& dir) const override {
    return {dir + "/bdb_tree.db"};
  }
  std::vector<std::string> HeapFiles(const std::string& dir) const override {
    return {dir + "/bdb_heap.db"};
  }

 private:
  Status Open(const std::string& dir, const char* file, DBTYPE type, size_t cache_bytes) {
    env_ = std::make_unique<DbEnv>(DB_CXX_NO_EXCEPTIONS);
    const uint32_t gb = static_cast<uint32_t>(cache_bytes >> 30);
    const uint32_t bytes = static_cast<uint32_t>(cache_bytes & ((1u << 30) - 1));
    if (Status st = Check(env_->set_cachesize(gb, bytes, 1), "set_cachesize"); !st.ok()) {
      return st;
    }
    if (Status st =
            Check(env_->open(dir.c_str(), DB_CREATE | DB_INIT_MPOOL | DB_PRIVATE, 0), "env open");
        !st.ok()) {
      return st;
    }
    db_ = std::make_unique<Db>(env_.get(), DB_CXX_NO_EXCEPTIONS);
    if (Status st = Check(db_->set_pagesize(kBenchPageSize), "set_pagesize"); !st.ok()) return st;
    if (type == DB_QUEUE) {
      if (Status st = Check(db_->set_re_len(kRecordSize), "set_re_len"); !st.ok()) return st;
    }
    return Check(db_->open(nullptr, file, nullptr, type, DB_CREATE, 0644), "open");
  }
  Status Close() {
    Status first;
    if (db_) first = Check(db_->close(0), "close");
    db_.reset();
    if (env_) {
      Status st = Check(env_->close(0), "env close");
      if (first.ok()) first = st;
    }
    env_.reset();
    return first;
  }
  static Status Check(int rc, const char* what) {
    if (rc == 0) return Status::Ok();
    return Status::Internal(std::string("bdb ") + what + ": " + db_strerror(rc));
  }

  std::unique_ptr<DbEnv> env_;
  std::unique_ptr<Db> db_;
};

std::unique_ptr<Engine> MakeEngine(const std::string& name) {
  if (name == "meridian") return std::make_unique<MeridianEngine>();
  if (name == "sqlite") return std::make_unique<SqliteEngine>();
  if (name == "bdb") return std::make_unique<BdbEngine>();
  return nullptr;
}

// ---- Measurements ----

enum class Unit { kRate, kSeconds, kMiB };

struct Row {
  std::string label;
  Unit unit;
  std::map<std::string, double> value;  // engine name -> value
};

class Results {
 public:
  void Declare(const std::string& label, Unit unit) { rows_.push_back({label, unit, {}}); }
  void Set(const std::string& label, Unit unit, const std::string& engine, double v) {
    for (auto& r : rows_) {
      if (r.label == label) {
        r.value[engine] = v;
        return;
      }
    }
    rows_.push_back({label, unit, {{engine, v}}});
  }
  const std::vector<Row>& rows() const { return rows_; }

 private:
  std::vector<Row> rows_;
};

uint64_t Bytes(const std::vector<std::string>& files) {
  uint64_t total = 0;
  for (const auto& f : files) total += FileBytes(f);
  return total;
}

void RemoveFiles(const std::vector<std::string>& files) {
  for (const auto& f : files) std::filesystem::remove(f);
}

// B-tree insertion in sorted or random order, then (random order) point queries.
void BenchTree(Engine* e, const Config& cfg, const Workload& w, const std::string& dir, bool random,
               size_t cache_bytes, const std::string& cache_label, Results* out) {
  BENCH_CHECK(e->OpenTree(dir, cache_bytes));
  char key[kKeySize], value[kValueSize];
  double t0 = Now();
  for (uint64_t j = 0; j < cfg.n; ++j) {
    uint64_t i = random ? w.random_order[j] : j;
    MakeKey(i, key);
    MakeValue(i, value);
    BENCH_CHECK(e->TreeInsert(key, value));
  }
  BENCH_CHECK(e->FinishTree());
  double secs = Now() - t0;
  const std::string order = random ? "random" : "sorted";
  if (cfg.verify) {
    auto shape = e->VerifyTree();
    BENCH_CHECK(shape.status());
    if (!shape->empty()) {
      std::fprintf(stderr, "bench_access: %s %s insert, %s: %s\n", e->name(), order.c_str(),
                   cache_label.c_str(), shape->c_str());
    }
  }
  out->Set("B-tree " + order + " insert, " + cache_label + " (rec/s)", Unit::kRate, e->name(),
           static_cast<double>(cfg.n) / secs);
  if (random) {
    char want[kValueSize];
    uint64_t found = 0;
    t0 = Now();
    for (uint32_t i : w.query_ids) {
      MakeKey(i, key);
      auto hit = e->TreeGet(key, value);
      BENCH_CHECK(hit.status());
      if (*hit) {
        MakeValue(i, want);
        if (std::memcmp(want, value, kValueSize) == 0) ++found;
      }
    }
    secs = Now() - t0;
    if (found != w.query_ids.size()) {
      std::fprintf(stderr, "bench_access: %s found %" PRIu64 " of %zu query keys\n", e->name(),
                   found, w.query_ids.size());
      std::exit(1);
    }
    out->Set(std::to_string(cfg.queries) + " point queries, " + cache_label + " (s)",
             Unit::kSeconds, e->name(), secs);
  }
  BENCH_CHECK(e->CloseTree());
  out->Set("B-tree size, " + order + " insert (MiB)", Unit::kMiB, e->name(),
           static_cast<double>(Bytes(e->TreeFiles(dir))) / (1 << 20));
  RemoveFiles(e->TreeFiles(dir));
}

void BenchHeap(Engine* e, const Config& cfg, const std::string& dir, size_t cache_bytes,
               Results* out) {
  BENCH_CHECK(e->OpenHeap(dir, cache_bytes));
  char rec[kRecordSize];
  double t0 = Now();
  for (uint64_t i = 0; i < cfg.n; ++i) {
    MakeKey(i, rec);
    MakeValue(i, rec + kKeySize);
    BENCH_CHECK(e->HeapAppend(rec));
  }
  BENCH_CHECK(e->FinishHeap());
  double secs = Now() - t0;
  out->Set("Heap sequential append (rec/s)", Unit::kRate, e->name(),
           static_cast<double>(cfg.n) / secs);

  uint64_t expect_sum = 0;
  for (int pass = 0; pass < 2; ++pass) {  // pass 0: warm (right after loading), 1: cold
    if (pass == 1) {
      BENCH_CHECK(e->CloseHeap());
      for (const auto& f : e->HeapFiles(dir)) EvictFromOsCache(f);
      BENCH_CHECK(e->OpenHeap(dir, cache_bytes));
    }
    uint64_t sum = 0;
    t0 = Now();
    auto count = e->ScanHeap(&sum);
    secs = Now() - t0;
    BENCH_CHECK(count.status());
    if (pass == 0) expect_sum = sum;
    if (*count != cfg.n || sum != expect_sum) {
      std::fprintf(stderr, "bench_access: %s heap scan saw %" PRIu64 " of %" PRIu64 " rows\n",
                   e->name(), *count, cfg.n);
      std::exit(1);
    }
    out->Set(pass == 0 ? "Heap full scan, warm (s)" : "Heap full scan, cold (s)", Unit::kSeconds,
             e->name(), secs);
  }
  BENCH_CHECK(e->CloseHeap());
  out->Set("Heap size (MiB)", Unit::kMiB, e->name(),
           static_cast<double>(Bytes(e->HeapFiles(dir))) / (1 << 20));
  RemoveFiles(e->HeapFiles(dir));
}

std::string Format(double v, Unit unit) {
  char buf[32];
  switch (unit) {
    case Unit::kRate:
      std::snprintf(buf, sizeof(buf), "%.0f", v);
      break;
    case Unit::kSeconds:
      std::snprintf(buf, sizeof(buf), "%.3f", v);
      break;
    case Unit::kMiB:
      std::snprintf(buf, sizeof(buf), "%.1f", v);
      break;
  }
  return buf;
}

// Ratio > 1 means Meridian is better: rate M/X, seconds and sizes X/M.
std::string Ratio(const Row& r, const std::string& other) {
  auto m = r.value.find("Meridian"), o = r.value.find(other);
  if (m == r.value.end() || o == r.value.end() || m->second <= 0 || o->second <= 0) return "-";
  double x = r.unit == Unit::kRate ? m->second / o->second : o->second / m->second;
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.2fx", x);
  return buf;
}

void PrintTable(const Results& res, const std::vector<std::string>& names) {
  std::vector<std::string> header = {"Measurement"};
  for (const auto& n : names) header.push_back(n);
  header.push_back("M vs SQLite");
  header.push_back("M vs BDB");
  std::vector<std::vector<std::string>> lines = {header};
  for (const Row& r : res.rows()) {
    if (r.value.empty()) continue;
    std::vector<std::string> line = {r.label};
    for (const auto& n : names) {
      auto it = r.value.find(n);
      line.push_back(it == r.value.end() ? "-" : Format(it->second, r.unit));
    }
    line.push_back(Ratio(r, "SQLite"));
    line.push_back(Ratio(r, "BDB"));
    lines.push_back(std::move(line));
  }
  std::vector<size_t> width(header.size(), 0);
  for (const auto& l : lines) {
    for (size_t c = 0; c < l.size(); ++c) width[c] = std::max(width[c], l[c].size());
  }
  for (size_t li = 0; li < lines.size(); ++li) {
    std::string s = "|";
    for (size_t c = 0; c < lines[li].size(); ++c) {
      const std::string& cell = lines[li][c];
      std::string pad(width[c] - cell.size(), ' ');
      s.push_back(' ');
      s.append(c == 0 ? cell : pad).append(c == 0 ? pad : cell).append(" |");
    }
    std::printf("%s\n", s.c_str());
    if (li == 0) {
      std::string sep = "|";
      for (size_t c = 0; c < width.size(); ++c) {
        sep.append(width[c] + (c == 0 ? 2 : 1), '-');
        sep.append(c == 0 ? "|" : ":|");
      }
      std::printf("%s\n", sep.c_str());
    }
  }
}

[[noreturn]] void Usage() {
  std::fprintf(stderr,
               "usage: bench_access [--n N] [--queries Q] [--dir DIR] [--smoke] [--verify]\n"
               "                    [--engines meridian,sqlite,bdb] [--only btree|heap]\n"
               "  --n N         records (default 5000000)\n"
               "  --queries Q   random point queries (default 1000000)\n"
               "  --dir DIR     scratch directory (default: mkdtemp under /tmp, removed)\n"
               "  --smoke       N = 20000, Q = 20000, with --verify: checks the harness\n"
               "  --verify      run BTree::Verify on Meridian's trees (untimed), print shapes\n"
               "  --engines     comma-separated subset, in table order\n"
               "  --only        run only the B-tree or only the heap measurements\n");
  std::exit(2);
}

std::vector<std::string> Split(const std::string& s) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= s.size()) {
    size_t end = s.find(',', start);
    if (end == std::string::npos) end = s.size();
    if (end > start) out.push_back(s.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

Config ParseArgs(int argc, char** argv) {
  Config cfg;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) Usage();
      return argv[++i];
    };
    if (a == "--n") {
      cfg.n = std::stoull(next());
    } else if (a == "--queries") {
      cfg.queries = std::stoull(next());
    } else if (a == "--dir") {
      cfg.dir = next();
    } else if (a == "--smoke") {
      cfg.n = 20'000;
      cfg.queries = 20'000;
      cfg.verify = true;
    } else if (a == "--verify") {
      cfg.verify = true;
    } else if (a == "--engines") {
      cfg.engines = Split(next());
    } else if (a == "--only") {
      std::string what = next();
      cfg.run_btree = what == "btree";
      cfg.run_heap = what == "heap";
      if (!cfg.run_btree && !cfg.run_heap) Usage();
    } else {
      Usage();
    }
  }
  if (cfg.n == 0 || cfg.n > UINT32_MAX) Usage();
  for (const auto& e : cfg.engines) {
    if (!MakeEngine(e)) Usage();
  }
  return cfg;
}

}  // namespace

int main(int argc, char** argv) {
  Config cfg = ParseArgs(argc, argv);
  bool own_dir = cfg.dir.empty();
  if (own_dir) {
    char tmpl[] = "/tmp/bench_access_XXXXXX";
    if (::mkdtemp(tmpl) == nullptr) {
      std::perror("mkdtemp");
      return 1;
    }
    cfg.dir = tmpl;
  } else {
    std::filesystem::create_directories(cfg.dir);
  }
  const uint64_t data_bytes = cfg.n * kRecordSize;
  const size_t min_cache = 64 * kBenchPageSize;
  const size_t fits =
      std::max<size_t>(min_cache, static_cast<size_t>(cfg.fits_factor * data_bytes));
  const size_t small =
      std::max<size_t>(min_cache, static_cast<size_t>(cfg.small_factor * data_bytes));

  std::printf("bench_access: N = %" PRIu64
              " records (key %zu B big-endian, value %zu B = 5 x "
              "int32), %" PRIu64 " point queries, page %zu B, single thread\n",
              cfg.n, kKeySize, kValueSize, cfg.queries, kBenchPageSize);
  std::printf(
      "data = N x %zu B = %.1f MiB; cache \"fits\" = %.1f MiB (%.0f%% of data), "
      "\"80%%\" = %.1f MiB, same bytes for every engine (Meridian: buffer pool frames, "
      "SQLite: cache_size, BDB: set_cachesize)\n",
      kRecordSize, data_bytes / 1048576.0, fits / 1048576.0, cfg.fits_factor * 100,
      small / 1048576.0);
  std::printf("scratch dir: %s; SQLite %s, Berkeley DB %d.%d.%d\n", cfg.dir.c_str(),
              sqlite3_libversion(), DB_VERSION_MAJOR, DB_VERSION_MINOR, DB_VERSION_PATCH);
  std::fflush(stdout);

  Workload w = MakeWorkload(cfg);
  Results res;
  // Row order of the table (rows an option leaves out stay empty and are not printed).
  const std::string q = std::to_string(cfg.queries) + " point queries, ";
  for (const char* label :
       {"B-tree sorted insert, cache fits (rec/s)", "B-tree random insert, cache fits (rec/s)",
        "B-tree sorted insert, cache 80% (rec/s)", "B-tree random insert, cache 80% (rec/s)"}) {
    res.Declare(label, Unit::kRate);
  }
  res.Declare(q + "cache fits (s)", Unit::kSeconds);
  res.Declare(q + "cache 80% (s)", Unit::kSeconds);
  res.Declare("B-tree size, sorted insert (MiB)", Unit::kMiB);
  res.Declare("B-tree size, random insert (MiB)", Unit::kMiB);
  res.Declare("Heap sequential append (rec/s)", Unit::kRate);
  res.Declare("Heap full scan, warm (s)", Unit::kSeconds);
  res.Declare("Heap full scan, cold (s)", Unit::kSeconds);
  res.Declare("Heap size (MiB)", Unit::kMiB);
  std::vector<std::string> names;
  std::vector<std::string> notes;
  for (const auto& en : cfg.engines) {
    auto e = MakeEngine(en);
    names.push_back(e->name());
    notes.push_back(std::string(e->name()) + ": " + e->durability());
    if (cfg.run_btree) {
      for (bool limited : {false, true}) {
        const size_t cache = limited ? small : fits;
        const std::string label = limited ? "cache 80%" : "cache fits";
        for (bool random : {false, true}) {
          BenchTree(e.get(), cfg, w, cfg.dir, random, cache, label, &res);
          std::fprintf(stderr, "bench_access: %s %s insert, %s done\n", e->name(),
                       random ? "random" : "sorted", label.c_str());
        }
      }
    }
    if (cfg.run_heap) {
      BenchHeap(e.get(), cfg, cfg.dir, fits, &res);
      std::fprintf(stderr, "bench_access: %s heap done\n", e->name());
    }
  }
  std::printf("\n");
  PrintTable(res, names);
  std::printf(
      "\nRatios: > 1 means Meridian is better (rates M/X; seconds and sizes X/M).\n"
      "Insert timings include the final durability step:\n");
  for (const auto& n : notes) std::printf("  %s\n", n.c_str());
  std::printf(
      "Point queries run on the tree just built by random insertion (same cache), keys drawn "
      "uniformly with a fixed seed; SQLite runs them in one read transaction.\n"
      "Heap records are the 28-byte key+value (Meridian HeapFile raw tuple, SQLite rowid table "
      "with one BLOB column, BDB DB_QUEUE re_len 28). Warm scan: right after loading, cache "
      "fits. Cold scan: engine closed and reopened (engine cache empty) and its files evicted "
      "from the OS page cache with fdatasync + posix_fadvise(DONTNEED), so reads hit the "
      "disk (or the hypervisor's cache below it).\n"
      "Sizes: file lengths after close (SQLite: database + WAL file).\n");
  if (own_dir) std::filesystem::remove_all(cfg.dir);
  return 0;
}
