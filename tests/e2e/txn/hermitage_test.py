# Isolation anomalies in the style of Martin Kleppmann's Hermitage, and transaction control, over
# the PostgreSQL wire protocol with psycopg 3. Each test has its own table (id int primary key,
# value int) holding (1, 10), (2, 20) and two to four autocommit connections that send BEGIN /
# COMMIT / ROLLBACK as SQL, so what is tested is the server's transaction state, not psycopg's
# (one test uses psycopg's own transaction mode). The anomaly tests run at READ COMMITTED (the
# default) and at REPEATABLE READ: G0, G1a, G1b, G1c, OTV, PMP (read and write predicates), P4,
# G-single (read and write), G2-item and G2 on predicates (allowed at both). Then: BEGIN variants,
# SHOW transaction_isolation, COMMIT / ROLLBACK, 25P02 after an error, ReadyForQuery status,
# deadlocks (40P01), readers never blocked by writers, unique keys against uncommitted inserts,
# SELECT ... FOR UPDATE and savepoints.
#
# A statement that must wait runs in a thread: it must still be running after BLOCKED_S and must
# finish within UNBLOCK_S once the other transaction ends. Every other statement must finish
# within UNBLOCK_S too, so a statement that blocks by mistake fails its test instead of hanging
# the run. The expectations are PostgreSQL 15's (checked with MERIDIAN_TEST_CONNINFO pointing at
# one). Meridian takes the REPEATABLE READ snapshot at BEGIN, PostgreSQL at the first statement
# (engine/txn/README.md); the tests never let a commit fall between a transaction's BEGIN and its
# first statement, so both choices give the same results.
#
# Runs against a fresh meridiand ($MERIDIAND) or the server named by $MERIDIAN_TEST_CONNINFO.
import os
import sys
import threading
import unittest

import psycopg
from psycopg import IsolationLevel, errors, pq

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from txn_server import Server  # noqa: E402

BLOCKED_S = 0.5   # a statement still running after this long is waiting for a lock
UNBLOCK_S = 5.0   # a statement finishes within this long once nothing holds it up
IDLE = pq.TransactionStatus.IDLE
INTRANS = pq.TransactionStatus.INTRANS
INERROR = pq.TransactionStatus.INERROR
SERIALIZATION_FAILURE = "40001"
DEADLOCK = "40P01"
IN_FAILED_TXN = "25P02"
UNIQUE = "23505"
DIVISION_BY_ZERO = "22012"

SERVER = None


def setUpModule():
    global SERVER
    SERVER = Server().start()


def tearDownModule():
    SERVER.stop()


class Call:
    """fn() running in its own thread; done is set when it returned or raised."""

    def __init__(self, label, fn):
        self.label = label
        self.result = None
        self.error = None
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._run, args=(fn,), daemon=True)
        self.thread.start()

    def _run(self, fn):
        try:
            self.result = fn()
        except BaseException as e:  # handed to the test thread
            self.error = e
        finally:
            self.done.set()

    def describe(self):
        if not self.done.is_set():
            return f"{self.label}: still running"
        if self.error is not None:
            return f"{self.label}: raised {type(self.error).__name__} " \
                   f"[{getattr(self.error, 'sqlstate', None)}] {self.error}"
        return f"{self.label}: returned {self.result!r}"

    def wait(self, timeout=UNBLOCK_S):
        """The result; AssertionError when not done in time; the statement's own error as is."""
        if not self.done.wait(timeout):
            raise AssertionError(f"{self.label}: did not finish within {timeout} s (blocked?)")
        if self.error is not None:
            raise self.error
        return self.result


class Session:
    """One autocommit connection; transaction control goes to the server as SQL. {t} in a
    statement stands for the test's table."""

    def __init__(self, name, table):
        self.name = name
        self.table = table
        self.conn = psycopg.connect(SERVER.conninfo(), autocommit=True, connect_timeout=20)
        self.calls = []
        self.last_status = None  # command tag of the last statement that succeeded

    def _execute(self, sql):
        cur = self.conn.execute(sql.replace("{t}", self.table))
        self.last_status = cur.statusmessage
        return cur.fetchall() if cur.description is not None else cur.rowcount

    def start(self, sql):
        """Sends sql from a thread and returns the Call at once (for statements that wait)."""
        call = Call(f"{self.name}: {sql}", lambda: self._execute(sql))
        self.calls.append(call)
        return call

    def q(self, sql):
        """Runs sql and returns its rows (a list of tuples) or, without a result set, its row
        count; fails when it does not finish within UNBLOCK_S."""
        return self.start(sql).wait()

    def rows(self, where=""):
        return self.q("SELECT id, value FROM {t} " + where + " ORDER BY id")

    @property
    def status(self):
        return self.conn.info.transaction_status

    def close(self):
        running = [c for c in self.calls if not c.done.is_set()]
        if running:
            try:
                if hasattr(self.conn, "cancel_safe"):  # psycopg >= 3.2
                    self.conn.cancel_safe(timeout=5)
                else:
                    self.conn.cancel()
            except psycopg.Error:
                pass
            for c in running:
                c.done.wait(UNBLOCK_S)
        if all(c.done.is_set() for c in self.calls):
            self.conn.close()
        # else: a thread is still inside the connection; leave it (daemon thread) rather than
        # free the connection under it.


class TxnTestCase(unittest.TestCase):
    prefix = "t"

    def setUp(self):
        self.sessions = []
        self.table = f"h_{self.prefix}_{self._testMethodName.removeprefix('test_')}"[:63]
        admin = self.session("setup")
        admin.q("DROP TABLE IF EXISTS {t}")
        admin.q("CREATE TABLE {t} (id int PRIMARY KEY, value int)")
        self.assertEqual(admin.q("INSERT INTO {t} VALUES (1, 10), (2, 20)"), 2)

    def tearDown(self):
        for s in self.sessions:
            s.close()

    def session(self, name):
        s = Session(name, self.table)
        self.sessions.append(s)
        return s

    def sessions_named(self, *names):
        return [self.session(n) for n in names]

    def final_rows(self):
        """The committed table content, read by a new autocommit session."""
        return self.session("check").rows()

    def assert_waits(self, call):
        """call is still running after BLOCKED_S."""
        self.assertFalse(call.done.wait(BLOCKED_S), f"expected to wait, but {call.describe()}")

    def assert_sqlstate(self, sqlstate, call_or_session, sql=None):
        """The statement (a Call, or sql sent on a Session) fails with sqlstate within
        UNBLOCK_S; returns the exception."""
        call = call_or_session if sql is None else call_or_session.start(sql)
        self.assertTrue(call.done.wait(UNBLOCK_S), f"{call.label}: did not finish")
        self.assertIsInstance(call.error, psycopg.Error,
                              f"expected SQLSTATE {sqlstate}, but {call.describe()}")
        self.assertEqual(call.error.sqlstate, sqlstate, call.describe())
        return call.error


class AnomalyTests:
    """Hermitage's anomalies; mixed into a TxnTestCase with rr = False (READ COMMITTED) or
    rr = True (REPEATABLE READ)."""

    rr = False

    def begin(self, *sessions):
        for s in sessions:
            s.q("BEGIN ISOLATION LEVEL REPEATABLE READ" if self.rr else "BEGIN")
            self.assertEqual(s.status, INTRANS)

    def test_g0_dirty_write(self):
        # Writes of two transactions never interleave: the second writer of row 1 waits for
        # the first; at REPEATABLE READ it then fails, at READ COMMITTED it writes on top.
        t1, t2, t3 = self.sessions_named("T1", "T2", "T3")
        self.begin(t1, t2)
        self.assertEqual(t1.q("UPDATE {t} SET value = 11 WHERE id = 1"), 1)
        w = t2.start("UPDATE {t} SET value = 12 WHERE id = 1")
        self.assert_waits(w)
        self.assertEqual(t1.q("UPDATE {t} SET value = 21 WHERE id = 2"), 1)
        self.assertEqual(t3.rows(), [(1, 10), (2, 20)])  # nothing committed yet
        self.assert_waits(w)
        t1.q("COMMIT")
        if self.rr:
            self.assert_sqlstate(SERIALIZATION_FAILURE, w)
            self.assertEqual(t2.status, INERROR)
            t2.q("ROLLBACK")
            self.assertEqual(self.final_rows(), [(1, 11), (2, 21)])
        else:
            self.assertEqual(w.wait(), 1)
            self.assertEqual(t2.q("UPDATE {t} SET value = 22 WHERE id = 2"), 1)
            t2.q("COMMIT")
            self.assertEqual(self.final_rows(), [(1, 12), (2, 22)])

    def test_g1a_aborted_read(self):
        t1, t2 = self.sessions_named("T1", "T2")
        self.begin(t1, t2)
        self.assertEqual(t1.q("UPDATE {t} SET value = 101 WHERE id = 1"), 1)
        self.assertEqual(t2.rows(), [(1, 10), (2, 20)])
        t1.q("ROLLBACK")
        self.assertEqual(t2.rows(), [(1, 10), (2, 20)])
        self.assertEqual(t2.rows("WHERE id = 1"), [(1, 10)])
        t2.q("COMMIT")
        self.assertEqual(self.final_rows(), [(1, 10), (2, 20)])

    def test_g1b_intermediate_read(self):
        # T2 never sees T1's intermediate value 101; READ COMMITTED sees the final 11 once T1
        # commits, REPEATABLE READ keeps its snapshot.
        t1, t2 = self.sessions_named("T1", "T2")
        self.begin(t1, t2)
        self.assertEqual(t1.q("UPDATE {t} SET value = 101 WHERE id = 1"), 1)
        self.assertEqual(t2.rows(), [(1, 10), (2, 20)])
        self.assertEqual(t1.q("UPDATE {t} SET value = 11 WHERE id = 1"), 1)
        self.assertEqual(t2.rows("WHERE id = 1"), [(1, 10)])
        t1.q("COMMIT")
        self.assertEqual(t2.rows(), [(1, 10), (2, 20)] if self.rr else [(1, 11), (2, 20)])
        t2.q("COMMIT")
        self.assertEqual(self.final_rows(), [(1, 11), (2, 20)])

    def test_g1c_circular_information_flow(self):
        t1, t2 = self.sessions_named("T1", "T2")
        self.begin(t1, t2)
        self.assertEqual(t1.q("UPDATE {t} SET value = 11 WHERE id = 1"), 1)
        self.assertEqual(t2.q("UPDATE {t} SET value = 22 WHERE id = 2"), 1)
        self.assertEqual(t1.rows("WHERE id = 2"), [(2, 20)])
        self.assertEqual(t2.rows("WHERE id = 1"), [(1, 10)])
        t1.q("COMMIT")
        t2.q("COMMIT")
        self.assertEqual(self.final_rows(), [(1, 11), (2, 22)])

    def test_otv_observed_transaction_vanishes(self):
        # T1 writes both rows; T2 overwrites them after T1 (READ COMMITTED) or fails
        # (REPEATABLE READ). An observer never sees a mix that no commit order explains.
        t1, t2, t3 = self.sessions_named("T1", "T2", "T3")
        self.begin(t1, t2, t3)
        self.assertEqual(t3.rows(), [(1, 10), (2, 20)])
        self.assertEqual(t1.q("UPDATE {t} SET value = 11 WHERE id = 1"), 1)
        self.assertEqual(t1.q("UPDATE {t} SET value = 19 WHERE id = 2"), 1)
        w = t2.start("UPDATE {t} SET value = 12 WHERE id = 1")
        self.assert_waits(w)
        t1.q("COMMIT")
        if self.rr:
            self.assert_sqlstate(SERIALIZATION_FAILURE, w)
            t2.q("ROLLBACK")
            self.assertEqual(t3.rows(), [(1, 10), (2, 20)])  # T3's snapshot predates T1
            t4 = self.session("T4")
            self.begin(t4)  # begins after T1 committed
            self.assertEqual(t4.rows(), [(1, 11), (2, 19)])
            t4.q("COMMIT")
            t3.q("COMMIT")
            self.assertEqual(self.final_rows(), [(1, 11), (2, 19)])
        else:
            self.assertEqual(w.wait(), 1)
            self.assertEqual(t3.rows("WHERE id = 1"), [(1, 11)])
            self.assertEqual(t2.q("UPDATE {t} SET value = 18 WHERE id = 2"), 1)
            self.assertEqual(t3.rows("WHERE id = 2"), [(2, 19)])
            t2.q("COMMIT")
            self.assertEqual(t3.rows(), [(1, 12), (2, 18)])
            t3.q("COMMIT")
            self.assertEqual(self.final_rows(), [(1, 12), (2, 18)])

    def test_pmp_predicate_many_preceders(self):
        # A predicate read repeated after another transaction inserted a matching row.
        t1, t2 = self.sessions_named("T1", "T2")
        self.begin(t1, t2)
        self.assertEqual(t1.rows("WHERE value = 30"), [])
        self.assertEqual(t2.q("INSERT INTO {t} VALUES (3, 30)"), 1)
        t2.q("COMMIT")
        self.assertEqual(t1.rows("WHERE value > 25"), [] if self.rr else [(3, 30)])
        self.assertEqual(t1.q("SELECT count(*) FROM {t}"), [(2,)] if self.rr else [(3,)])
        t1.q("COMMIT")
        self.assertEqual(self.final_rows(), [(1, 10), (2, 20), (3, 30)])

    def test_pmp_write_predicate(self):
        # T2 deletes "value = 20" while T1 moves every value up by 10. READ COMMITTED re-checks
        # the row T1 changed (now 30) and deletes nothing; REPEATABLE READ fails.
        t1, t2 = self.sessions_named("T1", "T2")
        self.begin(t1, t2)
        self.assertEqual(t2.rows(), [(1, 10), (2, 20)])
        self.assertEqual(t1.q("UPDATE {t} SET value = value + 10"), 2)
        w = t2.start("DELETE FROM {t} WHERE value = 20")
        self.assert_waits(w)
        t1.q("COMMIT")
        if self.rr:
            self.assert_sqlstate(SERIALIZATION_FAILURE, w)
            t2.q("ROLLBACK")
        else:
            self.assertEqual(w.wait(), 0)
            self.assertEqual(t2.rows(), [(1, 20), (2, 30)])
            t2.q("COMMIT")
        self.assertEqual(self.final_rows(), [(1, 20), (2, 30)])

    def test_p4_lost_update(self):
        # Two read-modify-write increments of one row: REPEATABLE READ fails the second once
        # the first commits; READ COMMITTED applies it to the new value. Never lost.
        t1, t2 = self.sessions_named("T1", "T2")
        self.begin(t1, t2)
        self.assertEqual(t1.rows("WHERE id = 1"), [(1, 10)])
        self.assertEqual(t2.rows("WHERE id = 1"), [(1, 10)])
        self.assertEqual(t1.q("UPDATE {t} SET value = value + 1 WHERE id = 1"), 1)
        w = t2.start("UPDATE {t} SET value = value + 2 WHERE id = 1")
        self.assert_waits(w)
        t1.q("COMMIT")
        if self.rr:
            self.assert_sqlstate(SERIALIZATION_FAILURE, w)
            self.assertEqual(t2.status, INERROR)
            t2.q("ROLLBACK")
            self.assertEqual(self.final_rows(), [(1, 11), (2, 20)])
        else:
            self.assertEqual(w.wait(), 1)
            self.assertEqual(t2.rows("WHERE id = 1"), [(1, 13)])
            t2.q("COMMIT")
            self.assertEqual(self.final_rows(), [(1, 13), (2, 20)])

    def test_p4_lost_update_then_retry(self):
        # The failed REPEATABLE READ transaction retried from the start applies its increment.
        t1, t2 = self.sessions_named("T1", "T2")
        self.begin(t1, t2)
        self.assertEqual(t2.rows("WHERE id = 2"), [(2, 20)])
        self.assertEqual(t1.q("UPDATE {t} SET value = value + 5 WHERE id = 2"), 1)
        t1.q("COMMIT")
        w = t2.start("UPDATE {t} SET value = value + 7 WHERE id = 2")
        if self.rr:
            self.assert_sqlstate(SERIALIZATION_FAILURE, w)
            t2.q("ROLLBACK")
            self.begin(t2)
            self.assertEqual(t2.q("UPDATE {t} SET value = value + 7 WHERE id = 2"), 1)
        else:
            self.assertEqual(w.wait(), 1)
        t2.q("COMMIT")
        self.assertEqual(self.final_rows(), [(1, 10), (2, 32)])

    def test_g_single_read_skew(self):
        # T2 moves 2 from row 2 to row 1 (total stays 30). REPEATABLE READ: T1 still sees a
        # total of 30; READ COMMITTED shows the skew (10 + 18).
        t1, t2 = self.sessions_named("T1", "T2")
        self.begin(t1, t2)
        self.assertEqual(t1.rows("WHERE id = 1"), [(1, 10)])
        self.assertEqual(t2.rows("WHERE id = 1"), [(1, 10)])
        self.assertEqual(t2.rows("WHERE id = 2"), [(2, 20)])
        self.assertEqual(t2.q("UPDATE {t} SET value = 12 WHERE id = 1"), 1)
        self.assertEqual(t2.q("UPDATE {t} SET value = 18 WHERE id = 2"), 1)
        t2.q("COMMIT")
        self.assertEqual(t1.rows("WHERE id = 2"), [(2, 20)] if self.rr else [(2, 18)])
        self.assertEqual(t1.q("SELECT sum(value) FROM {t}"), [(30,)])
        t1.q("COMMIT")
        self.assertEqual(self.final_rows(), [(1, 12), (2, 18)])

    def test_g_single_write_predicate(self):
        # T1 read row 1, then deletes "value = 20" while T2 changes row 2 to 18.
        t1, t2 = self.sessions_named("T1", "T2")
        self.begin(t1, t2)
        self.assertEqual(t1.rows("WHERE id = 1"), [(1, 10)])
        self.assertEqual(t2.q("UPDATE {t} SET value = 12 WHERE id = 1"), 1)
        self.assertEqual(t2.q("UPDATE {t} SET value = 18 WHERE id = 2"), 1)
        w = t1.start("DELETE FROM {t} WHERE value = 20")
        self.assert_waits(w)
        t2.q("COMMIT")
        if self.rr:
            self.assert_sqlstate(SERIALIZATION_FAILURE, w)
            t1.q("ROLLBACK")
        else:
            self.assertEqual(w.wait(), 0)
            t1.q("COMMIT")
        self.assertEqual(self.final_rows(), [(1, 12), (2, 18)])

    def test_g2_item_write_skew(self):
        # Both read both rows, each writes a different one: snapshot isolation lets both commit.
        t1, t2 = self.sessions_named("T1", "T2")
        self.begin(t1, t2)
        self.assertEqual(t1.rows(), [(1, 10), (2, 20)])
        self.assertEqual(t2.rows(), [(1, 10), (2, 20)])
        self.assertEqual(t1.q("UPDATE {t} SET value = 11 WHERE id = 1"), 1)
        self.assertEqual(t2.q("UPDATE {t} SET value = 21 WHERE id = 2"), 1)
        t1.q("COMMIT")
        self.assertEqual(t1.last_status, "COMMIT")
        t2.q("COMMIT")
        self.assertEqual(t2.last_status, "COMMIT")
        self.assertEqual(self.final_rows(), [(1, 11), (2, 21)])

    def test_g2_predicate_anti_dependency(self):
        # Both find no row with value > 25 and each inserts one: allowed, both commit.
        t1, t2 = self.sessions_named("T1", "T2")
        self.begin(t1, t2)
        self.assertEqual(t1.rows("WHERE value > 25"), [])
        self.assertEqual(t2.rows("WHERE value > 25"), [])
        self.assertEqual(t1.q("INSERT INTO {t} VALUES (3, 30)"), 1)
        self.assertEqual(t2.q("INSERT INTO {t} VALUES (4, 42)"), 1)
        t1.q("COMMIT")
        t2.q("COMMIT")
        self.assertEqual(t2.last_status, "COMMIT")
        self.assertEqual(self.final_rows(), [(1, 10), (2, 20), (3, 30), (4, 42)])


class ReadCommittedTest(AnomalyTests, TxnTestCase):
    prefix = "rc"
    rr = False


class RepeatableReadTest(AnomalyTests, TxnTestCase):
    prefix = "rr"
    rr = True


class TransactionControlTest(TxnTestCase):
    prefix = "tc"

    def test_begin_variants_and_show_transaction_isolation(self):
        s = self.session("S")
        show = "SHOW transaction_isolation"
        self.assertEqual(s.q(show), [("read committed",)])
        cases = [  # (statements opening the transaction, tag of the first, level)
            (["BEGIN"], "BEGIN", "read committed"),
            (["BEGIN TRANSACTION"], "BEGIN", "read committed"),
            (["START TRANSACTION"], "START TRANSACTION", "read committed"),
            (["BEGIN ISOLATION LEVEL REPEATABLE READ"], "BEGIN", "repeatable read"),
            (["START TRANSACTION ISOLATION LEVEL REPEATABLE READ"], "START TRANSACTION",
             "repeatable read"),
            (["BEGIN ISOLATION LEVEL READ COMMITTED"], "BEGIN", "read committed"),
            (["BEGIN", "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ"], "BEGIN",
             "repeatable read"),
            (["START TRANSACTION", "SET TRANSACTION ISOLATION LEVEL READ COMMITTED"],
             "START TRANSACTION", "read committed"),
        ]
        for opening, tag, level in cases:
            for end in ("COMMIT", "ROLLBACK"):
                with self.subTest(opening=opening, end=end):
                    self.assertEqual(s.status, IDLE)
                    s.q(opening[0])
                    self.assertEqual(s.last_status, tag)
                    self.assertEqual(s.status, INTRANS)
                    for sql in opening[1:]:
                        s.q(sql)
                        self.assertEqual(s.last_status, "SET")
                    self.assertEqual(s.q(show), [(level,)])
                    self.assertEqual(s.status, INTRANS)
                    s.q(end)
                    self.assertEqual(s.last_status, end)
                    self.assertEqual(s.status, IDLE)
                    self.assertEqual(s.q(show), [("read committed",)])  # back to the default

    def test_isolation_level_syntax_takes_effect(self):
        # Every way of asking for a level gives that level's behaviour: a committed update by
        # another session is seen by the next statement (READ COMMITTED) or not (REPEATABLE READ).
        variants = [
            (["BEGIN"], False),
            (["START TRANSACTION"], False),
            (["BEGIN ISOLATION LEVEL READ COMMITTED"], False),
            (["BEGIN ISOLATION LEVEL REPEATABLE READ"], True),
            (["START TRANSACTION ISOLATION LEVEL REPEATABLE READ"], True),
            (["BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ"], True),
            (["BEGIN", "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ"], True),
        ]
        t1, other = self.sessions_named("T1", "other")
        value = 10
        for opening, snapshot in variants:
            with self.subTest(opening=opening):
                for sql in opening:
                    t1.q(sql)
                self.assertEqual(t1.rows("WHERE id = 1"), [(1, value)])
                self.assertEqual(other.q("UPDATE {t} SET value = value + 1 WHERE id = 1"), 1)
                seen = t1.rows("WHERE id = 1")
                t1.q("COMMIT")
                self.assertEqual(seen, [(1, value if snapshot else value + 1)])
                value += 1
                self.assertEqual(t1.rows("WHERE id = 1"), [(1, value)])

    def test_commit_publishes_changes(self):
        t1, other = self.sessions_named("T1", "other")
        t1.q("BEGIN")
        self.assertEqual(t1.q("UPDATE {t} SET value = 11 WHERE id = 1"), 1)
        self.assertEqual(t1.q("INSERT INTO {t} VALUES (3, 30)"), 1)
        self.assertEqual(t1.q("DELETE FROM {t} WHERE id = 2"), 1)
        self.assertEqual(t1.rows(), [(1, 11), (3, 30)])  # a transaction sees its own writes
        self.assertEqual(other.rows(), [(1, 10), (2, 20)])
        t1.q("COMMIT")
        self.assertEqual(t1.last_status, "COMMIT")
        self.assertEqual(other.rows(), [(1, 11), (3, 30)])
        # END is COMMIT.
        t1.q("BEGIN")
        self.assertEqual(t1.q("UPDATE {t} SET value = 31 WHERE id = 3"), 1)
        t1.q("END")
        self.assertEqual(t1.last_status, "COMMIT")
        self.assertEqual(t1.status, IDLE)
        self.assertEqual(other.rows(), [(1, 11), (3, 31)])

    def test_rollback_discards_changes(self):
        t1, other = self.sessions_named("T1", "other")
        t1.q("BEGIN")
        self.assertEqual(t1.q("UPDATE {t} SET value = 11 WHERE id = 1"), 1)
        self.assertEqual(t1.q("INSERT INTO {t} VALUES (3, 30)"), 1)
        self.assertEqual(t1.q("DELETE FROM {t} WHERE id = 2"), 1)
        self.assertEqual(t1.rows(), [(1, 11), (3, 30)])
        t1.q("ROLLBACK")
        self.assertEqual(t1.last_status, "ROLLBACK")
        self.assertEqual(t1.status, IDLE)
        self.assertEqual(t1.rows(), [(1, 10), (2, 20)])
        self.assertEqual(other.rows(), [(1, 10), (2, 20)])
        self.assertEqual(t1.rows("WHERE id = 3"), [])
        self.assertEqual(t1.rows("WHERE id = 2"), [(2, 20)])
        # ABORT is ROLLBACK; the rolled-back key 3 can be inserted again.
        t1.q("START TRANSACTION")
        self.assertEqual(t1.q("INSERT INTO {t} VALUES (3, 33)"), 1)
        t1.q("ABORT")
        self.assertEqual(t1.last_status, "ROLLBACK")
        self.assertEqual(other.q("INSERT INTO {t} VALUES (3, 34)"), 1)
        self.assertEqual(self.final_rows(), [(1, 10), (2, 20), (3, 34)])

    def test_error_fails_the_transaction_until_rollback(self):
        s, other = self.sessions_named("S", "other")
        s.q("BEGIN")
        self.assertEqual(s.q("UPDATE {t} SET value = 11 WHERE id = 1"), 1)
        self.assert_sqlstate(DIVISION_BY_ZERO, s, "SELECT 1 / 0")
        self.assertEqual(s.status, INERROR)
        for sql in ("SELECT 1", "SELECT id, value FROM {t}", "UPDATE {t} SET value = 5",
                    "INSERT INTO {t} VALUES (9, 90)"):
            self.assert_sqlstate(IN_FAILED_TXN, s, sql)
            self.assertEqual(s.status, INERROR)
        self.assertEqual(other.rows(), [(1, 10), (2, 20)])
        s.q("ROLLBACK")
        self.assertEqual(s.last_status, "ROLLBACK")
        self.assertEqual(s.status, IDLE)
        self.assertEqual(s.q("SELECT 1"), [(1,)])
        self.assertEqual(self.final_rows(), [(1, 10), (2, 20)])

        # COMMIT of a failed transaction rolls it back and says so (command tag ROLLBACK).
        s.q("BEGIN")
        self.assertEqual(s.q("INSERT INTO {t} VALUES (3, 30)"), 1)
        self.assert_sqlstate(UNIQUE, s, "INSERT INTO {t} VALUES (1, 99)")
        self.assertEqual(s.status, INERROR)
        s.q("COMMIT")
        self.assertEqual(s.last_status, "ROLLBACK")
        self.assertEqual(s.status, IDLE)
        self.assertEqual(self.final_rows(), [(1, 10), (2, 20)])

    def test_transaction_status_in_ready_for_query(self):
        s = self.session("S")
        self.assertEqual(s.status, IDLE)
        s.q("SELECT 1")
        self.assertEqual(s.status, IDLE)  # autocommit statement
        self.assertEqual(s.q("UPDATE {t} SET value = 12 WHERE id = 1"), 1)
        self.assertEqual(s.status, IDLE)
        s.q("BEGIN")
        self.assertEqual(s.status, INTRANS)
        s.rows()
        self.assertEqual(s.status, INTRANS)
        s.q("UPDATE {t} SET value = 13 WHERE id = 1")
        self.assertEqual(s.status, INTRANS)
        s.q("COMMIT")
        self.assertEqual(s.status, IDLE)
        s.q("BEGIN")
        self.assert_sqlstate("42P01", s, "SELECT * FROM h_no_such_table")
        self.assertEqual(s.status, INERROR)
        self.assert_sqlstate(IN_FAILED_TXN, s, "SELECT 1")
        self.assertEqual(s.status, INERROR)
        s.q("ROLLBACK")
        self.assertEqual(s.status, IDLE)
        # An error outside a transaction block leaves the session idle.
        self.assert_sqlstate(DIVISION_BY_ZERO, s, "SELECT 1 / 0")
        self.assertEqual(s.status, IDLE)
        self.assertEqual(self.final_rows(), [(1, 13), (2, 20)])

    def test_begin_inside_and_commit_outside_a_transaction_warn(self):
        # PostgreSQL answers both with a WARNING notice and goes on.
        s = self.session("S")
        notices = []
        s.conn.add_notice_handler(lambda d: notices.append((d.severity_nonlocalized, d.sqlstate)))
        s.q("BEGIN")
        s.q("UPDATE {t} SET value = 11 WHERE id = 1")
        s.q("BEGIN")
        self.assertEqual(notices, [("WARNING", "25001")])  # already a transaction in progress
        self.assertEqual(s.status, INTRANS)
        s.q("COMMIT")
        self.assertEqual(s.status, IDLE)
        self.assertEqual(self.final_rows(), [(1, 11), (2, 20)])  # the inner BEGIN changed nothing
        notices.clear()
        s.q("COMMIT")
        self.assertEqual(s.last_status, "COMMIT")
        s.q("ROLLBACK")
        self.assertEqual(s.last_status, "ROLLBACK")
        self.assertEqual(notices, [("WARNING", "25P01"), ("WARNING", "25P01")])  # no transaction
        self.assertEqual(s.status, IDLE)

    def test_deadlock_one_victim(self):
        t1, t2 = self.sessions_named("T1", "T2")
        for s in (t1, t2):
            s.q("BEGIN")
        self.assertEqual(t1.q("UPDATE {t} SET value = 11 WHERE id = 1"), 1)
        self.assertEqual(t2.q("UPDATE {t} SET value = 22 WHERE id = 2"), 1)
        w1 = t1.start("UPDATE {t} SET value = 12 WHERE id = 2")
        self.assert_waits(w1)
        w2 = t2.start("UPDATE {t} SET value = 21 WHERE id = 1")
        # One of the two is chosen (PostgreSQL: after deadlock_timeout, 1 s by default).
        first = None
        for _ in range(int(UNBLOCK_S / 0.05)):
            done = [w for w in (w1, w2) if w.done.is_set()]
            if done:
                failed = [w for w in done if w.error is not None]
                first = failed[0] if failed else done[0]
                break
            w1.done.wait(0.05)
        self.assertIsNotNone(first, "deadlock not detected: " + w1.describe() + "; "
                             + w2.describe())
        if first.error is not None:
            victim, survivor = first, (w2 if first is w1 else w1)
        else:
            survivor, victim = first, (w2 if first is w1 else w1)
        self.assert_sqlstate(DEADLOCK, victim)
        victim_session, survivor_session = (t1, t2) if victim is w1 else (t2, t1)
        self.assertEqual(victim_session.status, INERROR)
        victim_session.q("ROLLBACK")
        self.assertEqual(survivor.wait(), 1)
        self.assertEqual(survivor_session.status, INTRANS)
        survivor_session.q("COMMIT")
        self.assertEqual(survivor_session.last_status, "COMMIT")
        expected = [(1, 11), (2, 12)] if survivor is w1 else [(1, 21), (2, 22)]
        self.assertEqual(self.final_rows(), expected)

    def test_readers_not_blocked_by_writer(self):
        writer, reader, rr_reader = self.sessions_named("writer", "reader", "rr_reader")
        rr_reader.q("BEGIN ISOLATION LEVEL REPEATABLE READ")
        self.assertEqual(rr_reader.rows(), [(1, 10), (2, 20)])
        writer.q("BEGIN")
        self.assertEqual(writer.q("UPDATE {t} SET value = 11 WHERE id = 1"), 1)
        self.assertEqual(writer.q("DELETE FROM {t} WHERE id = 2"), 1)
        # Each read must come back at once (Session.q fails one that waits) with the old rows,
        # by key lookup and by scan, in and out of a transaction.
        self.assertEqual(reader.rows("WHERE id = 1"), [(1, 10)])
        self.assertEqual(reader.rows("WHERE id = 2"), [(2, 20)])
        self.assertEqual(reader.rows(), [(1, 10), (2, 20)])
        self.assertEqual(reader.rows("WHERE value >= 10"), [(1, 10), (2, 20)])
        reader.q("BEGIN")
        self.assertEqual(reader.rows(), [(1, 10), (2, 20)])
        self.assertEqual(rr_reader.rows("WHERE id = 1"), [(1, 10)])
        # ... and the open readers do not hold up the writer either.
        self.assertEqual(writer.q("UPDATE {t} SET value = 12 WHERE id = 1"), 1)
        writer.q("COMMIT")
        self.assertEqual(reader.rows(), [(1, 12)])  # READ COMMITTED: next statement sees it
        reader.q("COMMIT")
        self.assertEqual(rr_reader.rows(), [(1, 10), (2, 20)])  # REPEATABLE READ: its snapshot
        rr_reader.q("COMMIT")
        self.assertEqual(self.final_rows(), [(1, 12)])

    def test_uncommitted_insert_is_invisible(self):
        t1, other = self.sessions_named("T1", "other")
        t1.q("BEGIN")
        self.assertEqual(t1.q("INSERT INTO {t} VALUES (3, 30)"), 1)
        self.assertEqual(t1.rows("WHERE id = 3"), [(3, 30)])
        self.assertEqual(other.rows("WHERE id = 3"), [])
        self.assertEqual(other.rows(), [(1, 10), (2, 20)])
        self.assertEqual(other.q("SELECT count(*) FROM {t}"), [(2,)])
        self.assertEqual(other.q("UPDATE {t} SET value = value + 1 WHERE id = 3"), 0)
        t1.q("COMMIT")
        self.assertEqual(other.rows("WHERE id = 3"), [(3, 30)])
        self.assertEqual(other.q("SELECT count(*) FROM {t}"), [(3,)])

    def test_unique_key_waits_for_uncommitted_insert_that_commits(self):
        t1, t2 = self.sessions_named("T1", "T2")
        t1.q("BEGIN")
        self.assertEqual(t1.q("INSERT INTO {t} VALUES (3, 30)"), 1)
        t2.q("BEGIN")
        w = t2.start("INSERT INTO {t} VALUES (3, 31)")
        self.assert_waits(w)
        t1.q("COMMIT")
        self.assert_sqlstate(UNIQUE, w)
        self.assertEqual(t2.status, INERROR)
        t2.q("ROLLBACK")
        self.assertEqual(self.final_rows(), [(1, 10), (2, 20), (3, 30)])
        # The same in autocommit mode.
        t1.q("BEGIN")
        self.assertEqual(t1.q("INSERT INTO {t} VALUES (4, 40)"), 1)
        w = t2.start("INSERT INTO {t} VALUES (4, 41)")
        self.assert_waits(w)
        t1.q("COMMIT")
        self.assert_sqlstate(UNIQUE, w)
        self.assertEqual(t2.status, IDLE)
        self.assertEqual(self.final_rows(), [(1, 10), (2, 20), (3, 30), (4, 40)])

    def test_unique_key_waits_for_uncommitted_insert_that_rolls_back(self):
        t1, t2 = self.sessions_named("T1", "T2")
        t1.q("BEGIN")
        self.assertEqual(t1.q("INSERT INTO {t} VALUES (3, 30)"), 1)
        t2.q("BEGIN")
        w = t2.start("INSERT INTO {t} VALUES (3, 31)")
        self.assert_waits(w)
        t1.q("ROLLBACK")
        self.assertEqual(w.wait(), 1)
        self.assertEqual(t2.status, INTRANS)
        t2.q("COMMIT")
        self.assertEqual(self.final_rows(), [(1, 10), (2, 20), (3, 31)])

    def test_select_for_update_blocks_writer(self):
        t1, t2, reader = self.sessions_named("T1", "T2", "reader")
        t1.q("BEGIN")
        self.assertEqual(t1.q("SELECT id, value FROM {t} WHERE id = 1 FOR UPDATE"), [(1, 10)])
        self.assertEqual(reader.rows("WHERE id = 1"), [(1, 10)])  # plain reads go on
        w = t2.start("UPDATE {t} SET value = value + 5 WHERE id = 1")
        self.assert_waits(w)
        self.assertEqual(t1.q("UPDATE {t} SET value = 100 WHERE id = 1"), 1)
        self.assert_waits(w)
        self.assertEqual(reader.rows("WHERE id = 2"), [(2, 20)])
        self.assertEqual(reader.q("UPDATE {t} SET value = 21 WHERE id = 2"), 1)  # not locked
        t1.q("COMMIT")
        self.assertEqual(w.wait(), 1)  # applied on top of T1's 100
        self.assertEqual(self.final_rows(), [(1, 105), (2, 21)])

    def test_select_for_update_waits_and_conflicts(self):
        t1, t2 = self.sessions_named("T1", "T2")
        # A second FOR UPDATE of the same row waits for the first transaction.
        t1.q("BEGIN")
        self.assertEqual(t1.q("SELECT value FROM {t} WHERE id = 2 FOR UPDATE"), [(20,)])
        t2.q("BEGIN")
        w = t2.start("SELECT value FROM {t} WHERE id = 2 FOR UPDATE")
        self.assert_waits(w)
        self.assertEqual(t1.q("UPDATE {t} SET value = 25 WHERE id = 2"), 1)
        t1.q("COMMIT")
        self.assertEqual(w.wait(), [(25,)])  # READ COMMITTED: locks and returns the new version
        # ... and the transaction goes on (it used to be left failed: 25P02, COMMIT = ROLLBACK).
        self.assertEqual(t2.status, INTRANS)
        self.assertEqual(t2.q("UPDATE {t} SET value = value + 1 WHERE id = 2"), 1)
        t2.q("COMMIT")
        self.assertEqual(t2.last_status, "COMMIT")
        # REPEATABLE READ: locking a row changed since the snapshot is a serialization failure.
        t1.q("BEGIN ISOLATION LEVEL REPEATABLE READ")
        self.assertEqual(t1.rows(), [(1, 10), (2, 26)])
        self.assertEqual(t2.q("UPDATE {t} SET value = 27 WHERE id = 2"), 1)
        self.assertEqual(t1.q("SELECT value FROM {t} WHERE id = 1 FOR UPDATE"), [(10,)])
        self.assert_sqlstate(SERIALIZATION_FAILURE, t1, "SELECT value FROM {t} WHERE id = 2 "
                             "FOR UPDATE")
        t1.q("ROLLBACK")
        self.assertEqual(self.final_rows(), [(1, 10), (2, 27)])

    def test_savepoints(self):
        s, other = self.sessions_named("S", "other")
        s.q("BEGIN")
        self.assertEqual(s.q("UPDATE {t} SET value = 11 WHERE id = 1"), 1)
        s.q("SAVEPOINT a")
        self.assertEqual(s.last_status, "SAVEPOINT")
        self.assertEqual(s.q("UPDATE {t} SET value = 12 WHERE id = 1"), 1)
        self.assertEqual(s.q("INSERT INTO {t} VALUES (3, 30)"), 1)
        self.assertEqual(s.rows(), [(1, 12), (2, 20), (3, 30)])
        s.q("ROLLBACK TO SAVEPOINT a")
        self.assertEqual(s.last_status, "ROLLBACK")
        self.assertEqual(s.status, INTRANS)
        self.assertEqual(s.rows(), [(1, 11), (2, 20)])
        # An error after a savepoint: rolling back to it makes the transaction usable again.
        s.q("SAVEPOINT b")
        self.assert_sqlstate(DIVISION_BY_ZERO, s, "SELECT 1 / 0")
        self.assertEqual(s.status, INERROR)
        self.assert_sqlstate(IN_FAILED_TXN, s, "SELECT 1")
        s.q("ROLLBACK TO b")
        self.assertEqual(s.status, INTRANS)
        self.assertEqual(s.rows(), [(1, 11), (2, 20)])
        self.assertEqual(s.q("UPDATE {t} SET value = 21 WHERE id = 2"), 1)
        s.q("RELEASE SAVEPOINT b")
        self.assertEqual(s.last_status, "RELEASE")
        self.assert_sqlstate("3B001", s, "ROLLBACK TO SAVEPOINT b")  # released: gone
        self.assertEqual(s.status, INERROR)
        s.q("ROLLBACK TO SAVEPOINT a")  # a is still there; undoes everything after it
        self.assertEqual(s.status, INTRANS)
        self.assertEqual(s.rows(), [(1, 11), (2, 20)])
        self.assertEqual(s.q("INSERT INTO {t} VALUES (4, 40)"), 1)
        s.q("RELEASE a")
        self.assertEqual(other.rows(), [(1, 10), (2, 20)])
        s.q("COMMIT")
        self.assertEqual(s.last_status, "COMMIT")
        self.assertEqual(self.final_rows(), [(1, 11), (2, 20), (4, 40)])

    def test_rollback_to_savepoint_releases_row_locks(self):
        t1, t2 = self.sessions_named("T1", "T2")
        t1.q("BEGIN")
        self.assertEqual(t1.q("UPDATE {t} SET value = 11 WHERE id = 1"), 1)
        t1.q("SAVEPOINT s")
        self.assertEqual(t1.q("UPDATE {t} SET value = 21 WHERE id = 2"), 1)
        w = t2.start("UPDATE {t} SET value = value + 100 WHERE id = 2")
        self.assert_waits(w)
        t1.q("ROLLBACK TO SAVEPOINT s")
        self.assertEqual(w.wait(), 1)  # row 2 is free again; row 1 stays locked
        w1 = t2.start("UPDATE {t} SET value = value + 100 WHERE id = 1")
        self.assert_waits(w1)
        t1.q("COMMIT")
        self.assertEqual(w1.wait(), 1)
        self.assertEqual(self.final_rows(), [(1, 111), (2, 120)])

    def test_psycopg_transaction_mode(self):
        # psycopg's own transaction handling (autocommit off, isolation_level, transaction()):
        # it sends BEGIN [ISOLATION LEVEL ...] itself; the server must honour it.
        other = self.session("other")
        conn = psycopg.connect(SERVER.conninfo(), autocommit=False, connect_timeout=20)
        self.addCleanup(conn.close)
        conn.isolation_level = IsolationLevel.REPEATABLE_READ
        t = self.table

        def snapshot_block():
            with conn.transaction():
                level = conn.execute("SHOW transaction_isolation").fetchone()
                before = conn.execute(f"SELECT value FROM {t} WHERE id = 1").fetchone()
                other.q("UPDATE {t} SET value = 11 WHERE id = 1")
                after = conn.execute(f"SELECT value FROM {t} WHERE id = 1").fetchone()
                status = conn.info.transaction_status
            return level, before, after, status, conn.info.transaction_status

        level, before, after, status, status_after = Call("snapshot", snapshot_block).wait()
        self.assertEqual(level, ("repeatable read",))
        self.assertEqual((before, after), ((10,), (10,)))
        self.assertEqual(status, INTRANS)
        self.assertEqual(status_after, IDLE)

        def conflict_block():
            with conn.transaction():
                conn.execute(f"SELECT value FROM {t} WHERE id = 1").fetchone()
                other.q("UPDATE {t} SET value = 12 WHERE id = 1")
                conn.execute(f"UPDATE {t} SET value = value + 1 WHERE id = 1")

        with self.assertRaises(errors.SerializationFailure):
            Call("conflict", conflict_block).wait()
        self.assertEqual(conn.info.transaction_status, IDLE)  # rolled back by transaction()

        def rollback_on_exception():
            with conn.transaction():
                conn.execute(f"UPDATE {t} SET value = 99 WHERE id = 2")
                raise KeyError("undo")

        with self.assertRaises(KeyError):
            Call("rollback", rollback_on_exception).wait()
        self.assertEqual(other.rows(), [(1, 12), (2, 20)])

        def read_committed_commit():
            conn.isolation_level = IsolationLevel.READ_COMMITTED
            level = conn.execute("SHOW transaction_isolation").fetchone()  # implicit BEGIN
            status = conn.info.transaction_status
            conn.execute(f"UPDATE {t} SET value = value + 1 WHERE id = 2")
            other.q("UPDATE {t} SET value = 13 WHERE id = 1")
            seen = conn.execute(f"SELECT value FROM {t} WHERE id = 1").fetchone()
            conn.commit()
            return level, status, seen

        level, status, seen = Call("read committed", read_committed_commit).wait()
        self.assertEqual(level, ("read committed",))
        self.assertEqual(status, INTRANS)
        self.assertEqual(seen, (13,))
        self.assertEqual(conn.info.transaction_status, IDLE)
        self.assertEqual(self.final_rows(), [(1, 13), (2, 21)])


if __name__ == "__main__":
    unittest.main(verbosity=2)
