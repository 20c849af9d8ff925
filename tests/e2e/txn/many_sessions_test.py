# Many concurrent sessions on one daemon: MERIDIAN_SESSIONS (1,000) psycopg connections, opened
# by a small thread pool and all kept open; each runs MERIDIAN_SESSION_TXNS (3) short
# transactions (BEGIN; UPDATE its own row; SELECT it; COMMIT), all sessions interleaved. Asserts
# that every connection and every statement succeeds, that each transaction reads its own write,
# that a session opened while all the others are connected still works, and the final table
# (every row incremented once per transaction). Prints the daemon's resident memory
# (/proc/PID/status VmRSS) before connecting, with every session connected and idle, and after
# the transactions, and the memory per idle session; MERIDIAN_MAX_KIB_PER_SESSION, when set,
# turns the per-session figure into an assertion (the design target is 64 KiB).
#
# Against an existing server (MERIDIAN_TEST_CONNINFO) memory is not measured; PostgreSQL allows
# 100 connections by default, so set MERIDIAN_SESSIONS below that (or raise max_connections).
import os
import resource
import sys
import time
import unittest
from concurrent.futures import ThreadPoolExecutor

import psycopg

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from txn_server import Server, env_int, raise_open_file_limit, rss_kib  # noqa: E402

SESSIONS = env_int("MERIDIAN_SESSIONS", 1000)
TXNS = env_int("MERIDIAN_SESSION_TXNS", 3)
POOL = env_int("MERIDIAN_SESSION_POOL", 32)
MAX_KIB_PER_SESSION = env_int("MERIDIAN_MAX_KIB_PER_SESSION", 0)


class ManySessionsTest(unittest.TestCase):
    def setUp(self):
        # Each session costs a socket here and one in the daemon, plus libpq's and the
        # daemon's own descriptors: ask for twice the sessions and some slack.
        limit = raise_open_file_limit(2 * SESSIONS + 256)
        if limit != resource.RLIM_INFINITY and limit < SESSIONS + 64:
            self.skipTest(f"open file limit {limit} is too low for {SESSIONS} sessions")
        self.server = Server().start()
        self.addCleanup(self.server.stop)
        self.conns = []
        self.addCleanup(self.close_all)

    def close_all(self):
        with ThreadPoolExecutor(POOL) as pool:
            list(pool.map(lambda c: c.close(), self.conns))
        self.conns = []

    def connect(self):
        return psycopg.connect(self.server.conninfo(), autocommit=True, connect_timeout=60)

    def rss(self):
        pid = self.server.pid()
        return rss_kib(pid) if pid else None

    def test_many_concurrent_sessions(self):
        with self.connect() as admin:
            admin.execute("DROP TABLE IF EXISTS sessions")
            admin.execute("CREATE TABLE sessions (id int PRIMARY KEY, n int, owner int)")
            for start in range(0, SESSIONS, 500):
                values = ", ".join(f"({i}, 0, -1)" for i in range(start, min(start + 500,
                                                                               SESSIONS)))
                admin.execute(f"INSERT INTO sessions VALUES {values}")
        time.sleep(0.2)  # let the daemon settle after the setup before the first measurement
        rss_before = self.rss()

        started = time.monotonic()
        with ThreadPoolExecutor(POOL) as pool:
            futures = [pool.submit(self.connect) for _ in range(SESSIONS)]
            errors = []
            for f in futures:
                try:
                    self.conns.append(f.result())
                except Exception as e:
                    errors.append(e)
        connect_s = time.monotonic() - started
        self.assertEqual(len(errors), 0, f"{len(errors)} of {SESSIONS} connections failed; "
                         f"first: {errors[0] if errors else None}")
        self.assertEqual(len(self.conns), SESSIONS)
        time.sleep(0.5)  # idle
        rss_idle = self.rss()

        # One more session while all of them are connected.
        with self.connect() as extra:
            self.assertEqual(extra.execute("SELECT count(*), sum(n) FROM sessions").fetchone(),
                             (SESSIONS, 0))

        def transaction(args):
            i, conn, k = args
            conn.execute("BEGIN")
            cur = conn.execute(f"UPDATE sessions SET n = n + 1, owner = {i} WHERE id = {i}")
            if cur.rowcount != 1:
                raise AssertionError(f"session {i}: UPDATE changed {cur.rowcount} rows")
            row = conn.execute(f"SELECT n, owner FROM sessions WHERE id = {i}").fetchone()
            if row != (k + 1, i):
                raise AssertionError(f"session {i}, transaction {k}: read {row}, "
                                     f"expected {(k + 1, i)}")
            if conn.info.transaction_status != psycopg.pq.TransactionStatus.INTRANS:
                raise AssertionError(f"session {i}: status {conn.info.transaction_status}")
            if conn.execute("COMMIT").statusmessage != "COMMIT":
                raise AssertionError(f"session {i}: COMMIT did not commit")
            if conn.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
                raise AssertionError(f"session {i}: status {conn.info.transaction_status}")

        started = time.monotonic()
        failures = []
        with ThreadPoolExecutor(POOL) as pool:
            for k in range(TXNS):  # every session runs its k-th transaction, interleaved
                futures = [pool.submit(transaction, (i, c, k)) for i, c in enumerate(self.conns)]
                for f in futures:
                    try:
                        f.result()
                    except Exception as e:
                        failures.append(e)
                self.assertEqual(failures, [], f"transaction round {k}")
        txn_s = time.monotonic() - started
        rss_after = self.rss()

        with self.connect() as check:
            rows = check.execute("SELECT id, n, owner FROM sessions ORDER BY id").fetchall()
        self.assertEqual(rows, [(i, TXNS, i) for i in range(SESSIONS)])
        self.assertTrue(all(not c.closed for c in self.conns), "a session was dropped")

        print(f"\nmany sessions: {SESSIONS} connected in {connect_s:.2f} s; "
              f"{SESSIONS * TXNS} transactions in {txn_s:.2f} s "
              f"({SESSIONS * TXNS / txn_s:.0f}/s)")
        if rss_before is not None:
            per_session = (rss_idle - rss_before) / SESSIONS
            print(f"meridiand VmRSS: {rss_before} KiB before connecting, {rss_idle} KiB with "
                  f"{SESSIONS} idle sessions, {rss_after} KiB after the transactions; "
                  f"{per_session:.1f} KiB per idle session", flush=True)
            if MAX_KIB_PER_SESSION:
                self.assertLessEqual(per_session, MAX_KIB_PER_SESSION)
        else:
            print("(external server: memory not measured)", flush=True)


if __name__ == "__main__":
    unittest.main(verbosity=2)
