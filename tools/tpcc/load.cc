// Population of the TPC-C tables (clause 4.3.3.1): see load.h.
#include "load.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <exception>
#include <mutex>
#include <numeric>
#include <thread>
#include <unistd.h>

#include "progress.h"
#include "random.h"
#include "schema.h"

namespace tpcc {
namespace {

constexpr int kItems = 100000;
constexpr int kDistricts = 10;
constexpr int kCustomers = 3000;  // per district, also orders per district
constexpr int kFirstNewOrder = 2101;
// Rows per warehouse: 1 + 10 + stock + customers + history + orders + ~10 lines + new orders.
constexpr int64_t kRowsPerWarehouse = 1 + 10 + 100000 + 30000 + 30000 + 30000 + 300000 + 9000;

std::string Q(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') out += '\'';
    out += c;
  }
  return out + "'";
}

// Collects VALUES tuples of one table and sends them as multi-row INSERTs of `batch` rows.
class Batcher {
 public:
  Batcher(Session& s, std::string table, int batch, Progress& progress,
          const std::atomic<bool>& abort)
      : s_(s), head_("INSERT INTO " + std::move(table) + " VALUES "), batch_(batch),
        progress_(progress), abort_(abort) {}
  ~Batcher() = default;
  void Add(const std::string& tuple) {
    sql_ += n_ == 0 ? head_ : ",";
    sql_ += "(" + tuple + ")";
    if (++n_ == batch_) Flush();
  }
  void Flush() {
    if (n_ == 0) return;
    if (abort_.load()) throw DbError("57014", "load stopped after another loader's error", false);
    s_.Exec(sql_);
    progress_.Add(n_);
    sql_.clear();
    n_ = 0;
  }

 private:
  Session& s_;
  std::string head_;
  int batch_;
  Progress& progress_;
  const std::atomic<bool>& abort_;
  std::string sql_;
  int n_ = 0;
};

struct LoadContext {
  const Options& options;
  Progress& progress;
  std::atomic<bool>& abort;
  std::string now;  // the load's timestamp literal
};

void LoadItems(Session& s, const LoadContext& ctx, Random& rnd) {
  Batcher b(s, "item", ctx.options.batch_rows, ctx.progress, ctx.abort);
  for (int i = 1; i <= kItems; ++i) {
    b.Add(std::to_string(i) + "," + std::to_string(rnd.Uniform(1, 10000)) + "," +
          Q(rnd.AString(14, 24)) + "," + rnd.Decimal(100, 10000, 2) + "," + Q(rnd.Data(26, 50)));
  }
  b.Flush();
}

std::string Address(Random& rnd) {  // street_1, street_2, city, state, zip
  return Q(rnd.AString(10, 20)) + "," + Q(rnd.AString(10, 20)) + "," + Q(rnd.AString(10, 20)) +
         "," + Q(rnd.State()) + "," + Q(rnd.Zip());
}

void LoadWarehouse(Session& s, const LoadContext& ctx, Random& rnd, int w) {
  const std::string ws = std::to_string(w);
  Batcher wb(s, "warehouse", 1, ctx.progress, ctx.abort);
  wb.Add(ws + "," + Q(rnd.AString(6, 10)) + "," + Address(rnd) + "," +
         rnd.Decimal(0, 2000, 4) + ",300000.00");
  Batcher db(s, "district", kDistricts, ctx.progress, ctx.abort);
  for (int d = 1; d <= kDistricts; ++d) {
    db.Add(std::to_string(d) + "," + ws + "," + Q(rnd.AString(6, 10)) + "," + Address(rnd) + "," +
           rnd.Decimal(0, 2000, 4) + ",30000.00," + std::to_string(kCustomers + 1));
  }
  Batcher sb(s, "stock", ctx.options.batch_rows, ctx.progress, ctx.abort);
  for (int i = 1; i <= kItems; ++i) {
    std::string t = std::to_string(i) + "," + ws + "," + std::to_string(rnd.Uniform(10, 100));
    for (int d = 0; d < kDistricts; ++d) t += "," + Q(rnd.AString(24, 24));
    sb.Add(t + ",0,0,0," + Q(rnd.Data(26, 50)));
  }
  sb.Flush();
}

void LoadCustomers(Session& s, const LoadContext& ctx, Random& rnd, int w) {
  const std::string ws = std::to_string(w);
  Batcher cb(s, "customer", ctx.options.batch_rows, ctx.progress, ctx.abort);
  Batcher hb(s, "history", ctx.options.batch_rows, ctx.progress, ctx.abort);
  for (int d = 1; d <= kDistricts; ++d) {
    const std::string ds = std::to_string(d);
    for (int c = 1; c <= kCustomers; ++c) {
      const std::string cs = std::to_string(c);
      std::string last = c <= 1000 ? LastName(c - 1) : LastName(static_cast<int>(rnd.NURand(255, 0, 999)));
      cb.Add(cs + "," + ds + "," + ws + "," + Q(rnd.AString(8, 16)) + ",'OE'," + Q(last) + "," +
             Address(rnd) + "," + Q(rnd.NString(16, 16)) + "," + ctx.now + "," +
             (rnd.Uniform(1, 10) == 1 ? "'BC'" : "'GC'") + ",50000.00," +
             rnd.Decimal(0, 5000, 4) + ",-10.00,10.00,1,0," + Q(rnd.AString(300, 500)));
      hb.Add(cs + "," + ds + "," + ws + "," + ds + "," + ws + "," + ctx.now + ",10.00," +
             Q(rnd.AString(12, 24)));
    }
  }
  cb.Flush();
  hb.Flush();
}

void LoadOrders(Session& s, const LoadContext& ctx, Random& rnd, int w) {
  const std::string ws = std::to_string(w);
  Batcher ob(s, "orders", ctx.options.batch_rows, ctx.progress, ctx.abort);
  Batcher lb(s, "order_line", ctx.options.batch_rows, ctx.progress, ctx.abort);
  Batcher nb(s, "new_order", ctx.options.batch_rows, ctx.progress, ctx.abort);
  std::vector<int> customers(kCustomers);
  for (int d = 1; d <= kDistricts; ++d) {
    const std::string ds = std::to_string(d);
    std::iota(customers.begin(), customers.end(), 1);
    std::shuffle(customers.begin(), customers.end(), rnd.engine());
    for (int o = 1; o <= kCustomers; ++o) {
      const std::string os = std::to_string(o);
      bool delivered = o < kFirstNewOrder;
      int lines = static_cast<int>(rnd.Uniform(5, 15));
      ob.Add(os + "," + ds + "," + ws + "," + std::to_string(customers[o - 1]) + "," + ctx.now +
             "," + (delivered ? std::to_string(rnd.Uniform(1, 10)) : "NULL") + "," +
             std::to_string(lines) + ",1");
      for (int l = 1; l <= lines; ++l) {
        lb.Add(os + "," + ds + "," + ws + "," + std::to_string(l) + "," +
               std::to_string(rnd.Uniform(1, kItems)) + "," + ws + "," +
               (delivered ? ctx.now : "NULL") + ",5," +
               (delivered ? "0.00" : rnd.Decimal(1, 999999, 2)) + "," + Q(rnd.AString(24, 24)));
      }
      if (!delivered) nb.Add(os + "," + ds + "," + ws);
    }
  }
  ob.Flush();
  lb.Flush();
  nb.Flush();
}

std::string NowLiteral() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  localtime_r(&t, &tm);
  char buf[64];
  std::strftime(buf, sizeof(buf), "'%Y-%m-%d %H:%M:%S'", &tm);
  return buf;
}

}  // namespace

int64_t CountWarehouses(Session& session) {
  try {
    Rows r = session.Exec("SELECT count(*) FROM warehouse");
    return r.empty() ? 0 : r.Int(0, 0);
  } catch (const DbError& e) {
    if (e.connection_lost()) throw;
    return -1;
  }
}

LoadSummary Load(const Options& options) {
  auto start = std::chrono::steady_clock::now();
  {
    auto s = Connect(options.conn);
    s->Exec(DropTablesSql());
    for (const std::string& sql : CreateTablesSql()) s->Exec(sql);
  }
  const int w_count = options.warehouses;
  int64_t total = kItems + kRowsPerWarehouse * w_count;
  bool bar = options.progress == 1 || (options.progress == -1 && isatty(STDOUT_FILENO));
  Progress progress("load", total, bar, options.report_interval);
  std::atomic<bool> abort{false};
  LoadContext ctx{options, progress, abort, NowLiteral()};
  NURandConstants constants = LoadConstants(options.seed);

  // Unit 0: items; then 3 units per warehouse.
  const int units = 1 + 3 * w_count;
  std::atomic<int> next{0};
  std::mutex error_mu;
  std::exception_ptr first_error;
  auto worker = [&](int thread_no) {
    try {
      auto s = Connect(options.conn);
      Random rnd(options.seed + 7919ULL * static_cast<uint64_t>(thread_no + 1), constants);
      for (int u = next++; u < units && !abort.load(); u = next++) {
        if (u == 0) {
          LoadItems(*s, ctx, rnd);
          continue;
        }
        int w = (u - 1) / 3 + 1;
        switch ((u - 1) % 3) {
          case 0: LoadWarehouse(*s, ctx, rnd, w); break;
          case 1: LoadCustomers(*s, ctx, rnd, w); break;
          default: LoadOrders(*s, ctx, rnd, w); break;
        }
      }
    } catch (...) {
      std::lock_guard<std::mutex> lock(error_mu);
      if (!first_error) first_error = std::current_exception();
      abort = true;
    }
  };
  std::vector<std::thread> threads;
  int n_threads = std::min(options.threads, units);
  for (int t = 0; t < n_threads; ++t) threads.emplace_back(worker, t);
  for (std::thread& t : threads) t.join();
  progress.Finish();
  if (first_error) std::rethrow_exception(first_error);

  auto s = Connect(options.conn);
  for (const std::string& sql : CreateIndexesSql()) {
    auto t0 = std::chrono::steady_clock::now();
    s->Exec(sql);
    std::printf("load: %s (%.1f s)\n", sql.c_str(),
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  s->Exec("ANALYZE");
  LoadSummary summary;
  summary.rows = progress.done();
  summary.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("load: %d warehouse(s), %lld rows, %.1f s including indexes and ANALYZE\n",
              w_count, static_cast<long long>(summary.rows), summary.seconds);
  std::fflush(stdout);
  return summary;
}

}  // namespace tpcc
