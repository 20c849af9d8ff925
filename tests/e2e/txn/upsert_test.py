"""INSERT ... ON CONFLICT under concurrency, over the PostgreSQL protocol:

  - 8 sessions upsert counters on 10 keys (DO UPDATE SET n = c.n + 1): every acknowledged
    upsert is counted exactly once (sum(n) equals the statements that succeeded), one row per
    key, and no statement fails: a session that loses the race for a new key waits for the
    winner and updates its row, as in PostgreSQL;
  - 8 sessions insert overlapping key ranges with DO NOTHING: each key lands once, and the
    rows the sessions report inserted add up to the keys.

Runs against meridiand (or MERIDIAN_TEST_CONNINFO, e.g. a PostgreSQL 15, for comparison)."""
import random
import sys
import threading

import psycopg

from txn_server import Server

SESSIONS = 8
UPSERTS = 250
KEYS = 10
RANGE = 400


def main():
    server = Server()
    server.start()
    errors = []
    try:
        with psycopg.connect(server.conninfo(), autocommit=True) as conn:
            conn.execute("DROP TABLE IF EXISTS counters")
            conn.execute("DROP TABLE IF EXISTS seen")
            conn.execute("CREATE TABLE counters (k INTEGER PRIMARY KEY, n INTEGER NOT NULL)")
            conn.execute("CREATE TABLE seen (k INTEGER PRIMARY KEY, who INTEGER)")
        done = [0] * SESSIONS
        inserted = [0] * SESSIONS

        def upserts(i):
            rng = random.Random(i)
            try:
                with psycopg.connect(server.conninfo(), autocommit=True) as c:
                    for _ in range(UPSERTS):
                        c.execute("INSERT INTO counters AS c VALUES (%s, 1) ON CONFLICT (k) "
                                  "DO UPDATE SET n = c.n + 1", (rng.randrange(KEYS),))
                        done[i] += 1
                    for k in range(RANGE):
                        cur = c.execute("INSERT INTO seen VALUES (%s, %s) ON CONFLICT DO NOTHING",
                                        ((k * 7 + i * 31) % RANGE, i))
                        inserted[i] += cur.rowcount
            except psycopg.Error as e:
                errors.append(f"session {i}: {e.sqlstate}: {e}")

        threads = [threading.Thread(target=upserts, args=(i,)) for i in range(SESSIONS)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert not errors, errors
        with psycopg.connect(server.conninfo(), autocommit=True) as conn:
            rows, total = conn.execute("SELECT count(*), sum(n) FROM counters").fetchone()
            assert rows == KEYS, f"{rows} counter rows for {KEYS} keys"
            assert total == sum(done), f"sum(n) = {total}, acknowledged upserts {sum(done)}"
            seen = conn.execute("SELECT count(*), count(DISTINCT k) FROM seen").fetchone()
            assert seen == (RANGE, RANGE), seen
            assert sum(inserted) == RANGE, f"sessions report {sum(inserted)} inserted rows"
        print(f"upsert: {sum(done)} concurrent upserts on {KEYS} keys counted once; "
              f"{RANGE} DO NOTHING keys inserted once")
        server.stop()
    except BaseException:
        if server.daemon is not None:
            print(server.daemon.log()[-5000:])
        raise
    print("upsert: 1 passed, 0 failed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
