// The five TPC-C transactions of clause 2 as prepared statements on one Session: inputs are
// drawn first (Generate*, fixed across retries), then Execute* runs one attempt inside
// BEGIN ... COMMIT and throws DbError when a statement fails (the caller rolls back and decides
// whether to retry). The SQL is ordinary and runs unchanged on PostgreSQL 15.
#pragma once

#include <string>
#include <vector>

#include "random.h"
#include "session.h"

namespace tpcc {

enum class TxType { kNewOrder = 0, kPayment, kOrderStatus, kDelivery, kStockLevel };
inline constexpr int kTxTypes = 5;
const char* TxName(TxType type);   // "New-Order", ...
const char* TxKey(TxType type);    // "new_order", ... (JSON keys)

struct NewOrderInput {
  struct Line { int i_id; int supply_w_id; int quantity; };
  int w_id, d_id, c_id;
  std::vector<Line> lines;  // sorted by (supply warehouse, item) so stock rows lock in order
  bool all_local;
};
struct PaymentInput {
  int w_id, d_id, c_w_id, c_d_id;
  bool by_name;
  int c_id;
  std::string c_last;
  int64_t amount_cents;
};
struct OrderStatusInput {
  int w_id, d_id;
  bool by_name;
  int c_id;
  std::string c_last;
};
struct DeliveryInput { int w_id, carrier_id; };
struct StockLevelInput { int w_id, d_id, threshold; };

// Inputs per clause 2.4.1, 2.5.1, 2.6.1, 2.7.1 and 2.8.1 for a terminal at (w_id, d_id).
NewOrderInput GenerateNewOrder(Random& rnd, int warehouses, int w_id, int d_id);
PaymentInput GeneratePayment(Random& rnd, int warehouses, int w_id, int d_id);
OrderStatusInput GenerateOrderStatus(Random& rnd, int w_id, int d_id);
DeliveryInput GenerateDelivery(Random& rnd, int w_id);
StockLevelInput GenerateStockLevel(Random& rnd, int w_id, int d_id);

class Transactions {
 public:
  // begin_sql: "BEGIN" or "BEGIN ISOLATION LEVEL ...".
  Transactions(Session& session, std::string begin_sql)
      : s_(session), begin_(std::move(begin_sql)) {}
  // Prepares every statement of the five transactions in the session.
  void PrepareAll();

  // Each returns true when it committed; ExecuteNewOrder returns false when it rolled back
  // on the unused item (clause 2.4.2.3).
  bool ExecuteNewOrder(const NewOrderInput& in);
  bool ExecutePayment(const PaymentInput& in);
  bool ExecuteOrderStatus(const OrderStatusInput& in);
  bool ExecuteDelivery(const DeliveryInput& in);
  bool ExecuteStockLevel(const StockLevelInput& in);

 private:
  Rows Run(const char* name, const std::vector<std::string>& params) {
    return s_.Run(name, params);
  }
  Session& s_;
  std::string begin_;
};

// "123.45" for 12345 cents.
std::string CentsText(int64_t cents);

}  // namespace tpcc
