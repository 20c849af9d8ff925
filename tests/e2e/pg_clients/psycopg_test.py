# psycopg 3 (libpq underneath) against a real meridiand: connecting, simple queries, a table with
# int/bigint/text/double/boolean/NULL values and their Python types, SQLSTATEs mapped to psycopg's
# exception classes, the connection staying usable after errors, client-side parameter binding
# (ClientCursor), server-side parameters (the default cursor sends them with the extended
# protocol; prepare=True; text and binary formats both ways), SQL PREPARE / EXECUTE /
# DEALLOCATE [ALL] sharing one namespace with protocol-level statements (psycopg's DEALLOCATE ALL
# after a rollback or DROP, and its statements prepared again), ParameterStatus and SET/SHOW,
# type lookups (TypeInfo.fetch), information_schema, COPY FROM STDIN / TO STDOUT in text and
# CSV with bad input, SCRAM-SHA-256 over TLS, and NUMERIC/DATE/TIMESTAMP/SMALLINT/REAL values
# as Decimal/date/datetime/int/float, read and bound in text and binary format, UUID/BYTEA
# values as uuid.UUID/bytes (parameters, results in both formats, COPY), JSON/JSONB values as
# Python dicts and lists (Json/Jsonb parameters, results in both formats), array columns as
# Python lists (list parameters in text and binary, results in both formats, COPY). Run by
# ctest with $MERIDIAND set.
import datetime
import decimal
import os
import subprocess
import sys
import tempfile
import unittest
import uuid

import psycopg
from psycopg import errors
from psycopg.types.json import Json, Jsonb

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from meridian_daemon import MeridianDaemon  # noqa: E402

# PostgreSQL type OIDs as RowDescription reports them.
INT4, INT8, TEXT, FLOAT8, BOOL = 23, 20, 25, 701, 16
UUID, BYTEA = 2950, 17
JSON, JSONB = 114, 3802


class PsycopgTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.daemon = MeridianDaemon().start()

    @classmethod
    def tearDownClass(cls):
        code = cls.daemon.stop()
        log = cls.daemon.log()
        cls.daemon.__exit__(None, None, None)
        if code != 0:
            raise AssertionError(f"meridiand exited with {code}:\n{log}")

    def connect(self, **kwargs):
        # Autocommit (psycopg's default mode opens every transaction with BEGIN; the tests of
        # that mode connect themselves).
        return psycopg.connect(self.daemon.conninfo(), autocommit=True, connect_timeout=20,
                               **kwargs)

    def test_connect_and_simple_queries(self):
        with self.connect() as conn:
            self.assertEqual(conn.info.server_version, 150000)
            self.assertEqual(conn.info.parameter_status("server_encoding"), "UTF8")
            self.assertEqual(conn.execute("SELECT 1").fetchone(), (1,))
            self.assertEqual(conn.execute("SELECT 'hello' AS greeting").fetchall(), [("hello",)])
            cur = conn.execute("SELECT 2 + 3 AS five, 'x' AS letter")
            self.assertEqual([d.name for d in cur.description], ["five", "letter"])
            self.assertEqual(cur.fetchone(), (5, "x"))

    def test_numeric_date_timestamp_text_and_binary(self):
        D = decimal.Decimal
        day = datetime.date(2026, 11, 22)
        at = datetime.datetime(2026, 11, 22, 10, 11, 12, 123456)
        with self.connect() as conn:
            conn.execute("CREATE TABLE ledger (id SMALLINT PRIMARY KEY, amount NUMERIC(12,2), "
                         "rate REAL, day DATE, at TIMESTAMP)")
            conn.execute("INSERT INTO ledger VALUES (1, 1234.5, 0.5, '2026-11-22', "
                         "'2026-11-22 10:11:12.123456')")
            for binary in (False, True):
                cur = conn.cursor(binary=binary)
                cur.execute("INSERT INTO ledger VALUES (%s, %s, %s, %s, %s)",
                            (2 + binary, D("-0.005"), 1.25, day, at))
                cur.execute("SELECT id, amount, rate, day, at FROM ledger ORDER BY id")
                rows = cur.fetchall()
                self.assertEqual([d.type_code for d in cur.description], [21, 1700, 700, 1082, 1114])
                self.assertEqual(rows[0], (1, D("1234.50"), 0.5, day, at))
                self.assertEqual(rows[-1], (2 + binary, D("-0.01"), 1.25, day, at))
                self.assertIsInstance(rows[0][1], D)
                cur.execute("SELECT %s::numeric / 3, %s::numeric * 2, sum(amount) FROM ledger",
                            (D("1"), D("-123456789.000123")))
                self.assertEqual(cur.fetchone(),
                                 (D("0.33333333333333333333"), D("-246913578.000246"),
                                  D("1234.50") - D("0.01") * (1 + binary)))
                cur.execute("SELECT %s::date + 1, %s::timestamp",
                            (day, datetime.datetime(2000, 1, 1)))
                self.assertEqual(cur.fetchone(), (datetime.date(2026, 11, 23),
                                                  datetime.datetime(2000, 1, 1)))
            with self.assertRaises(errors.NumericValueOutOfRange):
                conn.execute("INSERT INTO ledger VALUES (9, %s, 0, NULL, NULL)",
                             (D("12345678901.5"),))
            with self.assertRaises(errors.InvalidDatetimeFormat):
                conn.execute("SELECT 'not a date'::date")

    def test_table_round_trip_with_types_and_nulls(self):
        with self.connect() as conn:
            conn.execute("CREATE TABLE typed (i INTEGER, b BIGINT, t TEXT, d DOUBLE PRECISION, "
                         "f BOOLEAN)")
            cur = conn.execute("INSERT INTO typed VALUES (1, 9000000000, 'one', 1.5, true), "
                               "(2, -1, 'two', -0.25, false), (NULL, NULL, NULL, NULL, NULL)")
            self.assertEqual(cur.rowcount, 3)
            self.assertEqual(cur.statusmessage, "INSERT 0 3")
            cur = conn.execute("SELECT i, b, t, d, f FROM typed ORDER BY i")
            self.assertEqual([d.type_code for d in cur.description], [INT4, INT8, TEXT, FLOAT8, BOOL])
            rows = cur.fetchall()
            self.assertEqual(rows, [(1, 9000000000, "one", 1.5, True),
                                    (2, -1, "two", -0.25, False),
                                    (None, None, None, None, None)])
            self.assertIs(type(rows[0][0]), int)
            self.assertIs(type(rows[0][3]), float)
            self.assertIs(type(rows[0][4]), bool)

    def test_many_rows_stream(self):
        with self.connect() as conn:
            conn.execute("CREATE TABLE many (n INTEGER)")
            conn.execute("INSERT INTO many VALUES (1)")
            for shift in range(12):  # 4096 rows
                conn.execute(f"INSERT INTO many SELECT n + {1 << shift} FROM many")
            total = 0
            count = 0
            with conn.cursor() as cur:
                cur.execute("SELECT n FROM many")
                while batch := cur.fetchmany(500):
                    count += len(batch)
                    total += sum(r[0] for r in batch)
            self.assertEqual(count, 4096)
            self.assertEqual(total, 4096 * 4097 // 2)

    def assert_sqlstate(self, conn, sql, exc_class, sqlstate):
        with self.assertRaises(exc_class) as ctx:
            conn.execute(sql)
        self.assertEqual(ctx.exception.sqlstate, sqlstate)
        self.assertIsInstance(ctx.exception, psycopg.Error)
        # The connection goes on after the error.
        self.assertEqual(conn.execute("SELECT 42").fetchone(), (42,))

    def test_errors_map_to_psycopg_exceptions(self):
        with self.connect() as conn:
            self.assert_sqlstate(conn, "SELECT * FROM no_such_table", errors.UndefinedTable, "42P01")
            conn.execute("CREATE TABLE uniq (id INTEGER PRIMARY KEY, v TEXT)")
            conn.execute("INSERT INTO uniq VALUES (1, 'a')")
            self.assert_sqlstate(conn, "INSERT INTO uniq VALUES (1, 'b')", errors.UniqueViolation,
                                 "23505")
            self.assert_sqlstate(conn, "SELECT 1 / 0", errors.DivisionByZero, "22012")
            self.assert_sqlstate(conn, "SELEC 1", errors.SyntaxError, "42601")
            self.assert_sqlstate(conn, "SELECT nope FROM uniq", errors.UndefinedColumn, "42703")
            self.assertEqual(conn.execute("SELECT v FROM uniq").fetchall(), [("a",)])
            # Error fields beyond the SQLSTATE.
            with self.assertRaises(errors.SyntaxError) as ctx:
                conn.execute("SELECT 1 FROM")
            self.assertEqual(ctx.exception.diag.severity, "ERROR")
            self.assertTrue(ctx.exception.diag.message_primary)
            self.assertEqual(conn.execute("SELECT 'alive'").fetchone(), ("alive",))

    def test_client_cursor_binds_parameters_client_side(self):
        with self.connect(cursor_factory=psycopg.ClientCursor) as conn:
            cur = conn.cursor()
            cur.execute("CREATE TABLE bound (i INTEGER, t TEXT, d DOUBLE PRECISION, f BOOLEAN, "
                        "b BIGINT)")
            cur.execute("INSERT INTO bound VALUES (%s, %s, %s, %s, %s)",
                        (7, "it's \"quoted\"", 2.5, True, 1 << 40))
            cur.execute("INSERT INTO bound VALUES (%s, %s, %s, %s, %s)",
                        (-3, None, None, False, None))
            cur.execute("SELECT i, t, d, f, b FROM bound WHERE i = %s OR t = %s ORDER BY i",
                        (-3, "it's \"quoted\""))
            self.assertEqual(cur.fetchall(), [(-3, None, None, False, None),
                                              (7, "it's \"quoted\"", 2.5, True, 1 << 40)])
            cur.execute("SELECT %(a)s + %(b)s", {"a": 40, "b": 2})
            self.assertEqual(cur.fetchone(), (42,))
            with self.assertRaises(errors.UndefinedTable):
                cur.execute("SELECT * FROM missing WHERE x = %s", (1,))
            cur.execute("SELECT count(*) FROM bound")
            self.assertEqual(cur.fetchone(), (2,))

    def test_extended_protocol_with_prepared_statements(self):
        # prepare=True: Parse of a named statement once, then Bind/Describe/Execute/Sync per run
        # (psycopg 3.3 sends unprepared queries without parameters as simple Queries).
        with self.connect() as conn:
            conn.execute("CREATE TABLE prep (a INTEGER, b TEXT)")
            conn.execute("INSERT INTO prep VALUES (1, 'one'), (2, NULL)", prepare=True)
            for _ in range(3):
                cur = conn.execute("SELECT a, b FROM prep ORDER BY a", prepare=True)
                self.assertEqual(cur.fetchall(), [(1, "one"), (2, None)])
                self.assertEqual([d.type_code for d in cur.description], [INT4, TEXT])
            with self.assertRaises(errors.UndefinedTable):
                conn.execute("SELECT * FROM nowhere", prepare=True)
            self.assertEqual(conn.execute("SELECT count(*) FROM prep", prepare=True).fetchone(),
                             (2,))

    def test_server_side_parameters(self):
        # The default cursor sends %s values as $n parameters (Parse/Bind/Describe/Execute).
        with self.connect() as conn:
            conn.execute("CREATE TABLE sp (i INTEGER PRIMARY KEY, b BIGINT, d DOUBLE PRECISION, "
                         "t TEXT, f BOOLEAN, v VARCHAR(20))")
            quoted = "it's \"quoted\" \\ $1 %s"
            rows = [(1, 1 << 40, 2.5, quoted, True, "one"),
                    (2, -7, -0.125, "two", False, None),
                    (3, None, None, None, None, "three")]
            for row in rows:
                cur = conn.execute("INSERT INTO sp VALUES (%s, %s, %s, %s, %s, %s)", row)
                self.assertEqual(cur.statusmessage, "INSERT 0 1")
            cur = conn.execute("SELECT i, b, d, t, f, v FROM sp WHERE i >= %s ORDER BY i", (1,))
            self.assertEqual(cur.fetchall(), rows)
            self.assertEqual(conn.execute("SELECT i FROM sp WHERE t = %s", (quoted,)).fetchall(),
                             [(1,)])
            self.assertEqual(conn.execute("SELECT i FROM sp WHERE b = %s", (1 << 40,)).fetchall(),
                             [(1,)])
            self.assertEqual(conn.execute("SELECT i FROM sp WHERE d < %s", (0.0,)).fetchall(),
                             [(2,)])
            self.assertEqual(conn.execute("SELECT i FROM sp WHERE f = %s", (False,)).fetchall(),
                             [(2,)])
            self.assertEqual(
                conn.execute("SELECT i FROM sp WHERE %s IS NULL AND b IS NULL", (None,)).fetchall(),
                [(3,)])
            self.assertEqual(
                conn.execute("SELECT i FROM sp ORDER BY i LIMIT %s OFFSET %s", (2, 1)).fetchall(),
                [(2,), (3,)])
            self.assertEqual(conn.execute("SELECT %s + 1, %s || 'x'", (41, "y")).fetchone(),
                             (42, "yx"))
            self.assertEqual(conn.execute("SELECT %(a)s * %(a)s", {"a": 12}).fetchone(), (144,))
            cur = conn.execute("UPDATE sp SET t = %s WHERE i = %s", ("new", 2))
            self.assertEqual(cur.rowcount, 1)
            cur = conn.execute("DELETE FROM sp WHERE i = %s", (3,))
            self.assertEqual(cur.rowcount, 1)
            cur.executemany("INSERT INTO sp (i, t) VALUES (%s, %s)", [(10, "a"), (11, "b")])
            self.assertEqual(conn.execute("SELECT count(*) FROM sp WHERE i > %s", (5,)).fetchone(),
                             (2,))
            # The plan uses the primary key with the parameter as the key.
            conn.execute("CREATE TABLE big (k INTEGER PRIMARY KEY)")
            conn.execute("INSERT INTO big VALUES (1)")
            for shift in range(11):  # 2048 rows
                conn.execute("INSERT INTO big SELECT k + %s FROM big", (1 << shift,))
            conn.execute("ANALYZE big")
            plan = [r[0] for r in conn.execute("EXPLAIN SELECT * FROM big WHERE k = %s", (2,))]
            self.assertIn("Index Only Scan using big_pkey on big", plan[0])
            self.assertIn("Index Cond: (big.k = $1)", plan[1])
            self.assertEqual(conn.execute("SELECT k FROM big WHERE k = %s", (2000,)).fetchall(),
                             [(2000,)])

    def test_list_parameters_are_arrays(self):
        # psycopg sends a Python list as an array parameter (int2[], int8[], text[], ... OIDs,
        # text format): `= ANY(%s)` is how applications and ORMs pass IN lists.
        with self.connect() as conn:
            conn.execute("CREATE TABLE lp (i INTEGER PRIMARY KEY, t TEXT)")
            conn.execute("INSERT INTO lp SELECT g, 'v' || g FROM generate_series(1, 50) g")
            self.assertEqual(conn.execute("SELECT i FROM lp WHERE i = ANY(%s) ORDER BY i",
                                          ([3, 7, 99, 7],)).fetchall(), [(3,), (7,)])
            self.assertEqual(conn.execute("SELECT i FROM lp WHERE t = ANY(%s) ORDER BY i",
                                          (["v2", "v40", "x"],)).fetchall(), [(2,), (40,)])
            self.assertEqual(conn.execute("SELECT count(*) FROM lp WHERE i <> ALL(%s)",
                                          ([1, 2, 1 << 40],)).fetchone(), (48,))
            self.assertEqual(conn.execute("SELECT %s::text[]", (["a", "b,c", None],)).fetchone(),
                             (["a", "b,c", None],))
            # Binary arrays (array_send / array_recv) both ways.
            self.assertEqual(conn.execute("SELECT %b", ([1, None, 2],), binary=True).fetchone(),
                             ([1, None, 2],))

    def test_array_columns(self):
        # Array columns: lists in (text and binary parameters, literals), lists out in text and
        # binary results, the array OIDs in RowDescription, ANY/@> on columns, COPY both ways.
        with self.connect() as conn:
            conn.execute("CREATE TABLE arrc (id INTEGER, vals INTEGER[], tags TEXT[], "
                         "big BIGINT[], d NUMERIC[])")
            conn.execute("INSERT INTO arrc VALUES (1, %s, %s, %s, %s)",
                         ([1, 2, 3], ["a", "b,c", None, 'q"t', "{x}"], [1 << 40], []))
            conn.execute("INSERT INTO arrc VALUES (2, %b, %b, %b, %b)",
                         ([4, None], ["z"], [], [decimal.Decimal("1.50")]))
            conn.execute("INSERT INTO arrc VALUES (3, '{5,6}', '{}', NULL, '{2.25}')")
            expected = [
                (1, [1, 2, 3], ["a", "b,c", None, 'q"t', "{x}"], [1 << 40], []),
                (2, [4, None], ["z"], [], [decimal.Decimal("1.50")]),
                (3, [5, 6], [], None, [decimal.Decimal("2.25")]),
            ]
            for binary in (False, True):
                cur = conn.cursor(binary=binary)
                self.assertEqual(
                    cur.execute("SELECT id, vals, tags, big, d FROM arrc ORDER BY id").fetchall(),
                    expected)
                self.assertEqual([c.type_code for c in cur.description], [23, 1007, 1009, 1016, 1231])
            self.assertEqual(conn.execute("SELECT id FROM arrc WHERE %s = ANY(vals)",
                                          (5,)).fetchall(), [(3,)])
            self.assertEqual(conn.execute("SELECT id FROM arrc WHERE tags @> %s",
                                          (["b,c"],)).fetchall(), [(1,)])
            conn.execute("UPDATE arrc SET vals = vals || %s WHERE id = 3", (7,))
            self.assertEqual(conn.execute("SELECT vals FROM arrc WHERE id = 3").fetchone(),
                             ([5, 6, 7],))
            with conn.cursor() as cur:
                with cur.copy("COPY arrc (id, vals, tags) TO STDOUT") as copy:
                    data = b"".join(bytes(chunk) for chunk in copy)
                self.assertIn(b'1\t{1,2,3}\t{a,"b,c",NULL,"q\\\\"t","{x}"}\n', data)
                conn.execute("CREATE TABLE arrc2 (id INTEGER, vals INTEGER[], tags TEXT[])")
                with cur.copy("COPY arrc2 FROM STDIN") as copy:
                    copy.write(data)
                self.assertEqual(
                    cur.execute("SELECT id, vals, tags FROM arrc2 ORDER BY id").fetchall(),
                    [(r[0], r[1] if r[0] != 3 else [5, 6, 7], r[2]) for r in expected])

    def test_bad_parameter_values_raise_the_right_exception(self):
        with self.connect() as conn:
            conn.execute("CREATE TABLE badp (i INTEGER, f BOOLEAN)")
            with self.assertRaises(errors.InvalidTextRepresentation) as ctx:
                conn.execute("SELECT * FROM badp WHERE i = %s", ("abc",))
            self.assertEqual(ctx.exception.sqlstate, "22P02")
            self.assertIn('invalid input syntax for type integer: "abc"', str(ctx.exception))
            with self.assertRaises(errors.NumericValueOutOfRange):
                conn.execute("INSERT INTO badp (i) VALUES (%s)", (1 << 40,))
            with self.assertRaises(errors.InvalidTextRepresentation):
                conn.execute("INSERT INTO badp (f) VALUES (%s)", ("maybe",))
            self.assertEqual(conn.execute("SELECT count(*) FROM badp").fetchone(), (0,))

    def test_wrong_parameter_count_is_a_protocol_error(self):
        # libpq checks nothing: send a Bind with 1 value for a statement with 2 parameters.
        with self.connect() as conn:
            pg = conn.pgconn
            pg.prepare(b"two", b"SELECT $1::integer + $2::integer")
            res = pg.exec_prepared(b"two", [b"1"])
            self.assertEqual(res.error_field(psycopg.pq.DiagnosticField.SQLSTATE), b"08P01")
            self.assertIn(b'bind message supplies 1 parameters, but prepared statement "two" '
                          b'requires 2', res.error_message)
            res = pg.describe_prepared(b"two")
            self.assertEqual([res.param_type(i) for i in range(res.nparams)], [INT4, INT4])
            res = pg.exec_prepared(b"two", [b"40", b"2"])
            self.assertEqual(res.get_value(0, 0), b"42")
            self.assertEqual(conn.execute("SELECT 1").fetchone(), (1,))

    def test_prepared_parameters_repeat(self):
        with self.connect() as conn:
            conn.execute("CREATE TABLE rep (k INTEGER PRIMARY KEY, v TEXT)")
            for k in range(20):
                conn.execute("INSERT INTO rep VALUES (%s, %s)", (k, f"v{k}"), prepare=True)
            for k in range(20):
                cur = conn.execute("SELECT v FROM rep WHERE k = %s", (k,), prepare=True)
                self.assertEqual(cur.fetchall(), [(f"v{k}",)])
            self.assertEqual(conn.execute("SELECT count(*) FROM rep WHERE k < %s", (10,),
                                          prepare=True).fetchone(), (10,))

    def test_deallocate_all_resets_prepared_statements(self):
        # psycopg forgets its prepared statements and sends DEALLOCATE ALL (a simple Query) after
        # a ROLLBACK, a DROP, or when it sees DEALLOCATE ALL; then it prepares its queries again.
        with self.connect() as conn:
            conn.execute("CREATE TABLE dealloc (k INTEGER PRIMARY KEY, v TEXT)")
            insert = "INSERT INTO dealloc VALUES (%s, %s)"
            select = "SELECT v FROM dealloc WHERE k = %s"
            for k in range(3):
                conn.execute(insert, (k, f"v{k}"), prepare=True)
            self.assertEqual(conn.execute(select, (1,), prepare=True).fetchone(), ("v1",))
            cur = conn.execute("DEALLOCATE ALL")
            self.assertEqual(cur.statusmessage, "DEALLOCATE ALL")
            for k in range(3, 6):
                conn.execute(insert, (k, f"v{k}"), prepare=True)
            self.assertEqual(conn.execute(select, (4,), prepare=True).fetchone(), ("v4",))
            # A DROP makes psycopg send DEALLOCATE ALL by itself.
            conn.execute("CREATE TABLE dropped (a INTEGER)")
            conn.execute("DROP TABLE dropped")
            self.assertEqual(conn.execute(select, (5,), prepare=True).fetchone(), ("v5",))
            self.assertEqual(conn.execute("SELECT count(*) FROM dealloc", prepare=True).fetchone(),
                             (6,))
            # The same protocol-level names again after DEALLOCATE ALL: no 42P05.
            pg = conn.pgconn
            ok = psycopg.pq.ExecStatus.COMMAND_OK
            self.assertEqual(pg.prepare(b"same_name", b"SELECT 1").status, ok)
            conn.execute("DEALLOCATE ALL")
            self.assertEqual(pg.prepare(b"same_name", b"SELECT 2").status, ok)
            self.assertEqual(pg.exec_prepared(b"same_name", []).get_value(0, 0), b"2")

    def test_copy_integer_fields(self):
        # Plain digits take a short path; every other spelling PostgreSQL's int input takes
        # (spaces, '+', leading zeros) and its range errors go the general one.
        with self.connect() as conn:
            conn.execute("CREATE TABLE cpint (a SMALLINT, b INTEGER, c BIGINT)")
            with conn.cursor() as cur:
                with cur.copy("COPY cpint FROM STDIN") as copy:
                    copy.write("007\t-2147483648\t9223372036854775807\n"
                               "+5\t 6 \t-0\n"
                               "-32768\t2147483647\t-9223372036854775808\n")
                for bad in ("32768\t1\t1\n", "1\t2147483648\t1\n",
                            "1\t1\t9223372036854775808\n"):
                    with self.assertRaises(errors.NumericValueOutOfRange):
                        with cur.copy("COPY cpint FROM STDIN") as copy:
                            copy.write(bad)
                with self.assertRaises(errors.InvalidTextRepresentation):
                    with cur.copy("COPY cpint FROM STDIN") as copy:
                        copy.write("1\t1x\t1\n")
            self.assertEqual(conn.execute("SELECT a, b, c FROM cpint ORDER BY a").fetchall(),
                             [(-32768, 2147483647, -9223372036854775808),
                              (5, 6, 0), (7, -2147483648, 9223372036854775807)])

    def test_copy_of_many_rows_is_one_statement(self):
        # 30,000 rows arrive in several pieces and are inserted in batches as they come: the
        # COPY is still one statement, all or nothing, and in a transaction block an error in
        # its last rows fails the block (PostgreSQL's rules).
        n = 30000
        good = "".join(f"{i}\tvalue number {i:010d}\n" for i in range(1, n + 1))
        with psycopg.connect(self.daemon.conninfo(), connect_timeout=20) as conn:
            conn.execute("CREATE TABLE cpbig (id INTEGER PRIMARY KEY, v TEXT)")
            conn.commit()
            with conn.cursor() as cur:
                with self.assertRaises(errors.UniqueViolation):
                    with cur.copy("COPY cpbig FROM STDIN") as copy:
                        copy.write(good + "17\tduplicate\n")
                self.assertEqual(conn.info.transaction_status,
                                 psycopg.pq.TransactionStatus.INERROR)
                with self.assertRaises(errors.InFailedSqlTransaction):
                    conn.execute("SELECT count(*) FROM cpbig")
                conn.rollback()
                with self.assertRaises(errors.InvalidTextRepresentation):
                    with cur.copy("COPY cpbig FROM STDIN") as copy:
                        copy.write(good + "x\tnot a number\n")
                conn.rollback()
                # The client gives up after sending every row: CopyFail.
                with self.assertRaises(RuntimeError):
                    with cur.copy("COPY cpbig FROM STDIN") as copy:
                        copy.write(good)
                        raise RuntimeError("client gives up")
                conn.rollback()
                self.assertEqual(conn.execute("SELECT count(*) FROM cpbig").fetchone(), (0,))
                with cur.copy("COPY cpbig FROM STDIN") as copy:
                    copy.write(good)
                self.assertEqual(cur.rowcount, n)
                # Rows of the COPY are visible to the next statement of the block, and the
                # block's ROLLBACK takes them back.
                self.assertEqual(conn.execute("SELECT count(*), max(id) FROM cpbig").fetchone(),
                                 (n, n))
                conn.rollback()
                self.assertEqual(conn.execute("SELECT count(*) FROM cpbig").fetchone(), (0,))
        with self.connect() as conn:  # autocommit: the COPY commits by itself
            with conn.cursor() as cur:
                with cur.copy("COPY cpbig FROM STDIN") as copy:
                    copy.write(good)
                self.assertEqual(cur.statusmessage, f"COPY {n}")
            self.assertEqual(conn.execute("SELECT count(*), count(DISTINCT v) FROM cpbig "
                                          "WHERE v LIKE 'value number %'").fetchone(), (n, n))

    def test_error_in_transaction_then_rollback_and_reuse(self):
        # Not autocommit: psycopg opens transactions with BEGIN. After an error it rolls back and
        # sends DEALLOCATE ALL; the statements it prepared are then prepared and used again.
        with psycopg.connect(self.daemon.conninfo(), connect_timeout=20) as conn:
            idle = psycopg.pq.TransactionStatus.IDLE
            conn.execute("CREATE TABLE txprep (k INTEGER PRIMARY KEY, v TEXT)")
            conn.commit()
            insert = "INSERT INTO txprep VALUES (%s, %s)"
            select = "SELECT v FROM txprep WHERE k = %s"
            conn.execute(insert, (1, "a"), prepare=True)
            self.assertEqual(conn.execute(select, (1,), prepare=True).fetchone(), ("a",))
            conn.commit()
            with self.assertRaises(errors.UniqueViolation):
                conn.execute(insert, (1, "dup"), prepare=True)
            self.assertEqual(conn.info.transaction_status, psycopg.pq.TransactionStatus.INERROR)
            with self.assertRaises(errors.InFailedSqlTransaction):
                conn.execute(select, (1,), prepare=True)
            conn.rollback()  # ROLLBACK, then DEALLOCATE ALL
            self.assertEqual(conn.info.transaction_status, idle)
            conn.execute(insert, (2, "b"), prepare=True)
            self.assertEqual(conn.execute(select, (2,), prepare=True).fetchone(), ("b",))
            conn.commit()
            # The same through a transaction context: the error rolls it back.
            with self.assertRaises(errors.UniqueViolation):
                with conn.transaction():
                    conn.execute(insert, (3, "c"), prepare=True)
                    conn.execute(insert, (2, "dup"), prepare=True)
            self.assertEqual(conn.info.transaction_status, idle)
            for k, v in ((3, None), (2, "b"), (1, "a")):
                row = conn.execute(select, (k,), prepare=True).fetchone()
                self.assertEqual(row, (v,) if v else None)
            conn.execute(insert, (3, "c"), prepare=True)
            conn.commit()
            self.assertEqual(conn.execute("SELECT count(*) FROM txprep").fetchone(), (3,))
            conn.commit()

    def test_sql_and_protocol_prepared_statements_share_a_namespace(self):
        # As in PostgreSQL: PREPARE/EXECUTE/DEALLOCATE and the protocol's Parse/Bind/Describe/
        # Close see the same named statements.
        with self.connect() as conn:
            pg = conn.pgconn
            ok = psycopg.pq.ExecStatus.COMMAND_OK
            state = psycopg.pq.DiagnosticField.SQLSTATE
            self.assertEqual(pg.prepare(b"proto_stmt", b"SELECT $1::integer * 2").status, ok)
            self.assertEqual(conn.execute("EXECUTE proto_stmt (21)").fetchone(), (42,))
            with self.assertRaises(errors.DuplicatePreparedStatement):
                conn.execute("PREPARE proto_stmt AS SELECT 1")
            self.assertEqual(conn.execute("DEALLOCATE proto_stmt").statusmessage, "DEALLOCATE")
            self.assertEqual(pg.describe_prepared(b"proto_stmt").error_field(state), b"26000")
            self.assertEqual(pg.prepare(b"proto_stmt", b"SELECT $1::text").status, ok)
            # A SQL-prepared statement is described and bound by name.
            conn.execute("PREPARE sql_stmt (integer) AS SELECT $1 + 1 AS next")
            res = pg.describe_prepared(b"sql_stmt")
            self.assertEqual([res.param_type(i) for i in range(res.nparams)], [INT4])
            self.assertEqual(res.fname(0), b"next")
            self.assertEqual(pg.exec_prepared(b"sql_stmt", [b"41"]).get_value(0, 0), b"42")
            self.assertEqual(pg.prepare(b"sql_stmt", b"SELECT 1").error_field(state), b"42P05")
            cur = conn.execute("EXECUTE sql_stmt (1)")
            self.assertEqual(cur.statusmessage, "SELECT 1")
            self.assertEqual(cur.fetchone(), (2,))
            # Close drops a SQL-prepared statement.
            self.assertEqual(pg.close_prepared(b"sql_stmt").status, ok)
            with self.assertRaises(errors.InvalidSqlStatementName):
                conn.execute("EXECUTE sql_stmt (1)")
            # DEALLOCATE ALL drops the protocol-level ones too.
            conn.execute("PREPARE other AS SELECT 1")
            self.assertEqual(conn.execute("DEALLOCATE ALL").statusmessage, "DEALLOCATE ALL")
            self.assertEqual(pg.describe_prepared(b"proto_stmt").error_field(state), b"26000")
            self.assertEqual(pg.describe_prepared(b"other").error_field(state), b"26000")
            # EXECUTE through the extended protocol; its arguments cannot use parameters.
            self.assertEqual(pg.prepare(b"doubler", b"SELECT $1::bigint * 2").status, ok)
            cur = conn.execute("EXECUTE doubler (21)", prepare=True)
            self.assertEqual(cur.description[0].type_code, INT8)
            self.assertEqual(cur.fetchone(), (42,))
            with self.assertRaises(errors.UndefinedParameter):
                conn.execute("EXECUTE doubler (%s)", (21,))
            with self.assertRaises(errors.UndefinedTable):
                conn.execute("PREPARE ins AS INSERT INTO nowhere VALUES (1)")
            with self.assertRaises(errors.SyntaxError):
                conn.execute("EXECUTE doubler")  # 42601: wrong number of parameters
            self.assertEqual(conn.execute("SELECT 'alive'").fetchone(), ("alive",))

    def test_binary_results_and_parameters(self):
        with self.connect() as conn:
            conn.execute("CREATE TABLE bin (i INTEGER, b BIGINT, d DOUBLE PRECISION, t TEXT, "
                         "f BOOLEAN, v VARCHAR(5))")
            conn.execute("INSERT INTO bin VALUES (-5, 9000000000, 0.1, 'héllo', true, 'abc'), "
                         "(NULL, NULL, NULL, NULL, NULL, NULL)")
            with conn.cursor(binary=True) as cur:
                cur.execute("SELECT i, b, d, t, f, v FROM bin ORDER BY i")
                self.assertEqual([d.type_code for d in cur.description],
                                 [INT4, INT8, FLOAT8, TEXT, BOOL, 1043])
                self.assertEqual(cur.pgresult.fformat(0), 1)
                self.assertEqual(cur.fetchall(), [(-5, 9000000000, 0.1, "héllo", True, "abc"),
                                                  (None, None, None, None, None, None)])
                # Parameters in binary format too (%b).
                cur.execute("SELECT t FROM bin WHERE i = %b AND b = %b AND f = %b AND t = %b",
                            (-5, 9000000000, True, "héllo"))
                self.assertEqual(cur.fetchall(), [("héllo",)])
                cur.execute("SELECT %b::double precision * 2", (1.25,))
                self.assertEqual(cur.fetchone(), (2.5,))
            # Text and binary parameters in one statement.
            cur = conn.execute("SELECT count(*) FROM bin WHERE i = %t OR b = %b", (-5, 1))
            self.assertEqual(cur.fetchone(), (1,))

    def test_uuid_and_bytea(self):
        key = uuid.UUID("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11")
        blob = bytes(range(256))
        with self.connect() as conn:
            conn.execute("CREATE TABLE files (id UUID PRIMARY KEY DEFAULT gen_random_uuid(), "
                         "owner UUID, data BYTEA)")
            # uuid.UUID parameters (text, OID 2950) and bytes (binary bytea, as psycopg always
            # sends them); results load as uuid.UUID and bytes.
            conn.execute("INSERT INTO files VALUES (%s, %s, %s)", (key, key, blob))
            cur = conn.execute("INSERT INTO files (owner, data) VALUES (%s, %s) RETURNING id",
                               (None, b"\x00\\'"))
            generated = cur.fetchone()[0]
            self.assertIsInstance(generated, uuid.UUID)
            self.assertEqual(generated.version, 4)
            cur = conn.execute("SELECT id, owner, data, length(data) FROM files WHERE id = %s",
                               (key,))
            self.assertEqual([d.type_code for d in cur.description], [UUID, UUID, BYTEA, INT4])
            self.assertEqual(cur.fetchall(), [(key, key, blob, 256)])
            self.assertEqual(conn.execute("SELECT data FROM files WHERE id = %s",
                                          (generated,)).fetchone(), (b"\x00\\'",))
            with conn.cursor(binary=True) as bcur:
                bcur.execute("SELECT id, data FROM files WHERE owner = %b", (key,))
                self.assertEqual(bcur.pgresult.fformat(0), 1)
                self.assertEqual(bcur.fetchall(), [(key, blob)])
                bcur.execute("SELECT decode(%b, 'hex') || %b", ("00ff", b"\x01"))
                self.assertEqual(bcur.fetchone(), (b"\x00\xff\x01",))
            # COPY in and out with bytea (hex) and uuid columns, text and CSV.
            with conn.cursor() as cur:
                with cur.copy("COPY files (id, owner, data) FROM STDIN") as copy:
                    copy.write_row((uuid.UUID(int=1), None, b"\n\t\\"))
                    copy.write("00000000-0000-0000-0000-000000000002\t\\N\t\\\\x6869\n")
                cur.execute("SELECT data FROM files WHERE id < '00000000-0000-0000-0000-000000000003' "
                            "ORDER BY id")
                self.assertEqual(cur.fetchall(), [(b"\n\t\\",), (b"hi",)])
                with cur.copy("COPY (SELECT id, data FROM files WHERE id = "
                              "'00000000-0000-0000-0000-000000000001') TO STDOUT") as copy:
                    data = b"".join(bytes(chunk) for chunk in copy)
                self.assertEqual(data, b"00000000-0000-0000-0000-000000000001\t\\\\x0a095c\n")
                with cur.copy("COPY (SELECT id, data FROM files WHERE id = "
                              "'00000000-0000-0000-0000-000000000002') TO STDOUT (FORMAT csv)") as copy:
                    data = b"".join(bytes(chunk) for chunk in copy)
                self.assertEqual(data, b"00000000-0000-0000-0000-000000000002,\\x6869\n")
            with self.assertRaises(errors.InvalidTextRepresentation):
                conn.execute("SELECT 'nope'::uuid")
            with self.assertRaises(errors.UniqueViolation):
                conn.execute("INSERT INTO files (id) VALUES (%s)", (key,))

    def test_json_and_jsonb(self):
        doc = {"name": "ann", "tags": ["x", "y"], "n": 1.5, "ok": True, "none": None,
               "nested": {"k": "\u00e9\u263a"}}
        with self.connect() as conn:
            conn.execute("CREATE TABLE jdocs (id INT PRIMARY KEY, j JSON, b JSONB)")
            # Json/Jsonb parameters (OIDs 114/3802); results load as dicts and lists.
            conn.execute("INSERT INTO jdocs VALUES (%s, %s, %s)", (1, Json(doc), Jsonb(doc)))
            conn.execute("INSERT INTO jdocs VALUES (2, '[1, 2]', '{\"b\": 1, \"a\": [true]}')")
            cur = conn.execute("SELECT j, b, b -> 'tags', b ->> 'name' FROM jdocs WHERE id = 1")
            self.assertEqual([d.type_code for d in cur.description], [JSON, JSONB, JSONB, TEXT])
            self.assertEqual(cur.fetchone(), (doc, doc, ["x", "y"], "ann"))
            cur = conn.execute("SELECT id FROM jdocs WHERE b ->> %s = %s AND b ? 'tags' "
                               "AND b @> %s", ("name", "ann", Jsonb({"ok": True})))
            self.assertEqual(cur.fetchall(), [(1,)])
            self.assertEqual(conn.execute("SELECT b FROM jdocs WHERE id = 2").fetchone(),
                             ({"a": [True], "b": 1},))
            self.assertEqual(conn.execute("SELECT b::text FROM jdocs WHERE id = 2").fetchone(),
                             ('{"a": [true], "b": 1}',))
            self.assertEqual(conn.execute("SELECT jsonb_agg(id ORDER BY id), json_build_object("
                                          "'ids', array_agg(id ORDER BY id)) FROM jdocs").fetchone(),
                             ([1, 2], {"ids": [1, 2]}))
            with conn.cursor(binary=True) as bcur:
                bcur.execute("SELECT j, b FROM jdocs WHERE b = %b", (Jsonb(doc),))
                self.assertEqual(bcur.pgresult.fformat(1), 1)
                self.assertEqual(bcur.fetchall(), [(doc, doc)])
            with self.assertRaises(errors.InvalidTextRepresentation):
                conn.execute("SELECT '{\"a\":'::jsonb")
            with self.assertRaises(errors.UndefinedFunction):
                conn.execute("SELECT j = j FROM jdocs")

    def test_parameter_status_and_settings(self):
        with self.connect(application_name="ptest") as conn:
            self.assertTrue(conn.info.parameter_status("server_version").startswith("15.0 ("))
            self.assertEqual(conn.info.parameter_status("application_name"), "ptest")
            self.assertEqual(conn.info.parameter_status("DateStyle"), "ISO, MDY")
            self.assertEqual(conn.info.parameter_status("TimeZone"), "UTC")
            self.assertEqual(conn.execute("SHOW server_version").fetchone()[0],
                             conn.info.parameter_status("server_version"))
            version = conn.execute("SELECT version()").fetchone()[0]
            self.assertTrue(version.startswith("PostgreSQL 15.0 (Meridian"), version)
            # A SET of a reported parameter is followed by a ParameterStatus, as PostgreSQL does.
            conn.execute("SET application_name = 'renamed'")
            self.assertEqual(conn.info.parameter_status("application_name"), "renamed")
            conn.execute("SELECT set_config('DateStyle', 'ISO, DMY', false)")
            self.assertEqual(conn.info.parameter_status("DateStyle"), "ISO, DMY")
            cur = conn.execute("SHOW DateStyle")
            self.assertEqual(cur.description[0].name, "DateStyle")
            self.assertEqual(cur.fetchone(), ("ISO, DMY",))
            self.assertEqual(conn.execute("SELECT current_user, current_database()").fetchone(),
                             (conn.info.user, conn.info.dbname))
            self.assertEqual(conn.execute("SELECT pg_backend_pid()").fetchone()[0],
                             conn.info.backend_pid)
            with self.assertRaises(errors.UndefinedObject):
                conn.execute("SET no_such_setting = 1")
            with self.assertRaises(errors.FeatureNotSupported):
                conn.execute("SET client_encoding = 'LATIN1'")
            # statement_timeout is enforced: a long join is cancelled with 57014.
            conn.execute("CREATE TABLE slow (i INTEGER)")
            conn.execute("INSERT INTO slow VALUES " + ", ".join(f"({i})" for i in range(400)))
            conn.execute("SET statement_timeout = '50ms'")
            with self.assertRaises(errors.QueryCanceled):
                conn.execute("SELECT count(*) FROM slow a, slow b, slow c WHERE a.i + b.i > c.i")
            conn.execute("RESET statement_timeout")
            self.assertEqual(conn.execute("SELECT count(*) FROM slow").fetchone(), (400,))

    # The query psycopg's TypeInfo.fetch sends (psycopg/_typeinfo.py); fetch itself wraps it in
    # a transaction block, which Meridian does not have yet.
    TYPE_INFO_QUERY = ("SELECT typname AS name, oid, typarray AS array_oid, "
                       "oid::regtype::text AS regtype, typdelim AS delimiter "
                       "FROM pg_type t WHERE t.oid = to_regtype(%(name)s) ORDER BY t.oid")

    def test_type_lookup(self):
        with self.connect() as conn:
            for name, oid, regtype in (("int4", 23, "integer"), ("text", 25, "text"),
                                       ("varchar", 1043, "character varying"),
                                       ("bool", 16, "boolean"), ("float8", 701,
                                                                 "double precision")):
                cur = conn.execute(self.TYPE_INFO_QUERY, {"name": name})
                row = cur.fetchone()
                self.assertIsNotNone(row, name)
                self.assertEqual(row[:2], (name, oid))
                self.assertEqual(row[3:], (regtype, ","))
            self.assertIsNone(conn.execute(self.TYPE_INFO_QUERY,
                                           {"name": "no_such_type"}).fetchone())
            cur = conn.execute("SELECT typname FROM pg_catalog.pg_type WHERE oid = %s", (701,))
            self.assertEqual(cur.fetchone(), ("float8",))

    def test_information_schema(self):
        with self.connect() as conn:
            conn.execute("CREATE TABLE info_t (id INTEGER PRIMARY KEY, name VARCHAR(20) NOT NULL, "
                         "note TEXT DEFAULT 'n/a')")
            cur = conn.execute("SELECT table_schema, table_type FROM information_schema.tables "
                               "WHERE table_name = 'info_t'")
            self.assertEqual(cur.fetchall(), [("public", "BASE TABLE")])
            cur = conn.execute("SELECT column_name, data_type, is_nullable, "
                               "character_maximum_length, column_default "
                               "FROM information_schema.columns WHERE table_name = %s "
                               "ORDER BY ordinal_position", ("info_t",))
            self.assertEqual(cur.fetchall(), [
                ("id", "integer", "NO", None, None),
                ("name", "character varying", "NO", 20, None),
                ("note", "text", "YES", None, "'n/a'"),
            ])

    def test_copy_from_stdin_and_back(self):
        rows = [
            (1, "plain", 1.5, True),
            (2, None, None, None),
            (3, 'quote " and \' single', -2.0, False),
            (4, "tab\there\nnewline\r\\back", 0.0, True),
            (5, "\\N is not null", 3.25, False),
            (6, "", 1e300, True),
            (7, "ünïcødé ✓", -0.5, False),
        ]
        with self.connect() as conn:
            conn.execute("CREATE TABLE cp (id INTEGER PRIMARY KEY, t TEXT, d DOUBLE PRECISION, "
                         "b BOOLEAN)")
            with conn.cursor() as cur:
                with cur.copy("COPY cp FROM STDIN") as copy:
                    for r in rows:
                        copy.write_row(r)
                self.assertEqual(cur.rowcount, len(rows))
                self.assertEqual(cur.statusmessage, f"COPY {len(rows)}")
                self.assertEqual(cur.execute("SELECT id, t, d, b FROM cp ORDER BY id").fetchall(),
                                 rows)
                # COPY TO STDOUT reads the same rows back, in text format.
                with cur.copy("COPY cp TO STDOUT") as copy:
                    back = [tuple(r) for r in copy.rows()]
                self.assertEqual(len(back), len(rows))
                self.assertEqual(back[1], ("2", None, None, None))
                self.assertEqual(back[3][1], rows[3][1])
                with cur.copy("COPY (SELECT id, t FROM cp WHERE id IN (1, 3) ORDER BY id) "
                              "TO STDOUT WITH (FORMAT csv, HEADER)") as copy:
                    data = b"".join(bytes(chunk) for chunk in copy)
                self.assertEqual(data.decode(),
                                 'id,t\n1,plain\n3,"quote "" and \' single"\n')

    def test_copy_csv_with_header_and_columns(self):
        with self.connect() as conn:
            conn.execute("CREATE TABLE csvt (a INTEGER NOT NULL, b TEXT, c VARCHAR(5) DEFAULT 'dflt')")
            with conn.cursor() as cur:
                with cur.copy("COPY csvt (b, a) FROM STDIN WITH (FORMAT csv, HEADER true)") as copy:
                    copy.write('b,a\n"x, ""y""",1\n,2\n"",3\n"multi\nline",4\n')
                self.assertEqual(cur.rowcount, 4)
                got = cur.execute("SELECT a, b, c FROM csvt ORDER BY a").fetchall()
                self.assertEqual(got, [(1, 'x, "y"', "dflt"), (2, None, "dflt"), (3, "", "dflt"),
                                       (4, "multi\nline", "dflt")])
                with cur.copy("COPY csvt FROM STDIN (DELIMITER '|', NULL 'nil')") as copy:
                    copy.write("5|nil|ok\n")
                self.assertEqual(cur.execute("SELECT b, c FROM csvt WHERE a = 5").fetchone(),
                                 (None, "ok"))

    def test_copy_errors_insert_nothing(self):
        with self.connect() as conn:
            conn.execute("CREATE TABLE cperr (id INTEGER PRIMARY KEY, v INTEGER)")
            with conn.cursor() as cur:
                with self.assertRaises(errors.InvalidTextRepresentation) as ctx:
                    with cur.copy("COPY cperr FROM STDIN") as copy:
                        copy.write("1\t10\n2\tnot a number\n3\t30\n")
                self.assertIn("line 2", str(ctx.exception.diag.context))
                with self.assertRaises(errors.BadCopyFileFormat):
                    with cur.copy("COPY cperr FROM STDIN") as copy:
                        copy.write("1\t10\t99\n")
                with self.assertRaises(errors.UniqueViolation):
                    with cur.copy("COPY cperr FROM STDIN") as copy:
                        copy.write("1\t10\n1\t11\n")
                # An exception in the block sends CopyFail; psycopg re-raises the exception.
                with self.assertRaises(RuntimeError):
                    with cur.copy("COPY cperr FROM STDIN") as copy:
                        copy.write("7\t70\n")
                        raise RuntimeError("client gives up")
            self.assertEqual(conn.execute("SELECT count(*) FROM cperr").fetchone(), (0,))
            # The connection is still usable and COPY works after the failures.
            with conn.cursor() as cur:
                with cur.copy("COPY cperr FROM STDIN") as copy:
                    copy.write_row((1, 10))
            self.assertEqual(conn.execute("SELECT v FROM cperr").fetchall(), [(10,)])

    def test_scram_over_tls(self):
        with tempfile.TemporaryDirectory() as tmp:
            cert, key, users = (os.path.join(tmp, n) for n in ("cert.pem", "key.pem", "users"))
            subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days",
                            "2", "-subj", "/CN=localhost", "-keyout", key, "-out", cert],
                           check=True, capture_output=True)
            with open(users, "w") as f:
                f.write("meridian:correct horse\n")
            with MeridianDaemon(extra_args=["--tls-cert", cert, "--tls-key", key,
                                            "--users-file", users]) as secure:
                with psycopg.connect(secure.conninfo(), password="correct horse",
                                     sslmode="require", autocommit=True) as conn:
                    self.assertEqual(conn.pgconn.ssl_in_use, True)
                    self.assertEqual(conn.execute("SELECT 'secure'").fetchone(), ("secure",))
                with self.assertRaises(psycopg.OperationalError) as ctx:
                    psycopg.connect(secure.conninfo(), password="wrong", sslmode="require")
                self.assertIn('password authentication failed for user "meridian"',
                              str(ctx.exception))
                self.assertTrue(secure.alive())


if __name__ == "__main__":
    unittest.main(verbosity=2)
