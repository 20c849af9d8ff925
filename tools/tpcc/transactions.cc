// The five TPC-C transactions (transactions.h); their SQL is in statements.h.
#include "transactions.h"

#include <algorithm>

#include "statements.h"

namespace tpcc {
namespace {

constexpr int kUnusedItem = 100001;  // clause 2.4.1.5: an item id that does not exist

std::string S(int64_t v) { return std::to_string(v); }

int OtherWarehouse(Random& rnd, int warehouses, int w_id) {
  int other = static_cast<int>(rnd.Uniform(1, warehouses - 1));
  return other >= w_id ? other + 1 : other;
}

// The customer in position ceil(n/2) of rows sorted by c_first (clause 2.5.2.2).
int MiddleCustomer(const Rows& rows) {
  if (rows.empty()) throw DbError("P0002", "no customer with that last name", false);
  return static_cast<int>(rows.Int((rows.size() + 1) / 2 - 1, 0));
}

}  // namespace

const char* TxName(TxType type) {
  static const char* const kNames[] = {"New-Order", "Payment", "Order-Status", "Delivery",
                                       "Stock-Level"};
  return kNames[static_cast<int>(type)];
}

const char* TxKey(TxType type) {
  static const char* const kKeys[] = {"new_order", "payment", "order_status", "delivery",
                                      "stock_level"};
  return kKeys[static_cast<int>(type)];
}

std::string CentsText(int64_t cents) {
  std::string sign = cents < 0 ? "-" : "";
  int64_t a = cents < 0 ? -cents : cents;
  std::string frac = S(a % 100);
  if (frac.size() < 2) frac.insert(0, "0");
  return sign + S(a / 100) + "." + frac;
}

NewOrderInput GenerateNewOrder(Random& rnd, int warehouses, int w_id, int d_id) {
  NewOrderInput in{w_id, d_id, rnd.CustomerId(), {}, true};
  int count = static_cast<int>(rnd.Uniform(5, 15));
  bool rollback = rnd.Uniform(1, 100) == 1;
  for (int i = 0; i < count; ++i) {
    NewOrderInput::Line line{rnd.ItemId(), w_id, static_cast<int>(rnd.Uniform(1, 10))};
    if (warehouses > 1 && rnd.Uniform(1, 100) == 1) {
      line.supply_w_id = OtherWarehouse(rnd, warehouses, w_id);
      in.all_local = false;
    }
    in.lines.push_back(line);
  }
  std::sort(in.lines.begin(), in.lines.end(), [](const auto& a, const auto& b) {
    return a.supply_w_id != b.supply_w_id ? a.supply_w_id < b.supply_w_id : a.i_id < b.i_id;
  });
  if (rollback) in.lines.back().i_id = kUnusedItem;  // the last item, as the spec says
  return in;
}

PaymentInput GeneratePayment(Random& rnd, int warehouses, int w_id, int d_id) {
  PaymentInput in{w_id, d_id, w_id, d_id, false, 0, "", rnd.Uniform(100, 500000)};
  if (warehouses > 1 && rnd.Uniform(1, 100) > 85) {
    in.c_d_id = static_cast<int>(rnd.Uniform(1, 10));
    in.c_w_id = OtherWarehouse(rnd, warehouses, w_id);
  }
  in.by_name = rnd.Uniform(1, 100) <= 60;
  if (in.by_name) in.c_last = rnd.CustomerLastName();
  else in.c_id = rnd.CustomerId();
  return in;
}

OrderStatusInput GenerateOrderStatus(Random& rnd, int w_id, int d_id) {
  OrderStatusInput in{w_id, d_id, rnd.Uniform(1, 100) <= 60, 0, ""};
  if (in.by_name) in.c_last = rnd.CustomerLastName();
  else in.c_id = rnd.CustomerId();
  return in;
}

DeliveryInput GenerateDelivery(Random& rnd, int w_id) {
  return {w_id, static_cast<int>(rnd.Uniform(1, 10))};
}

StockLevelInput GenerateStockLevel(Random& rnd, int w_id, int d_id) {
  return {w_id, d_id, static_cast<int>(rnd.Uniform(10, 20))};
}

void Transactions::PrepareAll() {
  for (const StatementDef& def : kStatements) s_.Prepare(def.name, def.sql, def.nparams);
}

bool Transactions::ExecuteNewOrder(const NewOrderInput& in) {
  const std::string w = S(in.w_id), d = S(in.d_id), c = S(in.c_id);
  s_.Exec(begin_);
  Rows cust = Run("no_cust", {w, d, c});
  if (cust.empty()) throw DbError("P0002", "New-Order: no customer " + c, false);
  Rows dist = Run("no_dist", {w, d});
  if (dist.empty()) throw DbError("P0002", "New-Order: no district " + d, false);
  const std::string o_id = dist.text(0, 0);
  Run("no_dist_upd", {w, d});
  Run("no_ord_ins", {o_id, d, w, c, S(static_cast<int64_t>(in.lines.size())),
                     in.all_local ? "1" : "0"});
  Run("no_no_ins", {o_id, d, w});
  int number = 0;
  for (const NewOrderInput::Line& line : in.lines) {
    ++number;
    const std::string i = S(line.i_id), sw = S(line.supply_w_id);
    Rows item = Run("no_item", {i});
    if (item.empty()) {  // the unused item: the whole order is rolled back
      s_.Exec("ROLLBACK");
      return false;
    }
    Rows stock = Run("no_stock", {sw, i});
    if (stock.empty()) throw DbError("P0002", "New-Order: no stock " + sw + "/" + i, false);
    int64_t quantity = stock.Int(0, 0);
    quantity = quantity >= line.quantity + 10 ? quantity - line.quantity
                                              : quantity - line.quantity + 91;
    Run("no_stock_upd", {S(quantity), S(line.quantity),
                         line.supply_w_id != in.w_id ? "1" : "0", sw, i});
    int64_t amount = item.Cents(0, 0) * line.quantity;
    Run("no_ol_ins", {o_id, d, w, S(number), i, sw, S(line.quantity), CentsText(amount),
                      stock.text(0, 1 + static_cast<size_t>(in.d_id))});
  }
  s_.Exec("COMMIT");
  return true;
}

bool Transactions::ExecutePayment(const PaymentInput& in) {
  const std::string w = S(in.w_id), d = S(in.d_id), cw = S(in.c_w_id), cd = S(in.c_d_id);
  const std::string amount = CentsText(in.amount_cents);
  s_.Exec(begin_);
  Run("pay_w_upd", {amount, w});
  Rows wh = Run("pay_w_sel", {w});
  Run("pay_d_upd", {amount, w, d});
  Rows di = Run("pay_d_sel", {w, d});
  if (wh.empty() || di.empty()) throw DbError("P0002", "Payment: no warehouse/district", false);
  int c_id = in.by_name ? MiddleCustomer(Run("cust_by_name", {cw, cd, in.c_last})) : in.c_id;
  const std::string c = S(c_id);
  Rows cust = Run("pay_c_sel", {cw, cd, c});
  if (cust.empty()) throw DbError("P0002", "Payment: no customer " + c, false);
  if (cust.text(0, 10) == "BC") {
    Rows data = Run("pay_c_data", {cw, cd, c});
    std::string c_data = c + " " + cd + " " + cw + " " + d + " " + w + " " + amount + " | " +
                         data.text(0, 0);
    if (c_data.size() > 500) c_data.resize(500);
    Run("pay_c_upd_bc", {amount, amount, c_data, cw, cd, c});
  } else {
    Run("pay_c_upd", {amount, amount, cw, cd, c});
  }
  std::string h_data = wh.text(0, 0) + "    " + di.text(0, 0);
  Run("pay_h_ins", {c, cd, cw, d, w, amount, h_data});
  s_.Exec("COMMIT");
  return true;
}

bool Transactions::ExecuteOrderStatus(const OrderStatusInput& in) {
  const std::string w = S(in.w_id), d = S(in.d_id);
  s_.Exec(begin_);
  int c_id = in.by_name ? MiddleCustomer(Run("cust_by_name", {w, d, in.c_last})) : in.c_id;
  const std::string c = S(c_id);
  Rows cust = Run("os_c_by_id", {w, d, c});
  if (cust.empty()) throw DbError("P0002", "Order-Status: no customer " + c, false);
  Rows order = Run("os_last_order", {w, d, c});
  if (!order.empty()) Run("os_lines", {w, d, order.text(0, 0)});
  s_.Exec("COMMIT");
  return true;
}

bool Transactions::ExecuteDelivery(const DeliveryInput& in) {
  const std::string w = S(in.w_id), carrier = S(in.carrier_id);
  s_.Exec(begin_);
  for (int district = 1; district <= 10; ++district) {
    const std::string d = S(district);
    Rows no = Run("dl_no_min", {w, d});
    if (no.empty()) continue;  // no undelivered order in this district
    const std::string o_id = no.text(0, 0);
    if (Run("dl_no_del", {w, d, o_id}).affected == 0) continue;  // delivered by another terminal
    Rows order = Run("dl_o_cid", {w, d, o_id});
    if (order.empty()) throw DbError("P0002", "Delivery: no order " + o_id, false);
    Run("dl_o_upd", {carrier, w, d, o_id});
    Run("dl_ol_upd", {w, d, o_id});
    Rows sum = Run("dl_ol_sum", {w, d, o_id});
    std::string total = sum.empty() || sum.is_null(0, 0) ? "0" : sum.text(0, 0);
    Run("dl_c_upd", {total, w, d, order.text(0, 0)});
  }
  s_.Exec("COMMIT");
  return true;
}

bool Transactions::ExecuteStockLevel(const StockLevelInput& in) {
  const std::string w = S(in.w_id), d = S(in.d_id);
  s_.Exec(begin_);
  Rows next = Run("sl_next", {w, d});
  if (next.empty()) throw DbError("P0002", "Stock-Level: no district " + d, false);
  int64_t o = next.Int(0, 0);
  Run("sl_count", {w, d, S(o), S(o - 20), w, S(in.threshold)});
  s_.Exec("COMMIT");
  return true;
}

}  // namespace tpcc
