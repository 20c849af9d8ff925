# pg_dump and a restore with psql, Debian's PostgreSQL 15 client tools against real meridiands:
# a database with two schemas, tables of many column types (100,000 rows in one), keys, a
# foreign key, a CHECK, defaults, a SERIAL column, sequences, an index and two views (one
# with a CTE, a join and subqueries, so its definition is qualified in places) is dumped
# with `pg_dump --no-owner --no-privileges` (Meridian has one role and no GRANT), restored
# into a fresh daemon by `psql -v ON_ERROR_STOP=1 -f`, and then:
#   - every table's and view's rows are equal in both daemons (COPY ... TO STDOUT);
#   - the sequences continue where they were, and the SERIAL default still draws from its own;
#   - the restored constraints refuse what they should (23505, 23503, 23514, 23502);
#   - the indexes are the same (pg_indexes);
#   - a second dump, of the restored database, is the same text as the first;
#   - `pg_dump -Fc` restored by `pg_restore --exit-on-error` into a third daemon has the
#     same rows.
# Standard library only; run by ctest with $MERIDIAND set.
import difflib
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from meridian_daemon import MeridianDaemon  # noqa: E402

ROWS = 100_000

SETUP = f"""
CREATE SCHEMA app;
CREATE TABLE customers (
    id serial PRIMARY KEY,
    name varchar(40) NOT NULL,
    email text UNIQUE,
    balance numeric(12,2) DEFAULT 0 CHECK (balance >= 0),
    active boolean DEFAULT true,
    born date,
    seen timestamptz,
    tags text[],
    doc jsonb,
    uid uuid,
    raw bytea,
    ratio real
);
CREATE TABLE orders (
    id bigint PRIMARY KEY,
    customer_id integer NOT NULL REFERENCES customers (id),
    amount double precision,
    note text,
    created timestamp
);
CREATE INDEX orders_customer ON orders (customer_id, created DESC);
CREATE TABLE app.events (id integer PRIMARY KEY, kind text NOT NULL, at time, span interval);
CREATE SEQUENCE app.counter START 100 INCREMENT 5;
CREATE VIEW big_orders AS SELECT id, amount FROM orders WHERE amount > 990;
CREATE VIEW app."Recent" AS
  WITH latest AS (SELECT id FROM ORDERS WHERE id > {ROWS - 10})
  SELECT o.id, c.name FROM orders o JOIN customers c ON c.id = o.customer_id
  WHERE o.id IN (SELECT id FROM latest) AND EXISTS (SELECT 1 FROM app.events);
INSERT INTO customers (name, email, balance, active, born, seen, tags, doc, uid, raw, ratio)
SELECT 'name ' || g, 'c' || g || '@example.org', g * 1.25, g % 3 <> 0,
       DATE '1970-01-01' + g, TIMESTAMPTZ '2024-01-01 00:00:00+00' + g * INTERVAL '1 hour',
       ARRAY['t' || g, 'tab	and "quote"', NULL], ('{{"k": ' || g || ', "s": "x\\\\y"}}')::jsonb,
       gen_random_uuid(), decode(lpad(to_hex(g), 8, '0'), 'hex'), g / 7.0
FROM generate_series(1, 1000) g;
INSERT INTO customers (name, email, tags, raw) VALUES (E'line\\nbreak \\\\ back', NULL, '{{}}', '');
INSERT INTO orders
SELECT g, 1 + g % 1000, (g * 7919) % 1000 + 0.5, CASE WHEN g % 10 = 0 THEN NULL ELSE 'n' || g END,
       TIMESTAMP '2024-01-01' + g * INTERVAL '1 minute'
FROM generate_series(1, {ROWS}) g;
INSERT INTO app.events VALUES (1, 'start', '10:00', '1 day 2 hours'), (2, 'stop', NULL, NULL);
SELECT nextval('app.counter'), nextval('app.counter');
"""

TABLES = ["public.customers", "public.orders", "app.events", "public.big_orders",
          'app."Recent"']


def tool(name):
    for d in ("/usr/lib/postgresql/15/bin",):
        p = os.path.join(d, name)
        if os.path.exists(p):
            return p
    return shutil.which(name) or name


PSQL = tool("psql")
PG_DUMP = tool("pg_dump")
PG_RESTORE = tool("pg_restore")
ENV = dict(os.environ, PGTZ="UTC", LC_ALL="C", PGCONNECT_TIMEOUT="10")


def psql(daemon, sql=None, path=None):
    args = [PSQL, daemon.conninfo(), "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1"]
    args += ["-f", path] if path else ["-c", sql]
    r = subprocess.run(args, capture_output=True, text=True, env=ENV, timeout=600)
    return r.returncode, r.stdout, r.stderr


def must(daemon, sql):
    code, out, err = psql(daemon, sql)
    if code != 0:
        raise AssertionError(f"{sql!r} failed: {err}")
    return out


def sqlstate_of(daemon, sql):
    r = subprocess.run([PSQL, daemon.conninfo(), "-X", "-q", "-v", "VERBOSITY=verbose",
                        "-c", sql], capture_output=True, text=True, env=ENV, timeout=60)
    for line in r.stderr.splitlines():
        if line.startswith("ERROR:"):
            return line.split()[1].rstrip(":")
    return None


def dump(daemon, path):
    r = subprocess.run([PG_DUMP, "--no-owner", "--no-privileges", "-f", path,
                        daemon.conninfo()], capture_output=True, text=True, env=ENV,
                       timeout=600)
    if r.returncode != 0:
        raise AssertionError(f"pg_dump failed ({r.returncode}): {r.stderr}")
    with open(path, encoding="utf-8") as f:
        # \restrict / \unrestrict carry a random key per dump.
        return "".join(line for line in f if not line.startswith(("\\restrict", "\\unrestrict")))


def rows(daemon, name):
    return must(daemon, f"COPY (SELECT * FROM {name} ORDER BY 1) TO STDOUT")


def main():
    failures = []

    def check(ok, what):
        if not ok:
            failures.append(what)
            print("FAILED:", what, file=sys.stderr)

    work = tempfile.mkdtemp(prefix="meridian-pgdump-")
    try:
        with MeridianDaemon() as source, MeridianDaemon() as target:
            code, _, err = psql(source, SETUP)
            if code != 0:
                print(err, file=sys.stderr)
                return 1
            first_path = os.path.join(work, "first.sql")
            first = dump(source, first_path)
            for needle in ("CREATE TABLE public.customers", "CREATE SCHEMA app",
                           "COPY public.orders", "CREATE INDEX orders_customer",
                           "FOREIGN KEY (customer_id) REFERENCES public.customers(id)",
                           "CREATE VIEW public.big_orders", "CREATE SEQUENCE app.counter"):
                check(needle in first, f"the dump has {needle!r}")
            code, _, err = psql(target, path=first_path)
            check(code == 0, f"psql restores the dump without an error: {err[-2000:]}")
            for name in TABLES:
                a, b = rows(source, name), rows(target, name)
                check(a == b and a != "", f"{name}: the same rows after the restore")
            check(rows(target, "public.orders").count("\n") == ROWS, "orders has every row")
            for sql in ("SELECT nextval('app.counter')",
                        "INSERT INTO customers (name) VALUES ('new') RETURNING id"):
                check(must(source, sql) == must(target, sql), f"{sql}: the same value")
            indexes = "SELECT indexname, indexdef FROM pg_indexes " \
                      "WHERE schemaname IN ('public', 'app') ORDER BY 1"
            check(must(source, indexes) == must(target, indexes), "the same indexes")
            # The restored database dumps to the same text (both took one nextval and one
            # INSERT above, so they are equal again; the refused statements below take
            # sequence values on one side only).
            second = dump(target, os.path.join(work, "second.sql"))
            again = dump(source, os.path.join(work, "again.sql"))
            if again != second:
                sys.stdout.writelines(difflib.unified_diff(
                    again.splitlines(True), second.splitlines(True), "source", "restored", n=1))
            check(first != "" and again == second,
                  "a dump of the restored database equals the source's")
            for sql, state in (
                    ("INSERT INTO customers (name, email) VALUES ('x', 'c1@example.org')",
                     "23505"),
                    ("INSERT INTO orders (id, customer_id) VALUES (0, 999999)", "23503"),
                    ("UPDATE customers SET balance = -1 WHERE id = 1", "23514"),
                    ("INSERT INTO app.events (id, kind) VALUES (3, NULL)", "23502")):
                check(sqlstate_of(target, sql) == state, f"{sql}: {state} after the restore")
            # The custom format through pg_restore, into a third daemon.
            with MeridianDaemon() as third:
                archive = os.path.join(work, "dump.custom")
                r = subprocess.run([PG_DUMP, "-Fc", "-f", archive, source.conninfo()],
                                   capture_output=True, text=True, env=ENV, timeout=600)
                check(r.returncode == 0, f"pg_dump -Fc: {r.stderr}")
                r = subprocess.run([PG_RESTORE, "--no-owner", "--no-privileges", "--exit-on-error",
                                    "-d", third.conninfo(), archive],
                                   capture_output=True, text=True, env=ENV, timeout=600)
                check(r.returncode == 0, f"pg_restore: {r.stderr[-2000:]}")
                for name in TABLES:
                    check(rows(source, name) == rows(third, name),
                          f"{name}: the same rows after pg_restore")
                code = third.stop()
                check(code == 0, f"meridiand exited with {code}")
            for d in (source, target):
                code = d.stop()
                check(code == 0, f"meridiand exited with {code}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if failures:
        print(f"FAILED: {len(failures)} checks", file=sys.stderr)
        return 1
    print(f"pg_dump: dump and restore of {ROWS} orders passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
