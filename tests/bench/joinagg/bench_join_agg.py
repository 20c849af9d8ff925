#!/usr/bin/env python3
# Hash join, aggregation and a full scan over N rows (default 1,048,576) in meridiand and
# PostgreSQL 15 side by side: both servers get the same tables through COPY, then every query
# runs `--repeat` times on each (psql \timing, one session per query and server) and one table
# prints the median times and their ratio. The answers of the two servers are compared: a
# difference fails the run (the ctest bench_join_agg_smoke checks exactly that; times are only
# reported). `--suite window` runs the window-function queries instead (default 200,000 rows).
# Standard library only; uses the server wrappers of ../commit/bench_commit.py.
#
#   bench_join_agg.py [--suite joinagg|window] [--rows N] [--repeat 5] [--smoke] [--meridiand PATH]
import argparse
import os
import re
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "commit"))
from bench_commit import Meridian, Postgres, psql, stop_and_remove  # noqa: E402

# big1 (id, g, v): id = 1..N, g = id % 1000, v = id * 7919 % 10007; big2 is a copy.
QUERIES = [
    ("scan", "SELECT count(*) FROM big1"),
    ("hash join", "SELECT count(*) FROM big1 a JOIN big2 b ON a.id = b.id"),
    ("group by", "SELECT g, count(*), sum(v) FROM big1 GROUP BY g ORDER BY g LIMIT 3"),
    ("join + filter + sum",
     "SELECT count(*), sum(a.v + b.v) FROM big1 a JOIN big2 b ON a.id = b.id WHERE a.g < 500"),
    ("join + group by",
     "SELECT a.g, count(*), sum(b.v) FROM big1 a JOIN big2 b ON a.id = b.id "
     "GROUP BY a.g ORDER BY a.g LIMIT 3"),
    ("filtered scan", "SELECT count(*), sum(v) FROM big1 WHERE g = 7"),
]
# Window functions over big1 (partitions of g: N / 1000 rows each); each answer is one row.
WINDOW_QUERIES = [
    ("row_number", "SELECT count(*), sum(rn) FROM "
     "(SELECT row_number() OVER (ORDER BY id) AS rn FROM big1) AS s"),
    ("sum OVER partition", "SELECT count(*), sum(s) FROM "
     "(SELECT sum(v) OVER (PARTITION BY g) AS s FROM big1) AS x"),
    ("running sum in partitions", "SELECT count(*), sum(s) FROM "
     "(SELECT sum(v) OVER (PARTITION BY g ORDER BY id) AS s FROM big1) AS x"),
    ("rank + lag, two windows", "SELECT count(*), sum(r), sum(l) FROM "
     "(SELECT rank() OVER (PARTITION BY g ORDER BY v) AS r, lag(v) OVER (ORDER BY id) AS l "
     "FROM big1) AS x"),
    ("sliding ROWS 5 PRECEDING AND 5 FOLLOWING", "SELECT count(*), sum(s) FROM "
     "(SELECT sum(v) OVER (ORDER BY id ROWS BETWEEN 5 PRECEDING AND 5 FOLLOWING) AS s "
     "FROM big1) AS x"),
]
SUITES = {"joinagg": (QUERIES, 1048576), "window": (WINDOW_QUERIES, 200000)}
COPY_CHUNK = 131072  # rows per COPY statement (meridiand holds a COPY's rows until its end)


def run_psql(server, stdin_text, args=()):
    out = subprocess.run(["psql", "-h", "127.0.0.1", "-p", str(server.port), "-U", server.user,
                          "-d", server.db, "-X", "-q", "-t", "-A", "-v", "ON_ERROR_STOP=1",
                          *args], input=stdin_text, capture_output=True, text=True, timeout=3600)
    if out.returncode != 0:
        raise RuntimeError(f"{server.name}: psql failed: {out.stderr[-2000:]}")
    return out.stdout


def load(server, rows):
    for table in ("big1", "big2"):
        psql(server.port, server.user,
             f"CREATE TABLE {table} (id INTEGER, g INTEGER, v INTEGER)", server.db)
    for start in range(1, rows + 1, COPY_CHUNK):
        end = min(rows, start + COPY_CHUNK - 1)
        data = "".join(f"{i}\t{i % 1000}\t{i * 7919 % 10007}\n" for i in range(start, end + 1))
        for table in ("big1", "big2"):
            run_psql(server, data, ["-c", f"COPY {table} FROM STDIN"])
    psql(server.port, server.user, "ANALYZE big1", server.db)
    psql(server.port, server.user, "ANALYZE big2", server.db)


def timed(server, sql, repeat):
    """Runs sql repeat times in one session; returns (answer, [seconds])."""
    text = "\\timing on\n" + "".join(f"{sql};\n" for _ in range(repeat))
    out = run_psql(server, text)
    times = [float(t) / 1000 for t in re.findall(r"^Time: ([0-9.]+) ms", out, re.M)]
    answers = re.sub(r"^Time: .*\n", "", out, flags=re.M).strip().split("\n")
    if len(times) != repeat or len(answers) % repeat != 0:
        raise RuntimeError(f"{server.name}: unexpected psql output for {sql}:\n{out}")
    per = len(answers) // repeat
    first = answers[:per]
    for r in range(repeat):
        if answers[r * per:(r + 1) * per] != first:
            raise RuntimeError(f"{server.name}: {sql} gave different answers between runs")
    return "\n".join(first), times


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--meridiand", default=os.environ.get("MERIDIAND", "build/bin/meridiand"))
    ap.add_argument("--suite", choices=sorted(SUITES), default="joinagg")
    ap.add_argument("--rows", type=int, default=0, help="default: 1048576, window: 200000")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--smoke", action="store_true", help="20,000 rows, 2 runs per query")
    args = ap.parse_args()
    queries, default_rows = SUITES[args.suite]
    args.rows = args.rows or default_rows
    if args.smoke:
        args.rows, args.repeat = 20000, 2
    servers = [Meridian(args.meridiand, "async"),
               Postgres(False, ["max_parallel_workers_per_gather=0"])]
    results = {}
    try:
        for server in servers:
            server.start()
            load(server, args.rows)
        for name, sql in queries:
            answers = {}
            for server in servers:
                answers[server.name], times = timed(server, sql, args.repeat)
                results[(server.name, name)] = statistics.median(times)
                print(f"{server.name:13} {name:20} median {statistics.median(times):7.3f} s "
                      f"(runs: {', '.join(f'{t:.3f}' for t in times)})", flush=True)
            if len(set(answers.values())) != 1:
                raise RuntimeError(f"answers differ for {sql}: {answers}")
        plan = run_psql(servers[0], "EXPLAIN " + queries[1][1])
        print(f"\nmeridiand plan of the {queries[1][0]} query:\n{plan}")
    finally:
        stop_and_remove(servers)
    print(f"| query ({args.rows:,} rows, median of {args.repeat}) | meridiand | PostgreSQL 15 "
          "| meridiand / PostgreSQL |")
    print("|---|---:|---:|---:|")
    for name, sql in queries:
        m, p = results[("meridiand", name)], results[("PostgreSQL 15", name)]
        print(f"| {name}: `{sql}` | {m:.3f} s | {p:.3f} s | {m / p:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
