# The Python driver (client/python, import name meridian) against a real meridiand: connection
# and transactions, parameters of every supported type both ways, the error classes chosen by
# SQLSTATE (unique violation, serialization failure, ...), streaming of large results,
# executemany batches, cancel and statement timeout, a lost connection.
import datetime
import decimal
import os
import shutil
import subprocess
import tempfile
import threading
import time
import unittest

import meridian
from driver_server import MeridianDaemon
from sql_proxy import SqlProxy

daemon = None


def setUpModule():
    global daemon
    daemon = MeridianDaemon().start()


def tearDownModule():
    code = daemon.stop()
    if code != 0:
        raise AssertionError(f"meridiand exited with {code}:\n{daemon.log()}")


def connect(**kw):
    return meridian.connect(host="127.0.0.1", port=daemon.grpc_port, timeout=10, **kw)


class DriverTest(unittest.TestCase):
    def setUp(self):
        self.conn = connect(autocommit=True)
        self.cur = self.conn.cursor()

    def tearDown(self):
        if not self.conn.closed:
            self.conn.close()

    def table(self, name, columns):
        self.cur.execute(f"DROP TABLE IF EXISTS {name}")
        self.cur.execute(f"CREATE TABLE {name} ({columns})")
        return name

    # --- types --------------------------------------------------------------------------
    def test_types_round_trip(self):
        self.table("rt", "i INTEGER, b BIGINT, s SMALLINT, f DOUBLE PRECISION, r REAL, "
                         "n NUMERIC(12,3), t TEXT, v VARCHAR(10), ok BOOLEAN, d DATE, "
                         "ts TIMESTAMP")
        row = (42, 9_000_000_000, -7, 2.5, 0.25, decimal.Decimal("1234.500"), "it's \"x\" %s",
               "short", True, datetime.date(2024, 2, 29),
               datetime.datetime(2024, 2, 29, 13, 45, 30, 123456))
        self.cur.execute("INSERT INTO rt VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
                         row)
        self.assertEqual(self.cur.rowcount, 1)
        self.cur.execute("INSERT INTO rt (i) VALUES (%s)", (None,))
        self.cur.execute("SELECT * FROM rt ORDER BY i NULLS LAST")
        got = self.cur.fetchall()
        self.assertEqual(got[0], row)
        for value, expected in zip(got[0], row):
            self.assertIs(type(value), type(expected))
        self.assertEqual(got[1], (None,) * 11)

    def test_untyped_context_keeps_python_types(self):
        self.cur.execute("SELECT %s, %s, %s, %s, %s, %s",
                         (7, 1.5, decimal.Decimal("2.50"), "x", False, datetime.date(2020, 1, 2)))
        self.assertEqual(self.cur.fetchone(),
                         (7, 1.5, decimal.Decimal("2.50"), "x", False, datetime.date(2020, 1, 2)))
        self.cur.execute("SELECT %s + 1, %s * 2", (2 ** 62, decimal.Decimal("0.1")))
        self.assertEqual(self.cur.fetchone(), (2 ** 62 + 1, decimal.Decimal("0.2")))

    def test_lists_are_array_parameters(self):
        # As with psycopg: a list is an array parameter, so `= ANY(%s)` takes a Python list.
        self.table("arr", "i INTEGER PRIMARY KEY, t TEXT")
        self.cur.executemany("INSERT INTO arr VALUES (%s, %s)",
                             [(1, 'a"b'), (2, "c,d"), (3, "e\\f"), (4, None)])
        self.cur.execute("SELECT i FROM arr WHERE i = ANY(%s) ORDER BY i", ([3, 1, 99],))
        self.assertEqual(self.cur.fetchall(), [(1,), (3,)])
        self.cur.execute("SELECT i FROM arr WHERE t = ANY(%s) ORDER BY i",
                         (['a"b', "c,d", "e\\f", None],))
        self.assertEqual(self.cur.fetchall(), [(1,), (2,), (3,)])
        self.cur.execute("SELECT count(*) FROM arr WHERE i <> ALL(%s)", ((2, 4),))
        self.assertEqual(self.cur.fetchone(), (2,))
        with self.assertRaises(meridian.ProgrammingError):
            self.cur.execute("SELECT %s", ([1, "x"],))  # one element type per list

    def test_bytea_and_uuid(self):
        # bytes travel as bytes_value both ways (bytea); a uuid as its text form.
        self.table("blob", "id UUID PRIMARY KEY, b BYTEA")
        key = "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"
        self.cur.execute("INSERT INTO blob VALUES (%s, %s)", (key.upper(), b"\x00\x01\xff"))
        self.cur.execute("SELECT id, b, length(b) FROM blob WHERE b = %s", (b"\x00\x01\xff",))
        self.assertEqual(self.cur.fetchall(), [(key, b"\x00\x01\xff", 3)])
        self.cur.execute("SELECT %s || '\\x02'::bytea", (b"\x01",))
        self.assertEqual(self.cur.fetchone(), (b"\x01\x02",))

    def test_json_and_jsonb(self):
        # json/jsonb cells travel as their text and load as Python values; a dict parameter
        # is sent as jsonb.
        self.table("jdoc", "id INT PRIMARY KEY, j JSON, b JSONB")
        doc = {"name": "ann", "tags": ["x", None], "n": 1.5, "ok": True}
        self.cur.execute("INSERT INTO jdoc VALUES (1, %s, %s)", ('{"b":1,  "a":2}', doc))
        self.cur.execute("SELECT j, b, b -> 'tags', b ->> 'name', j::text FROM jdoc "
                         "WHERE b @> %s", ({"ok": True},))
        self.assertEqual(self.cur.fetchall(),
                         [({"b": 1, "a": 2}, doc, ["x", None], "ann", '{"b":1,  "a":2}')])

    def test_parameters_are_never_spliced(self):
        self.table("inj", "s TEXT")
        evil = "'); DROP TABLE inj; --"
        self.cur.execute("INSERT INTO inj VALUES (%s)", (evil,))
        self.cur.execute("SELECT s FROM inj WHERE s = %(v)s OR s = %(v)s", {"v": evil})
        self.assertEqual(self.cur.fetchall(), [(evil,)])

    def test_pyformat_rules(self):
        self.cur.execute("SELECT '100%%' || %s", ("!",))
        self.assertEqual(self.cur.fetchone(), ("100%!",))
        self.cur.execute("SELECT '5%'")  # no parameters: the text is sent as it is
        self.assertEqual(self.cur.fetchone(), ("5%",))
        with self.assertRaises(meridian.ProgrammingError):
            self.cur.execute("SELECT %s, %s", (1,))
        with self.assertRaises(meridian.ProgrammingError):
            self.cur.execute("SELECT %(a)s", {"b": 1})
        with self.assertRaises(meridian.ProgrammingError):
            self.cur.execute("SELECT %d", (1,))
        with self.assertRaises(meridian.ProgrammingError):
            self.cur.execute("SELECT %s", (object(),))

    def test_description(self):
        self.table("descr", "id INTEGER NOT NULL, name VARCHAR(20), price NUMERIC(8,2), "
                            "at TIMESTAMP")
        self.cur.execute("SELECT id, name, price, at FROM descr")
        d = self.cur.description
        self.assertEqual([c[0] for c in d], ["id", "name", "price", "at"])
        self.assertEqual(d[0][1], meridian.NUMBER)
        self.assertEqual(d[1][1], meridian.STRING)
        self.assertEqual(d[2][1], meridian.NUMBER)
        self.assertEqual(d[3][1], meridian.DATETIME)
        self.assertNotEqual(d[1][1], meridian.NUMBER)
        self.assertEqual(d[1][3], 20)
        self.assertEqual((d[2][4], d[2][5]), (8, 2))
        self.cur.execute("DELETE FROM descr")
        self.assertIsNone(self.cur.description)

    # --- errors -------------------------------------------------------------------------
    def test_errors_by_sqlstate(self):
        self.table("u", "id INTEGER PRIMARY KEY")
        self.cur.execute("INSERT INTO u VALUES (1)")
        with self.assertRaises(meridian.IntegrityError) as e:
            self.cur.execute("INSERT INTO u VALUES (%s)", (1,))
        self.assertEqual(e.exception.sqlstate, "23505")
        self.assertIn("Key (id)=(1)", e.exception.detail)
        with self.assertRaises(meridian.ProgrammingError) as e:
            self.cur.execute("SELEC 1")
        self.assertEqual((e.exception.sqlstate, e.exception.position), ("42601", 1))
        with self.assertRaises(meridian.ProgrammingError) as e:
            self.cur.execute("SELECT * FROM no_such_table")
        self.assertEqual(e.exception.sqlstate, "42P01")
        with self.assertRaises(meridian.DataError) as e:
            self.cur.execute("SELECT 1 / %s", (0,))
        self.assertEqual(e.exception.sqlstate, "22012")
        with self.assertRaises(meridian.DataError) as e:
            self.cur.execute("SELECT id FROM u WHERE id = %s", ("abc",))
        self.assertEqual(e.exception.sqlstate, "22P02")
        # The connection stays usable after each.
        self.cur.execute("SELECT count(*) FROM u")
        self.assertEqual(self.cur.fetchone(), (1,))

    def test_serialization_failure_is_retryable(self):
        self.table("acct", "id INTEGER PRIMARY KEY, balance INTEGER")
        self.cur.execute("INSERT INTO acct VALUES (1, 100)")
        other = connect(isolation_level="repeatable read")
        try:
            oc = other.cursor()
            oc.execute("SELECT balance FROM acct WHERE id = 1")  # snapshot taken here
            self.assertEqual(oc.fetchone(), (100,))
            self.cur.execute("UPDATE acct SET balance = balance + 1 WHERE id = 1")
            with self.assertRaises(meridian.SerializationFailure) as e:
                oc.execute("UPDATE acct SET balance = balance - 1 WHERE id = 1")
            err = e.exception
            self.assertEqual(err.sqlstate, "40001")
            self.assertIsInstance(err, meridian.OperationalError)
            self.assertIsInstance(err, meridian.TransactionRollbackError)
            self.assertTrue(err.retryable)
            other.rollback()
            self.assertFalse(other.in_transaction)
            oc.execute("UPDATE acct SET balance = balance - 1 WHERE id = 1")  # the retry
            other.commit()
        finally:
            other.close()
        self.cur.execute("SELECT balance FROM acct")
        self.assertEqual(self.cur.fetchone(), (100,))

    # --- transactions ---------------------------------------------------------------------
    def test_commit_rollback_and_context_manager(self):
        self.table("tx", "v INTEGER")
        conn = connect()
        self.assertFalse(conn.autocommit)
        cur = conn.cursor()
        cur.execute("INSERT INTO tx VALUES (1)")
        self.assertTrue(conn.in_transaction)
        self.cur.execute("SELECT count(*) FROM tx")
        self.assertEqual(self.cur.fetchone(), (0,))  # not committed yet
        conn.rollback()
        cur.execute("INSERT INTO tx VALUES (2)")
        conn.commit()
        conn.close()
        with connect() as conn:
            conn.cursor().execute("INSERT INTO tx VALUES (3)")
        with self.assertRaises(ZeroDivisionError):
            with connect() as conn:
                conn.cursor().execute("INSERT INTO tx VALUES (4)")
                raise ZeroDivisionError
        self.assertTrue(conn.closed)
        conn = connect()
        conn.cursor().execute("INSERT INTO tx VALUES (5)")
        conn.close()  # closing rolls back
        self.cur.execute("SELECT v FROM tx ORDER BY v")
        self.assertEqual(self.cur.fetchall(), [(2,), (3,)])

    def test_savepoints_keep_the_transaction(self):
        self.table("sp", "v INTEGER")
        conn = connect()
        try:
            cur = conn.cursor()
            cur.execute("INSERT INTO sp VALUES (1)")
            cur.execute("SAVEPOINT a")
            cur.execute("INSERT INTO sp VALUES (2)")
            cur.execute("ROLLBACK TO SAVEPOINT a")  # tag "ROLLBACK", transaction still open
            self.assertTrue(conn.in_transaction)
            conn.commit()
            self.assertFalse(conn.in_transaction)
        finally:
            conn.close()
        self.cur.execute("SELECT v FROM sp")
        self.assertEqual(self.cur.fetchall(), [(1,)])

    def test_autocommit_switch(self):
        conn = connect()
        try:
            conn.cursor().execute("SELECT 1")
            with self.assertRaises(meridian.ProgrammingError):
                conn.autocommit = True  # a transaction is open
            conn.rollback()
            conn.autocommit = True
            conn.cursor().execute("SELECT 1")
            self.assertFalse(conn.in_transaction)
        finally:
            conn.close()

    # --- results ------------------------------------------------------------------------
    def test_large_result_is_streamed(self):
        n = 30000
        self.table("big", "id INTEGER, pad TEXT")
        self.cur.execute("INSERT INTO big SELECT g, repeat('x', 50) FROM generate_series(1, %s) g",
                         (n,))
        self.assertEqual(self.cur.rowcount, n)
        self.cur.execute("SELECT id FROM big ORDER BY id")
        self.assertEqual(self.cur.rowcount, -1)  # not all read yet
        buffered = len(self.cur._stream.sets[0].rows)
        self.assertLess(buffered, n // 2)  # one chunk, not the whole result
        first = self.cur.fetchmany(10)
        self.assertEqual(first, [(i,) for i in range(1, 11)])
        # Another cursor on the same connection: the rest of this result is kept for it.
        other = self.conn.cursor()
        other.execute("SELECT count(*) FROM big")
        self.assertEqual(other.fetchone(), (n,))
        rest = [r[0] for r in self.cur]
        self.assertEqual(rest, list(range(11, n + 1)))
        self.assertEqual(self.cur.rowcount, n)

    def test_executemany_batches(self):
        self.table("many", "id INTEGER PRIMARY KEY, name TEXT")
        rows = [(i, f"n{i}") for i in range(250)]
        self.cur.executemany("INSERT INTO many VALUES (%s, %s);", rows)
        self.assertEqual(self.cur.rowcount, 250)
        self.cur.executemany("UPDATE many SET name = %(name)s WHERE id = %(id)s",
                             [{"id": 1, "name": "one"}, {"id": 2, "name": "two"}])
        self.assertEqual(self.cur.rowcount, 2)
        self.cur.execute("SELECT count(*), min(name), max(id) FROM many")
        self.assertEqual(self.cur.fetchone(), (250, "n0", 249))
        with self.assertRaises(meridian.IntegrityError):
            self.cur.executemany("INSERT INTO many VALUES (%s, %s)", [(1000, "a"), (1, "dup")])

    def test_nextset_and_callproc(self):
        self.cur.execute("SELECT 1; SELECT 'a' UNION ALL SELECT 'b'")
        self.assertEqual(self.cur.fetchall(), [(1,)])
        self.assertTrue(self.cur.nextset())
        self.assertEqual(self.cur.fetchall(), [("a",), ("b",)])
        self.assertIsNone(self.cur.nextset())
        self.assertEqual(self.cur.callproc("lower", ("ABC",)), ("ABC",))
        self.assertEqual(self.cur.fetchall(), [("abc",)])

    def test_fetch_without_result_raises(self):
        cur = self.conn.cursor()
        with self.assertRaises(meridian.ProgrammingError):
            cur.fetchone()
        cur.execute("SET application_name = 'x'")
        with self.assertRaises(meridian.ProgrammingError):
            cur.fetchall()
        cur.close()
        with self.assertRaises(meridian.InterfaceError):
            cur.execute("SELECT 1")

    # --- cancel, timeout, lost connection -----------------------------------------------------
    def slow_table(self):
        self.table("slow", "v INTEGER")
        self.cur.execute("INSERT INTO slow SELECT g FROM generate_series(1, 5000) g")
        return "SELECT count(*) FROM slow a, slow b, slow c WHERE a.v + b.v = c.v"

    def test_cancel_from_another_thread(self):
        sql = self.slow_table()
        timer = threading.Timer(0.5, self.conn.cancel)
        timer.start()
        started = time.monotonic()
        with self.assertRaises(meridian.QueryCanceled) as e:
            self.cur.execute(sql)
        timer.join()
        self.assertEqual(e.exception.sqlstate, "57014")
        self.assertLess(time.monotonic() - started, 30)
        self.cur.execute("SELECT 1")
        self.assertEqual(self.cur.fetchone(), (1,))

    def test_statement_timeout(self):
        sql = self.slow_table()
        conn = connect(autocommit=True, statement_timeout=0.5)
        try:
            with self.assertRaises(meridian.QueryCanceled) as e:
                conn.cursor().execute(sql)
            self.assertEqual(e.exception.sqlstate, "57014")
            cur = conn.cursor()
            cur.execute("SELECT 2")
            self.assertEqual(cur.fetchone(), (2,))
        finally:
            conn.close()

    def test_connect_failures(self):
        with self.assertRaises(meridian.OperationalError) as e:
            meridian.connect(host="127.0.0.1", port=1, timeout=1)
        self.assertEqual(e.exception.sqlstate, "08001")
        with self.assertRaises(meridian.InterfaceError):
            meridian.connect(port=daemon.grpc_port, sslmode="sometimes")

    def test_closed_connection(self):
        conn = connect()
        cur = conn.cursor()
        conn.close()
        with self.assertRaises(meridian.InterfaceError):
            cur.execute("SELECT 1")
        with self.assertRaises(meridian.InterfaceError):
            conn.close()


class LostConnectionTest(unittest.TestCase):
    def test_server_stop_is_a_lost_connection(self):
        own = MeridianDaemon().start()
        try:
            conn = meridian.connect(port=own.grpc_port, autocommit=True)
            cur = conn.cursor()
            cur.execute("SELECT 1")
            self.assertEqual(own.stop(), 0)
            with self.assertRaises(meridian.OperationalError) as e:
                cur.execute("SELECT 1")
            self.assertTrue(e.exception.sqlstate.startswith("08"), e.exception.sqlstate)
            conn.close()
        finally:
            own.stop()


class SessionStreamTest(unittest.TestCase):
    """Requests on the session's one ExecuteSession stream, seen through SqlProxy (sql_proxy.py),
    which counts the RPCs the driver makes: state, in-band errors, timeout and cancel leave the
    stream in use; a Cancel that matches nothing or a timeout the server does not keep makes
    the driver drop it; a server without
    ExecuteSession gets ExecuteStream calls; close() half-closes the stream."""

    SLOW = "SELECT count(*) FROM slow_s a, slow_s b, slow_s c WHERE a.v + b.v = c.v"

    @classmethod
    def setUpClass(cls):
        with connect(autocommit=True) as conn:
            cur = conn.cursor()
            cur.execute("DROP TABLE IF EXISTS slow_s")
            cur.execute("CREATE TABLE slow_s (v INTEGER)")
            cur.execute("INSERT INTO slow_s SELECT g FROM generate_series(1, 15000) g")

    def connect(self, proxy_options=None, **kw):
        proxy = SqlProxy(daemon.grpc_port, **(proxy_options or {}))
        self.addCleanup(proxy.stop)  # cleanups run last first: the connection closes before
        conn = meridian.connect(host="127.0.0.1", port=proxy.port, timeout=10, **kw)
        self.addCleanup(lambda: conn.closed or conn.close())
        return conn, proxy

    def shorten_grace(self, seconds):
        grace = meridian.connection._CANCEL_GRACE_S
        meridian.connection._CANCEL_GRACE_S = seconds
        self.addCleanup(setattr, meridian.connection, "_CANCEL_GRACE_S", grace)

    def cancel_soon(self, conn):
        timer = threading.Timer(0.5, conn.cancel)
        timer.start()
        self.addCleanup(timer.join)

    def test_requests_share_one_stream(self):
        conn, proxy = self.connect()  # not autocommit: implicit BEGIN, COMMIT, ROLLBACK too
        cur, other = conn.cursor(), conn.cursor()
        cur.execute("CREATE TEMP TABLE tmp_s (i INTEGER PRIMARY KEY, t TEXT)")
        cur.executemany("INSERT INTO tmp_s VALUES (%s, %s)", [(i, f"r{i}") for i in range(250)])
        self.assertEqual(cur.rowcount, 250)
        conn.commit()
        cur.execute("DELETE FROM tmp_s WHERE i >= 10")
        other.execute("SELECT count(*) FROM tmp_s")  # the same transaction block
        self.assertEqual(other.fetchone(), (10,))
        conn.rollback()
        cur.execute("SELECT i FROM tmp_s ORDER BY i")
        first = cur.fetchmany(3)
        other.execute("SELECT count(*) FROM tmp_s")  # cur's rest is buffered first
        self.assertEqual(other.fetchone(), (250,))
        self.assertEqual(first + cur.fetchall(), [(i,) for i in range(250)])
        conn.commit()
        self.assertEqual(proxy.calls["ExecuteSession"], 1)
        self.assertEqual(proxy.calls["ExecuteStream"], 0)

    def test_in_band_errors_keep_class_and_stream(self):
        conn, proxy = self.connect(autocommit=True)
        cur = conn.cursor()
        cur.execute("CREATE TEMP TABLE uniq_s (i INTEGER PRIMARY KEY)")
        cur.execute("INSERT INTO uniq_s VALUES (1)")
        cases = (("INSERT INTO uniq_s VALUES (1)", meridian.IntegrityError, "23505", 0),
                 ("SELEC 1", meridian.ProgrammingError, "42601", 0),
                 ("SELECT 1; SELECT 1 / 0", meridian.DataError, "22012", 1))
        for sql, cls, sqlstate, index in cases:
            with self.assertRaises(cls) as e:
                cur.execute(sql)
            self.assertEqual((e.exception.sqlstate, e.exception.statement_index),
                             (sqlstate, index), sql)
            if sqlstate == "23505":
                self.assertIn("Key (i)=(1)", e.exception.detail)
            cur.execute("SELECT count(*) FROM uniq_s")
            self.assertEqual(cur.fetchone(), (1,))
        # A failed transaction block stays failed (25P02) until ROLLBACK, as in PostgreSQL.
        cur.execute("BEGIN")
        with self.assertRaises(meridian.DataError):
            cur.execute("SELECT 1 / 0")
        with self.assertRaises(meridian.InternalError) as e:
            cur.execute("SELECT 1")
        self.assertEqual(e.exception.sqlstate, "25P02")
        cur.execute("ROLLBACK")
        self.assertFalse(conn.in_transaction)
        cur.execute("SELECT 3")
        self.assertEqual(cur.fetchone(), (3,))
        self.assertEqual(proxy.calls["ExecuteSession"], 1)

    def test_timeout_then_next_request(self):
        conn, proxy = self.connect(autocommit=True, statement_timeout=0.5)
        cur = conn.cursor()
        started = time.monotonic()
        with self.assertRaises(meridian.QueryCanceled) as e:
            cur.execute(self.SLOW)
        self.assertEqual(e.exception.sqlstate, "57014")
        self.assertLess(time.monotonic() - started, 10)
        cur.execute("SELECT 2")
        self.assertEqual(cur.fetchone(), (2,))
        self.assertEqual(proxy.calls["ExecuteSession"], 1)

    def test_cancel_keeps_the_stream(self):
        conn, proxy = self.connect(autocommit=True)
        cur = conn.cursor()
        self.cancel_soon(conn)
        started = time.monotonic()
        with self.assertRaises(meridian.QueryCanceled) as e:
            cur.execute(self.SLOW)
        self.assertEqual(e.exception.sqlstate, "57014")
        # Answered in-band by the server, well before the driver would drop the stream.
        self.assertLess(time.monotonic() - started, meridian.connection._CANCEL_GRACE_S)
        cur.execute("SELECT 4")
        self.assertEqual(cur.fetchone(), (4,))
        self.assertEqual(proxy.calls["ExecuteSession"], 1)
        self.assertEqual(proxy.calls["Cancel"], 1)

    def test_unanswered_cancel_drops_the_stream(self):
        conn, proxy = self.connect({"ignore_cancel": True}, autocommit=True)
        cur = conn.cursor()
        self.shorten_grace(1.0)
        self.cancel_soon(conn)
        started = time.monotonic()
        with self.assertRaises(meridian.QueryCanceled):
            cur.execute(self.SLOW)
        self.assertGreaterEqual(time.monotonic() - started, 1.4)
        cur.execute("SELECT 5")  # on a new stream
        self.assertEqual(cur.fetchone(), (5,))
        self.assertEqual(proxy.calls["ExecuteSession"], 2)
        self.assertEqual(proxy.session_ends[:1], ["CANCELLED"])

    def test_unanswered_timeout_drops_the_stream(self):
        conn, proxy = self.connect({"ignore_timeout": True}, autocommit=True,
                                   statement_timeout=0.5)
        self.shorten_grace(1.0)
        cur = conn.cursor()
        started = time.monotonic()
        with self.assertRaises(meridian.QueryCanceled):
            cur.execute(self.SLOW)
        self.assertGreaterEqual(time.monotonic() - started, 1.4)
        cur.execute("SELECT 7")  # on a new stream
        self.assertEqual(cur.fetchone(), (7,))
        self.assertEqual(proxy.calls["ExecuteSession"], 2)

    def test_fallback_without_execute_session(self):
        conn, proxy = self.connect({"refuse_session": True}, autocommit=True,
                                   statement_timeout=0.5)
        cur = conn.cursor()
        cur.execute("CREATE TEMP TABLE fb_s (i INTEGER PRIMARY KEY)")
        cur.execute("INSERT INTO fb_s VALUES (1)")
        with self.assertRaises(meridian.IntegrityError) as e:
            cur.execute("INSERT INTO fb_s VALUES (1)")
        self.assertEqual(e.exception.sqlstate, "23505")
        with self.assertRaises(meridian.QueryCanceled):
            cur.execute(self.SLOW)  # the call's deadline
        conn.statement_timeout = None
        self.cancel_soon(conn)
        with self.assertRaises(meridian.QueryCanceled):
            cur.execute(self.SLOW)
        cur.execute("SELECT count(*) FROM fb_s")
        self.assertEqual(cur.fetchone(), (1,))
        self.assertEqual(proxy.calls["ExecuteSession"], 1)  # asked once
        self.assertEqual(proxy.calls["ExecuteStream"], 6)

    def test_close_ends_the_stream_cleanly(self):
        conn, proxy = self.connect(autocommit=True)
        cur = conn.cursor()
        cur.execute("SELECT 6")
        self.assertEqual(cur.fetchone(), (6,))
        conn.close()
        self.assertEqual(proxy.session_ends, ["OK"])
        self.assertEqual(proxy.calls["CloseSession"], 1)


class SecurityTest(unittest.TestCase):
    """A daemon with a users file and TLS (a self-signed certificate made by the openssl CLI):
    a password over TLS works; a wrong password and an unknown user get the same 28P01; a
    client without TLS cannot connect; a session id without its secret is refused."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="meridian-pysec.")
        cls.cert, key, users = (os.path.join(cls.tmp, n)
                                for n in ("cert.pem", "key.pem", "users"))
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                        "-subj", "/CN=localhost", "-addext",
                        "subjectAltName=DNS:localhost,IP:127.0.0.1", "-keyout", key,
                        "-out", cls.cert], check=True, capture_output=True)
        with open(users, "w") as f:
            f.write("meridian:py-secret\n")
        cls.daemon = MeridianDaemon(extra_args=["--users-file", users, "--tls-cert", cls.cert,
                                                "--tls-key", key]).start()

    @classmethod
    def tearDownClass(cls):
        code = cls.daemon.stop()
        shutil.rmtree(cls.tmp, ignore_errors=True)
        if code != 0:
            raise AssertionError(f"meridiand exited with {code}:\n{cls.daemon.log()}")

    def connect(self, **kw):
        options = dict(host="127.0.0.1", port=self.daemon.grpc_port, user="meridian",
                       password="py-secret", sslmode="verify-full", sslrootcert=self.cert,
                       ssl_server_name="localhost", timeout=5, autocommit=True)
        options.update(kw)
        return meridian.connect(**options)

    def test_password_over_tls(self):
        with self.connect() as conn:
            cur = conn.cursor()
            cur.execute("CREATE TABLE sealed (id INTEGER PRIMARY KEY, v TEXT)")
            cur.execute("INSERT INTO sealed VALUES (%s, %s)", (1, "over tls"))
            cur.execute("SELECT v FROM sealed WHERE id = %s", (1,))
            self.assertEqual(cur.fetchall(), [("over tls",)])
            with self.assertRaises(meridian.IntegrityError) as e:
                cur.execute("INSERT INTO sealed VALUES (%s, %s)", (1, "again"))
            self.assertEqual(e.exception.sqlstate, "23505")

    def test_wrong_password_and_unknown_user(self):
        for user, password in (("meridian", "wrong"), ("mallory", "py-secret"),
                               ("meridian", None)):
            with self.assertRaises(meridian.OperationalError) as e:
                self.connect(user=user, password=password)
            self.assertEqual(e.exception.sqlstate, "28P01")
            self.assertEqual(e.exception.message,
                             f'password authentication failed for user "{user}"')

    def test_no_tls_cannot_connect(self):
        with self.assertRaises(meridian.OperationalError) as e:
            self.connect(sslmode="disable")
        self.assertEqual(e.exception.sqlstate, "08001")

    def test_session_id_without_its_secret_is_refused(self):
        import grpc
        from meridian._proto import meridian_pb2 as pb
        with self.connect() as conn:
            # The connection's own stub and channel, but not its secret.
            for metadata in ((), (("x-meridian-session-secret", "0" * 64),)):
                with self.assertRaises(grpc.RpcError) as e:
                    list(conn._stub.ExecuteStream(
                        pb.ExecuteRequest(session_id=conn.session_id, sql="SELECT 1"),
                        timeout=5, metadata=metadata))
                self.assertEqual(e.exception.code(), grpc.StatusCode.UNAUTHENTICATED)
                self.assertEqual(meridian.errors.from_rpc_error(e.exception).sqlstate, "28000")
            cur = conn.cursor()
            cur.execute("SELECT 1")  # the session itself goes on
            self.assertEqual(cur.fetchall(), [(1,)])


if __name__ == "__main__":
    unittest.main(verbosity=2)
