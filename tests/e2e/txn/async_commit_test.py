"""Commits that no thread waits for, over the PostgreSQL protocol with server-side prepared
statements (psycopg `prepare=True`, as pgbench -M prepared).

meridiand runs a prepared COMMIT of a block, and a prepared autocommit write (one VALUES row, an
UPDATE by key) with its commit, on the connection's network thread: the transaction goes to the
group committer and the committer's completion resumes the connection (PendingCommit,
server/pgwire/README.md invariant 1). These checks would fail if such a commit still needed a
worker-pool thread, if a client heard COMMIT before its group was durable, or if a commit error
were lost:

  1. path: with one worker thread, busy with pg_sleep, blocks (BEGIN; INSERT; UPDATE; COMMIT,
     with BEGIN and COMMIT prepared or as simple Query messages) and autocommit writes still
     complete (before the sleep ends) and are visible;
  2. durability: 8 sessions commit blocks and autocommit writes until meridiand is killed with
     SIGKILL; after a restart every write whose COMMIT (or autocommit write) was acknowledged is
     there, and nothing that was never sent;
  3. errors: on a full disk (a small tmpfs, as disk_full_test.py) a prepared COMMIT and an
     autocommit write fail with 53100 (their rows absent), the block ends (ReadyForQuery idle),
     and once space is freed the same statements commit. Where no tmpfs can be mounted this part
     says so and the test exits 77 (skipped).

Runs against meridiand only (the first check depends on --worker-threads)."""
import os
import random
import sys
import threading
import time

import psycopg

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from txn_server import Server  # noqa: E402

SKIP = 77
SLEEP_S = 6


def run_block(conn, key, pad="x"):
    conn.execute("BEGIN", prepare=True)
    conn.execute("INSERT INTO t VALUES (%s, %s, 0)", (key, pad), prepare=True)
    conn.execute("UPDATE t SET n = n + 1 WHERE id = %s", (key,), prepare=True)
    cur = conn.execute("COMMIT", prepare=True)
    assert cur.statusmessage == "COMMIT", cur.statusmessage


def run_block_simple(conn, key, pad="x"):
    """BEGIN and COMMIT as simple Query messages (as libpq's PQexec sends them)."""
    conn.execute("BEGIN")
    conn.execute("INSERT INTO t VALUES (%s, %s, 0)", (key, pad), prepare=True)
    conn.execute("UPDATE t SET n = n + 1 WHERE id = %s", (key,), prepare=True)
    cur = conn.execute("COMMIT")
    assert cur.statusmessage == "COMMIT", cur.statusmessage


def run_autocommit(conn, key, pad="x"):
    conn.execute("INSERT INTO t VALUES (%s, %s, 0)", (key, pad), prepare=True)
    conn.execute("UPDATE t SET n = n + 1 WHERE id = %s", (key,), prepare=True)


def check_path():
    server = Server(extra_args=["--worker-threads", "1", "--log-level", "warn"]).start()
    try:
        conn = psycopg.connect(server.conninfo(), autocommit=True)
        conn.execute("CREATE TABLE t (id INT PRIMARY KEY, pad TEXT, n INT)")
        # Parse and the first runs (which plan) use the pool: warm up before it is taken.
        for k in range(1, 4):
            run_block(conn, k)
            run_autocommit(conn, 100 + k)
            run_block_simple(conn, 300 + k)
        started = threading.Event()

        def sleeper():
            with psycopg.connect(server.conninfo(), autocommit=True) as s:
                started.set()
                s.execute(f"SELECT pg_sleep({SLEEP_S})")

        t = threading.Thread(target=sleeper)
        t.start()
        started.wait()
        time.sleep(0.5)  # the sleep has reached the pool's only thread
        begin = time.monotonic()
        for k in range(10, 20):
            run_block(conn, k)
            run_autocommit(conn, 200 + k)
            run_block_simple(conn, 400 + k)
        elapsed = time.monotonic() - begin
        assert t.is_alive(), (f"30 commits took {elapsed:.2f} s: they waited for the worker pool "
                              f"(busy with pg_sleep({SLEEP_S}))")
        t.join()
        rows = conn.execute("SELECT count(*), sum(n) FROM t").fetchone()
        assert rows == (39, 39), rows
        conn.close()
        print(f"path: 30 commits in {elapsed:.3f} s while the only worker thread slept")
    finally:
        server.stop()


def check_durability():
    server = Server(extra_args=["--log-level", "warn"]).start()
    try:
        with psycopg.connect(server.conninfo(), autocommit=True) as c:
            c.execute("CREATE TABLE t (id INT PRIMARY KEY, pad TEXT, n INT)")
        acknowledged, sent = set(), set()
        lock = threading.Lock()
        stop = threading.Event()

        def worker(w):
            try:
                conn = psycopg.connect(server.conninfo(), autocommit=True)
            except psycopg.Error:
                return
            k = w * 1_000_000
            try:
                while not stop.is_set():
                    k += 1
                    with lock:
                        sent.add(k)
                    if k % 4 == 1:
                        run_block(conn, k)
                    elif k % 4 == 3:
                        run_block_simple(conn, k)
                    else:
                        run_autocommit(conn, k)
                    with lock:
                        acknowledged.add(k)
            except (psycopg.Error, AssertionError):
                pass  # the kill: the write in flight is in doubt

        threads = [threading.Thread(target=worker, args=(w,)) for w in range(1, 9)]
        for t in threads:
            t.start()
        time.sleep(random.uniform(1.5, 3.0))
        server.daemon.kill()
        stop.set()
        for t in threads:
            t.join()
        server.daemon.restart()
        deadline = time.monotonic() + 60
        while True:
            try:
                with psycopg.connect(server.conninfo(), autocommit=True) as c:
                    rows = c.execute("SELECT id, n FROM t").fetchall()
                break
            except psycopg.OperationalError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        present = {r[0]: r[1] for r in rows}
        lost = acknowledged - present.keys()
        assert not lost, f"{len(lost)} acknowledged commits lost, e.g. {sorted(lost)[:5]}"
        assert present.keys() <= sent, "rows that were never sent"
        # Insert and update commit together (a block, or two autocommits in order).
        half = [k for k in acknowledged if k % 2 and present[k] != 1]
        assert not half, f"blocks committed in part: {half[:5]}"
        assert len(acknowledged) > 100, f"only {len(acknowledged)} commits before the kill"
        print(f"durability: {len(acknowledged)} acknowledged commits all there after kill -9 "
              f"({len(present) - len(acknowledged)} of the in-doubt ones too)")
        server.stop()
    finally:
        if server.daemon.alive():
            server.daemon.kill()


def fill(path):
    """Writes path until the file system is full."""
    with open(path, "wb") as f:
        try:
            while True:
                f.write(b"\0" * (1 << 20))
                f.flush()
        except OSError:
            pass
    try:
        with open(path + ".2", "wb") as f:  # the last partial megabyte
            while True:
                f.write(b"\0" * 4096)
                f.flush()
    except OSError:
        pass


def check_errors():
    server = Server(extra_args=["--buffer-pool-mb", "16", "--log-level", "warn",
                                "--checkpoint-interval-s", "3600"])
    data, why = server.mount_small_disk(48)
    if data is None:
        print(f"SKIP errors: cannot mount a tmpfs here ({why})")
        return False
    try:
        server.start()
        conn = psycopg.connect(server.conninfo(), autocommit=True)
        conn.execute("CREATE TABLE t (id INT PRIMARY KEY, pad TEXT, n INT)")
        pad = "p" * 2000
        for k in range(1, 4):
            run_block(conn, k, pad)
            run_autocommit(conn, 100 + k, pad)
        filler = os.path.join(data, "filler")
        fill(filler)
        # Blocks of one small row until a COMMIT fails: the row fits a page the heap has (an
        # INSERT that needs a new page fails itself; the block is then rolled back), the group's
        # record needs room in the log. Then autocommit writes likewise.
        failures, committed, failed = {}, set(), set()
        k = 1000
        for _ in range(2000):
            k += 1
            conn.execute("BEGIN", prepare=True)
            try:
                conn.execute("INSERT INTO t VALUES (%s, %s, 0)", (k, "s"), prepare=True)
            except psycopg.Error as e:
                assert e.sqlstate == "53100", e
                conn.execute("ROLLBACK")
                continue
            try:
                conn.execute("COMMIT", prepare=True)
                committed.add(k)
            except psycopg.Error as e:
                failures["COMMIT"] = e.sqlstate
                failed.add(k)
                break
        assert conn.info.transaction_status == psycopg.pq.TransactionStatus.IDLE, \
            conn.info.transaction_status
        for _ in range(2000):
            k += 1
            try:
                conn.execute("INSERT INTO t VALUES (%s, %s, 0)", (k, "s"), prepare=True)
                committed.add(k)
            except psycopg.Error as e:
                failures["INSERT"] = e.sqlstate
                failed.add(k)
                break
        assert failures == {"COMMIT": "53100", "INSERT": "53100"}, failures
        assert server.daemon.alive(), "meridiand died on a full disk"
        got = {r[0] for r in conn.execute("SELECT id FROM t WHERE id >= 1000").fetchall()}
        assert got == committed, (f"missing {sorted(committed - got)[:5]}, "
                                  f"unexpected {sorted(got - committed)[:5]}")
        os.remove(filler)
        os.remove(filler + ".2")
        run_block(conn, 3000, pad)
        run_autocommit(conn, 3001, pad)
        got = conn.execute("SELECT count(*) FROM t WHERE id IN (3000, 3001)").fetchone()
        assert got == (2,), got
        conn.close()
        print("errors: COMMIT and an autocommit write got 53100 on a full disk; later ones "
              "commit")
        server.stop()
    finally:
        server.release_small_disk(data)
    return True


def main():
    if not Server().is_meridian:
        print("SKIP: async_commit_test runs only against meridiand")
        return SKIP
    check_path()
    check_durability()
    if not check_errors():
        return SKIP
    print("async_commit: 3 passed, 0 failed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
