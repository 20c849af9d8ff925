#!/usr/bin/env python3
"""Random WHERE clauses of correlated [NOT] EXISTS and x [NOT] IN subqueries (the conjuncts the
decorrelation rule turns into hashed semi/anti joins, docs/decorrelation.md) run on meridiand
and on PostgreSQL 15, results compared (a developer tool, not part of ctest). Two random tables
with NULL keys and values, duplicate keys and keys without inner rows; each query ANDs one to
three subquery conjuncts (correlated by one or two equalities, with an extra inner condition
or none) and maybe a plain one, and reads count(*), sum(id), min(id).

Usage: fuzz_subqueries_with_postgres.py --meridian "psql -h 127.0.0.1 -p P -U postgres"
       --postgres "psql -h /tmp -p Q -U postgres" [--seed S] [--queries N]
Creates (and drops first) tables fz_o and fz_i in both: use a throwaway daemon and database.
Exit 1 on a mismatch.
"""
import argparse
import random
import shlex
import subprocess
import sys

FORMS = [
    "EXISTS (SELECT 1 FROM fz_i WHERE fz_i.k = fz_o.k{e})",
    "NOT EXISTS (SELECT 1 FROM fz_i WHERE fz_i.k = fz_o.k{e})",
    "x IN (SELECT y FROM fz_i WHERE fz_i.k = fz_o.k{e})",
    "x NOT IN (SELECT y FROM fz_i WHERE fz_i.k = fz_o.k{e})",
    "x NOT IN (SELECT y FROM fz_i WHERE fz_i.k = fz_o.x{e})",
    "NOT EXISTS (SELECT 1 FROM fz_i WHERE fz_i.y = fz_o.x AND fz_i.k = fz_o.k{e})",
    # Correlated to the outer primary key: with a small inner side the semi join may run as
    # an index nested loop over the unique-ified inner side (docs/decorrelation.md).
    "EXISTS (SELECT 1 FROM fz_i WHERE fz_i.k = fz_o.id{e})",
    "id IN (SELECT k FROM fz_i WHERE fz_i.y = fz_o.x{e})",
    "EXISTS (SELECT 1 FROM fz_i WHERE fz_i.y = fz_o.x AND fz_i.k = fz_o.id{e})",
]
EXTRAS = ["", " AND fz_i.y > 2", " AND fz_i.y IS NULL", " AND fz_i.id % 3 = 0", " AND fz_i.id < 9"]


def run(psql, sql):
    cmd = shlex.split(psql) + ["-X", "-A", "-t", "-q", "-v", "ON_ERROR_STOP=1", "-c", sql]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    return r.stdout.strip() if r.returncode == 0 else "ERROR " + r.stderr.strip()[:200]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--meridian", required=True)
    ap.add_argument("--postgres", required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--queries", type=int, default=100)
    a = ap.parse_args()
    rnd = random.Random(a.seed)

    def val(p_null, hi):
        return "NULL" if rnd.random() < p_null else str(rnd.randint(0, hi))

    outer = ",".join("(%d,%s,%s)" % (i, val(0.1, 40), val(0.1, 6)) for i in range(600))
    inner = ",".join("(%d,%s,%s)" % (i, val(0.1, 60), val(0.15, 6)) for i in range(400))
    setup = ("DROP TABLE IF EXISTS fz_o, fz_i; "
             "CREATE TABLE fz_o (id INT PRIMARY KEY, k INT, x INT); "
             "CREATE TABLE fz_i (id INT PRIMARY KEY, k INT, y INT); "
             "INSERT INTO fz_o VALUES %s; INSERT INTO fz_i VALUES %s; ANALYZE fz_o; ANALYZE fz_i"
             % (outer, inner))
    for psql in (a.meridian, a.postgres):
        out = run(psql, setup)
        if out.startswith("ERROR"):
            sys.exit("setup failed: " + out)
    bad = 0
    for _ in range(a.queries):
        conj = [rnd.choice(FORMS).format(e=rnd.choice(EXTRAS)) for _ in range(rnd.randint(1, 3))]
        if rnd.random() < 0.5:
            conj.insert(rnd.randint(0, len(conj)), "coalesce(x, -1) <> %d" % rnd.randint(0, 6))
        q = "SELECT count(*), sum(id), min(id) FROM fz_o WHERE " + " AND ".join(conj)
        m, p = run(a.meridian, q), run(a.postgres, q)
        if m != p:
            bad += 1
            print("MISMATCH %s\n  meridiand: %s\n  postgres:  %s" % (q, m, p))
    print("%d queries, %d mismatches" % (a.queries, bad))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
