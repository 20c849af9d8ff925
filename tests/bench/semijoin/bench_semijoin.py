#!/usr/bin/env python3
"""Correlated EXISTS / x IN over a large outer table with a small or a large inner side, timed
on several servers in one run (meridiand before and after a change, PostgreSQL 15): each
server gets the same tables, then each statement runs --runs times in one psql session
(`\\timing`, client-side milliseconds; the median and the minimum are printed) with its plan's
first lines. A developer benchmark, not part of ctest; README.md beside it.

Usage: bench_semijoin.py --server NAME="psql -h 127.0.0.1 -p P -U postgres" ... [--rows N]
       [--runs R]. Drops and creates tables big, small, bo, bi in each server's database.
"""
import argparse
import re
import shlex
import statistics
import subprocess

STATEMENTS = [
    ("EXISTS, 3-row inner side on the outer key",
     "select count(*) from big b where exists (select 1 from small s where s.x = b.id)"),
    ("same, rows out",
     "select b.* from big b where exists (select 1 from small s where s.x = b.id)"),
    ("x IN, 3-row inner side, two keys",
     "select count(*) from big b where b.id in (select s.x from small s where s.y = b.v)"),
    ("hand-written: join with the distinct inner side",
     "select b.* from big b join (select distinct x from small) s on s.x = b.id"),
    ("EXISTS, filtered 300,000-row inner side (10% of it)",
     "select count(*) from bo where exists (select 1 from bi where bi.k = bo.k and bi.w = 3)"),
    ("EXISTS, whole 300,000-row inner side",
     "select count(*) from bo where exists (select 1 from bi where bi.k = bo.k)"),
]


def setup_sql(rows):
    return f"""
drop table if exists big, small, bo, bi;
create table big(id int primary key, v int);
create table small(x int, y int);
insert into big select g, g % 1000 from generate_series(1, {rows}) g;
insert into small values (5, 5), (77, 77), ({rows * 3 // 4}, {rows * 3 // 4 % 1000});
create table bo(id int primary key, k int, v int);
create table bi(id int primary key, k int, w int);
insert into bo select g, case when g % 97 = 0 then null else g % 50000 end, g % 100
  from generate_series(1, {rows}) g;
insert into bi select g, case when g % 89 = 0 then null else (g * 7) % 100000 end, g % 10
  from generate_series(1, {rows * 3 // 2}) g;
analyze big; analyze small; analyze bo; analyze bi;
"""


def psql(cmd, sql):
    r = subprocess.run(shlex.split(cmd) + ["-X", "-q", "-v", "ON_ERROR_STOP=1"], input=sql,
                       capture_output=True, text=True, timeout=3600)
    if r.returncode != 0:
        raise SystemExit(f"{cmd}: {r.stderr.strip()[:300]}")
    return r.stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--server", action="append", required=True, help='NAME="psql ..."')
    ap.add_argument("--rows", type=int, default=200000)
    ap.add_argument("--runs", type=int, default=7)
    a = ap.parse_args()
    servers = [s.split("=", 1) for s in a.server]
    for _, cmd in servers:
        psql(cmd, setup_sql(a.rows))
    for label, sql in STATEMENTS:
        print(f"## {label}\n   {sql}")
        for name, cmd in servers:
            out = psql(cmd, "\\timing on\n" + f"{sql};\n" * a.runs)
            times = [float(t) for t in re.findall(r"^Time: ([0-9.]+) ms", out, re.M)]
            plan = psql(cmd, f"explain (costs off) {sql};\n").splitlines()
            shape = " / ".join(line.strip(" ->") for line in plan[2:6] if line.strip())
            print(f"   {name:>8}: median {statistics.median(times):9.2f} ms, min {min(times):9.2f}"
                  f" ms  | {shape}")


if __name__ == "__main__":
    main()
