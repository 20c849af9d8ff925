// The SQL of the five transactions, one prepared statement each (name, text, parameter count).
// Kept in one table so the README, PostgreSQL and Meridian see the very same statements.
#pragma once

namespace tpcc {

struct StatementDef {
  const char* name;
  const char* sql;
  int nparams;
};

inline constexpr StatementDef kStatements[] = {
    // New-Order (clause 2.4.2)
    {"no_cust",
     "SELECT c_discount, c_last, c_credit, w_tax FROM customer, warehouse "
     "WHERE w_id = $1 AND c_w_id = w_id AND c_d_id = $2 AND c_id = $3", 3},
    {"no_dist",
     "SELECT d_next_o_id, d_tax FROM district WHERE d_w_id = $1 AND d_id = $2 FOR UPDATE", 2},
    {"no_dist_upd",
     "UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = $1 AND d_id = $2", 2},
    {"no_ord_ins",
     "INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, "
     "o_all_local) VALUES ($1, $2, $3, $4, CURRENT_TIMESTAMP, NULL, $5, $6)", 6},
    {"no_no_ins", "INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES ($1, $2, $3)", 3},
    {"no_item", "SELECT i_price, i_name, i_data FROM item WHERE i_id = $1", 1},
    {"no_stock",
     "SELECT s_quantity, s_data, s_dist_01, s_dist_02, s_dist_03, s_dist_04, s_dist_05, "
     "s_dist_06, s_dist_07, s_dist_08, s_dist_09, s_dist_10 FROM stock "
     "WHERE s_w_id = $1 AND s_i_id = $2 FOR UPDATE", 2},
    {"no_stock_upd",
     "UPDATE stock SET s_quantity = $1, s_ytd = s_ytd + $2, s_order_cnt = s_order_cnt + 1, "
     "s_remote_cnt = s_remote_cnt + $3 WHERE s_w_id = $4 AND s_i_id = $5", 5},
    {"no_ol_ins",
     "INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, "
     "ol_delivery_d, ol_quantity, ol_amount, ol_dist_info) "
     "VALUES ($1, $2, $3, $4, $5, $6, NULL, $7, $8, $9)", 9},
    // Payment (clause 2.5.2)
    {"pay_w_upd", "UPDATE warehouse SET w_ytd = w_ytd + $1 WHERE w_id = $2", 2},
    {"pay_w_sel",
     "SELECT w_name, w_street_1, w_street_2, w_city, w_state, w_zip FROM warehouse "
     "WHERE w_id = $1", 1},
    {"pay_d_upd", "UPDATE district SET d_ytd = d_ytd + $1 WHERE d_w_id = $2 AND d_id = $3", 3},
    {"pay_d_sel",
     "SELECT d_name, d_street_1, d_street_2, d_city, d_state, d_zip FROM district "
     "WHERE d_w_id = $1 AND d_id = $2", 2},
    {"cust_by_name",
     "SELECT c_id FROM customer WHERE c_w_id = $1 AND c_d_id = $2 AND c_last = $3 "
     "ORDER BY c_first", 3},
    {"pay_c_sel",
     "SELECT c_first, c_middle, c_last, c_street_1, c_street_2, c_city, c_state, c_zip, "
     "c_phone, c_since, c_credit, c_credit_lim, c_discount, c_balance FROM customer "
     "WHERE c_w_id = $1 AND c_d_id = $2 AND c_id = $3 FOR UPDATE", 3},
    {"pay_c_data",
     "SELECT c_data FROM customer WHERE c_w_id = $1 AND c_d_id = $2 AND c_id = $3", 3},
    {"pay_c_upd",
     "UPDATE customer SET c_balance = c_balance - $1, c_ytd_payment = c_ytd_payment + $2, "
     "c_payment_cnt = c_payment_cnt + 1 WHERE c_w_id = $3 AND c_d_id = $4 AND c_id = $5", 5},
    {"pay_c_upd_bc",
     "UPDATE customer SET c_balance = c_balance - $1, c_ytd_payment = c_ytd_payment + $2, "
     "c_payment_cnt = c_payment_cnt + 1, c_data = $3 "
     "WHERE c_w_id = $4 AND c_d_id = $5 AND c_id = $6", 6},
    {"pay_h_ins",
     "INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, "
     "h_data) VALUES ($1, $2, $3, $4, $5, CURRENT_TIMESTAMP, $6, $7)", 7},
    // Order-Status (clause 2.6.2)
    {"os_c_by_id",
     "SELECT c_balance, c_first, c_middle, c_last FROM customer "
     "WHERE c_w_id = $1 AND c_d_id = $2 AND c_id = $3", 3},
    {"os_last_order",
     "SELECT o_id, o_entry_d, o_carrier_id FROM orders "
     "WHERE o_w_id = $1 AND o_d_id = $2 AND o_c_id = $3 ORDER BY o_id DESC LIMIT 1", 3},
    {"os_lines",
     "SELECT ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d FROM order_line "
     "WHERE ol_w_id = $1 AND ol_d_id = $2 AND ol_o_id = $3", 3},
    // Delivery (clause 2.7.4)
    {"dl_no_min",
     "SELECT no_o_id FROM new_order WHERE no_w_id = $1 AND no_d_id = $2 "
     "ORDER BY no_o_id LIMIT 1", 2},
    {"dl_no_del",
     "DELETE FROM new_order WHERE no_w_id = $1 AND no_d_id = $2 AND no_o_id = $3", 3},
    {"dl_o_cid", "SELECT o_c_id FROM orders WHERE o_w_id = $1 AND o_d_id = $2 AND o_id = $3", 3},
    {"dl_o_upd",
     "UPDATE orders SET o_carrier_id = $1 WHERE o_w_id = $2 AND o_d_id = $3 AND o_id = $4", 4},
    {"dl_ol_upd",
     "UPDATE order_line SET ol_delivery_d = CURRENT_TIMESTAMP "
     "WHERE ol_w_id = $1 AND ol_d_id = $2 AND ol_o_id = $3", 3},
    {"dl_ol_sum",
     "SELECT SUM(ol_amount) FROM order_line "
     "WHERE ol_w_id = $1 AND ol_d_id = $2 AND ol_o_id = $3", 3},
    {"dl_c_upd",
     "UPDATE customer SET c_balance = c_balance + $1, c_delivery_cnt = c_delivery_cnt + 1 "
     "WHERE c_w_id = $2 AND c_d_id = $3 AND c_id = $4", 4},
    // Stock-Level (clause 2.8.2)
    {"sl_next", "SELECT d_next_o_id FROM district WHERE d_w_id = $1 AND d_id = $2", 2},
    {"sl_count",
     "SELECT COUNT(DISTINCT s_i_id) FROM order_line, stock "
     "WHERE ol_w_id = $1 AND ol_d_id = $2 AND ol_o_id < $3 AND ol_o_id >= $4 "
     "AND s_w_id = $5 AND s_i_id = ol_i_id AND s_quantity < $6", 6},
};

}  // namespace tpcc
