# Crash durability under load: many sessions move money between accounts, one transaction per
# transfer (BEGIN; debit; credit; INSERT INTO transfers; COMMIT), half at READ COMMITTED and half
# at REPEATABLE READ; meridiand is killed with SIGKILL at a random moment and restarted on the
# same data directory, several rounds in a row. After every restart:
#   - the accounts are all there and the money is conserved (sum of balances unchanged);
#   - every balance equals the initial balance plus what the transfers table says came in minus
#     what went out (no transfer half applied, none applied without its row, none lost);
#   - every transfer whose COMMIT was acknowledged is there, with the amounts the client sent;
#   - no transfer is there whose COMMIT was never sent; an in-doubt transfer (the connection
#     broke during COMMIT) may be either, but once seen after a restart it stays (and vice versa);
#   - transfer ids are unique.
# 40001 and 40P01 are retried. A round's client connections break at the kill; the transfer then
# in flight is "in doubt" if COMMIT had been sent, otherwise "never committed".
#
# Prints per round: load time, acknowledged transfers, in-doubt outcomes, retries, and the
# restart time (spawn until the port accepts, and until a query succeeds). Settings (environment):
# MERIDIAN_BANK_ROUNDS (5), MERIDIAN_BANK_THREADS (16), MERIDIAN_BANK_ACCOUNTS (100),
# MERIDIAN_BANK_KILL_MIN_MS / MERIDIAN_BANK_KILL_MAX_MS (500 / 3000: load time before the kill),
# MERIDIAN_BANK_SEED (random; printed, to replay the choices of a run), MERIDIAN_BANK_DAEMON_ARGS
# (extra meridiand flags, e.g. "--commit-mode group"; with async, acknowledged commits may be
# lost by design and the test fails).
#
# With MERIDIAN_TEST_CONNINFO set (a dry run against an existing server, e.g. PostgreSQL) nothing
# is killed: the "crash" terminates the workers' backends with pg_terminate_backend when the
# server has it (else the workers just stop), so the workload, the client-side bookkeeping and
# the checks are exercised without the restart.
import os
import random
import shlex
import statistics
import sys
import threading
import time
import unittest

import psycopg
from psycopg import errors

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from txn_server import Server, env_int  # noqa: E402

ROUNDS = env_int("MERIDIAN_BANK_ROUNDS", 5)
THREADS = env_int("MERIDIAN_BANK_THREADS", 16)
ACCOUNTS = env_int("MERIDIAN_BANK_ACCOUNTS", 100)
KILL_MIN_S = env_int("MERIDIAN_BANK_KILL_MIN_MS", 500) / 1000
KILL_MAX_S = env_int("MERIDIAN_BANK_KILL_MAX_MS", 3000) / 1000
INITIAL_BALANCE = 1000
MAX_RETRIES = 1000
READY_TIMEOUT_S = 60
RETRIED = {"40001": "serialization failure", "40P01": "deadlock"}


def connection_lost(conn, error):
    """Whether error means the server (or this session on it) is gone, rather than a failed
    statement: the connection is closed, or the error is one of class 08 / 57P0x (terminated
    session, shutdown) or has no SQLSTATE (the socket broke)."""
    state = error.sqlstate
    return (conn.closed or state is None or state.startswith("08")
            or state in ("57P01", "57P02", "57P03"))


class Ledger:
    """What the clients know about every transfer id they used; shared by the worker threads."""

    def __init__(self):
        self.lock = threading.Lock()
        self.next_id = 1
        self.transfers = {}          # id -> (src, dst, amount), for every id sent
        self.acknowledged = set()    # COMMIT returned COMMIT
        self.in_doubt = set()        # the connection broke after COMMIT was sent
        self.never_committed = set()  # the connection broke before COMMIT was sent
        self.known_absent = set()    # in doubt, and found absent after a restart
        self.retries = {code: 0 for code in RETRIED}
        self.unexpected = []         # anything else that went wrong in a worker

    def new_transfer(self, src, dst, amount):
        with self.lock:
            tid = self.next_id
            self.next_id += 1
            self.transfers[tid] = (src, dst, amount)
            return tid

    def record(self, kind, tid):
        with self.lock:
            getattr(self, kind).add(tid)

    def retried(self, sqlstate):
        with self.lock:
            self.retries[sqlstate] += 1

    def fail(self, message):
        with self.lock:
            self.unexpected.append(message)


class Worker(threading.Thread):
    """One session doing transfers until its connection breaks or stop is set."""

    def __init__(self, conninfo, ledger, stop, rng):
        super().__init__(daemon=True)
        self.ledger = ledger
        self.stop = stop
        self.rng = rng
        self.conn = psycopg.connect(conninfo, autocommit=True, connect_timeout=20)
        self.acknowledged = 0

    def run(self):
        try:
            while not self.stop.is_set():
                src, dst = self.rng.sample(range(1, ACCOUNTS + 1), 2)
                tid = self.ledger.new_transfer(src, dst, self.rng.randint(1, 100))
                if not self.transfer(tid, self.rng.random() < 0.5):
                    return
                self.acknowledged += 1
        except Exception as e:  # a bug in the test itself; reported, never swallowed
            self.ledger.fail(f"worker crashed: {type(e).__name__}: {e}")
        finally:
            try:
                self.conn.close()
            except Exception:
                pass

    def transfer(self, tid, repeatable_read):
        """One transfer, retried on 40001/40P01. True when acknowledged; False when this worker
        must stop (connection lost: in doubt or never committed; or an unexpected error)."""
        src, dst, amount = self.ledger.transfers[tid]
        statements = [
            "BEGIN ISOLATION LEVEL REPEATABLE READ" if repeatable_read else "BEGIN",
            f"UPDATE accounts SET balance = balance - {amount} WHERE id = {src}",
            f"UPDATE accounts SET balance = balance + {amount} WHERE id = {dst}",
            f"INSERT INTO transfers VALUES ({tid}, {src}, {dst}, {amount})",
        ]
        for _ in range(MAX_RETRIES):
            commit_sent = False
            try:
                for sql in statements:
                    cur = self.conn.execute(sql)
                    if not sql.startswith("BEGIN") and cur.rowcount != 1:
                        raise AssertionError(f"{sql!r} changed {cur.rowcount} rows")
                commit_sent = True
                cur = self.conn.execute("COMMIT")
                if cur.statusmessage != "COMMIT":
                    raise AssertionError(f"COMMIT of transfer {tid} answered "
                                         f"{cur.statusmessage!r}")
                self.ledger.record("acknowledged", tid)
                return True
            except psycopg.Error as e:
                if connection_lost(self.conn, e):
                    self.ledger.record("in_doubt" if commit_sent else "never_committed", tid)
                    return False
                if e.sqlstate not in RETRIED:
                    self.ledger.fail(f"transfer {tid}: {type(e).__name__} [{e.sqlstate}] {e}")
                    return False
                self.ledger.retried(e.sqlstate)
                if not self.rollback(tid):
                    return False
                time.sleep(self.rng.random() * 0.002)
            except AssertionError as e:
                self.ledger.fail(str(e))
                return False
        self.ledger.fail(f"transfer {tid}: still failing after {MAX_RETRIES} attempts")
        return False

    def rollback(self, tid):
        """Ends the failed transaction (if the server has not already); False when the
        connection is lost meanwhile (the transfer did not commit: its last attempt failed)."""
        try:
            if self.conn.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
                self.conn.execute("ROLLBACK")
            return True
        except psycopg.Error as e:
            if connection_lost(self.conn, e):
                self.ledger.record("never_committed", tid)
            else:
                self.ledger.fail(f"ROLLBACK after a retryable error: {e}")
            return False


class BankCrashTest(unittest.TestCase):
    maxDiff = 4000

    def setUp(self):
        seed_env = os.environ.get("MERIDIAN_BANK_SEED")
        self.seed = int(seed_env) if seed_env else random.randrange(1 << 30)
        self.rng = random.Random(self.seed)
        self.server = Server(shlex.split(os.environ.get("MERIDIAN_BANK_DAEMON_ARGS", ""))).start()
        self.addCleanup(self.stop_server)
        self.ledger = Ledger()
        print(f"\nbank: server {'meridiand' if self.server.is_meridian else 'external'}, "
              f"seed {self.seed}, {ROUNDS} rounds, {THREADS} sessions, {ACCOUNTS} accounts",
              flush=True)

    def stop_server(self):
        if self.server is not None:
            server, self.server = self.server, None
            server.stop()

    def connect(self):
        return psycopg.connect(self.server.conninfo(), autocommit=True, connect_timeout=20)

    def create_tables(self):
        with self.connect() as conn:
            conn.execute("DROP TABLE IF EXISTS transfers")
            conn.execute("DROP TABLE IF EXISTS accounts")
            conn.execute("CREATE TABLE accounts (id int PRIMARY KEY, balance int)")
            conn.execute("CREATE TABLE transfers (id bigint PRIMARY KEY, src int, dst int, "
                         "amount int)")
            values = ", ".join(f"({i}, {INITIAL_BALANCE})" for i in range(1, ACCOUNTS + 1))
            self.assertEqual(conn.execute(f"INSERT INTO accounts VALUES {values}").rowcount,
                             ACCOUNTS)

    def crash(self, workers):
        """SIGKILL meridiand; against an external server, end the workers' sessions instead."""
        if self.server.is_meridian:
            daemon = self.server.daemon
            if not daemon.alive():
                self.fail(f"meridiand died under load ({daemon.proc.returncode}):\n"
                          + daemon.log()[-20000:])
            daemon.kill()
            return
        pids = [w.conn.info.backend_pid for w in workers]
        try:
            with self.connect() as conn:
                conn.execute("SELECT pg_terminate_backend(pid) FROM unnest(%s::int[]) AS pid",
                             (pids,))
        except psycopg.Error as e:
            print(f"  (dry run: no pg_terminate_backend ({e.sqlstate}); stopping the workers)")

    def restart(self):
        """Starts meridiand again on the same data directory; returns (seconds until the port
        accepts, seconds until a query succeeds), both from the spawn."""
        if self.server.is_meridian:
            daemon = self.server.daemon
            daemon.restart(timeout=READY_TIMEOUT_S)
            spawned = daemon.spawned_at
            accepting = daemon.accepting_at - spawned
        else:
            spawned = time.monotonic()
            accepting = 0.0
        last = None
        while time.monotonic() - spawned < READY_TIMEOUT_S:
            try:
                with self.connect() as conn:
                    conn.execute("SELECT count(*) FROM accounts").fetchone()
                return accepting, time.monotonic() - spawned
            except psycopg.Error as e:
                last = e
                time.sleep(0.02)
        self.fail(f"no query succeeded within {READY_TIMEOUT_S} s after the restart: {last}\n"
                  + (self.server.daemon.log()[-20000:] if self.server.is_meridian else ""))

    def verify(self, label):
        """Checks the database against the ledger (see the top of the file); settles the
        in-doubt transfers. Returns (in doubt found committed, in doubt found absent)."""
        ledger = self.ledger
        with self.connect() as conn:
            balances = dict(conn.execute("SELECT id, balance FROM accounts").fetchall())
            sql_sum = conn.execute("SELECT sum(balance), count(*) FROM accounts").fetchone()
            rows = conn.execute("SELECT id, src, dst, amount FROM transfers").fetchall()
        where = f"after {label}"
        self.assertEqual(sorted(balances), list(range(1, ACCOUNTS + 1)), f"accounts {where}")
        self.assertEqual(sum(balances.values()), ACCOUNTS * INITIAL_BALANCE,
                         f"money not conserved {where}")
        self.assertEqual(tuple(sql_sum), (ACCOUNTS * INITIAL_BALANCE, ACCOUNTS),
                         f"sum(balance), count(*) {where}")

        ids = [r[0] for r in rows]
        self.assertEqual(len(ids), len(set(ids)), f"duplicate transfer ids {where}")
        present = set(ids)
        wrong = [r for r in rows if ledger.transfers.get(r[0]) != tuple(r[1:])]
        self.assertEqual(wrong[:10], [], f"transfers unknown to the clients or altered {where}")

        expected = {i: INITIAL_BALANCE for i in range(1, ACCOUNTS + 1)}
        for _, src, dst, amount in rows:
            expected[src] -= amount
            expected[dst] += amount
        diff = {i: (balances[i], expected[i]) for i in expected if balances[i] != expected[i]}
        self.assertEqual(dict(list(diff.items())[:10]), {},
                         f"(balance, initial + in - out) differ for {len(diff)} accounts {where}")

        missing = ledger.acknowledged - present
        self.assertEqual(sorted(missing)[:20], [],
                         f"{len(missing)} acknowledged transfers lost {where}")
        ghosts = present & (ledger.never_committed | ledger.known_absent)
        self.assertEqual(sorted(ghosts)[:20], [],
                         f"{len(ghosts)} transfers present that never committed {where}")
        unaccounted = present - ledger.acknowledged - ledger.in_doubt
        self.assertEqual(sorted(unaccounted)[:20], [],
                         f"{len(unaccounted)} transfers present that no COMMIT was sent for")

        committed = ledger.in_doubt & present
        absent = ledger.in_doubt - present
        ledger.acknowledged |= committed  # settled: from now on they must stay (or stay away)
        ledger.known_absent |= absent
        ledger.in_doubt.clear()
        return len(committed), len(absent)

    def run_round(self, number):
        ledger = self.ledger
        acknowledged_before = len(ledger.acknowledged)
        retries_before = dict(ledger.retries)
        stop = threading.Event()
        workers = [Worker(self.server.conninfo(), ledger, stop,
                          random.Random(self.rng.randrange(1 << 30))) for _ in range(THREADS)]
        load_s = self.rng.uniform(KILL_MIN_S, KILL_MAX_S)
        started = time.monotonic()
        for w in workers:
            w.start()
        time.sleep(load_s)
        self.crash(workers)
        stop.set()
        for w in workers:
            w.join(30)
        stuck = sum(w.is_alive() for w in workers)
        self.assertEqual(stuck, 0, f"{stuck} sessions still running 30 s after the crash")
        elapsed = time.monotonic() - started
        self.assertEqual(ledger.unexpected, [], "unexpected errors in the sessions")

        accepting_s, ready_s = self.restart()
        in_doubt = len(ledger.in_doubt)
        committed, absent = self.verify(f"round {number}")
        acked = len(ledger.acknowledged) - acknowledged_before - committed
        retries = {c: ledger.retries[c] - retries_before[c] for c in RETRIED}
        print(f"round {number}: killed after {load_s:.2f} s of load; {acked} acknowledged "
              f"({acked / elapsed:.0f}/s); in doubt {in_doubt} ({committed} committed, "
              f"{absent} not); retries {retries['40001']} x 40001, {retries['40P01']} x 40P01; "
              f"restart: port accepts after {accepting_s * 1000:.0f} ms, first query after "
              f"{ready_s * 1000:.0f} ms", flush=True)
        return acked, ready_s

    def test_kill_and_restart_under_transfers(self):
        self.create_tables()
        self.verify("setup")
        acknowledged, ready = [], []
        for number in range(1, ROUNDS + 1):
            acked, ready_s = self.run_round(number)
            acknowledged.append(acked)
            ready.append(ready_s)
        ledger = self.ledger
        # A clean stop and start on the same data must keep everything too.
        if self.server.is_meridian:
            code = self.server.daemon.stop()
            self.assertEqual(code, 0, "meridiand exit code on SIGTERM:\n"
                             + self.server.daemon.log()[-20000:])
            self.restart()
        self.verify("a clean restart")
        print(f"bank: {ROUNDS} rounds, {len(ledger.acknowledged)} transfers committed "
              f"({sum(acknowledged)} acknowledged at COMMIT, per round {acknowledged}), "
              f"{len(ledger.never_committed)} never committed, {len(ledger.known_absent)} in "
              f"doubt and absent; restart until the first query: min "
              f"{min(ready) * 1000:.0f} ms, median {statistics.median(ready) * 1000:.0f} ms, "
              f"max {max(ready) * 1000:.0f} ms", flush=True)
        self.assertGreater(sum(acknowledged), 0, "no transfer was ever acknowledged")


if __name__ == "__main__":
    unittest.main(verbosity=2)
