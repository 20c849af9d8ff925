// Terminals, the deck, retries and the run's clock (run.h).
#include "run.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <memory>
#include <mutex>
#include <random>
#include <csignal>
#include <thread>

#include "report.h"

namespace tpcc {
namespace {

using Clock = std::chrono::steady_clock;

// Ctrl-C during a run: end it now and report what was measured. A second Ctrl-C kills.
std::atomic<bool> g_interrupted{false};
extern "C" void OnSigint(int) {
  g_interrupted.store(true);
  std::signal(SIGINT, SIG_DFL);
}

struct LiveCounters {
  std::atomic<uint64_t> done{0}, rolled_back{0}, errors{0}, retries_40001{0}, retries_40p01{0};
};

// Counters shared by the terminals: `all` feeds the periodic lines, `measured` the summary.
struct SharedStats {
  std::array<LiveCounters, kTxTypes> all, measured;
  std::array<LiveHistogram, kTxTypes> all_latency, measured_latency;
  std::atomic<uint64_t> new_orders_committed{0}, reconnects{0};
  std::mutex mu;
  std::vector<std::string> error_samples;  // guarded by mu

  void Sample(const std::string& message) {
    std::lock_guard<std::mutex> lock(mu);
    if (error_samples.size() < 10 &&
        std::find(error_samples.begin(), error_samples.end(), message) == error_samples.end())
      error_samples.push_back(message);
  }
};

// Set once at the deadline; sleeping terminals wake at once.
class StopSignal {
 public:
  void Stop() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stopped_.store(true);
    }
    cv_.notify_all();
  }
  bool stopped() const { return stopped_.load(std::memory_order_relaxed); }
  // Sleeps up to d; true when stopped (before or meanwhile).
  bool SleepFor(Clock::duration d) {
    std::unique_lock<std::mutex> lock(mu_);
    return cv_.wait_for(lock, d, [this] { return stopped_.load(); });
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::atomic<bool> stopped_{false};  // written under mu_ so no sleeper misses the wakeup
};

class Deck {
 public:
  explicit Deck(Random& rnd) : rnd_(rnd) {
    auto put = [this](TxType t, int n) { cards_.insert(cards_.end(), n, t); };
    put(TxType::kNewOrder, 45);
    put(TxType::kPayment, 43);
    put(TxType::kOrderStatus, 4);
    put(TxType::kDelivery, 4);
    put(TxType::kStockLevel, 4);
    next_ = cards_.size();
  }
  TxType Next() {
    if (next_ == cards_.size()) {
      std::shuffle(cards_.begin(), cards_.end(), rnd_.engine());
      next_ = 0;
    }
    return cards_[next_++];
  }

 private:
  Random& rnd_;
  std::vector<TxType> cards_;
  size_t next_;
};

// Keying and mean think times of clause 5.2.5.2/5.2.5.4, in seconds, by TxType.
constexpr double kKeying[kTxTypes] = {18, 3, 2, 2, 2};
constexpr double kThink[kTxTypes] = {12, 12, 10, 5, 5};

struct RunContext {
  const Options& options;
  SharedStats& stats;
  StopSignal& stop;
  Clock::time_point start, measure_start, deadline;
  NURandConstants constants;
  std::string begin_sql;
};

class Terminal {
 public:
  Terminal(int id, const RunContext& ctx)
      : id_(id), ctx_(ctx), rnd_(ctx.options.seed + 104729ULL * static_cast<uint64_t>(id + 1),
                                 ctx.constants),
        deck_(rnd_) {
    const Options& o = ctx.options;
    if (o.one_district) {
      w_ = 1;
      d_ = 1;
    } else {
      w_ = id % o.warehouses + 1;
      d_ = (id / o.warehouses) % 10 + 1;
    }
  }

  void Main() {
    const Options& o = ctx_.options;
    if (o.ramp > 0 && ctx_.stop.SleepFor(std::chrono::duration_cast<Clock::duration>(
                          std::chrono::duration<double>(o.ramp * id_ / o.terminals))))
      return;
    if (!Reconnect()) return;
    while (!ctx_.stop.stopped()) {
      TxType type = deck_.Next();
      int t = static_cast<int>(type);
      if (o.spec_timing && ctx_.stop.SleepFor(Seconds(kKeying[t]))) break;
      if (!RunOne(type)) break;
      if (o.spec_timing) {
        double think = std::min(-std::log(std::max(rnd_.Real(), 1e-12)) * kThink[t],
                                10 * kThink[t]);
        if (ctx_.stop.SleepFor(Seconds(think))) break;
      }
    }
  }

 private:
  static Clock::duration Seconds(double s) {
    return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s));
  }

  bool Reconnect() {
    for (int attempt = 0; !ctx_.stop.stopped(); ++attempt) {
      try {
        tx_.reset();
        session_.reset();
        session_ = Connect(ctx_.options.conn);
        tx_ = std::make_unique<Transactions>(*session_, ctx_.begin_sql);
        tx_->PrepareAll();
        if (attempt > 0 || connected_once_) ctx_.stats.reconnects++;
        connected_once_ = true;
        return true;
      } catch (const DbError& e) {
        if (attempt == 0) ctx_.stats.Sample("connect: " + e.sqlstate() + " " + e.what());
        if (ctx_.stop.SleepFor(std::chrono::milliseconds(200))) return false;
      }
    }
    return false;
  }

  bool Execute(TxType type, const void* input) {
    switch (type) {
      case TxType::kNewOrder: return tx_->ExecuteNewOrder(*static_cast<const NewOrderInput*>(input));
      case TxType::kPayment: return tx_->ExecutePayment(*static_cast<const PaymentInput*>(input));
      case TxType::kOrderStatus:
        return tx_->ExecuteOrderStatus(*static_cast<const OrderStatusInput*>(input));
      case TxType::kDelivery: return tx_->ExecuteDelivery(*static_cast<const DeliveryInput*>(input));
      case TxType::kStockLevel:
        return tx_->ExecuteStockLevel(*static_cast<const StockLevelInput*>(input));
    }
    return false;
  }

  // One transaction with its retries. False when the terminal should stop.
  bool RunOne(TxType type) {
    const Options& o = ctx_.options;
    const int t = static_cast<int>(type);
    NewOrderInput no;
    PaymentInput pay;
    OrderStatusInput os;
    DeliveryInput dl;
    StockLevelInput sl;
    const void* input = nullptr;
    switch (type) {
      case TxType::kNewOrder: no = GenerateNewOrder(rnd_, o.warehouses, w_, d_); input = &no; break;
      case TxType::kPayment: pay = GeneratePayment(rnd_, o.warehouses, w_, d_); input = &pay; break;
      case TxType::kOrderStatus: os = GenerateOrderStatus(rnd_, w_, d_); input = &os; break;
      case TxType::kDelivery: dl = GenerateDelivery(rnd_, w_); input = &dl; break;
      case TxType::kStockLevel: sl = GenerateStockLevel(rnd_, w_, d_); input = &sl; break;
    }
    SharedStats& st = ctx_.stats;
    const Clock::time_point t0 = Clock::now();
    const bool measured = t0 >= ctx_.measure_start;
    for (int attempt = 0;; ++attempt) {
      if (session_ == nullptr && !Reconnect()) return false;
      try {
        bool committed = Execute(type, input);
        const Clock::time_point t1 = Clock::now();
        if (committed && type == TxType::kNewOrder) st.new_orders_committed++;
        if (t1 > ctx_.deadline || ctx_.stop.stopped()) return false;  // cut off: not counted
        auto us = static_cast<uint64_t>(
            std::chrono::duration_cast<std::chrono::microseconds>(t1 - t0).count());
        Count(st.all[t], st.all_latency[t], committed, us);
        if (measured) Count(st.measured[t], st.measured_latency[t], committed, us);
        return true;
      } catch (const DbError& e) {
        bool lost = e.connection_lost() || session_->connection_lost();
        if (!lost) {
          try {
            session_->Exec("ROLLBACK");
          } catch (const DbError&) {
            lost = session_->connection_lost();
          }
        }
        if (ctx_.stop.stopped() || Clock::now() > ctx_.deadline) return false;  // cut off
        if (e.retryable() && !lost) {
          bool deadlock = e.sqlstate() == "40P01";
          (deadlock ? st.all[t].retries_40p01 : st.all[t].retries_40001)++;
          if (measured) (deadlock ? st.measured[t].retries_40p01 : st.measured[t].retries_40001)++;
          auto cap = std::chrono::microseconds(1000LL << std::min(attempt, 7));
          auto pause = std::chrono::microseconds(
              static_cast<int64_t>(rnd_.Real() * static_cast<double>(cap.count())));
          if (ctx_.stop.SleepFor(pause)) return false;
          continue;
        }
        st.all[t].errors++;
        if (measured) st.measured[t].errors++;
        st.Sample(std::string(TxName(type)) + ": " + e.sqlstate() + " " + e.what());
        if (lost) {
          tx_.reset();
          session_.reset();
          return Reconnect();
        }
        return true;
      }
    }
  }

  static void Count(LiveCounters& c, LiveHistogram& h, bool committed, uint64_t us) {
    c.done++;
    if (!committed) c.rolled_back++;
    h.Record(us);
  }

  int id_;
  const RunContext& ctx_;
  Random rnd_;
  Deck deck_;
  int w_ = 1, d_ = 1;
  bool connected_once_ = false;
  std::unique_ptr<Session> session_;
  std::unique_ptr<Transactions> tx_;
};

IntervalSample Sample(const SharedStats& st) {
  IntervalSample s;
  for (int t = 0; t < kTxTypes; ++t) {
    s.done[t] = st.all[t].done.load();
    s.errors += st.all[t].errors.load();
    s.retries += st.all[t].retries_40001.load() + st.all[t].retries_40p01.load();
  }
  s.new_order_latency = st.all_latency[0].Snapshot();
  return s;
}

}  // namespace

double RunSummary::TpmC() const {
  return measured_seconds > 0 ? tx[0].done * 60.0 / measured_seconds : 0;
}

double RunSummary::TpmTotal() const {
  uint64_t n = 0;
  for (const TxSummary& t : tx) n += t.done;
  return measured_seconds > 0 ? n * 60.0 / measured_seconds : 0;
}

uint64_t RunSummary::Errors() const {
  uint64_t n = 0;
  for (const TxSummary& t : tx) n += t.errors;
  return n;
}

uint64_t RunSummary::Retries() const {
  uint64_t n = 0;
  for (const TxSummary& t : tx) n += t.retries_40001 + t.retries_40p01;
  return n;
}

RunSummary Run(const Options& options) {
  {  // fail fast with a clear message when the server is not there
    auto probe = Connect(options.conn);
  }
  auto stats = std::make_unique<SharedStats>();
  StopSignal stop;
  const Clock::time_point start = Clock::now();
  auto secs = [](double s) {
    return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s));
  };
  RunContext ctx{options, *stats, stop, start, start + secs(options.ramp + options.warmup),
                 start + secs(options.ramp + options.warmup + options.duration),
                 RunConstants(options.seed),
                 options.isolation.empty() ? "BEGIN" : "BEGIN ISOLATION LEVEL " + options.isolation};
  std::printf("run: %s, %d warehouse(s), %d terminal(s), %.0f s%s%s%s\n",
              options.conn.Describe().c_str(), options.warehouses, options.terminals,
              options.duration,
              options.warmup > 0 ? (" after " + std::to_string(static_cast<int>(options.warmup)) + " s warmup").c_str() : "",
              options.spec_timing ? ", spec keying and think times" : ", no think time",
              options.isolation.empty() ? "" : (", " + options.isolation).c_str());
  std::fflush(stdout);

  std::vector<std::unique_ptr<Terminal>> terminals;
  std::vector<std::thread> threads;
  for (int i = 0; i < options.terminals; ++i) {
    terminals.push_back(std::make_unique<Terminal>(i, ctx));
    threads.emplace_back([t = terminals.back().get()] { t->Main(); });
  }
  g_interrupted = false;
  auto previous_handler = std::signal(SIGINT, OnSigint);
  IntervalSample previous = Sample(*stats);
  Clock::time_point previous_at = start;
  Clock::time_point end = ctx.deadline;
  while (true) {
    Clock::time_point next = previous_at + secs(options.report_interval);
    bool last = next >= ctx.deadline;
    Clock::time_point until = last ? ctx.deadline : next;
    while (Clock::now() < until && !g_interrupted.load())
      std::this_thread::sleep_until(std::min(until, Clock::now() + std::chrono::milliseconds(100)));
    Clock::time_point now = Clock::now();
    if (g_interrupted.load()) {
      last = true;
      end = std::min(now, ctx.deadline);
      stop.Stop();  // before the line, so no transaction ending after it is counted
      std::printf("run: interrupted, stopping the terminals\n");
    }
    IntervalSample current = Sample(*stats);
    PrintIntervalLine(std::chrono::duration<double>(now - start).count(),
                      std::chrono::duration<double>(now - previous_at).count(), previous,
                      current, now < ctx.measure_start);
    previous = current;
    previous_at = now;
    if (last) break;
  }
  stop.Stop();
  for (std::thread& t : threads) t.join();
  std::signal(SIGINT, previous_handler == SIG_ERR ? SIG_DFL : previous_handler);

  RunSummary summary;
  summary.driver = options.conn.driver;
  summary.warehouses = options.warehouses;
  summary.terminals = options.terminals;
  summary.spec_timing = options.spec_timing;
  summary.measured_seconds =
      std::max(0.0, std::chrono::duration<double>(end - ctx.measure_start).count());
  for (int t = 0; t < kTxTypes; ++t) {
    const LiveCounters& c = stats->measured[t];
    summary.tx[t] = {c.done.load(), c.rolled_back.load(), c.errors.load(),
                     c.retries_40001.load(), c.retries_40p01.load(),
                     stats->measured_latency[t].Snapshot()};
  }
  summary.new_orders_committed = stats->new_orders_committed.load();
  summary.reconnects = stats->reconnects.load();
  summary.error_samples = stats->error_samples;
  return summary;
}

}  // namespace tpcc
