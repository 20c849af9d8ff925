// bench_point_query: full-stack point queries. Starts a real meridiand (the e2e daemon harness),
// loads N rows through the C++ client library and times random `SELECT * FROM t WHERE k = <lit>`
// with 1 and 16 sessions, next to the same SQL through the in-process engine API and the raw
// B+tree (+ heap) lookup, so each layer's cost shows; then reruns the SQL workload with buffer
// pools smaller than the data (larger than memory). Usage: docs/benchmarks.md; results:
// tests/bench/RESULTS.md.
#include <grpcpp/create_channel.h>
#include <grpcpp/generic/generic_stub.h>
#include <grpcpp/security/credentials.h>
#include <limits.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <latch>
#include <memory>
#include <numeric>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "daemon_harness.h"
#include "meridian/client/connection.h"
#include "meridian/database.h"
#include "storage/btree.h"
#include "storage/buffer_pool.h"
#include "storage/heap_file.h"
#include "storage/key_codec.h"
#include "storage/tuple.h"

namespace {

using meridian::Result;
using meridian::Status;

[[noreturn]] void Die(const std::string& what) {
  std::fprintf(stderr, "bench_point_query: %s\n", what.c_str());
  std::exit(1);
}

void Check(const Status& st, const char* what) {
  if (!st.ok()) Die(std::string(what) + ": " + st.ToString());
}

struct Config {
  uint64_t n = 1'000'000;
  uint64_t queries = 100'000;     // point queries per configuration
  uint64_t ltm_queries = 50'000;  // point queries per pool size in the memory section
  size_t threads = 16;            // the concurrent configuration
  size_t pool_mb = 128;           // buffer pool of the point-query section (daemon default)
  std::vector<size_t> pools = {128, 64, 32, 16};
  std::string meridiand;  // empty: next to this binary
  size_t batch = 1000;    // rows per INSERT statement
  bool run_point = true;
  bool run_memory = true;
  bool engine_only = false;  // --only engine: the point section's in-process engine rows
  bool grpc_only = false;    // --only grpc: the point section's rows through meridiand
};

double Now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Row i: k = 2i + 1 (odd keys, so misses would be easy to add), c1..c5 derived from i.
int64_t KeyOf(uint64_t i) { return static_cast<int64_t>(2 * i + 1); }
int64_t C1Of(uint64_t i) { return static_cast<int64_t>(i); }

std::string RowLiteral(uint64_t i) {
  char buf[160];
  std::snprintf(buf, sizeof(buf),
                "(%" PRId64 ",%" PRId64 ",%" PRIu64 ",%" PRId64 ",%" PRIu64 ",42)", KeyOf(i),
                C1Of(i), (i * 3) % 1000003, -static_cast<int64_t>(i), i >> 7);
  return buf;
}

constexpr const char* kCreateTable =
    "CREATE TABLE t (k BIGINT PRIMARY KEY, c1 INTEGER, c2 INTEGER, c3 INTEGER, c4 INTEGER, "
    "c5 INTEGER)";

// Multi-row INSERT statements covering rows [0, n), batch rows each.
void ForEachInsert(uint64_t n, size_t batch, const std::function<void(const std::string&)>& fn) {
  std::string sql;
  for (uint64_t start = 0; start < n; start += batch) {
    sql = "INSERT INTO t VALUES ";
    uint64_t end = std::min<uint64_t>(n, start + batch);
    for (uint64_t i = start; i < end; ++i) {
      if (i > start) sql.push_back(',');
      sql.append(RowLiteral(i));
    }
    fn(sql);
  }
}

std::string PointSql(uint64_t i) { return "SELECT * FROM t WHERE k = " + std::to_string(KeyOf(i)); }

std::vector<uint32_t> QueryIds(uint64_t n, uint64_t count, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<uint64_t> dist(0, n - 1);
  std::vector<uint32_t> ids(count);
  for (auto& id : ids) id = static_cast<uint32_t>(dist(rng));
  return ids;
}

// ---- Timing ----

struct Latency {
  double qps = 0, mean_us = 0, p50_us = 0, p99_us = 0;
};

// One query by row index; returns false when the answer is wrong. Made per thread.
using QueryFn = std::function<bool(uint32_t)>;

// Runs ids over `threads` threads (thread t takes ids t, t + threads, ...), each with its own
// QueryFn made before the clock starts; returns throughput and latency over all queries.
Latency RunQueries(size_t threads, const std::vector<uint32_t>& ids,
                   const std::function<QueryFn(size_t)>& make) {
  std::vector<std::vector<double>> lat(threads);
  std::vector<QueryFn> fns;
  for (size_t t = 0; t < threads; ++t) fns.push_back(make(t));
  std::latch ready(static_cast<std::ptrdiff_t>(threads) + 1);
  std::atomic<bool> wrong{false};
  std::vector<std::thread> workers;
  for (size_t t = 0; t < threads; ++t) {
    workers.emplace_back([&, t] {
      lat[t].reserve(ids.size() / threads + 1);
      ready.arrive_and_wait();
      for (size_t j = t; j < ids.size(); j += threads) {
        double t0 = Now();
        if (!fns[t](ids[j])) wrong = true;
        lat[t].push_back((Now() - t0) * 1e6);
      }
    });
  }
  ready.arrive_and_wait();
  double t0 = Now();
  for (auto& w : workers) w.join();
  double secs = Now() - t0;
  if (wrong) Die("a point query returned a wrong row");
  std::vector<double> all;
  for (auto& l : lat) all.insert(all.end(), l.begin(), l.end());
  std::sort(all.begin(), all.end());
  Latency r;
  r.qps = static_cast<double>(all.size()) / secs;
  r.mean_us = std::accumulate(all.begin(), all.end(), 0.0) / static_cast<double>(all.size());
  r.p50_us = all[all.size() / 2];
  r.p99_us = all[std::min(all.size() - 1, all.size() * 99 / 100)];
  return r;
}

// Runs several query kinds interleaved: each thread takes ids t, t + threads, ... and for each
// runs every kind once, rotating which kind goes first, timing each separately. Kinds compared
// this way see the same machine load and the same warm-up; returns one Latency per kind (its
// qps is threads / mean latency: the rate that kind alone would reach at that latency).
std::vector<Latency> RunInterleaved(size_t threads, const std::vector<uint32_t>& ids,
                                    const std::vector<std::function<QueryFn(size_t)>>& makes) {
  const size_t kinds = makes.size();
  std::vector<std::vector<std::vector<double>>> lat(kinds,
                                                    std::vector<std::vector<double>>(threads));
  std::vector<std::vector<QueryFn>> fns(kinds);
  for (size_t k = 0; k < kinds; ++k) {
    for (size_t t = 0; t < threads; ++t) fns[k].push_back(makes[k](t));
  }
  std::latch ready(static_cast<std::ptrdiff_t>(threads) + 1);
  std::atomic<bool> wrong{false};
  std::vector<std::thread> workers;
  for (size_t t = 0; t < threads; ++t) {
    workers.emplace_back([&, t] {
      for (auto& l : lat) l[t].reserve(ids.size() / threads + 1);
      ready.arrive_and_wait();
      for (size_t j = t; j < ids.size(); j += threads) {
        for (size_t r = 0; r < kinds; ++r) {
          const size_t k = (j / threads + r) % kinds;
          double t0 = Now();
          if (!fns[k][t](ids[j])) wrong = true;
          lat[k][t].push_back((Now() - t0) * 1e6);
        }
      }
    });
  }
  ready.arrive_and_wait();
  for (auto& w : workers) w.join();
  if (wrong) Die("a query returned a wrong answer");
  std::vector<Latency> out;
  for (size_t k = 0; k < kinds; ++k) {
    std::vector<double> all;
    for (auto& l : lat[k]) all.insert(all.end(), l.begin(), l.end());
    std::sort(all.begin(), all.end());
    Latency r;
    r.mean_us = std::accumulate(all.begin(), all.end(), 0.0) / static_cast<double>(all.size());
    r.qps = static_cast<double>(threads) * 1e6 / r.mean_us;
    r.p50_us = all[all.size() / 2];
    r.p99_us = all[std::min(all.size() - 1, all.size() * 99 / 100)];
    out.push_back(r);
  }
  return out;
}

// ---- Layers ----

std::unique_ptr<meridian::client::Connection> Connect(int port) {
  auto c = meridian::client::Connection::Connect("127.0.0.1", port);
  if (!c.ok()) Die("connect: " + c.error().ToString());
  return std::move(*c);
}

void ClientExec(meridian::client::Connection* c, const std::string& sql) {
  auto r = c->Execute(sql);
  if (!r.ok()) Die("client: " + r.error().ToString() + " in " + sql.substr(0, 80));
}

QueryFn ClientQuery(int port) {
  std::shared_ptr<meridian::client::Connection> conn = Connect(port);
  return [conn](uint32_t i) {
    auto r = conn->Execute(PointSql(i));
    if (!r.ok()) Die("client: " + r.error().ToString());
    const auto& rows = r->at(0).rows;
    return rows.size() == 1 && rows[0].size() == 6 && rows[0][1].as_int() == C1Of(i);
  };
}

constexpr const char* kParamSql = "SELECT * FROM t WHERE k = $1";

// The layers measured interleaved (RunInterleaved) in the point section.
const std::string kPreparedLayer = "meridiand via client library (gRPC, prepared, $1 parameter)";
const std::string kRoundTripLayer = "gRPC round trip alone (empty ExecuteStream request)";
const std::string kUnaryLayer = "gRPC unary round trip alone (health Check, no session)";

QueryFn ClientParamQuery(int port) {
  std::shared_ptr<meridian::client::Connection> conn = Connect(port);
  return [conn](uint32_t i) {
    auto r = conn->Execute(kParamSql, {meridian::client::Value::Int(KeyOf(i))});
    if (!r.ok()) Die("client: " + r.error().ToString());
    const auto& rows = r->at(0).rows;
    return rows.size() == 1 && rows[0].size() == 6 && rows[0][1].as_int() == C1Of(i);
  };
}

// The same query prepared once per connection (Prepare RPC), run by ExecutePrepared.
QueryFn ClientPreparedQuery(int port) {
  std::shared_ptr<meridian::client::Connection> conn = Connect(port);
  auto prepared = conn->Prepare(kParamSql);
  if (!prepared.ok()) Die("prepare: " + prepared.error().ToString());
  return [conn, id = prepared->id](uint32_t i) {
    auto r = conn->ExecutePrepared(id, {meridian::client::Value::Int(KeyOf(i))});
    if (!r.ok()) Die("client: " + r.error().ToString());
    return r->rows.size() == 1 && r->rows[0].size() == 6 && r->rows[0][1].as_int() == C1Of(i);
  };
}

// The round trip alone: an empty request (ExecuteStream through the same server path: session,
// worker pool, result stream; no statement).
QueryFn ClientRoundTrip(int port) {
  std::shared_ptr<meridian::client::Connection> conn = Connect(port);
  return [conn](uint32_t) {
    auto r = conn->Execute("");
    if (!r.ok()) Die("client: " + r.error().ToString());
    return r->empty();
  };
}

// The smallest gRPC call meridiand answers: a unary grpc.health.v1.Health/Check on its own
// channel (no session, no worker pool, no statement), made through the generic stub so the
// bench needs no generated health code; the empty request serializes to zero bytes.
QueryFn UnaryHealthCheck(int port) {
  struct Stub {
    std::shared_ptr<grpc::Channel> channel;
    std::unique_ptr<grpc::GenericStub> stub;
    grpc::CompletionQueue cq;
    ~Stub() {  // a completion queue is shut down and drained before it goes
      cq.Shutdown();
      void* tag = nullptr;
      bool ok = false;
      while (cq.Next(&tag, &ok)) {
      }
    }
  };
  auto st = std::make_shared<Stub>();
  st->channel =
      grpc::CreateChannel("127.0.0.1:" + std::to_string(port), grpc::InsecureChannelCredentials());
  st->stub = std::make_unique<grpc::GenericStub>(st->channel);
  return [st](uint32_t) {
    grpc::ClientContext ctx;
    grpc::ByteBuffer request, response;
    grpc::Slice empty;
    request = grpc::ByteBuffer(&empty, 1);
    auto call = st->stub->PrepareUnaryCall(&ctx, "/grpc.health.v1.Health/Check", request, &st->cq);
    call->StartCall();
    grpc::Status status;
    call->Finish(&response, &status, reinterpret_cast<void*>(1));
    void* tag = nullptr;
    bool ok = false;
    if (!st->cq.Next(&tag, &ok) || !ok) Die("health check: completion queue failed");
    if (!status.ok()) Die("health check: " + status.error_message());
    return response.Length() > 0;  // SERVING is a non-empty message
  };
}

// The plan meridiand picks for the parameterised point query (EXPLAIN with a parameter value).
std::string ParamPlan(meridian::client::Connection* c) {
  auto r = c->Execute(std::string("EXPLAIN ") + kParamSql, {meridian::client::Value::Int(1)});
  if (!r.ok()) return "EXPLAIN failed: " + r.error().ToString();
  std::string plan;
  for (const auto& row : r->at(0).rows) {
    if (!row.empty()) plan += row[0].ToText() + "; ";
  }
  return plan;
}

// Runs sql in an engine session; *out receives the rows of its last statement.
Status EngineExec(meridian::Session* s, const std::string& sql, std::vector<meridian::Row>* out) {
  MERIDIAN_ASSIGN_OR_RETURN(auto req, s->Parse(sql));
  meridian::ExecControl ctl;
  for (size_t i = 0; i < req->size(); ++i) {
    MERIDIAN_ASSIGN_OR_RETURN(auto cursor, req->Start(i, ctl));
    out->clear();
    while (true) {
      MERIDIAN_ASSIGN_OR_RETURN(bool more, cursor->Fetch(1024, 1 << 20, ctl, out));
      if (!more) break;
    }
  }
  return Status::Ok();
}

QueryFn EngineQuery(meridian::Database* db) {
  std::shared_ptr<meridian::Session> session = db->NewSession();
  auto rows = std::make_shared<std::vector<meridian::Row>>();
  return [session, rows](uint32_t i) {
    Check(EngineExec(session.get(), PointSql(i), rows.get()), "engine query");
    return rows->size() == 1 && (*rows)[0].size() == 6 && (*rows)[0][1].AsInt() == C1Of(i);
  };
}

// The parameterised query prepared once per session (Session::Prepare), then started with the
// key as $1 each time: no parse per query.
QueryFn EnginePreparedQuery(meridian::Database* db) {
  std::shared_ptr<meridian::Session> session = db->NewSession();
  auto prepared = session->Prepare("point", kParamSql, {meridian::Type::BigInt()});
  Check(prepared.status(), "Session::Prepare");
  std::shared_ptr<meridian::Request> request = prepared->request;
  auto rows = std::make_shared<std::vector<meridian::Row>>();
  return [session, request, rows](uint32_t i) {
    meridian::ExecControl ctl;
    meridian::StatementParams params;
    params.types = {meridian::Type::BigInt()};
    params.values = {meridian::Value::Int(KeyOf(i))};
    auto cursor = request->Start(0, ctl, params);
    Check(cursor.status(), "prepared start");
    rows->clear();
    while (true) {
      auto more = (*cursor)->Fetch(1024, 1 << 20, ctl, rows.get());
      Check(more.status(), "prepared fetch");
      if (!*more) break;
    }
    return rows->size() == 1 && (*rows)[0].size() == 6 && (*rows)[0][1].AsInt() == C1Of(i);
  };
}

// The storage level: a unique BTree from the encoded key to the row's Rid, and a HeapFile of
// encoded tuples, loaded with the same rows (what the SQL layer keeps for table t).
struct StorageTable {
  std::unique_ptr<meridian::storage::BufferPool> pool;
  std::unique_ptr<meridian::storage::BTree> tree;
  std::unique_ptr<meridian::storage::HeapFile> heap;
  std::vector<meridian::Type> types = {meridian::Type::BigInt(),  meridian::Type::Integer(),
                                       meridian::Type::Integer(), meridian::Type::Integer(),
                                       meridian::Type::Integer(), meridian::Type::Integer()};
};

std::string EncodeRidBytes(meridian::storage::Rid rid) {
  char b[6];
  std::memcpy(b, &rid.page, 4);
  std::memcpy(b + 4, &rid.slot, 2);
  return std::string(b, 6);
}

std::string KeyBytes(uint64_t i) {
  return meridian::storage::EncodeKey({meridian::Value::Int(KeyOf(i))});
}

void LoadStorage(StorageTable* st, const std::string& dir, size_t pool_mb, uint64_t n) {
  st->pool = std::make_unique<meridian::storage::BufferPool>(pool_mb * 1024 * 1024 / 8192);
  auto tree = meridian::storage::BTree::Open(st->pool.get(), dir + "/t.idx", {.unique = true});
  Check(tree.status(), "BTree::Open");
  st->tree = std::move(*tree);
  auto heap = meridian::storage::HeapFile::Open(st->pool.get(), dir + "/t.heap");
  Check(heap.status(), "HeapFile::Open");
  st->heap = std::move(*heap);
  meridian::Row row(6);
  for (uint64_t i = 0; i < n; ++i) {
    row = {meridian::Value::Int(KeyOf(i)),
           meridian::Value::Int(C1Of(i)),
           meridian::Value::Int(static_cast<int64_t>((i * 3) % 1000003)),
           meridian::Value::Int(-static_cast<int64_t>(i)),
           meridian::Value::Int(static_cast<int64_t>(i >> 7)),
           meridian::Value::Int(42)};
    auto rid = st->heap->Insert(meridian::storage::EncodeTuple(row, st->types));
    Check(rid.status(), "HeapFile::Insert");
    Check(st->tree->Insert(KeyBytes(i), EncodeRidBytes(*rid)), "BTree::Insert");
  }
}

QueryFn TreeQuery(StorageTable* st) {
  auto value = std::make_shared<std::string>();
  return [st, value](uint32_t i) {
    auto found = st->tree->LookupFirst(KeyBytes(i), value.get());
    Check(found.status(), "LookupFirst");
    return *found && value->size() == 6;
  };
}

QueryFn TreeHeapQuery(StorageTable* st) {
  auto value = std::make_shared<std::string>();
  auto tuple = std::make_shared<std::string>();
  auto row = std::make_shared<meridian::Row>();
  return [st, value, tuple, row](uint32_t i) {
    auto found = st->tree->LookupFirst(KeyBytes(i), value.get());
    Check(found.status(), "LookupFirst");
    if (!*found || value->size() != 6) return false;
    meridian::storage::Rid rid;
    std::memcpy(&rid.page, value->data(), 4);
    std::memcpy(&rid.slot, value->data() + 4, 2);
    Check(st->heap->Get(rid, tuple.get()), "HeapFile::Get");
    Check(meridian::storage::DecodeTuple(*tuple, st->types, row.get()), "DecodeTuple");
    return (*row)[1].AsInt() == C1Of(i);
  };
}

// ---- Output ----

struct Line {
  std::string layer;
  size_t sessions;
  Latency lat;
};

void PrintPointTable(const std::vector<Line>& lines) {
  std::printf(
      "| Layer | Sessions | Queries/s | Mean (us) | p50 (us) | p99 (us) | Time vs B+tree |\n"
      "|---|---:|---:|---:|---:|---:|---:|\n");
  for (const Line& l : lines) {
    double base = 0;  // the raw B+tree row with the same session count
    for (const Line& b : lines) {
      if (b.sessions == l.sessions && b.layer.rfind("B+tree lookup", 0) == 0) base = b.lat.qps;
    }
    std::printf("| %s | %zu | %.0f | %.1f | %.1f | %.1f | %.1fx |\n", l.layer.c_str(), l.sessions,
                l.lat.qps, l.lat.mean_us, l.lat.p50_us, l.lat.p99_us,
                base > 0 ? base / l.lat.qps : 0.0);
  }
}

uint64_t DirBytes(const std::string& dir) {
  uint64_t total = 0;
  std::error_code ec;
  for (auto& e : std::filesystem::recursive_directory_iterator(dir, ec)) {
    if (e.is_regular_file(ec)) total += e.file_size(ec);
  }
  return total;
}

std::string SelfDir() {
  char buf[PATH_MAX];
  ssize_t len = ::readlink("/proc/self/exe", buf, sizeof(buf) - 1);
  if (len <= 0) return ".";
  buf[len] = '\0';
  return std::filesystem::path(buf).parent_path().string();
}

std::unique_ptr<meridian::e2e::Daemon> StartDaemon(const Config& cfg, const std::string& data_dir,
                                                   size_t pool_mb) {
  auto d = std::make_unique<meridian::e2e::Daemon>(
      data_dir,
      std::vector<std::string>{"--buffer-pool-mb", std::to_string(pool_mb), "--log-level", "warn"},
      cfg.meridiand);
  if (!d->started()) Die("meridiand did not start; its log:\n" + d->Log());
  return d;
}

// ---- Sections ----

void PointSection(const Config& cfg) {
  const auto ids = QueryIds(cfg.n, cfg.queries, 7);
  std::vector<size_t> session_counts = {1};
  if (cfg.threads != 1) session_counts.push_back(cfg.threads);
  std::vector<Line> lines;
  std::string param_plan;
  meridian::testutil::TempDir tmp;

  // 1. meridiand over gRPC through the client library.
  if (!cfg.engine_only) {
    std::filesystem::create_directory(tmp.path() + "/daemon");
    auto daemon = StartDaemon(cfg, tmp.path() + "/daemon/data", cfg.pool_mb);
    auto conn = Connect(daemon->port());
    ClientExec(conn.get(), kCreateTable);
    double t0 = Now();
    ForEachInsert(cfg.n, cfg.batch, [&](const std::string& sql) { ClientExec(conn.get(), sql); });
    double secs = Now() - t0;
    std::printf("load through meridiand + client library: %" PRIu64
                " rows in %.2f s = %.0f rows/s (INSERT of %zu rows per statement)\n",
                cfg.n, secs, static_cast<double>(cfg.n) / secs, cfg.batch);
    std::fflush(stdout);
    for (size_t s : session_counts) {
      lines.push_back({"meridiand via client library (gRPC, literal SQL)", s,
                       RunQueries(s, ids, [&](size_t) { return ClientQuery(daemon->port()); })});
    }
    // Parameterised: `k = $1` with the key as a parameter value. When the planner does not use
    // the index for a parameter yet (a Seq Scan per query), only a few queries run, 1 session.
    param_plan = ParamPlan(conn.get());
    const bool indexed = param_plan.find("Index") != std::string::npos;
    std::vector<uint32_t> few(ids.begin(), ids.begin() + std::min<size_t>(ids.size(), 50));
    for (size_t s : indexed ? session_counts : std::vector<size_t>{1}) {
      lines.push_back({indexed ? "meridiand via client library (gRPC, $1 parameter)"
                               : "meridiand via client library ($1 parameter, Seq Scan plan)",
                       s, RunQueries(s, indexed ? ids : few, [&](size_t) {
                         return ClientParamQuery(daemon->port());
                       })});
    }
    if (indexed) {
      // The prepared query and the two round trips run interleaved (see RunInterleaved), so
      // their ratio is not skewed by load drift or by which one ran first.
      for (size_t s : session_counts) {
        std::vector<Latency> r =
            RunInterleaved(s, ids,
                           {[&](size_t) { return ClientPreparedQuery(daemon->port()); },
                            [&](size_t) { return ClientRoundTrip(daemon->port()); },
                            [&](size_t) { return UnaryHealthCheck(daemon->port()); }});
        lines.push_back({kPreparedLayer, s, r[0]});
        lines.push_back({kRoundTripLayer, s, r[1]});
        lines.push_back({kUnaryLayer, s, r[2]});
      }
    }
    daemon->Stop(SIGTERM);
  }
  // 2. The same SQL through the in-process engine API.
  if (!cfg.grpc_only) {
    meridian::DatabaseOptions opts;
    opts.data_dir = tmp.path() + "/engine";
    opts.buffer_pool_mb = cfg.pool_mb;
    auto db = meridian::Database::Open(opts);
    Check(db.status(), "Database::Open");
    auto session = (*db)->NewSession();
    std::vector<meridian::Row> rows;
    Check(EngineExec(session.get(), kCreateTable, &rows), "CREATE TABLE");
    double t0 = Now();
    ForEachInsert(cfg.n, cfg.batch, [&](const std::string& sql) {
      Check(EngineExec(session.get(), sql, &rows), "INSERT");
    });
    double secs = Now() - t0;
    std::printf("load through the engine API in-process: %.2f s = %.0f rows/s\n", secs,
                static_cast<double>(cfg.n) / secs);
    std::fflush(stdout);
    for (size_t s : session_counts) {
      lines.push_back({"engine API in-process (Session, same SQL)", s,
                       RunQueries(s, ids, [&](size_t) { return EngineQuery(db->get()); })});
      lines.push_back({"engine API in-process (prepared once, $1 parameter)", s,
                       RunQueries(s, ids, [&](size_t) { return EnginePreparedQuery(db->get()); })});
    }
    Check((*db)->Close(), "Database::Close");
  }
  // 3. Storage level: B+tree lookup, and B+tree + heap fetch + tuple decode.
  if (!cfg.engine_only && !cfg.grpc_only) {
    std::filesystem::create_directory(tmp.path() + "/storage");
    StorageTable st;
    double t0 = Now();
    LoadStorage(&st, tmp.path() + "/storage", cfg.pool_mb, cfg.n);
    double secs = Now() - t0;
    std::printf("load through BTree + HeapFile directly: %.2f s = %.0f rows/s\n", secs,
                static_cast<double>(cfg.n) / secs);
    for (size_t s : session_counts) {
      lines.push_back({"B+tree + heap row fetch + decode (storage)", s,
                       RunQueries(s, ids, [&](size_t) { return TreeHeapQuery(&st); })});
      lines.push_back({"B+tree lookup (BTree::LookupFirst)", s,
                       RunQueries(s, ids, [&](size_t) { return TreeQuery(&st); })});
    }
    Check(st.tree->Close(), "BTree::Close");
    Check(st.heap->Close(), "HeapFile::Close");
  }
  std::printf("\n%" PRIu64
              " random point queries `SELECT * FROM t WHERE k = <literal>` over %" PRIu64
              " rows, buffer pool %zu MiB; sessions = client threads, each with its own "
              "connection / Session (queries split round-robin). Parameterised variant "
              "`%s`, plan: %s\n\n",
              cfg.queries, cfg.n, cfg.pool_mb, kParamSql, param_plan.c_str());
  std::sort(lines.begin(), lines.end(),
            [](const Line& a, const Line& b) { return a.sessions < b.sessions; });
  PrintPointTable(lines);
  // The prepared point query against each round trip, per session count (same interleaved run).
  for (const Line& q : lines) {
    if (q.layer != kPreparedLayer) continue;
    for (const Line& rt : lines) {
      if (rt.sessions != q.sessions || (rt.layer != kRoundTripLayer && rt.layer != kUnaryLayer)) {
        continue;
      }
      std::printf(
          "\nprepared point query over gRPC vs %s, %zu session(s): %.2fx the mean (%.1f us vs "
          "%.1f us), %.2fx the median (%.1f us vs %.1f us)",
          rt.layer == kRoundTripLayer ? "empty ExecuteStream" : "unary health check", q.sessions,
          q.lat.mean_us / rt.lat.mean_us, q.lat.mean_us, rt.lat.mean_us,
          q.lat.p50_us / rt.lat.p50_us, q.lat.p50_us, rt.lat.p50_us);
    }
  }
  std::printf(
      "\n\"Time vs B+tree\" = the B+tree lookup's queries/s over this row's, same session "
      "count: how many B+tree lookups one query of this layer costs.\n\n");
}

void MemorySection(const Config& cfg) {
  const auto ids = QueryIds(cfg.n, cfg.ltm_queries, 11);
  struct Run {
    size_t pool_mb;
    double load_rps, query_qps, p99_us, scan_s;
    uint64_t data_bytes;
  };
  std::vector<Run> runs;
  const std::string agg = "SELECT count(*), sum(c1), max(c2) FROM t";
  for (size_t pool : cfg.pools) {
    meridian::testutil::TempDir tmp;
    const std::string data = tmp.path() + "/data";
    auto daemon = StartDaemon(cfg, data, pool);
    auto conn = Connect(daemon->port());
    ClientExec(conn.get(), kCreateTable);
    double t0 = Now();
    ForEachInsert(cfg.n, cfg.batch, [&](const std::string& sql) { ClientExec(conn.get(), sql); });
    Run run{};
    run.pool_mb = pool;
    run.load_rps = static_cast<double>(cfg.n) / (Now() - t0);
    Latency q = RunQueries(1, ids, [&](size_t) { return ClientQuery(daemon->port()); });
    run.query_qps = q.qps;
    run.p99_us = q.p99_us;
    double best = 1e100;
    for (int rep = 0; rep < 3; ++rep) {
      t0 = Now();
      auto r = conn->Execute(agg);
      double secs = Now() - t0;
      if (!r.ok()) Die("scan: " + r.error().ToString());
      const auto& rows = r->at(0).rows;
      const int64_t n = static_cast<int64_t>(cfg.n);
      if (rows.size() != 1 || rows[0][0].as_int() != n || rows[0][1].as_int() != n * (n - 1) / 2) {
        Die("the aggregate returned a wrong answer");
      }
      best = std::min(best, secs);
    }
    run.scan_s = best;
    conn->Close();
    if (daemon->Stop(SIGTERM) != 0) Die("meridiand did not shut down cleanly");
    run.data_bytes = DirBytes(data);
    runs.push_back(run);
    std::fprintf(stderr, "bench_point_query: pool %zu MiB done\n", pool);
  }
  std::printf(
      "Larger than memory: the same SQL workload through meridiand + client library, "
      "%" PRIu64 " rows (INSERTs of %zu rows), %" PRIu64
      " point queries (1 session), `%s` (best of 3), with --buffer-pool-mb below the "
      "data size. Ratios are to the first pool size.\n\n",
      cfg.n, cfg.batch, cfg.ltm_queries, agg.c_str());
  std::printf(
      "| Pool (MiB) | Data on disk (MiB) | Data / pool | Load (rows/s) | Point queries/s "
      "| p99 (us) | Scan (s) | Load ratio | Query ratio | Scan ratio |\n"
      "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  for (const Run& r : runs) {
    const Run& b = runs.front();
    double mib = static_cast<double>(r.data_bytes) / (1 << 20);
    std::printf("| %zu | %.1f | %.1fx | %.0f | %.0f | %.0f | %.3f | %.2f | %.2f | %.2f |\n",
                r.pool_mb, mib, mib / static_cast<double>(r.pool_mb), r.load_rps, r.query_qps,
                r.p99_us, r.scan_s, r.load_rps / b.load_rps, r.query_qps / b.query_qps,
                b.scan_s / r.scan_s);
  }
  std::printf("\nRatios > 1 would mean faster than with the first pool; < 1 is the slowdown.\n");
}

[[noreturn]] void Usage() {
  std::fprintf(
      stderr,
      "usage: bench_point_query [--n N] [--queries Q] [--threads T] [--pool-mb MB]\n"
      "                         [--pools 128,32,16] [--ltm-queries Q] [--batch B]\n"
      "                         [--meridiand PATH] [--only point|memory|engine|grpc] [--smoke]\n");
  std::exit(2);
}

std::vector<size_t> ParseList(const std::string& s) {
  std::vector<size_t> out;
  size_t pos = 0;
  while (pos <= s.size()) {
    size_t comma = s.find(',', pos);
    if (comma == std::string::npos) comma = s.size();
    out.push_back(std::stoul(s.substr(pos, comma - pos)));
    pos = comma + 1;
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
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
    } else if (a == "--ltm-queries") {
      cfg.ltm_queries = std::stoull(next());
    } else if (a == "--threads") {
      cfg.threads = std::stoul(next());
    } else if (a == "--pool-mb") {
      cfg.pool_mb = std::stoul(next());
    } else if (a == "--pools") {
      cfg.pools = ParseList(next());
    } else if (a == "--batch") {
      cfg.batch = std::stoul(next());
    } else if (a == "--meridiand") {
      cfg.meridiand = next();
    } else if (a == "--only") {
      std::string o = next();
      cfg.engine_only = o == "engine";
      cfg.grpc_only = o == "grpc";
      cfg.run_point = o == "point" || cfg.engine_only || cfg.grpc_only;
      cfg.run_memory = o == "memory";
      if (!cfg.run_point && !cfg.run_memory) Usage();
    } else if (a == "--smoke") {  // a few seconds: the harness keeps working
      cfg.n = 5'000;
      cfg.queries = 500;
      cfg.ltm_queries = 300;
      cfg.threads = 4;
      cfg.pools = {4, 1};
    } else {
      Usage();
    }
  }
  if (cfg.n == 0 || cfg.queries == 0 || cfg.threads == 0 || cfg.batch == 0) Usage();
  if (cfg.meridiand.empty()) cfg.meridiand = SelfDir() + "/meridiand";
  std::printf("bench_point_query: N = %" PRIu64
              " rows (k BIGINT PRIMARY KEY, c1..c5 INTEGER), "
              "meridiand = %s, %u hardware threads\n\n",
              cfg.n, cfg.meridiand.c_str(), std::thread::hardware_concurrency());
  std::fflush(stdout);
  if (cfg.run_point) PointSection(cfg);
  if (cfg.run_memory) MemorySection(cfg);
  return 0;
}
