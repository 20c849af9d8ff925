#!/usr/bin/env python3
"""Random join queries run on meridiand and on PostgreSQL 15, results compared (a developer
tool, not part of ctest): up to 6 FROM items (tables of plans/join_order.test and subqueries in
FROM) joined by commas, [CROSS|INNER|LEFT|RIGHT|FULL] JOIN with equality, range, IS NULL and OR
conditions in ON and WHERE, aggregated to counts and a sum. Catches wrong join orders,
misplaced conditions and outer-join mistakes. Queries PostgreSQL rejects (or that take over 5 s
there) are skipped; a query meridiand does not finish within 20 s is listed, not failed.

Usage: fuzz_joins_with_postgres.py --meridian "psql -h 127.0.0.1 -p P -U meridian -d meridian"
       --postgres "psql -h /tmp -p Q -U postgres" [--seed S] [--queries N]
Loads the statements of plans/join_order.test into both first (PostgreSQL: schema fuzz_joins;
Meridian: drops the tables it creates, so use a throwaway daemon). Exit 1 on a mismatch.
"""
import argparse
import os
import random
import shlex
import subprocess
import sys

FLAGS = ["-X", "-A", "-t", "-q", "-F", "|", "-P", "null=NULL"]
COLUMNS = {"f": ["id", "c", "p", "s", "amt"], "cu": ["id"], "pr": ["id"], "st": ["id"],
           "tiny": ["k"]}


def statements(path):
    """The `statement ok` records of a sqllogictest file."""
    lines = open(path).read().split("\n")
    out = []
    for i, line in enumerate(lines):
        if line.strip() == "statement ok":
            sql = []
            for more in lines[i + 1:]:
                if more.strip() == "":
                    break
                sql.append(more)
            out.append("\n".join(sql))
    return out


class Generator:
    def __init__(self, rng):
        self.rng = rng

    def item(self, i):
        if self.rng.random() < 0.15:
            t = self.rng.choice(["cu", "st", "pr"])
            limit = self.rng.randint(3, 30)
            return f"(SELECT id, id % 3 AS m FROM {t} WHERE id < {limit}) x{i}", ["id", "m"]
        t = self.rng.choice(list(COLUMNS))
        return f"{t} x{i}", COLUMNS[t]

    def col(self, items, k):
        return f"x{k}.{self.rng.choice(items[k][1])}"

    def cond(self, items, upto):
        rng = self.rng
        a, b = rng.randrange(upto + 1), rng.randrange(upto + 1)
        r = rng.random()
        if r < 0.6:
            return f"{self.col(items, a)} = {self.col(items, b)}"
        if r < 0.75:
            return f"{self.col(items, a)} < {self.col(items, b)} + {rng.randint(0, 5)}"
        if r < 0.85:
            return f"{self.col(items, a)} = {rng.randint(0, 10)}"
        if r < 0.92:
            return f"{self.col(items, a)} IS NULL"
        return (f"({self.col(items, a)} = {self.col(items, b)} OR {self.col(items, a)} > "
                f"{rng.randint(0, 40)})")

    def equality(self, items, i):
        return f"{self.col(items, i)} = {self.col(items, self.rng.randrange(i))}"

    def query(self):
        rng = self.rng
        k = rng.randint(2, 6)
        items = [self.item(i) for i in range(k)]
        sql = items[0][0]
        comma = joined = False
        for i in range(1, k):
            kind = rng.choices([",", "JOIN", "CROSS JOIN", "LEFT JOIN", "RIGHT JOIN", "FULL JOIN"],
                               [4, 4, 1, 2, 1, 1])[0]
            # PostgreSQL binds JOIN tighter than a comma (`a, b LEFT JOIN c` is `a, (b LEFT JOIN
            # c)`); Meridian's FROM is one left-deep chain, so after a comma only inner joins.
            if kind == "," and joined:
                kind = "CROSS JOIN"
            if kind in ("LEFT JOIN", "RIGHT JOIN", "FULL JOIN") and comma:
                kind = "JOIN"
            comma |= kind == ","
            joined |= kind != ","
            if kind in (",", "CROSS JOIN"):
                sql += (", " if kind == "," else " CROSS JOIN ") + items[i][0]
                continue
            if kind == "FULL JOIN":  # PostgreSQL needs a hashable/mergeable FULL JOIN condition
                on = self.equality(items, i)
            elif rng.random() < 0.7:
                on = self.equality(items, i)
                if rng.random() < 0.3:
                    on += " AND " + self.cond(items, i)
            else:
                on = self.cond(items, i)
            sql += f" {kind} {items[i][0]} ON {on}"
        where = [self.cond(items, k - 1) for _ in range(rng.randint(0, 4))]
        where += [self.equality(items, i) for i in range(1, k) if rng.random() < 0.6]
        select = ", ".join(f"count({self.col(items, rng.randrange(k))})" for _ in range(2))
        select += f", sum({self.col(items, rng.randrange(k))})"
        return f"SELECT count(*), {select} FROM {sql}" + (
            " WHERE " + " AND ".join(where) if where else "")


def run(psql, sql, prefix=""):
    p = subprocess.run(shlex.split(psql) + FLAGS + ["-v", "ON_ERROR_STOP=1", "-c", prefix + sql],
                       capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout, p.stderr


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--meridian", required=True)
    ap.add_argument("--postgres", required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--queries", type=int, default=300)
    args = ap.parse_args()
    pg_prefix = "SET search_path TO fuzz_joins; SET statement_timeout = '5s';\n"
    run(args.postgres, "DROP SCHEMA IF EXISTS fuzz_joins CASCADE; CREATE SCHEMA fuzz_joins")
    for table in COLUMNS:
        run(args.meridian, f"DROP TABLE IF EXISTS {table}")
    for sql in statements(os.path.join(os.path.dirname(__file__), "plans/join_order.test")):
        for psql, prefix in ((args.postgres, pg_prefix), (args.meridian, "")):
            rc, _, err = run(psql, sql, prefix)
            if rc != 0:
                sys.exit(f"setup failed: {sql}\n{err}")
    gen = Generator(random.Random(args.seed))
    bad = skipped = slow = 0
    for _ in range(args.queries):
        q = gen.query()
        rc, want, _ = run(args.postgres, q, pg_prefix)
        if rc != 0:
            skipped += 1
            continue
        rc, got, err = run(args.meridian, q, "SET statement_timeout = '20s';\n")
        if "statement timeout" in err:
            slow += 1  # e.g. no outer-join reduction: a cross product below a RIGHT JOIN
            print(f"SLOW (over 20 s on meridiand) {q}", flush=True)
            continue
        if got != want:
            bad += 1
            print(f"MISMATCH {q}\n  postgres: {want.strip()}\n  meridian: {got.strip()} "
                  f"{err.strip()[:300]}", flush=True)
    print(f"{args.queries} queries, {bad} mismatches, {skipped} skipped (PostgreSQL error), "
          f"{slow} over 20 s on meridiand")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
