# The worker pool grows while statements wait for a row lock and shrinks again afterwards
# (server/worker_pool.h). A daemon with 4 worker threads; one session holds a row lock (an open
# block that updated the row) while WAITERS (60) other sessions each run an UPDATE of that row
# and block behind it. Asserts: every waiter's UPDATE is running in the daemon (its thread
# count, /proc/PID/status Threads, rose by WAITERS - 2: each waiting statement holds a thread
# and 2 more stay free, where 4 threads alone would have left the rest queued), the holder's
# COMMIT then lets them all finish with the row incremented once each, and within 30 s of the
# last one the daemon's thread count is back to what it was before the waits (the extra
# threads leave once idle for a few seconds), after which statements still run.
# Runs against meridiand only (it reads the daemon's thread count and sets --worker-threads).
import os
import sys
import threading
import time
import unittest

import psycopg

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from txn_server import Server, env_int, proc_status_int  # noqa: E402

WAITERS = env_int("MERIDIAN_WAITERS", 60)
# Threads the daemon may start or end by itself meanwhile (gRPC's pool is not used here; slack
# for any helper thread that comes and goes).
SLACK = 2


def threads_of(pid):
    return proc_status_int(pid, "Threads")


def eventually(pred, seconds):
    until = time.monotonic() + seconds
    while not pred():
        if time.monotonic() >= until:
            return False
        time.sleep(0.05)
    return True


class WorkerThreadsTest(unittest.TestCase):
    def setUp(self):
        self.server = Server(extra_args=["--worker-threads", "4", "--log-level", "warn"])
        if not self.server.is_meridian:
            self.skipTest("reads meridiand's thread count")
        self.server.start()
        self.addCleanup(self.server.stop)

    def connect(self):
        return psycopg.connect(self.server.conninfo(), autocommit=True, connect_timeout=60)

    def test_pool_grows_for_lock_waits_and_shrinks_after(self):
        pid = self.server.pid()
        with self.connect() as admin:
            admin.execute("CREATE TABLE hot (id int PRIMARY KEY, n int)")
            admin.execute("INSERT INTO hot VALUES (1, 0)")
        conns = [self.connect() for _ in range(WAITERS)]
        self.addCleanup(lambda: [c.close() for c in conns])
        holder = self.connect()
        self.addCleanup(holder.close)
        # Every connection open and idle: the daemon's threads without lock waits.
        time.sleep(0.5)
        base = threads_of(pid)

        holder.execute("BEGIN")
        holder.execute("UPDATE hot SET n = n + 1 WHERE id = 1")
        errors = []

        def wait_behind(c):
            try:
                c.execute("UPDATE hot SET n = n + 1 WHERE id = 1")
            except Exception as e:  # noqa: BLE001 - reported below
                errors.append(repr(e))

        workers = [threading.Thread(target=wait_behind, args=(c,)) for c in conns]
        for w in workers:
            w.start()
        # The 4 worker threads become WAITERS waiting plus 2 free (WorkerPool::kRunnable).
        grown = eventually(lambda: threads_of(pid) >= base + WAITERS + 2 - 4, 30)
        peak = threads_of(pid)
        self.assertTrue(grown, f"daemon threads {base} -> {peak} with {WAITERS} lock waits")
        holder.execute("COMMIT")
        for w in workers:
            w.join(60)
        self.assertFalse(any(w.is_alive() for w in workers), "an UPDATE never finished")
        self.assertEqual(errors, [])
        print(f"threads: {base} before the waits, {peak} with {WAITERS} waiting")

        started = time.monotonic()
        shrunk = eventually(lambda: threads_of(pid) <= base + SLACK, 30)
        now = threads_of(pid)
        self.assertTrue(shrunk, f"daemon threads still {now} (base {base}, peak {peak}) after 30 s")
        print(f"threads: back to {now} {time.monotonic() - started:.1f} s after the last wait")

        with self.connect() as c:
            self.assertEqual(c.execute("SELECT n FROM hot WHERE id = 1").fetchone()[0],
                             WAITERS + 1)
            # The shrunk pool still serves statements.
            c.execute("UPDATE hot SET n = 0 WHERE id = 1")
            self.assertEqual(c.execute("SELECT n FROM hot WHERE id = 1").fetchone()[0], 0)


if __name__ == "__main__":
    unittest.main()
