#!/usr/bin/env python3
# Hostile but ordinary statements (issue 14's table) in meridiand and PostgreSQL 15 side by
# side: for each statement, the outcome (answer or SQLSTATE), the wall time, the server's peak
# resident memory while it ran (meridiand: the daemon; PostgreSQL: the largest backend) and its
# resident memory afterwards. meridiand runs with its defaults (--memory-limit-mb = 80% of RAM,
# --max-statement-bytes = 16 MiB). Standard library only; uses the server wrappers of
# ../commit/bench_commit.py. Fails only if meridiand dies or an answer differs from
# PostgreSQL's where both answered; times and memory are reported, never asserted.
#
#   bench_hostile.py [--scale 1.0] [--smoke] [--meridiand PATH]
import argparse
import os
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "commit"))
from bench_commit import Meridian, Postgres, child_pids, stop_and_remove  # noqa: E402


def cases(scale):
    groups = int(5_000_000 * scale)
    rows = int(5_000_000 * scale)
    big_in = int(3_000_000 * scale)
    mid_in = int(1_000_000 * scale)
    return [
        ("regex over a 400 kB string", "SELECT repeat('ab', 200000) ~ '^(a|b)*$'"),
        ("nested quantifier (a+)+", "SELECT repeat('a', 30) || '!' ~ '^(a+)+$'"),
        ("LIKE with 2000 %, timeout 5 s",
         "SET statement_timeout = '5s'; SELECT repeat('a', 100000) LIKE repeat('%a', 2000) || 'b'"),
        (f"IN list of {mid_in:,} literals",
         "SELECT 5 IN (" + ",".join(str(i) for i in range(mid_in)) + ")"),
        (f"IN list of {big_in:,} literals",
         "SELECT 5 IN (" + ",".join(str(i) for i in range(big_in)) + ")"),
        (f"GROUP BY {groups:,} groups",
         f"SELECT count(*) FROM (SELECT g FROM generate_series(1, {groups}) g GROUP BY g) s"),
        (f"ORDER BY {rows:,} rows",
         f"SELECT g FROM generate_series(1, {rows}) g ORDER BY (g::bigint * 7919) % 1000003 DESC, g "
         f"OFFSET {rows - 1}"),
        ("integer negation overflow", "SELECT -((-2147483648)::int)"),
        ("1 MB identifier", "CREATE TABLE " + "x" * (1 << 20) + " (x int)"),
    ]


def rss_kib(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def server_rss(server):
    """meridiand: the daemon's RSS; PostgreSQL: the largest process under the postmaster."""
    if server.name == "meridiand":
        return rss_kib(server.pid())
    return max([rss_kib(p) for p in child_pids(server.pid())] + [0])


def run(server, sql, timeout):
    """Runs sql through psql; returns (outcome, seconds, peak MiB, after MiB)."""
    peak = [server_rss(server)]
    done = threading.Event()

    def sample():
        while not done.is_set():
            peak[0] = max(peak[0], server_rss(server))
            time.sleep(0.01)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    started = time.monotonic()
    try:
        out = subprocess.run(["psql", "-h", "127.0.0.1", "-p", str(server.port), "-U",
                              server.user, "-d", server.db, "-X", "-q", "-t", "-A",
                              "-v", "ON_ERROR_STOP=1", "-v", "VERBOSITY=verbose"],
                             input=sql + ";\n", capture_output=True, text=True, timeout=timeout)
        if out.returncode == 0:
            outcome = out.stdout.strip()[:40] or "ok"
        else:
            err = out.stderr.strip()
            code = err.split("ERROR:", 1)[1].strip()[:5] if "ERROR:" in err else err[:60]
            outcome = f"error {code}"
    except subprocess.TimeoutExpired:
        outcome = f"still running after {timeout} s"
    took = time.monotonic() - started
    done.set()
    sampler.join()
    time.sleep(1.5)  # meridiand returns free memory to the OS once a second
    return outcome, took, peak[0] / 1024, server_rss(server) / 1024


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--meridiand", default=os.environ.get("MERIDIAND", "build/bin/meridiand"))
    ap.add_argument("--scale", type=float, default=1.0, help="sizes of the big cases")
    ap.add_argument("--timeout", type=int, default=120, help="seconds per statement")
    ap.add_argument("--smoke", action="store_true", help="scale 0.01, 30 s per statement")
    args = ap.parse_args()
    if args.smoke:
        args.scale, args.timeout = 0.01, 30
    servers = [Meridian(args.meridiand, "sync"), Postgres(True)]
    results = {}
    failed = False
    try:
        for server in servers:
            server.start()
        for name, sql in cases(args.scale):
            for server in servers:
                results[(server.name, name)] = run(server, sql, args.timeout)
                o, t, p, a = results[(server.name, name)]
                print(f"{server.name:13} {name:32} {o:24} {t:8.3f} s  peak {p:8.1f} MiB  "
                      f"after {a:8.1f} MiB", flush=True)
            m, g = results[("meridiand", name)][0], results[("PostgreSQL 15", name)][0]
            if not m.startswith(("error", "still")) and not g.startswith(("error", "still")) \
                    and m != g:
                print(f"ANSWERS DIFFER for {name}: meridiand {m!r}, PostgreSQL {g!r}")
                failed = True
        if servers[0].proc.poll() is not None:
            print("meridiand died")
            failed = True
    finally:
        stop_and_remove(servers)
    print("\n| statement | meridiand | PostgreSQL 15 | time ratio | peak MiB (M / PG) "
          "| after MiB (M / PG) |")
    print("|---|---|---|---:|---:|---:|")
    for name, _ in cases(args.scale):
        mo, mt, mp, ma = results[("meridiand", name)]
        po, pt, pp, pa = results[("PostgreSQL 15", name)]
        print(f"| {name} | {mo}, {mt:.3f} s | {po}, {pt:.3f} s | {mt / max(pt, 1e-6):.2f} "
              f"| {mp:.0f} / {pp:.0f} | {ma:.0f} / {pa:.0f} |")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
