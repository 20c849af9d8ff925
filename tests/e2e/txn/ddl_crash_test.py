"""kill -9 in the middle of DDL and bulk loads: CREATE INDEX on a large table, ALTER TABLE ADD and
DROP COLUMN, DROP TABLE, TRUNCATE and COPY of many rows, each interrupted at a random moment,
several rounds on one data directory. After every restart the catalog and the data agree:

  - a statement either happened entirely or not at all (the table has all its rows or none after
    TRUNCATE; a COPY's rows are all there or none; an added column has its DEFAULT in every row
    or does not exist; a dropped table is gone or whole);
  - every index answers exactly as the heap does (the same point lookups through the index and
    through a sequential scan, `col + 0` defeating the index), the new index included;
  - every row committed before the statement is there.

Settings: MERIDIAN_DDL_CRASH_ROUNDS (8), MERIDIAN_DDL_CRASH_ROWS (100000: rows of the large
table), MERIDIAN_DDL_CRASH_COPY_ROWS (200000), MERIDIAN_DDL_CRASH_SEED (random; printed).
`make soak` runs more rounds with a million-row COPY."""
import os
import random
import sys
import threading
import time

import psycopg

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from txn_server import Server, env_int  # noqa: E402

ROUNDS = env_int("MERIDIAN_DDL_CRASH_ROUNDS", 8)
ROWS = env_int("MERIDIAN_DDL_CRASH_ROWS", 100000)
COPY_ROWS = env_int("MERIDIAN_DDL_CRASH_COPY_ROWS", 200000)
SEED = env_int("MERIDIAN_DDL_CRASH_SEED", random.randrange(1 << 30))
OPS = ["create_index", "add_column", "drop_column", "drop_table", "truncate", "copy"]


def connect(server):
    return psycopg.connect(server.conninfo(), autocommit=True)


def scalar(conn, sql, args=None):
    with conn.cursor() as cur:
        cur.execute(sql, args)
        return cur.fetchone()[0]


def columns(conn, table):
    with conn.cursor() as cur:
        cur.execute("SELECT column_name FROM information_schema.columns WHERE table_name = %s "
                    "ORDER BY ordinal_position", (table,))
        return [r[0] for r in cur.fetchall()]


def table_exists(conn, table):
    return scalar(conn, "SELECT count(*) FROM pg_class WHERE relname = %s AND relkind = 'r'",
                  (table,)) == 1


def index_exists(conn, name):
    return scalar(conn, "SELECT count(*) FROM pg_class WHERE relname = %s AND relkind = 'i'",
                  (name,)) == 1


def load_big(conn):
    with conn.cursor() as cur:
        cur.execute("CREATE TABLE big (id INT PRIMARY KEY, k INT, pad TEXT)")
        cur.execute("INSERT INTO big SELECT g, g %% 997, 'row ' || g FROM generate_series(1, %s) g",
                    (ROWS,))


def run_op(server, op, done):
    """The interrupted statement, on its own connection; any error (the kill) ends it."""
    try:
        with connect(server) as conn, conn.cursor() as cur:
            if op == "create_index":
                cur.execute("CREATE INDEX big_k ON big (k)")
            elif op == "add_column":
                cur.execute("ALTER TABLE big ADD COLUMN extra INT DEFAULT 7")
            elif op == "drop_column":
                cur.execute("ALTER TABLE big DROP COLUMN pad")
            elif op == "drop_table":
                cur.execute("DROP TABLE big")
            elif op == "truncate":
                cur.execute("TRUNCATE big")
            elif op == "copy":
                with cur.copy("COPY cp (id, v) FROM STDIN") as copy:
                    chunk = []
                    for i in range(1, COPY_ROWS + 1):
                        chunk.append(f"{i}\tvalue {i}\n")
                        if len(chunk) == 10000:
                            copy.write("".join(chunk))
                            chunk = []
                    if chunk:
                        copy.write("".join(chunk))
        done.append(op)
    except psycopg.Error:
        pass


def check_index_matches_heap(conn, rng, column, table="big"):
    """Point lookups through the index and through the heap give the same rows."""
    hi = ROWS if column == "id" else 997
    keys = [rng.randrange(0, hi + 2) for _ in range(300)]
    inlist = ",".join(str(k) for k in keys)
    via_index = scalar(conn, f"SELECT count(*) FROM {table} WHERE {column} IN ({inlist})")
    via_heap = scalar(conn, f"SELECT count(*) FROM {table} WHERE {column} + 0 IN ({inlist})")
    assert via_index == via_heap, f"{table}.{column}: index {via_index} rows, heap {via_heap}"
    total = scalar(conn, f"SELECT count(*) FROM {table}")
    in_order = scalar(conn, f"SELECT count(*) FROM (SELECT {column} FROM {table} "
                            f"ORDER BY {column}) s")
    assert total == in_order, f"{table}: {total} rows, {in_order} in {column} order"


def main():
    rng = random.Random(SEED)
    print(f"ddl_crash: seed {SEED}, {ROUNDS} rounds, {ROWS} rows, COPY of {COPY_ROWS}")
    server = Server(extra_args=["--checkpoint-interval-s", "1"])
    if not server.is_meridian:
        print("ddl_crash_test runs only against meridiand (it kills the server)")
        return 0
    server.start()
    try:
        for rnd in range(ROUNDS):
            with connect(server) as conn:
                if not table_exists(conn, "big"):
                    load_big(conn)
                if "pad" not in columns(conn, "big"):
                    conn.execute("ALTER TABLE big ADD COLUMN pad TEXT")
                if "extra" in columns(conn, "big"):
                    conn.execute("ALTER TABLE big DROP COLUMN extra")
                if index_exists(conn, "big_k"):
                    conn.execute("DROP INDEX big_k")
                if scalar(conn, "SELECT count(*) FROM big") == 0:
                    conn.execute("INSERT INTO big SELECT g, g %% 997, 'row ' || g "
                                 "FROM generate_series(1, %s) g", (ROWS,))
                conn.execute("DROP TABLE IF EXISTS cp")
                conn.execute("CREATE TABLE cp (id INT PRIMARY KEY, v TEXT)")
                before = scalar(conn, "SELECT count(*) FROM big")
            op = OPS[rnd % len(OPS)] if rnd < len(OPS) else rng.choice(OPS)
            done = []
            worker = threading.Thread(target=run_op, args=(server, op, done))
            worker.start()
            delay = rng.uniform(0.02, 1.2)
            time.sleep(delay)
            server.daemon.kill()
            worker.join(timeout=60)
            started = time.monotonic()
            server.daemon.restart()
            with connect(server) as conn:
                restart_s = time.monotonic() - started
                exists = table_exists(conn, "big")
                if op != "drop_table" or "drop_table" in done:
                    assert exists == (op != "drop_table"), f"{op}: table big exists={exists}"
                if exists:
                    n = scalar(conn, "SELECT count(*) FROM big")
                    if op == "truncate":
                        assert n in (0, before), f"truncate: {n} rows of {before}"
                        if "truncate" in done:
                            assert n == 0, "an acknowledged TRUNCATE came back"
                    else:
                        assert n == before, f"{op}: {n} rows, {before} before the statement"
                    check_index_matches_heap(conn, rng, "id")
                    cols = columns(conn, "big")
                    if "extra" in cols:
                        assert scalar(conn, "SELECT count(*) FROM big WHERE extra = 7") == n
                    elif op == "add_column":
                        assert "add_column" not in done, "an acknowledged ADD COLUMN is gone"
                    if op == "drop_column" and "drop_column" in done:
                        assert "pad" not in cols, "an acknowledged DROP COLUMN came back"
                    if index_exists(conn, "big_k"):
                        check_index_matches_heap(conn, rng, "k")
                    elif op == "create_index":
                        assert "create_index" not in done, "an acknowledged index is gone"
                if table_exists(conn, "cp"):
                    copied = scalar(conn, "SELECT count(*) FROM cp")
                    assert copied in (0, COPY_ROWS), f"COPY half applied: {copied} rows"
                    if "copy" in done:
                        assert copied == COPY_ROWS, "an acknowledged COPY is gone"
                    if copied:
                        check_index_matches_heap(conn, rng, "id", table="cp")
            outcome = "completed" if done else "interrupted"
            print(f"round {rnd + 1}: {op} {outcome} (kill after {delay:.2f} s), restart "
                  f"{restart_s:.2f} s, checks passed")
        server.stop()
    except BaseException:
        print(server.daemon.log()[-5000:])
        raise
    print("ddl_crash: 1 passed, 0 failed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
