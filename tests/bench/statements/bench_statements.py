#!/usr/bin/env python3
# Statement latency of the TPC-C kits' statements on Meridian and PostgreSQL 15 (issue 16 item
# 7). Starts meridiand (free ports, temp dir) and PostgreSQL 15 (initdb in a temp dir), loads
# the same TPC-C database into both over the PostgreSQL protocol (`meridian-tpcc load --driver
# pg`, one loader thread and a fixed seed, so both hold the same rows), then runs `meridian-tpcc
# statements` against each: every statement prepared, N executions with varying parameters,
# each in BEGIN ... ROLLBACK. Prints one markdown table (median and p95 per server, the ratio
# PostgreSQL median / Meridian median, rows of the first execution on both) and both plans of
# every statement. Standard library only; server wrappers from ../commit/bench_commit.py and
# ../../e2e/pg_clients/meridian_daemon.py.
#
#   bench_statements.py [--warehouses 1] [--executions 200] [--only NAME] [--plans FILE]
#   bench_statements.py --smoke     Meridian only, 1 warehouse, 2 executions per statement: every
#                                   statement must run without an error or a statement timeout
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "commit"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "e2e", "pg_clients"))
from bench_commit import PG_BIN, Postgres  # noqa: E402
from meridian_daemon import MeridianDaemon  # noqa: E402

LOAD_SEED = "42"
RUN_SEED = "7"


def uptime():
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def tpcc(args, command, conn, *extra, quiet=False):
    cmd = [args.tpcc, command, "--no-progress", "--driver", "pg", *conn, *extra]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=7200)
    if not quiet or p.returncode != 0:
        print(f"$ {' '.join(cmd)}\n{p.stdout[-6000:]}{p.stderr[-2000:]}", flush=True)
    return p


def measure(args, name, conn, tmp):
    """Loads the database, times the statements; returns {statement name: result}."""
    # One loader thread and a fixed seed: both servers hold the same rows (the smoke run, on
    # Meridian alone, loads with four).
    load = tpcc(args, "load", conn, "--warehouses", str(args.warehouses), "--threads",
                "4" if args.smoke else "1", "--seed", LOAD_SEED, quiet=True)
    if load.returncode != 0:
        raise RuntimeError(f"{name}: load failed")
    print(f"{name}: {load.stdout.strip().splitlines()[-1]}", flush=True)
    path = os.path.join(tmp, name.replace(" ", "_") + ".json")
    extra = ["--warehouses", str(args.warehouses), "--executions", str(args.executions),
             "--statement-seconds", str(args.statement_seconds),
             "--statement-timeout", str(args.statement_timeout), "--seed", RUN_SEED,
             "--json", path]
    if args.only:
        extra += ["--only", args.only]
    tpcc(args, "statements", conn, *extra)
    with open(path, encoding="utf-8") as f:
        return {s["name"]: s for s in json.load(f)["statements"]}


def ms(us):
    return f"{us / 1000:.3f}" if us < 10000 else f"{us / 1000:.1f}"


def cell(r):
    """median / p95 in ms, or what went wrong."""
    if r is None:
        return "-", "-"
    if r["error"]:
        return "error", r["error"][:40]
    prefix = ">" if r["timed_out"] else ""
    return prefix + ms(r["median_us"]), prefix + ms(r["p95_us"])


def bad_statements(results):
    return [n for n, r in results.items() if r["error"] or r["timed_out"]]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--meridiand", default=os.environ.get("MERIDIAND", "build/bin/meridiand"))
    ap.add_argument("--tpcc", default=os.environ.get("MERIDIAN_TPCC", "build/bin/meridian-tpcc"))
    ap.add_argument("--warehouses", type=int, default=1)
    ap.add_argument("--executions", type=int, default=200)
    ap.add_argument("--statement-seconds", type=float, default=5)
    ap.add_argument("--statement-timeout", type=float, default=60)
    ap.add_argument("--only", default="", help="only statements whose name contains this")
    ap.add_argument("--plans", default="", help="write both servers' plans to this file "
                    "(default: print them after the table)")
    ap.add_argument("--no-postgres", action="store_true", help="Meridian only")
    ap.add_argument("--smoke", action="store_true")
    args = ap.parse_args()
    if args.smoke:
        args.warehouses, args.executions, args.statement_seconds = 1, 2, 1
        args.statement_timeout, args.no_postgres = 20, True
    with_pg = not args.no_postgres and os.access(f"{PG_BIN}/initdb", os.X_OK)
    if not args.no_postgres and not with_pg:
        print(f"PostgreSQL 15 not found in {PG_BIN}: Meridian only", flush=True)
    tmp = tempfile.mkdtemp(prefix="bench-statements.")
    before = uptime()
    try:
        with MeridianDaemon(args.meridiand, extra_args=["--log-level", "warn"]) as daemon:
            mer = measure(args, "Meridian", ["--port", str(daemon.pg_port)], tmp)
        pg = {}
        if with_pg:
            server = Postgres(True)
            try:
                server.start()
                pg = measure(args, "PostgreSQL 15", ["--port", str(server.port), "--user",
                                                     server.user, "--dbname", server.db], tmp)
                server.stop()
            finally:
                server.cleanup()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    after = uptime()

    print(f"\n{args.warehouses} warehouse(s), up to {args.executions} executions per statement "
          f"(at most {args.statement_seconds:g} s each), prepared, one session, every execution "
          "in BEGIN ... ROLLBACK; times in ms; ratio = PostgreSQL median / Meridian median "
          "(below 1: Meridian slower)\n")
    print("| statement | kit | Meridian median | p95 | PostgreSQL median | p95 | ratio | n | "
          "rows M / PG |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---|")
    below = []
    for name, m in mer.items():
        p = pg.get(name)
        ratio = ""
        if p and not m["error"] and not p["error"] and m["median_us"] > 0:
            value = p["median_us"] / m["median_us"]
            ratio = f"{value:.2f}x"
            if value < 1:
                below.append(name)
        rows = f"{m['rows']} / {p['rows']}" if p else str(m["rows"])
        if p and m["rows"] != p["rows"]:
            rows += " DIFFER"
        print(f"| {name} | {m['kit']} | {' | '.join(cell(m))} | {' | '.join(cell(p))} | "
              f"{ratio} | {m['executions']} | {rows} |")
    print(f"\nuptime before: {before}\nuptime after:  {after}")
    if pg:
        print(f"statements with a ratio below 1x: {len(below)} of {len(mer)}"
              + (f" ({', '.join(below)})" if below else ""))

    plans = []
    for name, m in mer.items():
        plans.append(f"### {name}\n\n```sql\n{m['sql']}\n```\n\nMeridian:\n```\n{m['plan']}\n```\n")
        if name in pg:
            plans.append(f"PostgreSQL 15:\n```\n{pg[name]['plan']}\n```\n")
    if args.plans:
        with open(args.plans, "w", encoding="utf-8") as f:
            f.write("\n".join(plans))
        print(f"plans written to {args.plans}")
    elif not args.smoke:
        print("\n## Plans\n\n" + "\n".join(plans))

    bad = bad_statements(mer)
    if bad:
        print(f"FAILED on Meridian (error or statement timeout): {', '.join(bad)}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
