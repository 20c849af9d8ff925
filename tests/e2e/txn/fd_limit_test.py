# The PostgreSQL listener out of descriptors (found by soak_sessions_test.py: with the usual soft
# limit of 1024 and more sessions, accept failed with EMFILE in a loop that spun a core and wrote
# hundreds of thousands of log lines a second while clients hung). meridiand's open-file limit is
# lowered from outside (prlimit) to a few dozen above what it holds; sessions are opened until one
# times out. Asserts: while a connection waits in the backlog the daemon uses little CPU and logs
# the failure only once or twice; after some sessions close the waiting connection is accepted
# (the accept loop retries) and answers; the held sessions still answer; meridiand stops with 0.
import os
import resource
import sys
import threading
import time
import unittest

import psycopg

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from txn_server import Server, raise_open_file_limit  # noqa: E402

SPARE = 40        # descriptors left to the daemon above those it holds after start-up
MAX_SESSIONS = 200


def cpu_seconds(pid):
    """User + system CPU time of a process, from /proc/PID/stat."""
    with open(f"/proc/{pid}/stat", encoding="ascii") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class FdLimitTest(unittest.TestCase):
    def setUp(self):
        raise_open_file_limit(1024)
        # No checkpoint during the test: it could need a descriptor the sessions took.
        self.server = Server(extra_args=["--checkpoint-interval-s", "3600"]).start()
        if not self.server.is_meridian:
            self.skipTest("needs meridiand (it lowers the daemon's open file limit)")
        self.addCleanup(self.server.stop)
        self.conns = []
        self.addCleanup(self.close_all)

    def close_all(self):
        for c in self.conns:
            c.close()
        self.conns = []

    def connect(self, timeout):
        return psycopg.connect(self.server.conninfo(), autocommit=True, connect_timeout=timeout)

    def test_accept_out_of_descriptors(self):
        pid = self.server.pid()
        held = len(os.listdir(f"/proc/{pid}/fd"))
        resource.prlimit(pid, resource.RLIMIT_NOFILE, (held + SPARE, held + SPARE))

        refused = None
        while len(self.conns) < MAX_SESSIONS:
            try:
                self.conns.append(self.connect(2))
            except psycopg.OperationalError as e:
                refused = e
                break
        self.assertIsNotNone(refused, f"{MAX_SESSIONS} sessions with {SPARE} spare descriptors")
        self.assertGreater(len(self.conns), SPARE // 2)

        # One more client waits in the backlog while the daemon has no descriptor.
        waiting = {}

        def wait_for_session():
            try:
                with self.connect(20) as c:
                    waiting["answer"] = c.execute("SELECT 42").fetchone()[0]
            except psycopg.Error as e:
                waiting["error"] = e

        thread = threading.Thread(target=wait_for_session)
        thread.start()
        time.sleep(0.3)
        cpu_before = cpu_seconds(pid)
        time.sleep(2)
        cpu_used = cpu_seconds(pid) - cpu_before
        self.assertTrue(thread.is_alive(), f"the waiting connection ended early: {waiting}")
        self.assertLess(cpu_used, 0.2, "meridiand spun while out of descriptors")

        for c in self.conns[:5]:
            c.close()
        del self.conns[:5]
        thread.join(30)
        self.assertEqual(waiting.get("answer"), 42, f"waiting connection: {waiting}")
        for i, c in enumerate(self.conns):
            self.assertEqual(c.execute("SELECT %s::int", (i,)).fetchone()[0], i)

        failures = [line for line in self.server.daemon.log().splitlines()
                    if "accepting a PostgreSQL connection failed" in line]
        self.assertGreaterEqual(len(failures), 1)
        self.assertLessEqual(len(failures), 3, "\n".join(failures[:5]))
        self.assertIn("open file limit", failures[0])
        print(f"\nfd limit: {len(self.conns) + 5} sessions with {SPARE} spare descriptors, "
              f"{cpu_used:.2f} s of CPU in 2 s out of descriptors, {len(failures)} log line(s)",
              flush=True)


if __name__ == "__main__":
    unittest.main(verbosity=2)
