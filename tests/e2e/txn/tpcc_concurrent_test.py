# TPC-C New-Order, Payment and Delivery from several concurrent psycopg sessions (half READ
# COMMITTED, half REPEATABLE READ), written as the common kits send them (BEGIN, SELECT ... FOR
# UPDATE, parameters bound server-side, COMMIT), against one small warehouse. 40001 and 40P01
# are retried and counted; any other error fails the test. Afterwards the consistency
# conditions of TPC-C clause 3.3.2 must hold, and the database must agree with what the clients
# committed (orders, payments, deliveries, money). See README.md for the settings.
import random
import sys
import threading
import time
import unittest
from decimal import Decimal

import psycopg

from txn_server import Server, env_int

RETRIED = ("40001", "40P01")
DISTRICTS = 2
CUSTOMERS = 12  # per district; last names repeat, so Payment by name meets 1-4 customers
ITEMS = 30
LAST_NAMES = ["BARBARBAR", "OUGHTABLE", "ABLEPRI", "PRESESE"]

SCHEMA = [
    "DROP TABLE IF EXISTS warehouse, district, customer, history, new_order, orders, order_line, "
    "item, stock",
    """CREATE TABLE warehouse (w_id INTEGER NOT NULL PRIMARY KEY, w_name VARCHAR(10),
       w_street_1 VARCHAR(20), w_city VARCHAR(20), w_state CHAR(2), w_zip CHAR(9),
       w_tax NUMERIC(4,4), w_ytd NUMERIC(12,2))""",
    """CREATE TABLE district (d_id INTEGER NOT NULL, d_w_id INTEGER NOT NULL, d_name VARCHAR(10),
       d_tax NUMERIC(4,4), d_ytd NUMERIC(12,2), d_next_o_id INTEGER,
       PRIMARY KEY (d_w_id, d_id))""",
    """CREATE TABLE customer (c_id INTEGER NOT NULL, c_d_id INTEGER NOT NULL,
       c_w_id INTEGER NOT NULL, c_first VARCHAR(16), c_middle CHAR(2), c_last VARCHAR(16),
       c_since TIMESTAMP, c_credit CHAR(2), c_credit_lim NUMERIC(12,2), c_discount NUMERIC(4,4),
       c_balance NUMERIC(12,2), c_ytd_payment NUMERIC(12,2), c_payment_cnt NUMERIC(4),
       c_delivery_cnt NUMERIC(4), c_data VARCHAR(500), PRIMARY KEY (c_w_id, c_d_id, c_id))""",
    "CREATE INDEX customer_name ON customer (c_w_id, c_d_id, c_last, c_first)",
    """CREATE TABLE history (h_c_id INTEGER, h_c_d_id INTEGER, h_c_w_id INTEGER, h_d_id INTEGER,
       h_w_id INTEGER, h_date TIMESTAMP, h_amount NUMERIC(6,2), h_data VARCHAR(24))""",
    """CREATE TABLE new_order (no_o_id INTEGER NOT NULL, no_d_id INTEGER NOT NULL,
       no_w_id INTEGER NOT NULL, PRIMARY KEY (no_w_id, no_d_id, no_o_id))""",
    """CREATE TABLE orders (o_id INTEGER NOT NULL, o_d_id INTEGER NOT NULL,
       o_w_id INTEGER NOT NULL, o_c_id INTEGER, o_entry_d TIMESTAMP, o_carrier_id INTEGER,
       o_ol_cnt NUMERIC(2), o_all_local NUMERIC(1), PRIMARY KEY (o_w_id, o_d_id, o_id))""",
    "CREATE UNIQUE INDEX orders_customer ON orders (o_w_id, o_d_id, o_c_id, o_id)",
    """CREATE TABLE order_line (ol_o_id INTEGER NOT NULL, ol_d_id INTEGER NOT NULL,
       ol_w_id INTEGER NOT NULL, ol_number INTEGER NOT NULL, ol_i_id INTEGER,
       ol_supply_w_id INTEGER, ol_delivery_d TIMESTAMP, ol_quantity NUMERIC(2),
       ol_amount NUMERIC(6,2), ol_dist_info CHAR(24),
       PRIMARY KEY (ol_w_id, ol_d_id, ol_o_id, ol_number))""",
    """CREATE TABLE item (i_id INTEGER NOT NULL PRIMARY KEY, i_im_id INTEGER, i_name VARCHAR(24),
       i_price NUMERIC(5,2), i_data VARCHAR(50))""",
    """CREATE TABLE stock (s_i_id INTEGER NOT NULL, s_w_id INTEGER NOT NULL,
       s_quantity NUMERIC(4), s_dist_01 CHAR(24), s_dist_02 CHAR(24), s_ytd NUMERIC(8),
       s_order_cnt NUMERIC(4), s_remote_cnt NUMERIC(4), s_data VARCHAR(50),
       PRIMARY KEY (s_w_id, s_i_id))""",
]


def load(conn):
    """One warehouse, DISTRICTS districts of CUSTOMERS customers who have each paid 10.00 once
    (the initial state of clause 4.3.3.1 in miniature), ITEMS items in stock, no orders yet."""
    for sql in SCHEMA:
        conn.execute(sql)
    conn.execute("INSERT INTO warehouse VALUES (1, 'W-One', '1 Main St', 'Springfield', 'IL', "
                 "'123451111', 0.0825, %s)", (Decimal("10.00") * DISTRICTS * CUSTOMERS,))
    for d in range(1, DISTRICTS + 1):
        conn.execute("INSERT INTO district VALUES (%s, 1, %s, %s, %s, 1)",
                     (d, f"D{d}", Decimal(d) / 100, Decimal("10.00") * CUSTOMERS))
        for c in range(1, CUSTOMERS + 1):
            conn.execute(
                "INSERT INTO customer VALUES (%s, %s, 1, %s, 'OE', %s, '2024-01-01 09:00:00', %s,"
                " 50000.00, %s, -10.00, 10.00, 1, 0, %s)",
                (c, d, f"First{c:02d}", LAST_NAMES[c % len(LAST_NAMES)],
                 "BC" if c % 3 == 0 else "GC", Decimal(c) / 100, f"customer {c} of {d}"))
    conn.execute("INSERT INTO history SELECT c_id, c_d_id, c_w_id, c_d_id, c_w_id, c_since, "
                 "10.00, 'initial' FROM customer")
    for i in range(1, ITEMS + 1):
        conn.execute("INSERT INTO item VALUES (%s, %s, %s, %s, %s)",
                     (i, i, f"item {i}", Decimal(i * 37 % 9900 + 100) / 100,
                      "ORIGINAL item" if i % 5 == 0 else "item data"))
        conn.execute("INSERT INTO stock VALUES (%s, 1, %s, %s, %s, 0, 0, 0, %s)",
                     (i, 10 + i % 90, f"S{i}D1".ljust(24, "x"), f"S{i}D2".ljust(24, "x"),
                      "ORIGINAL stock" if i % 2 == 0 else "stock"))


class Tally:
    """What the clients saw committed, and the retries and failures, shared by the workers."""

    def __init__(self):
        self.lock = threading.Lock()
        self.committed = {"new_order": 0, "payment": 0, "delivery": 0}
        self.rolled_back = 0
        self.order_lines = 0
        self.paid = Decimal("0.00")
        self.retries = {s: 0 for s in RETRIED}
        self.failures = []

    def add(self, **kw):
        with self.lock:
            for key, value in kw.items():
                if key in self.committed:
                    self.committed[key] += value
                else:
                    setattr(self, key, getattr(self, key) + value)


class Rollback(Exception):
    """New-Order's unused item: the transaction is rolled back on purpose."""


class Worker(threading.Thread):
    def __init__(self, conninfo, tally, deadline, seed, repeatable_read):
        super().__init__(daemon=True)
        self.conninfo = conninfo
        self.tally = tally
        self.deadline = deadline
        self.rng = random.Random(seed)
        self.begin = "BEGIN ISOLATION LEVEL REPEATABLE READ" if repeatable_read else "BEGIN"

    def run(self):
        try:
            with psycopg.connect(self.conninfo, autocommit=True) as conn:
                while time.monotonic() < self.deadline:
                    r = self.rng.random()
                    if r < 0.48:
                        self.attempt(conn, "new_order", self.new_order)
                    elif r < 0.93:
                        self.attempt(conn, "payment", self.payment)
                    else:
                        self.attempt(conn, "delivery", self.delivery)
        except Exception as e:  # noqa: BLE001 - reported by the test
            with self.tally.lock:
                self.tally.failures.append(f"{self.name}: {type(e).__name__}: {e}")

    def attempt(self, conn, kind, body):
        args = body(None)  # the transaction's random inputs, fixed across its retries
        while True:
            try:
                conn.execute(self.begin)
                effect = body(args, conn)
                conn.execute("COMMIT")
                self.tally.add(**{kind: 1}, **effect)
                return
            except Rollback:
                conn.execute("ROLLBACK")
                self.tally.add(rolled_back=1)
                return
            except psycopg.Error as e:
                state = e.sqlstate
                conn.execute("ROLLBACK")
                if state not in RETRIED:
                    raise
                with self.tally.lock:
                    self.tally.retries[state] += 1

    def new_order(self, args, conn=None):
        if conn is None:
            lines = self.rng.randint(2, 6)
            items = self.rng.sample(range(1, ITEMS + 1), lines)
            if self.rng.random() < 0.05:
                items[-1] = ITEMS + 1000  # unused item: rolled back
            return (self.rng.randint(1, DISTRICTS), self.rng.randint(1, CUSTOMERS), items,
                    [self.rng.randint(1, 10) for _ in items])
        d, c, items, quantities = args
        conn.execute("SELECT c_discount, c_last, c_credit, w_tax FROM customer, warehouse "
                     "WHERE w_id = 1 AND c_w_id = w_id AND c_d_id = %s AND c_id = %s",
                     (d, c)).fetchone()
        o_id, _ = conn.execute("SELECT d_next_o_id, d_tax FROM district "
                               "WHERE d_w_id = 1 AND d_id = %s FOR UPDATE", (d,)).fetchone()
        conn.execute("UPDATE district SET d_next_o_id = d_next_o_id + 1 "
                     "WHERE d_w_id = 1 AND d_id = %s", (d,))
        conn.execute("INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, "
                     "o_ol_cnt, o_all_local) VALUES (%s, %s, 1, %s, CURRENT_TIMESTAMP, NULL, %s, 1)",
                     (o_id, d, c, len(items)))
        conn.execute("INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (%s, %s, 1)",
                     (o_id, d))
        for number, (i, q) in enumerate(zip(items, quantities), start=1):
            if conn.execute("SELECT i_price, i_name, i_data FROM item WHERE i_id = %s",
                            (i,)).fetchone() is None:
                raise Rollback()
            s_quantity, = conn.execute(
                f"SELECT s_quantity, s_data, s_dist_{d:02d} FROM stock "
                "WHERE s_i_id = %s AND s_w_id = 1 FOR UPDATE", (i,)).fetchone()[:1]
            new_quantity = s_quantity - q if s_quantity >= q + 10 else s_quantity - q + 91
            conn.execute("UPDATE stock SET s_quantity = %s, s_ytd = s_ytd + %s, "
                         "s_order_cnt = s_order_cnt + 1 WHERE s_i_id = %s AND s_w_id = 1",
                         (new_quantity, q, i))
            conn.execute(
                "INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, "
                "ol_supply_w_id, ol_delivery_d, ol_quantity, ol_amount, ol_dist_info) "
                f"SELECT %s, %s, 1, %s, %s, 1, NULL, %s, %s * i_price, s_dist_{d:02d} "
                "FROM item, stock WHERE i_id = %s AND s_i_id = i_id AND s_w_id = 1",
                (o_id, d, number, i, q, q, i))
        return {"order_lines": len(items)}

    def payment(self, args, conn=None):
        if conn is None:
            by_name = self.rng.random() < 0.6
            who = (self.rng.choice(LAST_NAMES) if by_name else self.rng.randint(1, CUSTOMERS))
            amount = Decimal(self.rng.randint(100, 500000)) / 100
            return (self.rng.randint(1, DISTRICTS), self.rng.randint(1, DISTRICTS), by_name, who,
                    amount)
        d, c_d, by_name, who, amount = args
        conn.execute("UPDATE warehouse SET w_ytd = w_ytd + %s WHERE w_id = 1", (amount,))
        w_name, = conn.execute("SELECT w_name, w_street_1, w_city FROM warehouse WHERE w_id = 1"
                               ).fetchone()[:1]
        conn.execute("UPDATE district SET d_ytd = d_ytd + %s WHERE d_w_id = 1 AND d_id = %s",
                     (amount, d))
        d_name, = conn.execute("SELECT d_name FROM district WHERE d_w_id = 1 AND d_id = %s",
                               (d,)).fetchone()
        if by_name:
            n, = conn.execute("SELECT count(c_id) FROM customer WHERE c_w_id = 1 AND c_d_id = %s "
                              "AND c_last = %s", (c_d, who)).fetchone()
            c_id, = conn.execute("SELECT c_id FROM customer WHERE c_w_id = 1 AND c_d_id = %s "
                                 "AND c_last = %s ORDER BY c_first OFFSET %s LIMIT 1",
                                 (c_d, who, (n - 1) // 2)).fetchone()
        else:
            c_id = who
        credit, = conn.execute("SELECT c_credit FROM customer WHERE c_w_id = 1 AND c_d_id = %s "
                               "AND c_id = %s FOR UPDATE", (c_d, c_id)).fetchone()
        conn.execute("UPDATE customer SET c_balance = c_balance - %s, "
                     "c_ytd_payment = c_ytd_payment + %s, c_payment_cnt = c_payment_cnt + 1 "
                     "WHERE c_w_id = 1 AND c_d_id = %s AND c_id = %s", (amount, amount, c_d, c_id))
        if credit == "BC":
            conn.execute("UPDATE customer SET c_data = substring(c_id || ' ' || c_d_id || ' ' || "
                         "c_w_id || ' ' || %s::text || ' 1 ' || CAST(%s AS TEXT) || ' | ' || c_data "
                         "FROM 1 FOR 500) WHERE c_w_id = 1 AND c_d_id = %s AND c_id = %s",
                         (d, amount, c_d, c_id))
        conn.execute("INSERT INTO history (h_c_d_id, h_c_w_id, h_c_id, h_d_id, h_w_id, h_date, "
                     "h_amount, h_data) VALUES (%s, 1, %s, %s, 1, CURRENT_TIMESTAMP, %s, %s)",
                     (c_d, c_id, d, amount, w_name + "    " + d_name))
        return {"paid": amount}

    def delivery(self, args, conn=None):
        if conn is None:
            return self.rng.randint(1, 10)
        carrier = args
        for d in range(1, DISTRICTS + 1):
            row = conn.execute("SELECT no_o_id FROM new_order WHERE no_d_id = %s AND no_w_id = 1 "
                               "ORDER BY no_o_id ASC LIMIT 1 FOR UPDATE", (d,)).fetchone()
            if row is None:
                continue
            o_id = row[0]
            conn.execute("DELETE FROM new_order WHERE no_w_id = 1 AND no_d_id = %s "
                         "AND no_o_id = %s", (d, o_id))
            c_id, = conn.execute("SELECT o_c_id FROM orders WHERE o_w_id = 1 AND o_d_id = %s "
                                 "AND o_id = %s", (d, o_id)).fetchone()
            conn.execute("UPDATE orders SET o_carrier_id = %s WHERE o_w_id = 1 AND o_d_id = %s "
                         "AND o_id = %s", (carrier, d, o_id))
            conn.execute("UPDATE order_line SET ol_delivery_d = CURRENT_TIMESTAMP "
                         "WHERE ol_w_id = 1 AND ol_d_id = %s AND ol_o_id = %s", (d, o_id))
            total, = conn.execute("SELECT sum(ol_amount) FROM order_line WHERE ol_w_id = 1 "
                                  "AND ol_d_id = %s AND ol_o_id = %s", (d, o_id)).fetchone()
            conn.execute("UPDATE customer SET c_balance = c_balance + %s, "
                         "c_delivery_cnt = c_delivery_cnt + 1 "
                         "WHERE c_w_id = 1 AND c_d_id = %s AND c_id = %s", (total, d, c_id))
        return {}


def one(conn, sql):
    return conn.execute(sql).fetchall()


class TpccConcurrentTest(unittest.TestCase):
    def setUp(self):
        self.server = Server().start()
        self.addCleanup(self.server.stop)

    def test_new_order_payment_delivery(self):
        conninfo = self.server.conninfo()
        sessions = env_int("MERIDIAN_TPCC_SESSIONS", 4)
        seconds = env_int("MERIDIAN_TPCC_SECONDS", 20)
        seed = env_int("MERIDIAN_TPCC_SEED", random.randrange(1 << 30))
        print(f"tpcc: {sessions} sessions for {seconds} s, seed {seed}", file=sys.stderr)
        with psycopg.connect(conninfo, autocommit=True) as conn:
            load(conn)
        tally = Tally()
        deadline = time.monotonic() + seconds
        workers = [Worker(conninfo, tally, deadline, seed + n, repeatable_read=n % 2 == 1)
                   for n in range(sessions)]
        for w in workers:
            w.start()
        for w in workers:
            w.join(seconds + 120)
            self.assertFalse(w.is_alive(), "a worker did not finish")
        print(f"tpcc: committed {tally.committed}, rolled back {tally.rolled_back}, "
              f"retries {tally.retries['40001']} x 40001, {tally.retries['40P01']} x 40P01",
              file=sys.stderr)
        self.assertEqual(tally.failures, [])
        self.assertGreater(tally.committed["new_order"], 0)
        self.assertGreater(tally.committed["payment"], 0)
        with psycopg.connect(conninfo, autocommit=True) as conn:
            self.check(conn, tally)

    def check(self, conn, tally):
        initial_paid = Decimal("10.00") * DISTRICTS * CUSTOMERS
        # 1: W_YTD = sum(D_YTD); 8: W_YTD = sum(H_AMOUNT); and what the clients paid.
        w_ytd, = one(conn, "SELECT w_ytd FROM warehouse WHERE w_id = 1")[0]
        d_ytd, = one(conn, "SELECT sum(d_ytd) FROM district")[0]
        h_sum, h_count = one(conn, "SELECT sum(h_amount), count(*) FROM history")[0]
        self.assertEqual(w_ytd, d_ytd)
        self.assertEqual(w_ytd, h_sum)
        self.assertEqual(w_ytd, initial_paid + tally.paid)
        self.assertEqual(h_count, DISTRICTS * CUSTOMERS + tally.committed["payment"])
        # 9: D_YTD = sum(H_AMOUNT) of the district.
        rows = one(conn, "SELECT d_id, d_ytd, (SELECT sum(h_amount) FROM history "
                         "WHERE h_w_id = d_w_id AND h_d_id = d_id) FROM district ORDER BY d_id")
        for d, ytd, paid in rows:
            self.assertEqual(ytd, paid, f"district {d}")
        # 2: D_NEXT_O_ID - 1 = max(O_ID) = max(NO_O_ID); 3: new_order ids have no gaps;
        # 4: sum(O_OL_CNT) = count(order_line); and the number of orders committed.
        orders_total = 0
        for d in range(1, DISTRICTS + 1):
            next_o_id, = one(conn, f"SELECT d_next_o_id FROM district WHERE d_id = {d}")[0]
            max_o, count_o, ol_cnt = one(
                conn, f"SELECT max(o_id), count(*), sum(o_ol_cnt) FROM orders WHERE o_d_id = {d}")[0]
            max_no, min_no, count_no = one(
                conn, "SELECT max(no_o_id), min(no_o_id), count(*) FROM new_order "
                      f"WHERE no_d_id = {d}")[0]
            lines, = one(conn, f"SELECT count(*) FROM order_line WHERE ol_d_id = {d}")[0]
            orders_total += count_o
            self.assertEqual(count_o, next_o_id - 1, f"district {d}: order ids have gaps")
            if count_o:
                self.assertEqual(max_o, next_o_id - 1)
            if count_no:
                self.assertEqual(max_no, next_o_id - 1, f"district {d}")
                self.assertEqual(max_no - min_no + 1, count_no, f"district {d}")
            self.assertEqual(ol_cnt or 0, lines, f"district {d}")
        self.assertEqual(orders_total, tally.committed["new_order"])
        lines_total, = one(conn, "SELECT count(*) FROM order_line")[0]
        self.assertEqual(lines_total, tally.order_lines)
        # 5: O_CARRIER_ID is NULL exactly for the orders with a new_order row; 6: O_OL_CNT =
        # the order's lines; 7: OL_DELIVERY_D is NULL exactly when O_CARRIER_ID is.
        bad5, = one(conn, "SELECT count(*) FROM orders LEFT JOIN new_order ON no_w_id = o_w_id "
                          "AND no_d_id = o_d_id AND no_o_id = o_id "
                          "WHERE (o_carrier_id IS NULL) <> (no_o_id IS NOT NULL)")[0]
        bad6, = one(conn, "SELECT count(*) FROM orders WHERE o_ol_cnt <> (SELECT count(*) "
                          "FROM order_line WHERE ol_w_id = o_w_id AND ol_d_id = o_d_id "
                          "AND ol_o_id = o_id)")[0]
        bad7, = one(conn, "SELECT count(*) FROM order_line JOIN orders ON o_w_id = ol_w_id "
                          "AND o_d_id = ol_d_id AND o_id = ol_o_id "
                          "WHERE (ol_delivery_d IS NULL) <> (o_carrier_id IS NULL)")[0]
        self.assertEqual((bad5, bad6, bad7), (0, 0, 0))
        delivered, = one(conn, "SELECT count(*) FROM orders WHERE o_carrier_id IS NOT NULL")[0]
        delivery_cnt, = one(conn, "SELECT sum(c_delivery_cnt) FROM customer")[0]
        self.assertEqual(delivered, delivery_cnt)
        # 10 and 12: C_BALANCE = delivered OL_AMOUNT - H_AMOUNT, C_BALANCE + C_YTD_PAYMENT =
        # delivered OL_AMOUNT, per customer; and the payment counts.
        rows = one(conn, """
            SELECT c_d_id, c_id, c_balance, c_ytd_payment, c_payment_cnt,
                   (SELECT coalesce(sum(ol_amount), 0) FROM orders JOIN order_line
                      ON ol_w_id = o_w_id AND ol_d_id = o_d_id AND ol_o_id = o_id
                    WHERE o_w_id = c_w_id AND o_d_id = c_d_id AND o_c_id = c_id
                      AND ol_delivery_d IS NOT NULL),
                   (SELECT sum(h_amount) FROM history
                    WHERE h_c_w_id = c_w_id AND h_c_d_id = c_d_id AND h_c_id = c_id),
                   (SELECT count(*) FROM history
                    WHERE h_c_w_id = c_w_id AND h_c_d_id = c_d_id AND h_c_id = c_id)
            FROM customer ORDER BY c_d_id, c_id""")
        self.assertEqual(len(rows), DISTRICTS * CUSTOMERS)
        for d, c, balance, ytd, cnt, delivered_sum, paid, payments in rows:
            self.assertEqual(balance, delivered_sum - paid, f"customer {c} of district {d}")
            self.assertEqual(balance + ytd, delivered_sum, f"customer {c} of district {d}")
            self.assertEqual(cnt, payments, f"customer {c} of district {d}")


if __name__ == "__main__":
    unittest.main()
