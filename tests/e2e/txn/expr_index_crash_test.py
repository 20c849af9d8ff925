"""kill -9 during writes to a table with an expression index and a partial index. Writer
sessions insert users(id, email, active) one per transaction, with the address in mixed case,
and re-spell or deactivate some of their earlier rows by UPDATE; the table has
users_lower UNIQUE (lower(email)) and users_active (id) WHERE active. The daemon is killed at a
random moment and restarted, and then:

  - every acknowledged row is found through users_lower by its lowered address (EXPLAIN shows
    the index is used) with its acknowledged spelling, and nothing else: the rows read through
    the index in address ranges equal those a heap scan returns (`lower(email || '')` defeats
    the index);
  - the rows through users_active (`WHERE active AND id > 0`) equal the heap's active rows;
  - the unique expression index still refuses another spelling of a stored address (23505);
  - after a clean stop, verify_indexes ($MERIDIAN_VERIFY_INDEXES, which binds the expressions
    again as the daemon does) runs BTree::Verify on every index of the data directory.

Rounds alternate a buffer pool that keeps the indexes cached (recovery catches them up from
the log tail) with a 1 MiB pool (their pages are evicted, they are marked unsafe and rebuilt at
restart, re-binding the expressions from the catalog). Settings: MERIDIAN_EXPR_CRASH_ROUNDS
(4), MERIDIAN_EXPR_CRASH_PRELOAD (20000 rows before the first round), MERIDIAN_EXPR_CRASH_SEED
(random; printed)."""
import os
import random
import subprocess
import sys
import threading
import time

import psycopg

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from txn_server import Server, env_int  # noqa: E402

ROUNDS = env_int("MERIDIAN_EXPR_CRASH_ROUNDS", 4)
SEED = env_int("MERIDIAN_EXPR_CRASH_SEED", random.randrange(1 << 30))
PRELOAD = env_int("MERIDIAN_EXPR_CRASH_PRELOAD", 20000)
WRITERS = 3
VERIFY = os.environ.get("MERIDIAN_VERIFY_INDEXES", "")


def connect(server):
    return psycopg.connect(server.conninfo(), autocommit=True)


def spell(rng, address):
    return "".join(c.upper() if rng.random() < 0.5 else c for c in address)


class Writer:
    """Inserts ids id_base + 1, 2, ...; acked maps id -> (email, active) as last acknowledged,
    pending the statement in flight (id, old state or None, new state)."""

    def __init__(self, server, id_base, rng, acked):
        self.server, self.next_id, self.rng, self.acked = server, id_base, rng, acked
        self.pending = None
        self.mine = []

    def run(self):
        try:
            with connect(self.server) as conn:
                while True:
                    if self.mine and self.rng.random() < 0.3:
                        i = self.rng.choice(self.mine)
                        email, active = self.acked[i]
                        new = (spell(self.rng, email.lower()), self.rng.random() < 0.5)
                        self.pending = (i, (email, active), new)
                        conn.execute("UPDATE users SET email = %s, active = %s WHERE id = %s",
                                     (new[0], new[1], i))
                    else:
                        self.next_id += 1
                        i = self.next_id
                        new = (spell(self.rng, f"user{i}@example.com"), self.rng.random() < 0.5)
                        self.pending = (i, None, new)
                        conn.execute("INSERT INTO users VALUES (%s, %s, %s)", (i, new[0], new[1]))
                        self.mine.append(i)
                    self.acked[i] = new
                    self.pending = None
        except psycopg.Error:
            pass  # the kill


def ranges():
    bounds = [f"user{d}" for d in range(1, 10)]
    lows = [""] + bounds
    highs = bounds + ["~"]
    return list(zip(lows, highs))


def check(conn, acked, pendings):
    q = "SELECT id, email FROM users WHERE lower(email) >= %s AND lower(email) < %s"
    h = "SELECT id, email FROM users WHERE lower(email || '') >= %s AND lower(email || '') < %s"
    plan = "\n".join(r[0] for r in conn.execute("EXPLAIN " + q, ("user1", "user2")).fetchall())
    assert "Index Scan using users_lower on users" in plan, plan
    found = {}
    for lo, hi in ranges():
        via_index = sorted(conn.execute(q, (lo, hi)).fetchall())
        via_heap = sorted(conn.execute(h, (lo, hi)).fetchall())
        assert via_index == via_heap, f"[{lo}, {hi}): index {len(via_index)} rows, heap " \
                                      f"{len(via_heap)}"
        for i, email in via_index:
            assert i not in found, f"row {i} found twice"
            found[i] = email
    total = conn.execute("SELECT count(*) FROM users").fetchone()[0]
    assert total == len(found), f"{total} rows, {len(found)} through the index"
    active_q = "SELECT id FROM users WHERE active AND id > 0 ORDER BY id"
    plan = "\n".join(r[0] for r in conn.execute("EXPLAIN " + active_q).fetchall())
    active_index = [r[0] for r in conn.execute(active_q).fetchall()]
    active_heap = [r[0] for r in conn.execute(
        "SELECT id FROM users WHERE active = (id + 0 > 0) ORDER BY id").fetchall()]
    assert active_index == active_heap, \
        f"active rows: {len(active_index)} by index, {len(active_heap)} by heap\n{plan}"
    in_flight = {p[0]: p for p in pendings if p is not None}
    for i, (email, _) in list(acked.items()):
        if i in in_flight:
            continue
        assert found.get(i) == email, f"acknowledged row {i} as {email}: index has {found.get(i)}"
    for i, (_, old, new) in in_flight.items():
        assert found.get(i) in (old[0] if old else None, new[0]), \
            f"in-flight row {i}: {found.get(i)} not {old}/{new}"
        if i in found:
            row = conn.execute("SELECT email, active FROM users WHERE id = %s", (i,)).fetchone()
            acked[i] = (row[0], row[1])
        elif i in acked:
            del acked[i]
    extra = set(found) - set(acked)
    assert not extra, f"rows nobody acknowledged: {sorted(extra)[:5]}"
    some = next(iter(acked))
    try:
        conn.execute("INSERT INTO users VALUES (-1, %s, false)", (acked[some][0].upper(),))
        raise AssertionError("a second spelling of a stored address was accepted")
    except psycopg.errors.UniqueViolation:
        pass


def verify(server):
    if not VERIFY:
        print("  (MERIDIAN_VERIFY_INDEXES not set: Verify() skipped)")
        return
    server.daemon.stop()
    out = subprocess.run([VERIFY, os.path.join(server.daemon.dir, "data")], capture_output=True,
                         text=True)
    lines = out.stdout.splitlines()
    assert out.returncode == 0 and len(lines) == 3 and all(": ok," in x for x in lines), \
        f"verify_indexes failed:\n{out.stdout}\n{out.stderr}"
    print("  " + "\n  ".join(lines))
    server.daemon.restart()


def main():
    rng = random.Random(SEED)
    print(f"expr_index_crash: seed {SEED}, {ROUNDS} rounds, {WRITERS} writers")
    acked = {}
    daemon = None
    for rnd in range(ROUNDS):
        pool_mb = "1" if rnd % 2 else "64"
        args = ["--checkpoint-interval-s", "1", "--buffer-pool-mb", pool_mb]
        server = Server(extra_args=args)
        if not server.is_meridian:
            print("expr_index_crash_test runs only against meridiand (it kills the server)")
            return 0
        if rnd == 0:
            server.start()
            with connect(server) as conn:
                conn.execute("CREATE TABLE users (id BIGINT PRIMARY KEY, email TEXT, active BOOL)")
                conn.execute("INSERT INTO users SELECT g, 'User' || g || '@Example.com', g %% 2 = 0 "
                             "FROM generate_series(1, %s) g", (PRELOAD,))
                conn.execute("CREATE UNIQUE INDEX users_lower ON users (lower(email))")
                conn.execute("CREATE INDEX users_active ON users (id) WHERE active")
                for i, email, active in conn.execute("SELECT id, email, active FROM users"):
                    acked[i] = (email, active)
            daemon = server.daemon
        else:
            daemon.extra_args = args
            server.daemon = daemon
            daemon.restart()
        try:
            writers = [Writer(server, (w + 1) * 10000000 + rnd * 1000000,
                              random.Random(rng.random()), acked) for w in range(WRITERS)]
            threads = [threading.Thread(target=w.run) for w in writers]
            for t in threads:
                t.start()
            delay = rng.uniform(1.0, 3.0)
            time.sleep(delay)
            daemon.kill()
            for t in threads:
                t.join(timeout=60)
            daemon.restart()
            with connect(server) as conn:
                check(conn, acked, [w.pending for w in writers])
            recovered = [x for x in daemon.log().splitlines() if "recovered after" in x]
            print(f"round {rnd + 1}: pool {pool_mb} MiB, kill after {delay:.2f} s, "
                  f"{len(acked)} rows, every acknowledged row found through users_lower\n  "
                  f"{recovered[-1].split('] ')[-1] if recovered else ''}")
            verify(server)
            daemon.stop()
        except BaseException:
            print(daemon.log()[-5000:])
            daemon.__exit__(None, None, None)
            raise
    daemon.__exit__(None, None, None)
    print("expr_index_crash: 1 passed, 0 failed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
