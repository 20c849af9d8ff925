// Periodic lines, the final table, --json and --compare (report.h).
#include "report.h"

#include <cstdio>
#include <fstream>
#include <sstream>

#include "json.h"

namespace tpcc {
namespace {

const char* const kShort[kTxTypes] = {"NO", "P", "OS", "D", "SL"};
constexpr double kSpecMaxTpmCPerWarehouse = 12.86;  // clause 4.2: with keying and think times

double Ms(uint64_t us) { return static_cast<double>(us) / 1000.0; }

struct Percentiles {
  double p50, p90, p95, p99, max;
};

Percentiles Of(const HistogramData& h) {
  return {Ms(h.Percentile(0.50)), Ms(h.Percentile(0.90)), Ms(h.Percentile(0.95)),
          Ms(h.Percentile(0.99)), Ms(h.max_us)};
}

}  // namespace

void PrintIntervalLine(double elapsed_s, double interval_s, const IntervalSample& before,
                       const IntervalSample& after, bool warmup) {
  if (interval_s <= 0) interval_s = 1e-9;
  std::string line;
  char buf[128];
  std::snprintf(buf, sizeof(buf), "[%4.0fs]%s tpmC %7.0f | tps", elapsed_s,
                warmup ? " (warmup)" : "",
                static_cast<double>(after.done[0] - before.done[0]) * 60.0 / interval_s);
  line += buf;
  for (int t = 0; t < kTxTypes; ++t) {
    std::snprintf(buf, sizeof(buf), " %s %.1f", kShort[t],
                  static_cast<double>(after.done[t] - before.done[t]) / interval_s);
    line += buf;
  }
  HistogramData no = after.new_order_latency.Minus(before.new_order_latency);
  std::snprintf(buf, sizeof(buf), " | NO p95 %.1f ms | retries %llu | errors %llu",
                Ms(no.Percentile(0.95)),
                static_cast<unsigned long long>(after.retries - before.retries),
                static_cast<unsigned long long>(after.errors - before.errors));
  line += buf;
  std::printf("%s\n", line.c_str());
  std::fflush(stdout);
}

void PrintSummary(const RunSummary& s) {
  std::printf("\nmeasured %.0f s, %s driver, %d warehouse(s), %d terminal(s)\n",
              s.measured_seconds, s.driver.c_str(), s.warehouses, s.terminals);
  std::printf("  tpmC      %10.1f   (New-Orders per minute, the 1%% rolled back included)\n",
              s.TpmC());
  std::printf("  tpmTotal  %10.1f\n", s.TpmTotal());
  if (s.spec_timing && s.warehouses > 0)
    std::printf("  efficiency %9.1f%%  of the spec's %.2f tpmC per warehouse\n",
                100.0 * s.TpmC() / (kSpecMaxTpmCPerWarehouse * s.warehouses),
                kSpecMaxTpmCPerWarehouse);
  std::printf("\n  %-12s %8s %6s %9s %9s %9s %9s %9s %8s %8s %7s\n", "transaction", "count",
              "mix%", "p50 ms", "p90 ms", "p95 ms", "p99 ms", "max ms", "rollback",
              "retries", "errors");
  uint64_t total = 0;
  for (const TxSummary& t : s.tx) total += t.done;
  for (int i = 0; i < kTxTypes; ++i) {
    const TxSummary& t = s.tx[i];
    Percentiles p = Of(t.latency);
    std::printf("  %-12s %8llu %6.1f %9.2f %9.2f %9.2f %9.2f %9.2f %8llu %8llu %7llu\n",
                TxName(static_cast<TxType>(i)), static_cast<unsigned long long>(t.done),
                total > 0 ? 100.0 * static_cast<double>(t.done) / static_cast<double>(total) : 0,
                p.p50, p.p90, p.p95, p.p99, p.max,
                static_cast<unsigned long long>(t.rolled_back),
                static_cast<unsigned long long>(t.retries_40001 + t.retries_40p01),
                static_cast<unsigned long long>(t.errors));
  }
  uint64_t r40001 = 0, r40p01 = 0;
  for (const TxSummary& t : s.tx) {
    r40001 += t.retries_40001;
    r40p01 += t.retries_40p01;
  }
  std::printf("\n  retries: %llu (40001 %llu, 40P01 %llu)   errors: %llu   reconnects: %llu"
              "   New-Orders committed (whole run): %llu\n",
              static_cast<unsigned long long>(r40001 + r40p01),
              static_cast<unsigned long long>(r40001), static_cast<unsigned long long>(r40p01),
              static_cast<unsigned long long>(s.Errors()),
              static_cast<unsigned long long>(s.reconnects),
              static_cast<unsigned long long>(s.new_orders_committed));
  for (const std::string& e : s.error_samples) std::printf("  error: %s\n", e.c_str());
  std::fflush(stdout);
}

bool WriteJson(const RunSummary& s, const std::string& path) {
  std::ostringstream j;
  j.precision(10);
  j << "{\n  \"tool\": \"meridian-tpcc\",\n  \"driver\": " << JsonString(s.driver)
    << ",\n  \"warehouses\": " << s.warehouses << ",\n  \"terminals\": " << s.terminals
    << ",\n  \"spec_timing\": " << (s.spec_timing ? "true" : "false")
    << ",\n  \"measured_seconds\": " << s.measured_seconds << ",\n  \"tpmC\": " << s.TpmC()
    << ",\n  \"tpmTotal\": " << s.TpmTotal() << ",\n  \"errors\": " << s.Errors()
    << ",\n  \"retries\": " << s.Retries() << ",\n  \"reconnects\": " << s.reconnects
    << ",\n  \"new_orders_committed\": " << s.new_orders_committed
    << ",\n  \"transactions\": {";
  for (int i = 0; i < kTxTypes; ++i) {
    const TxSummary& t = s.tx[i];
    Percentiles p = Of(t.latency);
    j << (i ? "," : "") << "\n    \"" << TxKey(static_cast<TxType>(i)) << "\": {\"count\": "
      << t.done << ", \"rolled_back\": " << t.rolled_back << ", \"errors\": " << t.errors
      << ", \"retries_40001\": " << t.retries_40001 << ", \"retries_40P01\": "
      << t.retries_40p01 << ", \"latency_ms\": {\"p50\": " << p.p50 << ", \"p90\": " << p.p90
      << ", \"p95\": " << p.p95 << ", \"p99\": " << p.p99 << ", \"max\": " << p.max << "}}";
  }
  j << "\n  },\n  \"error_samples\": [";
  for (size_t i = 0; i < s.error_samples.size(); ++i)
    j << (i ? ", " : "") << JsonString(s.error_samples[i]);
  j << "]\n}\n";
  std::ofstream f(path);
  f << j.str();
  if (!f.good()) {
    std::fprintf(stderr, "meridian-tpcc: cannot write %s\n", path.c_str());
    return false;
  }
  return true;
}

bool PrintComparison(const RunSummary& s, const std::string& path) {
  std::ifstream f(path);
  std::stringstream text;
  text << f.rdbuf();
  std::map<std::string, double> old;
  if (!f.good() && !f.eof()) {
    std::fprintf(stderr, "meridian-tpcc: cannot read %s\n", path.c_str());
    return false;
  }
  if (!FlattenJsonNumbers(text.str(), &old) || old.count("tpmC") == 0) {
    std::fprintf(stderr, "meridian-tpcc: %s is not a meridian-tpcc --json file\n", path.c_str());
    return false;
  }
  auto ratio = [](double now, double before) { return before > 0 ? now / before : 0.0; };
  std::printf("\ncompared with %s (ratio = this run / that run)\n", path.c_str());
  std::printf("  %-22s %12s %12s %8s\n", "", "this run", "that run", "ratio");
  std::printf("  %-22s %12.1f %12.1f %7.2fx\n", "tpmC", s.TpmC(), old["tpmC"],
              ratio(s.TpmC(), old["tpmC"]));
  std::printf("  %-22s %12.1f %12.1f %7.2fx\n", "tpmTotal", s.TpmTotal(), old["tpmTotal"],
              ratio(s.TpmTotal(), old["tpmTotal"]));
  for (int i = 0; i < kTxTypes; ++i) {
    std::string key = std::string("transactions.") + TxKey(static_cast<TxType>(i)) + ".latency_ms.";
    Percentiles p = Of(s.tx[i].latency);
    for (auto [name, value] : {std::pair<const char*, double>{"p50", p.p50}, {"p99", p.p99}}) {
      std::string label = std::string(TxName(static_cast<TxType>(i))) + " " + name + " ms";
      double before = old[key + name];
      std::printf("  %-22s %12.2f %12.2f %7.2fx\n", label.c_str(), value, before,
                  ratio(value, before));
    }
  }
  std::fflush(stdout);
  return true;
}

}  // namespace tpcc
