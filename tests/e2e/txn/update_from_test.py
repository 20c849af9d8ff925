"""UPDATE ... FROM and DELETE ... USING under concurrency, over the PostgreSQL protocol:

  - READ COMMITTED: a second session updating the same target rows through FROM waits for the
    first and applies its SET to the newest versions (100 + 10, then * 2 = 220); a row the
    first session changed so that the WHERE no longer holds is skipped on re-check; a row the
    first session deleted through USING is skipped; the FROM rows stay those of the
    statement's snapshot;
  - REPEATABLE READ: the second session gets 40001 instead;
  - 8 autocommit sessions each add 1 to one random row through a FROM list that matches it
    twice: sum(bal) grows by exactly the number of statements (each target row changed once
    per statement, no lost update).

Runs against meridiand (or MERIDIAN_TEST_CONNINFO, e.g. a PostgreSQL 15, for comparison)."""
import random
import sys
import threading
import time

import psycopg

from txn_server import Server

SESSIONS = 8
STATEMENTS = 150
ROWS = 20


def reset(conn):
    conn.execute("DROP TABLE IF EXISTS acct")
    conn.execute("DROP TABLE IF EXISTS delta")
    conn.execute("CREATE TABLE acct (id INTEGER PRIMARY KEY, bal INTEGER NOT NULL)")
    conn.execute("CREATE TABLE delta (id INTEGER, amt INTEGER)")
    conn.execute("INSERT INTO acct SELECT g, 100 FROM generate_series(1, 5) g")
    conn.execute("INSERT INTO delta VALUES (1, 10), (2, 10), (3, 10)")


def balances(conn):
    return dict(conn.execute("SELECT id, bal FROM acct ORDER BY id").fetchall())


def second_waits(server, isolation, sql, first):
    """Runs first (a list of statements) in an open transaction, then sql in another session;
    checks that sql waits until the first commits. Returns (rowcount or SQLSTATE, waited)."""
    with psycopg.connect(server.conninfo(), autocommit=True) as a:
        a.execute("BEGIN")
        for s in first:
            a.execute(s)
        result = {}

        def run():
            try:
                with psycopg.connect(server.conninfo(), autocommit=True) as b:
                    b.execute(f"BEGIN ISOLATION LEVEL {isolation}")
                    b.execute("SELECT 1")  # takes the snapshot before the first commits
                    result["started"] = time.monotonic()
                    cur = b.execute(sql)
                    result["value"] = cur.rowcount
                    result["done"] = time.monotonic()
                    b.execute("COMMIT")
            except psycopg.Error as e:
                result["value"] = e.sqlstate
                result["done"] = time.monotonic()

        t = threading.Thread(target=run)
        t.start()
        time.sleep(0.5)
        assert "done" not in result, f"{sql} did not wait: {result}"
        committed = time.monotonic()
        a.execute("COMMIT")
        t.join(30)
        assert not t.is_alive(), f"{sql} still waiting"
        return result["value"], result["done"] >= committed


def main():
    server = Server()
    server.start()
    try:
        with psycopg.connect(server.conninfo(), autocommit=True) as conn:
            # The second UPDATE applies on the version the first committed.
            reset(conn)
            n, waited = second_waits(
                server, "READ COMMITTED",
                "UPDATE acct SET bal = acct.bal * 2 FROM delta WHERE acct.id = delta.id",
                ["UPDATE acct SET bal = acct.bal + delta.amt FROM delta WHERE acct.id = delta.id"])
            assert (n, waited) == (3, True), (n, waited)
            assert balances(conn) == {1: 220, 2: 220, 3: 220, 4: 100, 5: 100}, balances(conn)

            # Re-check: row 1 no longer satisfies the WHERE on its newest version.
            reset(conn)
            n, waited = second_waits(
                server, "READ COMMITTED",
                "UPDATE acct SET bal = acct.bal + delta.amt FROM delta "
                "WHERE acct.id = delta.id AND acct.bal > 50",
                ["UPDATE acct SET bal = 0 FROM delta WHERE acct.id = delta.id AND delta.id = 1"])
            assert (n, waited) == (2, True), (n, waited)
            assert balances(conn) == {1: 0, 2: 110, 3: 110, 4: 100, 5: 100}, balances(conn)

            # A row deleted through USING meanwhile is skipped.
            reset(conn)
            n, waited = second_waits(
                server, "READ COMMITTED",
                "UPDATE acct SET bal = acct.bal + 1 FROM delta WHERE acct.id = delta.id",
                ["DELETE FROM acct USING delta WHERE acct.id = delta.id AND delta.id = 2"])
            assert (n, waited) == (2, True), (n, waited)
            assert balances(conn) == {1: 101, 3: 101, 4: 100, 5: 100}, balances(conn)

            # The FROM rows are those of the second statement's snapshot: a delta row changed
            # by the first session does not change what the second adds.
            reset(conn)
            n, waited = second_waits(
                server, "READ COMMITTED",
                "UPDATE acct SET bal = acct.bal + delta.amt FROM delta WHERE acct.id = delta.id",
                ["UPDATE delta SET amt = 1000 WHERE id = 1",
                 "UPDATE acct SET bal = bal + 1 WHERE id = 1"])
            assert (n, waited) == (3, True), (n, waited)
            got = balances(conn)
            assert got[1] == 111, got  # as PostgreSQL: the FROM row is not re-read
            assert got[2] == got[3] == 110, got

            # REPEATABLE READ: 40001.
            reset(conn)
            state, waited = second_waits(
                server, "REPEATABLE READ",
                "UPDATE acct SET bal = acct.bal * 2 FROM delta WHERE acct.id = delta.id",
                ["UPDATE acct SET bal = acct.bal + delta.amt FROM delta WHERE acct.id = delta.id"])
            assert (state, waited) == ("40001", True), (state, waited)
            assert balances(conn) == {1: 110, 2: 110, 3: 110, 4: 100, 5: 100}, balances(conn)

            conn.execute("DROP TABLE acct")
            conn.execute("CREATE TABLE acct (id INTEGER PRIMARY KEY, bal INTEGER NOT NULL)")
            conn.execute(f"INSERT INTO acct SELECT g, 0 FROM generate_series(1, {ROWS}) g")

        errors = []
        done = [0] * SESSIONS

        def adds(i):
            rng = random.Random(i)
            try:
                with psycopg.connect(server.conninfo(), autocommit=True) as c:
                    for _ in range(STATEMENTS):
                        k = rng.randrange(1, ROWS + 1)
                        cur = c.execute(
                            "UPDATE acct SET bal = acct.bal + d.amt "
                            "FROM (VALUES (%s, 1), (%s, 1)) AS d (id, amt) WHERE acct.id = d.id",
                            (k, k))
                        assert cur.rowcount == 1, cur.rowcount
                        done[i] += 1
            except (psycopg.Error, AssertionError) as e:
                errors.append(f"session {i}: {e}")

        threads = [threading.Thread(target=adds, args=(i,)) for i in range(SESSIONS)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert not errors, errors
        with psycopg.connect(server.conninfo(), autocommit=True) as conn:
            total = conn.execute("SELECT sum(bal) FROM acct").fetchone()[0]
            assert total == sum(done), f"sum(bal) = {total}, statements {sum(done)}"
        print(f"update_from: waits and re-checks as PostgreSQL; {sum(done)} concurrent "
              f"UPDATE ... FROM statements each counted once")
        server.stop()
    except BaseException:
        if server.daemon is not None:
            print(server.daemon.log()[-5000:])
        raise
    print("update_from: 1 passed, 0 failed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
