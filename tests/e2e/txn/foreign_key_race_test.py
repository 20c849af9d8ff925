"""Foreign keys under concurrency, over the PostgreSQL protocol: a parent row is deleted while
other sessions insert children that reference it, many times, at READ COMMITTED and at
REPEATABLE READ, with a NO ACTION and an ON DELETE CASCADE foreign key.

Each round inserts parent k, then starts together (a barrier) one session that deletes k and
two that insert a child of k, each in its own transaction with a short random pause before
COMMIT so that the transactions overlap. Whatever the interleaving, no child may end up
without its parent: the child inserts that commit and the parent delete that commits must
exclude each other (NO ACTION: the delete fails with 23503, or the inserts do; CASCADE: the
children go with the parent, or the inserts fail). A statement may also fail with 40001 or
40P01 (the transaction is then rolled back); any other error fails the test. At the end the
test asserts that no orphan child exists and that both outcomes happened.

First, deterministically: the parent lock a child check takes is shared (a second session adds a
child of the same parent without waiting) and blocks DELETE and key UPDATE of the parent
(55P03 under lock_timeout) until the child's transaction ends.

Runs against meridiand (or MERIDIAN_TEST_CONNINFO, e.g. a PostgreSQL 15, for comparison)."""
import random
import sys
import threading
import time

import psycopg

from txn_server import Server, env_int

ROUNDS = env_int("FK_RACE_ROUNDS", 150)
ALLOWED = {"23503", "40001", "40P01"}


def run(server, isolation, table):
    """ROUNDS races against table (child of fkp); returns (delete wins, insert wins)."""
    begin = "BEGIN" if isolation == "rc" else "BEGIN ISOLATION LEVEL REPEATABLE READ"
    errors = []
    outcome = {"delete": 0, "insert": 0}
    sessions = [psycopg.connect(server.conninfo(), autocommit=True) for _ in range(3)]
    try:
        for r in range(ROUNDS):
            key = r + 1
            sessions[0].execute("INSERT INTO fkp VALUES (%s)", (key,))
            barrier = threading.Barrier(3)
            committed = [False, False, False]
            rng = random.Random(r)
            starts = [rng.random() * 0.002 for _ in range(3)]  # who goes first varies
            pauses = [rng.random() * 0.004 for _ in range(3)]

            def work(i):
                conn = sessions[i]
                try:
                    barrier.wait()
                    conn.execute(begin)
                    time.sleep(starts[i])
                    if i == 0:
                        conn.execute("DELETE FROM fkp WHERE id = %s", (key,))
                    else:
                        conn.execute(f"INSERT INTO {table} VALUES (%s, %s)", (key * 10 + i, key))
                    time.sleep(pauses[i])
                    conn.execute("COMMIT")
                    committed[i] = True
                except psycopg.Error as e:
                    conn.execute("ROLLBACK")
                    if e.sqlstate not in ALLOWED:
                        errors.append(f"{isolation} {table} round {r} session {i}: "
                                      f"{e.sqlstate}: {e}")

            threads = [threading.Thread(target=work, args=(i,)) for i in range(3)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            if committed[0]:
                outcome["delete"] += 1
            if committed[1] or committed[2]:
                outcome["insert"] += 1
            orphans = sessions[0].execute(
                f"SELECT count(*) FROM {table} c WHERE NOT EXISTS "
                f"(SELECT 1 FROM fkp p WHERE p.id = c.pid)").fetchone()[0]
            assert orphans == 0, f"{isolation} {table} round {r}: {orphans} orphan children " \
                                 f"(committed {committed})"
            if table == "fkc_noaction":
                # NO ACTION: a committed delete means no committed child, and the reverse.
                assert not (committed[0] and (committed[1] or committed[2])), \
                    f"{isolation} round {r}: parent delete and child insert both committed"
            sessions[0].execute(f"DELETE FROM {table}")
            sessions[0].execute("DELETE FROM fkp")
    finally:
        for conn in sessions:
            conn.close()
    assert not errors, errors[:10]
    return outcome["delete"], outcome["insert"]


def key_share(server):
    """The parent lock of a child check is shared: while one open transaction holds a child of
    parent 1, another session adds a child of 1 at once, and deleting or re-keying parent 1
    waits (lock_timeout: 55P03) until that transaction ends."""
    with psycopg.connect(server.conninfo(), autocommit=True) as a, \
            psycopg.connect(server.conninfo(), autocommit=True) as b:
        a.execute("INSERT INTO fkp VALUES (1), (2)")
        a.execute("BEGIN")
        a.execute("INSERT INTO fkc_noaction VALUES (1, 1)")
        b.execute("SET lock_timeout = '2s'")
        b.execute("INSERT INTO fkc_noaction VALUES (2, 1)")  # no wait for a's lock
        b.execute("SET lock_timeout = '300ms'")
        for sql in ("DELETE FROM fkp WHERE id = 1", "UPDATE fkp SET id = 3 WHERE id = 1"):
            try:
                b.execute(sql)
                raise AssertionError(f"{sql}: did not wait for the open child insert")
            except psycopg.Error as e:
                assert e.sqlstate == "55P03", f"{sql}: {e.sqlstate}: {e}"
        b.execute("DELETE FROM fkp WHERE id = 2")  # parent 2 has no child: no wait
        a.execute("COMMIT")
        try:
            b.execute("DELETE FROM fkp WHERE id = 1")
            raise AssertionError("parent 1 deleted under its children")
        except psycopg.Error as e:
            assert e.sqlstate == "23503", f"{e.sqlstate}: {e}"
        b.execute("DELETE FROM fkc_noaction")
        b.execute("DELETE FROM fkp")


def main():
    server = Server()
    server.start()
    try:
        with psycopg.connect(server.conninfo(), autocommit=True) as conn:
            conn.execute("DROP TABLE IF EXISTS fkc_noaction")
            conn.execute("DROP TABLE IF EXISTS fkc_cascade")
            conn.execute("DROP TABLE IF EXISTS fkp")
            conn.execute("CREATE TABLE fkp (id INTEGER PRIMARY KEY)")
            conn.execute("CREATE TABLE fkc_noaction (id INTEGER PRIMARY KEY, "
                         "pid INTEGER REFERENCES fkp (id))")
            conn.execute("CREATE TABLE fkc_cascade (id INTEGER PRIMARY KEY, "
                         "pid INTEGER REFERENCES fkp (id) ON DELETE CASCADE)")
        key_share(server)
        report = []
        won = {"delete": 0, "insert": 0}
        for isolation in ("rc", "rr"):
            for table in ("fkc_noaction", "fkc_cascade"):
                deletes, inserts = run(server, isolation, table)
                won["delete"] += deletes
                won["insert"] += inserts
                report.append(f"{isolation}/{table}: delete won {deletes}, insert won {inserts}")
        # The interleavings are up to the scheduler; over all four runs both sides must win
        # sometimes, or the test did not race anything.
        assert won["delete"] > 0 and won["insert"] > 0, f"no race seen: {report}"
        print(f"foreign_key_race: {ROUNDS} rounds each, no orphan child; " + "; ".join(report))
        with psycopg.connect(server.conninfo(), autocommit=True) as conn:
            conn.execute("DROP TABLE fkc_noaction")
            conn.execute("DROP TABLE fkc_cascade")
            conn.execute("DROP TABLE fkp")
        server.stop()
    except BaseException:
        if server.daemon is not None:
            print(server.daemon.log()[-5000:])
        raise
    print("foreign_key_race: 1 passed, 0 failed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
