// `meridian-tpcc statements`: see statement_bench.h.
#include "statement_bench.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>

#include "json.h"
#include "statements.h"

namespace tpcc {
namespace {

using Params = std::vector<std::string>;

std::string S(int64_t v) { return std::to_string(v); }
std::string W(Random& r, int w) { return S(r.Uniform(1, w)); }
std::string D(Random& r) { return S(r.Uniform(1, 10)); }
std::string C(Random& r) { return S(r.CustomerId()); }
std::string I(Random& r) { return S(r.ItemId()); }
std::string O(Random& r) { return S(r.Uniform(1, 3000)); }        // an order of the load
std::string NewO(Random& r) { return S(r.Uniform(2101, 3000)); }  // one with a new_order row
std::string FreshO(Random& r) { return S(r.Uniform(3001, 1000000)); }  // no such order yet
std::string Amount(Random& r) { return r.Decimal(100, 500000, 2); }

// The text of statements.h's statement `name`.
std::string Sql(const char* name) {
  for (const StatementDef& s : kStatements)
    if (std::string_view(s.name) == name) return s.sql;
  return "";
}

// "(($1,$2),($1,$3),...)" style lists: row i (1-based) is `row(i)`.
template <typename F>
std::string List(int n, F row) {
  std::string out;
  for (int i = 1; i <= n; ++i) out += (i > 1 ? "," : "") + row(i);
  return out;
}

// n distinct item numbers (a New-Order's lines).
Params Items(Random& r, int n) {
  Params out;
  while (static_cast<int>(out.size()) < n) {
    std::string i = I(r);
    if (std::find(out.begin(), out.end(), i) == out.end()) out.push_back(i);
  }
  return out;
}

std::string ArrayText(const Params& values) {
  std::string out = "{";
  for (size_t i = 0; i < values.size(); ++i) out += (i > 0 ? "," : "") + values[i];
  return out + "}";
}

// Delivery batched over the ten districts: w, then the ten districts' order numbers.
Params WarehouseAndTenOrders(Random& r, int w) {
  Params p = {W(r, w)};
  for (int d = 1; d <= 10; ++d) p.push_back(NewO(r));
  return p;
}

std::vector<BenchStatement> MakeStatements() {
  const std::string ten_stock = List(10, [](int i) { return "($1,$" + S(i + 1) + ")"; });
  const std::string ten_orders =
      List(10, [](int i) { return "($1," + S(i) + ",$" + S(i + 1) + ")"; });
  const std::string ten_items = List(10, [](int i) { return "$" + S(i); });
  const char* kStockCols = "s_i_id, s_quantity, s_data, s_dist_01, s_dist_02";
  std::vector<BenchStatement> v = {
      // ---- New-Order
      {"no_cust", "all (py-tpcc, sysbench-tpcc, meridian-tpcc)", Sql("no_cust"),
       [](Random& r, int w) { return Params{W(r, w), D(r), C(r)}; }},
      {"no_wh_tax", "BenchmarkSQL", "SELECT w_tax FROM warehouse WHERE w_id = $1",
       [](Random& r, int w) { return Params{W(r, w)}; }},
      {"no_dist", "all", Sql("no_dist"), [](Random& r, int w) { return Params{W(r, w), D(r)}; }},
      {"no_dist_upd", "all", Sql("no_dist_upd"),
       [](Random& r, int w) { return Params{W(r, w), D(r)}; }},
      {"no_ord_ins", "all", Sql("no_ord_ins"),
       [](Random& r, int w) {
         return Params{FreshO(r), D(r), W(r, w), C(r), S(r.Uniform(5, 15)), "1"};
       }},
      {"no_no_ins", "all", Sql("no_no_ins"),
       [](Random& r, int w) { return Params{FreshO(r), D(r), W(r, w)}; }},
      {"no_item", "all", Sql("no_item"), [](Random& r, int) { return Params{I(r)}; }},
      {"no_item_in", "BenchmarkSQL-style batch",
       "SELECT i_id, i_price, i_name, i_data FROM item WHERE i_id IN (" + ten_items + ")",
       [](Random& r, int) { return Items(r, 10); }},
      {"no_item_any", "pgjdbc/psycopg array batch",
       "SELECT i_id, i_price, i_name, i_data FROM item WHERE i_id = ANY($1::int[])",
       [](Random& r, int) { return Params{ArrayText(Items(r, 10))}; }},
      {"no_stock", "all", Sql("no_stock"), [](Random& r, int w) { return Params{W(r, w), I(r)}; }},
      {"no_stock_in", "issue 16 (row-value IN)",
       std::string("SELECT ") + kStockCols + " FROM stock WHERE (s_w_id, s_i_id) IN (" +
           ten_stock + ") FOR UPDATE",
       [](Random& r, int w) {
         Params p = {W(r, w)};
         for (std::string& i : Items(r, 10)) p.push_back(i);
         return p;
       }},
      {"no_stock_any", "array batch",
       std::string("SELECT ") + kStockCols +
           " FROM stock WHERE s_w_id = $1 AND s_i_id = ANY($2::int[]) FOR UPDATE",
       [](Random& r, int w) { return Params{W(r, w), ArrayText(Items(r, 10))}; }},
      {"no_item_stock", "HammerDB-style join",
       "SELECT i_price, i_name, i_data, s_quantity, s_data, s_dist_01 FROM item, stock "
       "WHERE i_id = $1 AND s_i_id = i_id AND s_w_id = $2 FOR UPDATE",
       [](Random& r, int w) { return Params{I(r), W(r, w)}; }},
      {"no_stock_upd", "all", Sql("no_stock_upd"),
       [](Random& r, int w) {
         return Params{S(r.Uniform(10, 100)), S(r.Uniform(1, 10)), "0", W(r, w), I(r)};
       }},
      {"no_stock_upd_case", "py-tpcc (CASE in SET)",
       "UPDATE stock SET s_quantity = CASE WHEN s_quantity >= $1 + 10 THEN s_quantity - $1 "
       "ELSE s_quantity - $1 + 91 END, s_ytd = s_ytd + $1, s_order_cnt = s_order_cnt + 1 "
       "WHERE s_i_id = $2 AND s_w_id = $3",
       [](Random& r, int w) { return Params{S(r.Uniform(1, 10)), I(r), W(r, w)}; }},
      {"no_ol_ins", "all", Sql("no_ol_ins"),
       [](Random& r, int w) {
         std::string ws = W(r, w);
         return Params{FreshO(r), D(r), ws, S(r.Uniform(1, 15)), I(r), ws,
                       S(r.Uniform(1, 10)), Amount(r), r.AString(24, 24)};
       }},
      {"no_ol_ins_select", "HammerDB-style INSERT ... SELECT",
       "INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, "
       "ol_delivery_d, ol_quantity, ol_amount, ol_dist_info) "
       "SELECT $1::int, $2::int, $3::int, $4::int, i_id, s_w_id, NULL, $5::int, "
       "i_price * $5::int, s_dist_01 "
       "FROM item JOIN stock ON s_i_id = i_id WHERE i_id = $6 AND s_w_id = $3",
       [](Random& r, int w) {
         return Params{FreshO(r), D(r), W(r, w), S(r.Uniform(1, 15)), S(r.Uniform(1, 10)), I(r)};
       }},
      // ---- Payment
      {"pay_w_upd", "all", Sql("pay_w_upd"),
       [](Random& r, int w) { return Params{Amount(r), W(r, w)}; }},
      {"pay_w_sel", "all", Sql("pay_w_sel"), [](Random& r, int w) { return Params{W(r, w)}; }},
      {"pay_d_upd", "all", Sql("pay_d_upd"),
       [](Random& r, int w) { return Params{Amount(r), W(r, w), D(r)}; }},
      {"pay_d_sel", "all", Sql("pay_d_sel"),
       [](Random& r, int w) { return Params{W(r, w), D(r)}; }},
      {"cust_by_name", "all", Sql("cust_by_name"),
       [](Random& r, int w) { return Params{W(r, w), D(r), r.CustomerLastName()}; }},
      {"cust_by_name_cnt", "BenchmarkSQL, HammerDB",
       "SELECT count(c_id) FROM customer WHERE c_w_id = $1 AND c_d_id = $2 AND c_last = $3",
       [](Random& r, int w) { return Params{W(r, w), D(r), r.CustomerLastName()}; }},
      {"cust_by_name_mid", "sysbench-tpcc (OFFSET n/2 LIMIT 1)",
       "SELECT c_id, c_first, c_middle, c_last, c_balance, c_credit FROM customer "
       "WHERE c_w_id = $1 AND c_d_id = $2 AND c_last = $3 ORDER BY c_first OFFSET 1 LIMIT 1",
       [](Random& r, int w) { return Params{W(r, w), D(r), r.CustomerLastName()}; }},
      {"pay_c_sel", "all", Sql("pay_c_sel"),
       [](Random& r, int w) { return Params{W(r, w), D(r), C(r)}; }},
      {"pay_c_data", "all", Sql("pay_c_data"),
       [](Random& r, int w) { return Params{W(r, w), D(r), C(r)}; }},
      {"pay_c_upd", "all", Sql("pay_c_upd"),
       [](Random& r, int w) {
         std::string a = Amount(r);
         return Params{a, a, W(r, w), D(r), C(r)};
       }},
      {"pay_c_upd_bc", "all", Sql("pay_c_upd_bc"),
       [](Random& r, int w) {
         std::string a = Amount(r);
         return Params{a, a, r.AString(300, 500), W(r, w), D(r), C(r)};
       }},
      {"pay_h_ins", "all", Sql("pay_h_ins"),
       [](Random& r, int w) {
         std::string ws = W(r, w);
         std::string d = D(r);
         return Params{C(r), d, ws, d, ws, Amount(r), r.AString(12, 24)};
       }},
      // ---- Order-Status
      {"os_c_by_id", "all", Sql("os_c_by_id"),
       [](Random& r, int w) { return Params{W(r, w), D(r), C(r)}; }},
      {"os_last_order", "all", Sql("os_last_order"),
       [](Random& r, int w) { return Params{W(r, w), D(r), C(r)}; }},
      {"os_last_order_max", "HammerDB, BenchmarkSQL (max subquery)",
       "SELECT o_id, o_carrier_id, o_entry_d FROM orders WHERE o_w_id = $1 AND o_d_id = $2 "
       "AND o_c_id = $3 AND o_id = (SELECT max(o_id) FROM orders "
       "WHERE o_w_id = $1 AND o_d_id = $2 AND o_c_id = $3)",
       [](Random& r, int w) { return Params{W(r, w), D(r), C(r)}; }},
      {"os_lines", "all", Sql("os_lines"),
       [](Random& r, int w) { return Params{W(r, w), D(r), O(r)}; }},
      {"os_lines_sorted", "py-tpcc (ORDER BY ol_number)",
       std::string(Sql("os_lines")) + " ORDER BY ol_number",
       [](Random& r, int w) { return Params{W(r, w), D(r), O(r)}; }},
      {"os_order_sum", "issue 16 (orders, order_line)",
       "SELECT sum(ol_amount) FROM orders, order_line WHERE ol_w_id = o_w_id "
       "AND ol_d_id = o_d_id AND ol_o_id = o_id AND o_w_id = $1 AND o_d_id = $2 AND o_c_id = $3",
       [](Random& r, int w) { return Params{W(r, w), D(r), C(r)}; }},
      // ---- Delivery
      {"dl_no_min", "meridian-tpcc, py-tpcc", Sql("dl_no_min"),
       [](Random& r, int w) { return Params{W(r, w), D(r)}; }},
      {"dl_no_min_lock", "sysbench-tpcc (LIMIT 1 FOR UPDATE)",
       "SELECT no_o_id FROM new_order WHERE no_d_id = $1 AND no_w_id = $2 "
       "ORDER BY no_o_id ASC LIMIT 1 FOR UPDATE",
       [](Random& r, int w) { return Params{D(r), W(r, w)}; }},
      {"dl_no_min_agg", "HammerDB, BenchmarkSQL (min)",
       "SELECT min(no_o_id) FROM new_order WHERE no_w_id = $1 AND no_d_id = $2",
       [](Random& r, int w) { return Params{W(r, w), D(r)}; }},
      {"dl_no_del", "all", Sql("dl_no_del"),
       [](Random& r, int w) { return Params{W(r, w), D(r), NewO(r)}; }},
      {"dl_o_cid", "all", Sql("dl_o_cid"),
       [](Random& r, int w) { return Params{W(r, w), D(r), NewO(r)}; }},
      {"dl_o_upd", "all", Sql("dl_o_upd"),
       [](Random& r, int w) { return Params{S(r.Uniform(1, 10)), W(r, w), D(r), NewO(r)}; }},
      {"dl_o_upd_in", "issue 16 (row-value IN, ten districts)",
       "UPDATE orders SET o_carrier_id = $12 WHERE (o_w_id, o_d_id, o_id) IN (" + ten_orders +
           ")",
       [](Random& r, int w) {
         Params p = WarehouseAndTenOrders(r, w);
         p.push_back(S(r.Uniform(1, 10)));
         return p;
       }},
      {"dl_ol_upd", "all", Sql("dl_ol_upd"),
       [](Random& r, int w) { return Params{W(r, w), D(r), NewO(r)}; }},
      {"dl_ol_upd_in", "issue 16 (row-value IN, ten districts)",
       "UPDATE order_line SET ol_delivery_d = CURRENT_TIMESTAMP "
       "WHERE (ol_w_id, ol_d_id, ol_o_id) IN (" + ten_orders + ")",
       WarehouseAndTenOrders},
      {"dl_ol_sum", "all", Sql("dl_ol_sum"),
       [](Random& r, int w) { return Params{W(r, w), D(r), NewO(r)}; }},
      {"dl_ol_sum_in", "issue 16 (row-value IN, GROUP BY)",
       "SELECT ol_d_id, SUM(ol_amount) FROM order_line WHERE (ol_w_id, ol_d_id, ol_o_id) IN (" +
           ten_orders + ") GROUP BY ol_d_id",
       WarehouseAndTenOrders},
      {"dl_c_upd", "all", Sql("dl_c_upd"),
       [](Random& r, int w) { return Params{Amount(r), W(r, w), D(r), C(r)}; }},
      {"dl_c_upd_sub", "HammerDB (balance and customer from subqueries)",
       "UPDATE customer SET c_balance = c_balance + (SELECT sum(ol_amount) FROM order_line "
       "WHERE ol_w_id = $1 AND ol_d_id = $2 AND ol_o_id = $3), "
       "c_delivery_cnt = c_delivery_cnt + 1 WHERE c_w_id = $1 AND c_d_id = $2 "
       "AND c_id = (SELECT o_c_id FROM orders WHERE o_w_id = $1 AND o_d_id = $2 AND o_id = $3)",
       [](Random& r, int w) { return Params{W(r, w), D(r), NewO(r)}; }},
      // ---- Stock-Level
      {"sl_next", "all", Sql("sl_next"), [](Random& r, int w) { return Params{W(r, w), D(r)}; }},
      {"sl_count", "py-tpcc, sysbench-tpcc", Sql("sl_count"),
       [](Random& r, int w) {
         std::string ws = W(r, w);
         return Params{ws, D(r), "3001", "2981", ws, S(r.Uniform(10, 20))};
       }},
      {"sl_count_in", "BenchmarkSQL (IN subquery over district)",
       "SELECT count(*) AS low_stock FROM (SELECT s_w_id, s_i_id, s_quantity FROM stock "
       "WHERE s_w_id = $1 AND s_quantity < $3 AND s_i_id IN (SELECT ol_i_id FROM district "
       "JOIN order_line ON ol_w_id = d_w_id AND ol_d_id = d_id AND ol_o_id >= d_next_o_id - 20 "
       "AND ol_o_id < d_next_o_id WHERE d_w_id = $1 AND d_id = $2)) AS l",
       [](Random& r, int w) { return Params{W(r, w), D(r), S(r.Uniform(10, 20))}; }},
      {"sl_count_3way", "HammerDB (district, order_line, stock)",
       "SELECT COUNT(DISTINCT s.s_i_id) FROM district d, order_line ol, stock s "
       "WHERE d.d_w_id = $1 AND d.d_id = $2 AND ol.ol_w_id = d.d_w_id AND ol.ol_d_id = d.d_id "
       "AND ol.ol_o_id < d.d_next_o_id AND ol.ol_o_id >= d.d_next_o_id - 20 "
       "AND s.s_w_id = ol.ol_w_id AND s.s_i_id = ol.ol_i_id AND s.s_quantity < $3",
       [](Random& r, int w) { return Params{W(r, w), D(r), S(r.Uniform(10, 20))}; }},
      // ---- The consistency conditions of clause 3.3.2, one warehouse each
      {"cc1_w_ytd", "3.3.2.1",
       "SELECT w_id, w_ytd, sum(d_ytd) FROM warehouse JOIN district ON d_w_id = w_id "
       "WHERE w_id = $1 GROUP BY w_id, w_ytd",
       [](Random& r, int w) { return Params{W(r, w)}; }},
      {"cc2_next_o_id", "3.3.2.2",
       "SELECT d_id, d_next_o_id - 1, max_o_id, max_no_o_id FROM district, "
       "(SELECT o_w_id, o_d_id, max(o_id) AS max_o_id FROM orders GROUP BY o_w_id, o_d_id) AS o, "
       "(SELECT no_w_id, no_d_id, max(no_o_id) AS max_no_o_id FROM new_order "
       "GROUP BY no_w_id, no_d_id) AS n WHERE d_w_id = $1 AND o_w_id = d_w_id AND o_d_id = d_id "
       "AND no_w_id = d_w_id AND no_d_id = d_id ORDER BY d_id",
       [](Random& r, int w) { return Params{W(r, w)}; }},
      {"cc3_new_order_span", "3.3.2.3",
       "SELECT no_d_id, max(no_o_id) - min(no_o_id) + 1, count(*) FROM new_order "
       "WHERE no_w_id = $1 GROUP BY no_w_id, no_d_id ORDER BY no_d_id",
       [](Random& r, int w) { return Params{W(r, w)}; }},
      {"cc4_ol_cnt_sum", "3.3.2.4",
       "SELECT o_d_id, sum(o_ol_cnt), lines FROM orders JOIN (SELECT ol_w_id, ol_d_id, "
       "count(*) AS lines FROM order_line GROUP BY ol_w_id, ol_d_id) AS l "
       "ON ol_w_id = o_w_id AND ol_d_id = o_d_id WHERE o_w_id = $1 "
       "GROUP BY o_w_id, o_d_id, lines ORDER BY o_d_id",
       [](Random& r, int w) { return Params{W(r, w)}; }},
      {"cc5_carrier_new_order", "3.3.2.5 (outer join)",
       "SELECT count(*), sum(CASE WHEN (o_carrier_id IS NULL) <> (no_o_id IS NOT NULL) "
       "THEN 1 ELSE 0 END) FROM orders LEFT JOIN new_order ON no_w_id = o_w_id "
       "AND no_d_id = o_d_id AND no_o_id = o_id WHERE o_w_id = $1",
       [](Random& r, int w) { return Params{W(r, w)}; }},
      {"cc6_ol_cnt", "3.3.2.6 (correlated count per order)",
       "SELECT count(*), sum(CASE WHEN o_ol_cnt = (SELECT count(*) FROM order_line "
       "WHERE ol_w_id = o_w_id AND ol_d_id = o_d_id AND ol_o_id = o_id) THEN 0 ELSE 1 END) "
       "FROM orders WHERE o_w_id = $1",
       [](Random& r, int w) { return Params{W(r, w)}; }},
      {"cc7_delivery_d", "3.3.2.7",
       "SELECT count(*), sum(CASE WHEN (ol_delivery_d IS NULL) = (o_carrier_id IS NULL) "
       "THEN 0 ELSE 1 END) FROM order_line JOIN orders ON o_w_id = ol_w_id "
       "AND o_d_id = ol_d_id AND o_id = ol_o_id WHERE ol_w_id = $1",
       [](Random& r, int w) { return Params{W(r, w)}; }},
      {"cc8_w_history", "3.3.2.8",
       "SELECT w_id, w_ytd, sum(h_amount) FROM warehouse, history WHERE h_w_id = w_id "
       "AND w_id = $1 GROUP BY w_id, w_ytd",
       [](Random& r, int w) { return Params{W(r, w)}; }},
      {"cc9_d_history", "3.3.2.9",
       "SELECT d_id, d_ytd, sum(h_amount) FROM district JOIN history ON h_w_id = d_w_id "
       "AND h_d_id = d_id WHERE d_w_id = $1 GROUP BY d_w_id, d_id, d_ytd ORDER BY d_id",
       [](Random& r, int w) { return Params{W(r, w)}; }},
      {"cc10_balance", "3.3.2.10 (grouped derived tables)",
       "SELECT count(*) FROM customer "
       "LEFT JOIN (SELECT o_w_id, o_d_id, o_c_id, sum(ol_amount) AS delivered FROM orders "
       "JOIN order_line ON ol_w_id = o_w_id AND ol_d_id = o_d_id AND ol_o_id = o_id "
       "WHERE o_w_id = $1 AND ol_delivery_d IS NOT NULL GROUP BY o_w_id, o_d_id, o_c_id) AS dl "
       "ON o_w_id = c_w_id AND o_d_id = c_d_id AND o_c_id = c_id "
       "LEFT JOIN (SELECT h_c_w_id, h_c_d_id, h_c_id, sum(h_amount) AS paid FROM history "
       "WHERE h_c_w_id = $1 GROUP BY h_c_w_id, h_c_d_id, h_c_id) AS h "
       "ON h_c_w_id = c_w_id AND h_c_d_id = c_d_id AND h_c_id = c_id "
       "WHERE c_w_id = $1 AND c_balance <> coalesce(delivered, 0) - coalesce(paid, 0)",
       [](Random& r, int w) { return Params{W(r, w)}; }},
      {"cc11_undelivered", "3.3.2.11 (correlated counts per district)",
       "SELECT d_id, (SELECT count(*) FROM orders WHERE o_w_id = d_w_id AND o_d_id = d_id) - "
       "(SELECT count(*) FROM new_order WHERE no_w_id = d_w_id AND no_d_id = d_id) "
       "FROM district WHERE d_w_id = $1 ORDER BY d_id",
       [](Random& r, int w) { return Params{W(r, w)}; }},
      {"cc12_delivered", "3.3.2.12 (correlated sum per customer, issue 16)",
       "SELECT count(*) FROM customer WHERE c_w_id = $1 AND c_balance + c_ytd_payment <> "
       "(SELECT coalesce(sum(ol_amount), 0) FROM orders, order_line WHERE ol_w_id = o_w_id "
       "AND ol_d_id = o_d_id AND ol_o_id = o_id AND o_w_id = c_w_id AND o_d_id = c_d_id "
       "AND o_c_id = c_id AND ol_delivery_d IS NOT NULL)",
       [](Random& r, int w) { return Params{W(r, w)}; }},
  };
  return v;
}

double Percentile(std::vector<double> sorted, double p) {
  if (sorted.empty()) return 0;
  size_t k = static_cast<size_t>(p * static_cast<double>(sorted.size() - 1) + 0.5);
  return sorted[std::min(k, sorted.size() - 1)];
}

std::string FirstLine(const std::string& s) { return s.substr(0, s.find('\n')); }

StatementResult Measure(Session& s, const BenchStatement& st, int nparams, const Options& o,
                        Random& rnd) {
  StatementResult out;
  out.name = st.name;
  try {
    s.Prepare(st.name, st.sql, nparams);
  } catch (const DbError& e) {
    out.error = e.sqlstate() + " " + FirstLine(e.what());
    return out;
  }
  std::vector<double> us;
  Params first;
  using Clock = std::chrono::steady_clock;
  const Clock::time_point start = Clock::now();
  // One untimed warm-up execution (caches, a server's first plans), then up to --executions
  // timed ones within --statement-seconds.
  for (int i = 0; i <= o.executions; ++i) {
    Params p = st.params(rnd, o.warehouses);
    if (i == 0) first = p;
    s.Exec("BEGIN");
    Clock::time_point t0 = Clock::now();
    try {
      Rows rows = s.Run(st.name, p);
      double took = std::chrono::duration<double, std::micro>(Clock::now() - t0).count();
      if (i == 0) out.rows = rows.affected;
      if (i > 0 || took > o.statement_seconds * 1e6) us.push_back(took);
    } catch (const DbError& e) {
      if (e.connection_lost()) throw;
      if (e.sqlstate() == "57014") {
        out.timed_out = true;
        us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
      }
      else if (out.error.empty()) out.error = e.sqlstate() + " " + FirstLine(e.what());
    }
    s.Exec("ROLLBACK");
    if (out.timed_out || !out.error.empty()) break;
    if (std::chrono::duration<double>(Clock::now() - start).count() > o.statement_seconds) break;
  }
  std::sort(us.begin(), us.end());
  out.executions = static_cast<int>(us.size());
  out.median_us = Percentile(us, 0.5);
  out.p95_us = Percentile(us, 0.95);
  out.max_us = us.empty() ? 0 : us.back();
  // The plan for the first execution's parameters: EXPLAIN prepared with the same $n.
  if (out.error.empty()) {
    try {
      s.Prepare("explain_" + st.name, "EXPLAIN " + st.sql, nparams);
      Rows plan = s.Run("explain_" + st.name, first);
      for (size_t r = 0; r < plan.size(); ++r) out.plan += (r > 0 ? "\n" : "") + plan.text(r, 0);
    } catch (const DbError& e) {
      if (e.connection_lost()) throw;
      out.plan = "(EXPLAIN failed: " + e.sqlstate() + " " + FirstLine(e.what()) + ")";
    }
  }
  return out;
}

// The highest $n in sql.
int CountParams(const std::string& sql) {
  int n = 0;
  for (size_t i = 0; i + 1 < sql.size(); ++i) {
    if (sql[i] != '$') continue;
    int v = 0;
    size_t j = i + 1;
    while (j < sql.size() && sql[j] >= '0' && sql[j] <= '9') v = v * 10 + (sql[j++] - '0');
    n = std::max(n, v);
  }
  return n;
}

bool WriteResults(const std::vector<StatementResult>& results, const Options& o) {
  std::ofstream f(o.json_path);
  f << "{\"warehouses\": " << o.warehouses << ", \"statements\": [\n";
  for (size_t i = 0; i < results.size(); ++i) {
    const StatementResult& r = results[i];
    const BenchStatement* st = nullptr;
    for (const BenchStatement& b : BenchStatements())
      if (b.name == r.name) st = &b;
    f << "  {\"name\": " << JsonString(r.name) << ", \"kit\": " << JsonString(st->kit)
      << ", \"sql\": " << JsonString(st->sql) << ", \"executions\": " << r.executions
      << ", \"median_us\": " << r.median_us << ", \"p95_us\": " << r.p95_us
      << ", \"max_us\": " << r.max_us << ", \"rows\": " << r.rows
      << ", \"timed_out\": " << (r.timed_out ? "true" : "false")
      << ", \"error\": " << JsonString(r.error) << ", \"plan\": " << JsonString(r.plan) << "}"
      << (i + 1 < results.size() ? ",\n" : "\n");
  }
  f << "]}\n";
  return static_cast<bool>(f);
}

}  // namespace

const std::vector<BenchStatement>& BenchStatements() {
  static const std::vector<BenchStatement> kAll = MakeStatements();
  return kAll;
}

int RunStatementBench(const Options& o) {
  // Every transaction statement of statements.h is measured (a new one needs its generator).
  for (const StatementDef& def : kStatements) {
    bool listed = false;
    for (const BenchStatement& st : BenchStatements()) listed |= st.name == def.name;
    if (!listed) {
      std::fprintf(stderr, "statements: %s of statements.h has no entry\n", def.name);
      return 1;
    }
  }
  auto session = Connect(o.conn);
  session->Exec("SET statement_timeout = " +
                std::to_string(static_cast<long long>(o.statement_timeout * 1000)));
  Random rnd(o.seed, RunConstants(o.seed));
  std::vector<StatementResult> results;
  int failed = 0;
  std::printf("%-22s %6s %12s %12s %8s  %s\n", "statement", "n", "median us", "p95 us", "rows",
              "note");
  for (const BenchStatement& st : BenchStatements()) {
    if (!o.statement_filter.empty() && st.name.find(o.statement_filter) == std::string::npos)
      continue;
    StatementResult r = Measure(*session, st, CountParams(st.sql), o, rnd);
    if (!r.error.empty()) ++failed;
    std::printf("%-22s %6d %12.0f %12.0f %8lld  %s\n", r.name.c_str(), r.executions, r.median_us,
                r.p95_us, r.rows,
                !r.error.empty() ? ("ERROR " + r.error).c_str()
                                 : r.timed_out ? "statement_timeout" : "");
    std::fflush(stdout);
    results.push_back(std::move(r));
  }
  if (!o.json_path.empty() && !WriteResults(results, o)) {
    std::fprintf(stderr, "statements: cannot write %s\n", o.json_path.c_str());
    return failed + 1;
  }
  return failed;
}

}  // namespace tpcc
