// meridian-tpcc's building blocks without a server: NURand and the C constants of clause 2.1.6,
// last names, generated transaction inputs, latency buckets and percentiles, money parsing,
// the JSON reader behind --compare, and the command line.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "histogram.h"
#include "json.h"
#include "options.h"
#include "random.h"
#include "session.h"
#include "transactions.h"

namespace tpcc {
namespace {

TEST(TpccRandom, LastNamesFollowTheSyllableTable) {
  EXPECT_EQ(LastName(0), "BARBARBAR");
  EXPECT_EQ(LastName(371), "PRICALLYOUGHT");
  EXPECT_EQ(LastName(999), "EINGEINGEING");
}

TEST(TpccRandom, RunConstantDeltaIsInRangeAndNot96Or112) {
  for (uint64_t seed = 1; seed < 2000; ++seed) {
    NURandConstants run = RunConstants(seed);
    int delta = (run.c_last - kLoadCLast + 256) % 256;
    EXPECT_GE(delta, 65) << seed;
    EXPECT_LE(delta, 119) << seed;
    EXPECT_NE(delta, 96);
    EXPECT_NE(delta, 112);
    EXPECT_GE(run.c_id, 0);
    EXPECT_LE(run.c_id, 1023);
    EXPECT_LE(run.ol_i_id, 8191);
  }
}

TEST(TpccRandom, NURandStaysInRangeAndIsSkewed) {
  Random rnd(42, RunConstants(42));
  std::map<int64_t, int> hits;
  for (int i = 0; i < 200000; ++i) {
    int64_t v = rnd.NURand(1023, 1, 3000);
    ASSERT_GE(v, 1);
    ASSERT_LE(v, 3000);
    hits[v]++;
  }
  int most = 0;
  for (const auto& [v, n] : hits) most = std::max(most, n);
  EXPECT_GT(most, 3 * 200000 / 3000);  // uniform would give ~67 each
}

TEST(TpccRandom, StringsHaveTheirLengthsAndOriginalIsTenPercent) {
  Random rnd(7, LoadConstants(7));
  int original = 0;
  for (int i = 0; i < 10000; ++i) {
    std::string s = rnd.Data(26, 50);
    ASSERT_GE(s.size(), 26u);
    ASSERT_LE(s.size(), 50u);
    original += s.find("ORIGINAL") != std::string::npos;
  }
  EXPECT_GT(original, 800);
  EXPECT_LT(original, 1200);
  std::string zip = rnd.Zip();
  EXPECT_EQ(zip.size(), 9u);
  EXPECT_EQ(zip.substr(4), "11111");
  EXPECT_EQ(rnd.Decimal(5, 5, 2), "0.05");
  EXPECT_EQ(rnd.Decimal(2000, 2000, 4), "0.2000");
  EXPECT_EQ(rnd.Decimal(12345, 12345, 2), "123.45");
}

TEST(TpccInputs, NewOrderLinesAreSortedAndTheRollbackItemIsLast) {
  Random rnd(3, RunConstants(3));
  int rollbacks = 0, remote = 0, lines = 0;
  for (int i = 0; i < 20000; ++i) {
    NewOrderInput in = GenerateNewOrder(rnd, 4, 2, 5);
    ASSERT_GE(in.lines.size(), 5u);
    ASSERT_LE(in.lines.size(), 15u);
    for (size_t l = 0; l + 1 < in.lines.size(); ++l) {
      ASSERT_NE(in.lines[l].i_id, 100001);
      auto a = std::make_pair(in.lines[l].supply_w_id, in.lines[l].i_id);
      auto b = std::make_pair(in.lines[l + 1].supply_w_id, in.lines[l + 1].i_id);
      if (in.lines[l + 1].i_id != 100001) {
        ASSERT_LE(a, b);
      }
    }
    rollbacks += in.lines.back().i_id == 100001;
    for (const auto& line : in.lines) {
      ++lines;
      remote += line.supply_w_id != 2;
      ASSERT_GE(line.supply_w_id, 1);
      ASSERT_LE(line.supply_w_id, 4);
    }
  }
  EXPECT_NEAR(rollbacks / 20000.0, 0.01, 0.004);
  EXPECT_NEAR(static_cast<double>(remote) / lines, 0.01, 0.004);
}

TEST(TpccInputs, PaymentIsRemoteFifteenPercentAndByNameSixty) {
  Random rnd(5, RunConstants(5));
  int remote = 0, by_name = 0;
  for (int i = 0; i < 20000; ++i) {
    PaymentInput in = GeneratePayment(rnd, 3, 1, 1);
    remote += in.c_w_id != 1;
    by_name += in.by_name;
    ASSERT_GE(in.amount_cents, 100);
    ASSERT_LE(in.amount_cents, 500000);
  }
  EXPECT_NEAR(remote / 20000.0, 0.15, 0.02);
  EXPECT_NEAR(by_name / 20000.0, 0.60, 0.02);
  Random one(5, RunConstants(5));
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(GeneratePayment(one, 1, 1, 1).c_w_id, 1);
}

TEST(TpccHistogram, BucketsAreNarrowAndPercentilesOrdered) {
  for (uint64_t us : {0ULL, 1ULL, 63ULL, 64ULL, 100ULL, 1000ULL, 123456ULL, 98765432ULL}) {
    int b = HistogramBucket(us);
    uint64_t upper = HistogramBucketUpper(b);
    EXPECT_GE(upper, us);
    EXPECT_LE(static_cast<double>(upper), us * 1.032 + 1) << us;
    if (b > 0) {
      EXPECT_LT(HistogramBucketUpper(b - 1), us) << us;
    }
  }
  LiveHistogram h;
  for (uint64_t us = 1; us <= 10000; ++us) h.Record(us);
  HistogramData d = h.Snapshot();
  EXPECT_EQ(d.count(), 10000u);
  EXPECT_EQ(d.max_us, 10000u);
  EXPECT_NEAR(static_cast<double>(d.Percentile(0.5)), 5000, 5000 * 0.035);
  EXPECT_NEAR(static_cast<double>(d.Percentile(0.99)), 9900, 9900 * 0.035);
  EXPECT_EQ(d.Percentile(1.0), 10000u);
  HistogramData later = d;
  later.counts[static_cast<size_t>(HistogramBucket(7))] += 3;
  EXPECT_EQ(later.Minus(d).count(), 3u);
  EXPECT_EQ(HistogramData().Percentile(0.5), 0u);
}

TEST(TpccMoney, CentsParseAndPrintExactly) {
  EXPECT_EQ(ParseCents("-10.00"), -1000);
  EXPECT_EQ(ParseCents("300000.00"), 30000000);
  EXPECT_EQ(ParseCents("5"), 500);
  EXPECT_EQ(ParseCents("0.5"), 50);
  EXPECT_EQ(ParseCents("1.005"), 101);
  EXPECT_EQ(CentsText(12345), "123.45");
  EXPECT_EQ(CentsText(5), "0.05");
  EXPECT_EQ(CentsText(-1000), "-10.00");
}

TEST(TpccJson, FlattensNumbersByPath) {
  std::map<std::string, double> out;
  ASSERT_TRUE(FlattenJsonNumbers(
      R"({"tpmC": 12.5, "ok": true, "name": "x\"y", "transactions": {"new_order":
          {"latency_ms": {"p99": 3e2}}}, "list": [1, {"a": -2}], "none": null})",
      &out));
  EXPECT_EQ(out["tpmC"], 12.5);
  EXPECT_EQ(out["ok"], 1);
  EXPECT_EQ(out["transactions.new_order.latency_ms.p99"], 300);
  EXPECT_EQ(out["list.0"], 1);
  EXPECT_EQ(out["list.1.a"], -2);
  EXPECT_EQ(out.count("none"), 0u);
  EXPECT_FALSE(FlattenJsonNumbers("{\"a\": }", &out));
  EXPECT_FALSE(FlattenJsonNumbers("{\"a\": 1} x", &out));
  EXPECT_EQ(JsonString("a\"b\n"), "\"a\\\"b\\u000a\"");
}

TEST(TpccOptions, ParsesFlagsAndRejectsNonsense) {
  auto parse = [](std::vector<std::string> args, Options* o, std::string* error) {
    std::vector<char*> argv;
    std::string prog = "meridian-tpcc";
    argv.push_back(prog.data());
    for (std::string& a : args) argv.push_back(a.data());
    return ParseOptions(static_cast<int>(argv.size()), argv.data(), o, error);
  };
  Options o;
  std::string error;
  ASSERT_TRUE(parse({"run", "--driver", "pg", "--port=5433", "--warehouses", "3",
                     "--isolation", "repeatable-read", "--spec-timing"}, &o, &error)) << error;
  EXPECT_EQ(o.conn.driver, "pg");
  EXPECT_EQ(o.conn.port, 5433);
  EXPECT_EQ(o.warehouses, 3);
  EXPECT_EQ(o.terminals, 30);  // 10 per warehouse by default
  EXPECT_EQ(o.isolation, "REPEATABLE READ");
  EXPECT_TRUE(o.spec_timing);
  Options bad;
  EXPECT_FALSE(parse({"run", "--driver", "odbc"}, &bad, &error));
  EXPECT_FALSE(parse({"run", "--warehouses", "0"}, &bad, &error));
  EXPECT_FALSE(parse({"run", "--duration"}, &bad, &error));
  EXPECT_FALSE(parse({"fly"}, &bad, &error));
  EXPECT_FALSE(parse({"run", "--bogus", "1"}, &bad, &error));
}

}  // namespace
}  // namespace tpcc
