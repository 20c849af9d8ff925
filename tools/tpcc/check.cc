// Consistency conditions of clause 3.3.2 (check.h).
#include "check.h"

#include <chrono>
#include <cstdio>
#include <map>
#include <string>
#include <unordered_map>

namespace tpcc {
namespace {

constexpr int64_t kInitialDelivered = 2100;  // orders 1..2100 of each district load delivered

using Key = int64_t;  // (warehouse, district, id) packed
Key K(int64_t w, int64_t d, int64_t id = 0) { return ((w * 16 + d) << 32) | id; }

struct District {
  int64_t ytd = 0, next_o_id = 0;
  int64_t o_max = 0, o_count = 0, o_ol_sum = 0, o_delivered_late = 0;
  int64_t no_max = 0, no_min = 0, no_count = 0;
  int64_t ol_count = 0, h_sum = 0;
};
struct Order {
  int64_t c_id = 0, ol_cnt = 0;
  bool carrier_null = false;
  bool has_new_order = false;
  int64_t lines = 0, lines_delivered = 0;
};

class Checker {
 public:
  int failed = 0;
  void Report(int number, const char* what, int64_t bad, int64_t total, const char* unit) {
    bool ok = bad == 0;
    if (!ok) ++failed;
    std::printf("  [%s] %2d  %-62s %lld of %lld %s differ\n", ok ? "PASS" : "FAIL", number, what,
                static_cast<long long>(bad), static_cast<long long>(total), unit);
    std::fflush(stdout);
  }
};

}  // namespace

int CheckConsistency(Session& s) {
  auto t0 = std::chrono::steady_clock::now();
  std::printf("check: the consistency conditions of TPC-C clause 3.3.2\n");
  std::map<int64_t, std::pair<int64_t, int64_t>> warehouses;  // w -> (w_ytd, sum of h_amount)
  std::map<Key, District> districts;
  std::unordered_map<Key, Order> orders;
  std::unordered_map<Key, std::pair<int64_t, int64_t>> customers;  // balance, ytd_payment
  std::unordered_map<Key, int64_t> paid, delivered;                // by customer

  Rows r = s.Exec("SELECT w_id, w_ytd FROM warehouse");
  for (size_t i = 0; i < r.size(); ++i) warehouses[r.Int(i, 0)].first = r.Cents(i, 1);
  r = s.Exec("SELECT d_w_id, d_id, d_ytd, d_next_o_id FROM district");
  for (size_t i = 0; i < r.size(); ++i) {
    District& d = districts[K(r.Int(i, 0), r.Int(i, 1))];
    d.ytd = r.Cents(i, 2);
    d.next_o_id = r.Int(i, 3);
  }
  r = s.Exec("SELECT o_w_id, o_d_id, o_id, o_c_id, o_ol_cnt, o_carrier_id FROM orders");
  for (size_t i = 0; i < r.size(); ++i) {
    int64_t w = r.Int(i, 0), d = r.Int(i, 1), o = r.Int(i, 2);
    Order& ord = orders[K(w, d, o)];
    ord.c_id = r.Int(i, 3);
    ord.ol_cnt = r.Int(i, 4);
    ord.carrier_null = r.is_null(i, 5);
    District& dist = districts[K(w, d)];
    dist.o_max = std::max(dist.o_max, o);
    dist.o_count++;
    dist.o_ol_sum += ord.ol_cnt;
    if (o > kInitialDelivered && !ord.carrier_null) dist.o_delivered_late++;
  }
  r = s.Exec("SELECT no_w_id, no_d_id, no_o_id FROM new_order");
  int64_t orphan_new_orders = 0;
  for (size_t i = 0; i < r.size(); ++i) {
    int64_t w = r.Int(i, 0), d = r.Int(i, 1), o = r.Int(i, 2);
    District& dist = districts[K(w, d)];
    dist.no_min = dist.no_count == 0 ? o : std::min(dist.no_min, o);
    dist.no_max = std::max(dist.no_max, o);
    dist.no_count++;
    auto it = orders.find(K(w, d, o));
    if (it == orders.end()) ++orphan_new_orders;
    else it->second.has_new_order = true;
  }
  r = s.Exec("SELECT ol_w_id, ol_d_id, ol_o_id, count(*), count(ol_delivery_d) FROM order_line "
             "GROUP BY ol_w_id, ol_d_id, ol_o_id");
  int64_t orphan_lines = 0;
  for (size_t i = 0; i < r.size(); ++i) {
    int64_t w = r.Int(i, 0), d = r.Int(i, 1), o = r.Int(i, 2);
    districts[K(w, d)].ol_count += r.Int(i, 3);
    auto it = orders.find(K(w, d, o));
    if (it == orders.end()) {
      ++orphan_lines;
      continue;
    }
    it->second.lines = r.Int(i, 3);
    it->second.lines_delivered = r.Int(i, 4);
  }
  r = s.Exec("SELECT ol_w_id, ol_d_id, ol_o_id, sum(ol_amount) FROM order_line "
             "WHERE ol_delivery_d IS NOT NULL GROUP BY ol_w_id, ol_d_id, ol_o_id");
  for (size_t i = 0; i < r.size(); ++i) {
    int64_t w = r.Int(i, 0), d = r.Int(i, 1);
    auto it = orders.find(K(w, d, r.Int(i, 2)));
    if (it != orders.end()) delivered[K(w, d, it->second.c_id)] += r.Cents(i, 3);
  }
  r = s.Exec("SELECT h_c_w_id, h_c_d_id, h_c_id, h_w_id, h_d_id, sum(h_amount) FROM history "
             "GROUP BY h_c_w_id, h_c_d_id, h_c_id, h_w_id, h_d_id");
  for (size_t i = 0; i < r.size(); ++i) {
    int64_t amount = r.Cents(i, 5);
    paid[K(r.Int(i, 0), r.Int(i, 1), r.Int(i, 2))] += amount;
    warehouses[r.Int(i, 3)].second += amount;
    districts[K(r.Int(i, 3), r.Int(i, 4))].h_sum += amount;
  }
  r = s.Exec("SELECT c_w_id, c_d_id, c_id, c_balance, c_ytd_payment FROM customer");
  for (size_t i = 0; i < r.size(); ++i)
    customers[K(r.Int(i, 0), r.Int(i, 1), r.Int(i, 2))] = {r.Cents(i, 3), r.Cents(i, 4)};

  // District-level sums of D_YTD per warehouse.
  std::map<int64_t, int64_t> d_ytd_sum;
  for (const auto& [key, d] : districts) d_ytd_sum[key >> 32 >> 4] += d.ytd;

  Checker c;
  const auto nw = static_cast<int64_t>(warehouses.size());
  const auto nd = static_cast<int64_t>(districts.size());
  const auto no = static_cast<int64_t>(orders.size());
  const auto nc = static_cast<int64_t>(customers.size());
  int64_t bad = 0;
  for (const auto& [w, v] : warehouses) bad += v.first != d_ytd_sum[w];
  c.Report(1, "W_YTD = sum(D_YTD)", bad, nw, "warehouses");
  bad = 0;
  for (const auto& [k, d] : districts)
    bad += !(d.next_o_id - 1 == d.o_max && (d.no_count == 0 || d.no_max == d.o_max));
  c.Report(2, "D_NEXT_O_ID - 1 = max(O_ID) = max(NO_O_ID)", bad, nd, "districts");
  bad = 0;
  for (const auto& [k, d] : districts)
    bad += d.no_count != 0 && d.no_max - d.no_min + 1 != d.no_count;
  c.Report(3, "max(NO_O_ID) - min(NO_O_ID) + 1 = count(NEW-ORDER)", bad, nd, "districts");
  bad = 0;
  for (const auto& [k, d] : districts) bad += d.o_ol_sum != d.ol_count;
  c.Report(4, "sum(O_OL_CNT) = count(ORDER-LINE)", bad, nd, "districts");
  bad = orphan_new_orders;
  for (const auto& [k, o] : orders) bad += o.carrier_null != o.has_new_order;
  c.Report(5, "O_CARRIER_ID is NULL iff a NEW-ORDER row exists", bad, no, "orders");
  bad = orphan_lines;
  for (const auto& [k, o] : orders) bad += o.ol_cnt != o.lines;
  c.Report(6, "O_OL_CNT = count(ORDER-LINE) of the order", bad, no, "orders");
  bad = 0;
  for (const auto& [k, o] : orders)
    bad += o.carrier_null ? o.lines_delivered != 0 : o.lines_delivered != o.lines;
  c.Report(7, "OL_DELIVERY_D is NULL iff O_CARRIER_ID is NULL", bad, no, "orders");
  bad = 0;
  for (const auto& [w, v] : warehouses) bad += v.first != v.second;
  c.Report(8, "W_YTD = sum(H_AMOUNT)", bad, nw, "warehouses");
  bad = 0;
  for (const auto& [k, d] : districts) bad += d.ytd != d.h_sum;
  c.Report(9, "D_YTD = sum(H_AMOUNT)", bad, nd, "districts");
  bad = 0;
  for (const auto& [k, v] : customers) {
    auto p = paid.find(k);
    auto d = delivered.find(k);
    bad += v.first != (d == delivered.end() ? 0 : d->second) - (p == paid.end() ? 0 : p->second);
  }
  c.Report(10, "C_BALANCE = sum(delivered OL_AMOUNT) - sum(H_AMOUNT)", bad, nc, "customers");
  bad = 0;
  for (const auto& [k, d] : districts)
    bad += d.o_count - d.no_count != kInitialDelivered + d.o_delivered_late;
  c.Report(11, "count(ORDER) - count(NEW-ORDER) = 2100 + delivered since load", bad, nd,
           "districts");
  bad = 0;
  for (const auto& [k, v] : customers) {
    auto d = delivered.find(k);
    bad += v.first + v.second != (d == delivered.end() ? 0 : d->second);
  }
  c.Report(12, "C_BALANCE + C_YTD_PAYMENT = sum(delivered OL_AMOUNT)", bad, nc, "customers");
  std::printf("check: %d of 12 conditions passed (%.1f s)\n", 12 - c.failed,
              std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  std::fflush(stdout);
  return c.failed;
}

}  // namespace tpcc
