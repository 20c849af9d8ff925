"""Prepared writes inside transaction blocks that meet another transaction's lock, over the
PostgreSQL protocol with server-side prepared statements (psycopg `prepare=True`).

meridiand runs a prepared INSERT of one row, or an UPDATE/DELETE by a unique key (an index
lookup: the tables get 2,000 more rows so that the planner picks one) or in a small table (a
heap scan), inside a transaction block on the connection's network thread without waiting
(Request::QuickWrite); when it meets a row lock or an uncommitted key of another transaction it undoes the statement
and runs it again on the worker pool, where it waits. These checks would fail if that retry
applied a statement twice, lost it, or failed the transaction block:

  - a blocked UPDATE waits for the holder, then applies once on top of the holder's commit,
    and the block's earlier INSERT is still there exactly once;
  - a blocked INSERT of a key another transaction inserted waits, then gets 23505 when the
    other commits (the block is then failed, as in PostgreSQL) or succeeds when it rolls back;
  - a blocked SELECT ... FOR UPDATE (a quick write too inside a block) waits for the holder,
    then returns the holder's committed balance, and holds the row for its own UPDATE;
  - (the UPDATE and FOR UPDATE checks run on a table of 2 rows and of 2,002 rows)
  - 8 sessions transfer between 4 hot accounts (in a table of 4 rows and of 2,004 rows) with
    prepared statements in blocks: the total is conserved and every account's balance equals its initial one plus the acknowledged
    transfers recorded in the log table (rows locked in id order; 40001 would be retried);
    once more with both rows locked first by SELECT ... FOR UPDATE.

Runs against meridiand (or MERIDIAN_TEST_CONNINFO, e.g. a PostgreSQL 15, for comparison)."""
import random
import sys
import threading
import time

import psycopg

from txn_server import Server

UPDATE = "UPDATE acct SET bal = bal + %s WHERE id = %s"
LOCK = "SELECT bal FROM acct WHERE id = %s FOR UPDATE"
INSERT_LOG = "INSERT INTO xfer VALUES (%s, %s, %s, %s)"
INSERT_KEY = "INSERT INTO keys VALUES (%s)"


def fill(conn):
    """Rows enough that a lookup by key is an index scan (a tiny table is read whole)."""
    conn.execute("INSERT INTO acct SELECT g, 0 FROM generate_series(10000, 12000) g")
    conn.execute("ANALYZE acct")


def warm(conn, sql, make_params):
    """Runs sql prepared a few times in committed blocks (psycopg prepares again after a
    ROLLBACK), so its plan is cached: make_params(i) gives the parameters of run i."""
    for i in range(3):
        conn.execute("BEGIN")
        conn.execute(sql, make_params(i), prepare=True)
        conn.execute("COMMIT")


def run_in_thread(fn):
    box = {}

    def target():
        try:
            box["result"] = fn()
        except BaseException as e:  # noqa: BLE001 - reported by the caller
            box["error"] = e

    t = threading.Thread(target=target)
    t.start()
    return t, box


def waits_for(fn, release, what):
    """Runs fn in a thread, checks that it waits, calls release() and returns fn's result once
    it has stopped waiting without an error."""
    t, box = run_in_thread(fn)
    t.join(0.5)
    assert t.is_alive(), f"the {what} of a locked row did not wait"
    release()
    t.join(5)
    assert not t.is_alive(), f"the {what} still waits after the holder ended"
    assert "error" not in box, f"the waiting {what} failed: {box.get('error')}"
    return box["result"]


def blocked_update(server, small):
    with psycopg.connect(server.conninfo(), autocommit=True) as a, \
            psycopg.connect(server.conninfo(), autocommit=True) as b:
        a.execute("DELETE FROM acct")
        a.execute("DELETE FROM xfer")
        a.execute("INSERT INTO acct VALUES (1, 100), (2, 100)")
        if not small:
            fill(a)
        warm(b, UPDATE, lambda i: (0, 2))
        warm(b, INSERT_LOG, lambda i: (-1 - i, 0, 0, 0))
        a.execute("BEGIN")
        a.execute(UPDATE, (10, 1))
        b.execute("BEGIN")
        b.execute(INSERT_LOG, (1, 2, 1, 5), prepare=True)
        n = waits_for(lambda: b.execute(UPDATE, (5, 1), prepare=True).rowcount,
                      lambda: a.execute("COMMIT"), "UPDATE")
        assert n == 1, n
        status = b.info.transaction_status
        assert status == psycopg.pq.TransactionStatus.INTRANS, f"block status {status!r}"
        b.execute("COMMIT")
        bal = a.execute("SELECT bal FROM acct WHERE id = 1").fetchone()[0]
        assert bal == 115, f"balance {bal}: expected 100 + 10 (holder) + 5 (waiter)"
        n = a.execute("SELECT count(*) FROM xfer WHERE id = 1").fetchone()[0]
        assert n == 1, f"the block's INSERT is there {n} times"


def blocked_locking_read(server, small):
    with psycopg.connect(server.conninfo(), autocommit=True) as a, \
            psycopg.connect(server.conninfo(), autocommit=True) as b:
        a.execute("DELETE FROM acct")
        a.execute("INSERT INTO acct VALUES (1, 100), (2, 100)")
        if not small:
            fill(a)
        warm(b, LOCK, lambda i: (2,))
        warm(b, UPDATE, lambda i: (0, 2))
        a.execute("BEGIN")
        a.execute(UPDATE, (10, 1))
        b.execute("BEGIN")
        b.execute(LOCK, (2,), prepare=True)
        rows = waits_for(lambda: b.execute(LOCK, (1,), prepare=True).fetchall(),
                         lambda: a.execute("COMMIT"), "SELECT ... FOR UPDATE")
        assert rows == [(110,)], rows
        assert b.info.transaction_status == psycopg.pq.TransactionStatus.INTRANS

        def b_updates_and_commits():
            b.execute(UPDATE, (5, 1), prepare=True)
            b.execute("COMMIT")

        # b holds row 1 now: a's update waits until b commits its own on top.
        n = waits_for(lambda: a.execute(UPDATE, (1, 1)).rowcount, b_updates_and_commits,
                      "UPDATE after SELECT ... FOR UPDATE")
        assert n == 1, n
        bal = a.execute("SELECT bal FROM acct WHERE id = 1").fetchone()[0]
        assert bal == 116, f"balance {bal}: expected 100 + 10 + 5 + 1"


def blocked_insert(server, holder_commits):
    with psycopg.connect(server.conninfo(), autocommit=True) as a, \
            psycopg.connect(server.conninfo(), autocommit=True) as b:
        a.execute("DELETE FROM keys")
        a.execute("INSERT INTO keys SELECT g FROM generate_series(10000, 12000) g")
        a.execute("ANALYZE keys")
        warm(b, INSERT_KEY, lambda i: (1000 + i,))
        a.execute("BEGIN")
        a.execute(INSERT_KEY, (5,))
        b.execute("BEGIN")
        t, box = run_in_thread(lambda: b.execute(INSERT_KEY, (5,), prepare=True).rowcount)
        t.join(0.5)
        assert t.is_alive(), "the INSERT of an uncommitted key did not wait"
        a.execute("COMMIT" if holder_commits else "ROLLBACK")
        t.join(5)
        assert not t.is_alive(), "the INSERT still waits after the other transaction ended"
        if holder_commits:
            err = box.get("error")
            assert isinstance(err, psycopg.errors.UniqueViolation), f"expected 23505, got {box}"
            assert b.info.transaction_status == psycopg.pq.TransactionStatus.INERROR
            b.execute("ROLLBACK")
        else:
            assert "error" not in box and box["result"] == 1, box
            b.execute("COMMIT")
        n = a.execute("SELECT count(*) FROM keys WHERE k = 5").fetchone()[0]
        assert n == 1, f"key 5 is there {n} times"


def hot_transfers(server, small, sessions=8, transfers=150, accounts=4, lock_first=False):
    with psycopg.connect(server.conninfo(), autocommit=True) as c:
        c.execute("DELETE FROM acct")
        c.execute("DELETE FROM xfer")
        for i in range(accounts):
            c.execute("INSERT INTO acct VALUES (%s, 1000)", (i,))
        if not small:
            fill(c)
    errors = []
    retried = [0] * sessions

    def worker(s):
        rng = random.Random(s)
        try:
            with psycopg.connect(server.conninfo(), autocommit=True) as c:
                for n in range(transfers):
                    src, dst = rng.sample(range(accounts), 2)
                    amount = rng.randint(1, 9)
                    while True:
                        try:
                            c.execute("BEGIN")
                            if lock_first:
                                for acct in sorted([src, dst]):
                                    c.execute(LOCK, (acct,), prepare=True)
                            # In id order: no deadlocks (PostgreSQL needs a second to find one).
                            for delta, acct in sorted([(-amount, src), (amount, dst)],
                                                      key=lambda d: d[1]):
                                c.execute(UPDATE, (delta, acct), prepare=True)
                            c.execute(INSERT_LOG, (s * 100000 + n, src, dst, amount), prepare=True)
                            c.execute("COMMIT")
                            break
                        except (psycopg.errors.DeadlockDetected,
                                psycopg.errors.SerializationFailure):
                            c.execute("ROLLBACK")
                            retried[s] += 1
        except psycopg.Error as e:
            errors.append(f"session {s}: {e.sqlstate}: {e}")

    threads = [threading.Thread(target=worker, args=(s,)) for s in range(sessions)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    with psycopg.connect(server.conninfo(), autocommit=True) as c:
        logged = c.execute("SELECT count(*) FROM xfer").fetchone()[0]
        assert logged == sessions * transfers, f"{logged} transfers logged"
        bad = c.execute(
            "SELECT a.id, a.bal, 1000 + coalesce((SELECT sum(amount) FROM xfer WHERE dst = a.id), 0)"
            " - coalesce((SELECT sum(amount) FROM xfer WHERE src = a.id), 0)"
            " FROM acct a WHERE a.id < %s ORDER BY a.id", (accounts,)).fetchall()
        for acct, bal, expected in bad:
            assert bal == expected, f"account {acct}: balance {bal}, log says {expected}"
        total = c.execute("SELECT sum(bal) FROM acct WHERE id < %s", (accounts,)).fetchone()[0]
        assert total == 1000 * accounts, f"total {total}"
    return sum(retried)


def main():
    server = Server()
    server.start()
    try:
        with psycopg.connect(server.conninfo(), autocommit=True) as conn:
            for t in ("acct", "xfer", "keys"):
                conn.execute(f"DROP TABLE IF EXISTS {t}")
            conn.execute("CREATE TABLE acct (id INTEGER PRIMARY KEY, bal INTEGER NOT NULL)")
            conn.execute("CREATE TABLE xfer (id INTEGER PRIMARY KEY, src INTEGER, dst INTEGER,"
                         " amount INTEGER)")
            conn.execute("CREATE TABLE keys (k INTEGER PRIMARY KEY)")
        started = time.monotonic()
        for small in (False, True):
            blocked_update(server, small)
            blocked_locking_read(server, small)
        blocked_insert(server, holder_commits=True)
        blocked_insert(server, holder_commits=False)
        retried = (hot_transfers(server, small=False) + hot_transfers(server, small=True) +
                   hot_transfers(server, small=False, lock_first=True))
        print(f"quick_write: blocked UPDATE/INSERT/FOR UPDATE waited and applied once; 3x1200 "
              f"hot transfers "
              f"conserved ({retried} retried) in {time.monotonic() - started:.1f} s")
        server.stop()
    except BaseException:
        if server.daemon is not None:
            print(server.daemon.log()[-5000:])
        raise
    print("quick_write: 1 passed, 0 failed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
