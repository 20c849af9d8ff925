# Soak of many PostgreSQL-protocol sessions on one daemon (issue 14 item 8): MERIDIAN_SOAK_IDLE
# (10,000) idle sessions, each connected and answering one query and then holding its socket,
# plus MERIDIAN_SOAK_ACTIVE (1,000) active sessions running a mixed workload for
# MERIDIAN_SOAK_SECONDS (600): point reads, two-row increments in BEGIN/COMMIT blocks (one in ten
# rolled back), inserts with each session deleting its older rows, and errors on purpose (22012,
# 23505, 42P01, 25P02 inside a block) that must carry their SQLSTATE and do not count as failures.
# The daemon's VmRSS and thread count are sampled every MERIDIAN_SOAK_SAMPLE_S seconds.
#
# At the end it asserts: no unexpected error on any session; every idle and active session still
# answers a query with its own number; each counter row equals the committed increments the
# clients counted for it (rolled-back ones excluded) and the event table holds exactly the rows
# inserted and not deleted; the largest RSS of the last third of the run is at most the largest
# of the middle third plus MERIDIAN_SOAK_RSS_GROWTH_PCT (5) percent and
# MERIDIAN_SOAK_RSS_SLACK_MIB (8) MiB ("flat"); the daemon is alive and stops with exit 0.
# Prints a summary table. One asyncio loop and psycopg's AsyncConnection drive every session.
#
# Needs about one descriptor per session in this process and one in the daemon: the soft
# RLIMIT_NOFILE is raised to the hard limit if needed (the daemon inherits it; meridiand also
# raises its own soft limit to the hard one at start). Against an existing server
# (MERIDIAN_TEST_CONNINFO) memory is not measured and the server must allow the sessions
# (PostgreSQL: max_connections).
import asyncio
import os
import random
import resource
import sys
import time
import unittest

import psycopg

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from txn_server import Server, env_int, raise_open_file_limit  # noqa: E402

IDLE = env_int("MERIDIAN_SOAK_IDLE", 10000)
ACTIVE = env_int("MERIDIAN_SOAK_ACTIVE", 1000)
SECONDS = env_int("MERIDIAN_SOAK_SECONDS", 600)
SAMPLE_S = env_int("MERIDIAN_SOAK_SAMPLE_S", 5)
CONNECT_CONCURRENCY = env_int("MERIDIAN_SOAK_CONNECT_CONCURRENCY", 64)
RSS_GROWTH_PCT = env_int("MERIDIAN_SOAK_RSS_GROWTH_PCT", 5)
RSS_SLACK_MIB = env_int("MERIDIAN_SOAK_RSS_SLACK_MIB", 8)
SEED = env_int("MERIDIAN_SOAK_SEED", 0) or random.randrange(1, 1 << 30)

KV_ROWS = 10000        # read by point reads; 23505 target
COUNTER_ROWS = 1000    # incremented two at a time in transaction blocks
EVENTS_KEPT = 20       # each session keeps about this many of its own events

EXPECTED_ERRORS = {     # kind -> (statements, SQLSTATE of the failing one)
    "div_by_zero": "22012",
    "duplicate_key": "23505",
    "missing_table": "42P01",
    "in_failed_block": "25P02",
}


def proc_status(pid):
    """(VmRSS KiB, threads) of a process from /proc/PID/status."""
    rss = threads = None
    with open(f"/proc/{pid}/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                rss = int(line.split()[1])
            elif line.startswith("Threads:"):
                threads = int(line.split()[1])
    return rss, threads


class Tally:
    """What the clients did; compared with the database at the end."""

    def __init__(self):
        self.ops = {k: 0 for k in ("read", "increment", "rollback", "insert", "delete")}
        self.expected = {k: 0 for k in EXPECTED_ERRORS}
        self.unexpected = []           # (session, what, error text)
        self.counter = [0] * COUNTER_ROWS
        self.events_inserted = 0
        self.events_deleted = 0
        self.max_latency = {}          # kind -> longest seconds
        self.slow = {}                 # kind -> operations over 1 s

    def fail(self, session, what, err):
        state = getattr(err, "sqlstate", None)
        self.unexpected.append((session, what, f"{type(err).__name__} {state}: {err}"))


class Soak:
    def __init__(self, server):
        self.server = server
        self.tally = Tally()
        self.samples = []              # (seconds since the active phase began, rss, threads)
        self.phase_marks = {}          # name -> (rss, threads)
        self.idle = []
        self.active = []

    async def connect(self):
        return await psycopg.AsyncConnection.connect(self.server.conninfo(), autocommit=True,
                                                     connect_timeout=120)

    def status(self):
        pid = self.server.pid()
        return proc_status(pid) if pid else (None, None)

    async def open_sessions(self, n, first):
        """n connections, each answering SELECT its number; opened CONNECT_CONCURRENCY at a
        time. Returns the list; a failure is recorded and leaves None in its place."""
        sem = asyncio.Semaphore(CONNECT_CONCURRENCY)

        async def one(i):
            async with sem:
                try:
                    conn = await self.connect()
                    cur = await conn.execute("SELECT %s::int", (i,))
                    got = (await cur.fetchone())[0]
                    if got != i:
                        raise AssertionError(f"answered {got}")
                    return conn
                except Exception as e:  # noqa: BLE001 - every failure is a soak finding
                    self.tally.fail(i, "connect", e)
                    return None

        return await asyncio.gather(*(one(first + i) for i in range(n)))

    async def setup(self):
        async with await self.connect() as c:
            for t in ("soak_kv", "soak_counter", "soak_events"):
                await c.execute(f"DROP TABLE IF EXISTS {t}")
            await c.execute("CREATE TABLE soak_kv (id int PRIMARY KEY, v int, pad text)")
            await c.execute("CREATE TABLE soak_counter (id int PRIMARY KEY, n bigint)")
            await c.execute("CREATE TABLE soak_events (session int, seq int, payload text, "
                            "PRIMARY KEY (session, seq))")
            for start in range(0, KV_ROWS, 1000):
                values = ", ".join(f"({i}, {i * 7}, 'row {i}')"
                                   for i in range(start, min(start + 1000, KV_ROWS)))
                await c.execute(f"INSERT INTO soak_kv VALUES {values}")
            values = ", ".join(f"({i}, 0)" for i in range(COUNTER_ROWS))
            await c.execute(f"INSERT INTO soak_counter VALUES {values}")

    async def expected_error(self, conn, rng, session):
        kind = rng.choice(sorted(EXPECTED_ERRORS))
        want = EXPECTED_ERRORS[kind]
        try:
            if kind == "div_by_zero":
                await conn.execute("SELECT 1 / (id - id) FROM soak_kv WHERE id = %s",
                                   (rng.randrange(KV_ROWS),))
            elif kind == "duplicate_key":
                await conn.execute("INSERT INTO soak_kv VALUES (%s, 0, 'dup')",
                                   (rng.randrange(KV_ROWS),))
            elif kind == "missing_table":
                await conn.execute("SELECT * FROM soak_no_such_table")
            else:
                await conn.execute("BEGIN")
                try:
                    await conn.execute("SELECT 1 / 0")
                except psycopg.Error as e:
                    if e.sqlstate != "22012":
                        raise
                try:
                    await conn.execute("SELECT 1")
                finally:
                    await conn.execute("ROLLBACK")
        except psycopg.Error as e:
            if e.sqlstate == want:
                self.tally.expected[kind] += 1
                return
            raise
        raise AssertionError(f"{kind}: no error, expected SQLSTATE {want}")

    async def increment(self, conn, rng):
        a, b = sorted(rng.sample(range(COUNTER_ROWS), 2))  # same lock order everywhere
        rollback = rng.random() < 0.1
        await conn.execute("BEGIN")
        for k in (a, b):
            cur = await conn.execute("UPDATE soak_counter SET n = n + 1 WHERE id = %s", (k,))
            if cur.rowcount != 1:
                raise AssertionError(f"UPDATE of counter {k} changed {cur.rowcount} rows")
        if rollback:
            await conn.execute("ROLLBACK")
            self.tally.ops["rollback"] += 1
            return
        cur = await conn.execute("COMMIT")
        if cur.statusmessage != "COMMIT":
            raise AssertionError(f"COMMIT answered {cur.statusmessage}")
        self.tally.counter[a] += 1
        self.tally.counter[b] += 1
        self.tally.ops["increment"] += 1

    async def run_active(self, i, conn, deadline):
        rng = random.Random(SEED * 1000003 + i)
        seq = 0
        while time.monotonic() < deadline:
            r = rng.random()
            started = time.monotonic()
            what = "read"
            try:
                if r < 0.45:
                    k = rng.randrange(KV_ROWS)
                    cur = await conn.execute("SELECT id, v FROM soak_kv WHERE id = %s", (k,))
                    row = await cur.fetchone()
                    if row != (k, k * 7):
                        raise AssertionError(f"read {row} for id {k}")
                    self.tally.ops["read"] += 1
                elif r < 0.75:
                    what = "increment"
                    await self.increment(conn, rng)
                elif r < 0.97:
                    what = "insert"
                    await conn.execute("INSERT INTO soak_events VALUES (%s, %s, %s)",
                                       (i, seq, f"event {seq} of session {i}"))
                    seq += 1
                    self.tally.events_inserted += 1
                    self.tally.ops["insert"] += 1
                    if seq % EVENTS_KEPT == 0:
                        what = "delete"
                        cur = await conn.execute(
                            "DELETE FROM soak_events WHERE session = %s AND seq < %s",
                            (i, seq - EVENTS_KEPT))
                        self.tally.events_deleted += cur.rowcount
                        self.tally.ops["delete"] += 1
                else:
                    what = "expected error"
                    await self.expected_error(conn, rng, i)
            except Exception as e:  # noqa: BLE001 - every failure is a soak finding
                self.tally.fail(i, what, e)
                if conn.closed or conn.broken:
                    return
                if conn.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
                    try:
                        await conn.execute("ROLLBACK")
                    except psycopg.Error as e2:
                        self.tally.fail(i, "rollback after failure", e2)
                        return
            took = time.monotonic() - started
            t = self.tally
            t.max_latency[what] = max(t.max_latency.get(what, 0.0), took)
            if took > 1:
                t.slow[what] = t.slow.get(what, 0) + 1

    async def sampler(self, start, stop):
        while not stop.is_set():
            rss, threads = self.status()
            self.samples.append((time.monotonic() - start, rss, threads))
            try:
                await asyncio.wait_for(stop.wait(), SAMPLE_S)
            except asyncio.TimeoutError:
                pass

    async def answers(self, conns, first, what):
        """Every connection still answers SELECT its number; returns how many did."""
        sem = asyncio.Semaphore(CONNECT_CONCURRENCY)

        async def one(i, conn):
            if conn is None:
                return 0
            async with sem:
                try:
                    cur = await conn.execute("SELECT %s::int", (i,))
                    got = (await cur.fetchone())[0]
                    if got != i:
                        raise AssertionError(f"answered {got}")
                    return 1
                except Exception as e:  # noqa: BLE001
                    self.tally.fail(i, what, e)
                    return 0

        return sum(await asyncio.gather(*(one(first + i, c) for i, c in enumerate(conns))))

    async def run(self):
        t0 = time.monotonic()
        await self.setup()
        await asyncio.sleep(0.5)
        self.phase_marks["start"] = self.status()

        t = time.monotonic()
        self.idle = await self.open_sessions(IDLE, 0)
        self.connect_idle_s = time.monotonic() - t
        await asyncio.sleep(1)
        self.phase_marks["idle open"] = self.status()

        t = time.monotonic()
        self.active = await self.open_sessions(ACTIVE, IDLE)
        self.connect_active_s = time.monotonic() - t
        self.phase_marks["active open"] = self.status()

        start = time.monotonic()
        stop = asyncio.Event()
        sampler = asyncio.create_task(self.sampler(start, stop))
        deadline = start + SECONDS
        await asyncio.gather(*(self.run_active(IDLE + i, c, deadline)
                               for i, c in enumerate(self.active) if c is not None))
        self.active_s = time.monotonic() - start
        stop.set()
        await sampler
        self.phase_marks["end of load"] = self.status()

        self.idle_answered = await self.answers(self.idle, 0, "idle answers")
        self.active_answered = await self.answers(self.active, IDLE, "active answers")

        async with await self.connect() as c:
            cur = await c.execute("SELECT id, n FROM soak_counter ORDER BY id")
            self.counter_rows = await cur.fetchall()
            cur = await c.execute("SELECT count(*) FROM soak_events")
            self.events_count = (await cur.fetchone())[0]
        self.total_s = time.monotonic() - t0

    async def close_all(self):
        conns = [c for c in self.idle + self.active if c is not None]
        sem = asyncio.Semaphore(CONNECT_CONCURRENCY)

        async def one(c):
            async with sem:
                await c.close()

        await asyncio.gather(*(one(c) for c in conns), return_exceptions=True)


def thirds(samples):
    """The RSS samples of the middle and the last third of the active phase."""
    n = len(samples)
    middle = [s[1] for s in samples[n // 3:2 * n // 3] if s[1] is not None]
    last = [s[1] for s in samples[2 * n // 3:] if s[1] is not None]
    return middle, last


class SoakSessionsTest(unittest.TestCase):
    def test_soak(self):
        limit = raise_open_file_limit(IDLE + ACTIVE + 1024)
        if limit != resource.RLIM_INFINITY and limit < IDLE + ACTIVE + 64:
            self.fail(f"open file limit {limit} (hard) is too low for {IDLE + ACTIVE} sessions; "
                      f"raise it (ulimit -Hn) or lower MERIDIAN_SOAK_IDLE")
        server = Server().start()
        soak = Soak(server)
        print(f"\nsoak: {IDLE} idle + {ACTIVE} active sessions for {SECONDS} s, seed {SEED}, "
              f"open file limit {limit}", flush=True)
        try:
            asyncio.run(self.run_soak(soak))
            alive = server.daemon is None or server.daemon.alive()
        finally:
            server.stop()  # raises when the daemon had died or did not exit with 0
        self.report(soak, alive)

    async def run_soak(self, soak):
        try:
            await soak.run()
        finally:
            await soak.close_all()

    def report(self, soak, alive):
        t = soak.tally
        ops = sum(t.ops[k] for k in ("read", "increment", "rollback", "insert"))
        ops += sum(t.expected.values())
        rows = [("sessions", f"{IDLE} idle (opened in {soak.connect_idle_s:.1f} s) + {ACTIVE} "
                             f"active (opened in {soak.connect_active_s:.1f} s)")]
        rows.append(("active phase", f"{soak.active_s:.1f} s; {ops} operations, "
                                     f"{ops / soak.active_s:.0f}/s"))
        for k, v in t.ops.items():
            rows.append((f"  {k}", f"{v} ({v / soak.active_s:.0f}/s)"))
        for k, v in t.expected.items():
            rows.append((f"  expected {EXPECTED_ERRORS[k]} {k}", str(v)))
        rows.append(("longest (ms) / over 1 s", ", ".join(
            f"{k} {v * 1000:.0f} / {t.slow.get(k, 0)}" for k, v in sorted(t.max_latency.items()))))
        rows.append(("unexpected errors", str(len(t.unexpected))))
        rows.append(("sessions answering at the end",
                     f"{soak.idle_answered}/{IDLE} idle, {soak.active_answered}/{ACTIVE} active"))
        for name, (rss, threads) in soak.phase_marks.items():
            if rss is not None:
                rows.append((f"VmRSS {name}", f"{rss / 1024:.1f} MiB, {threads} threads"))
        middle, last = thirds(soak.samples)
        if middle and last:
            rows.append(("VmRSS max middle / last third",
                         f"{max(middle) / 1024:.1f} / {max(last) / 1024:.1f} MiB "
                         f"({len(soak.samples)} samples every {SAMPLE_S} s)"))
            threads = [s[2] for s in soak.samples if s[2] is not None]
            rows.append(("threads min / max", f"{min(threads)} / {max(threads)}"))
        width = max(len(r[0]) for r in rows)
        print("\n".join(f"{a:<{width}}  {b}" for a, b in rows), flush=True)
        for u in t.unexpected[:20]:
            print("unexpected:", u, flush=True)

        self.assertEqual(t.unexpected, [], f"{len(t.unexpected)} unexpected errors")
        self.assertEqual(soak.idle_answered, IDLE)
        self.assertEqual(soak.active_answered, ACTIVE)
        self.assertTrue(t.ops["read"] > 0 and t.ops["increment"] > 0 and t.ops["insert"] > 0)
        self.assertEqual(soak.counter_rows, [(i, n) for i, n in enumerate(t.counter)])
        self.assertEqual(soak.events_count, t.events_inserted - t.events_deleted)
        self.assertTrue(alive, "meridiand died")
        if middle and last:
            allowed = max(middle) * (1 + RSS_GROWTH_PCT / 100) + RSS_SLACK_MIB * 1024
            self.assertLessEqual(max(last), allowed,
                                 f"RSS grew from {max(middle)} KiB (middle third) to "
                                 f"{max(last)} KiB (last third)")


if __name__ == "__main__":
    unittest.main(verbosity=2)
