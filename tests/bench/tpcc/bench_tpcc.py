#!/usr/bin/env python3
# meridian-tpcc against Meridian over gRPC, Meridian over the PostgreSQL protocol and PostgreSQL
# 15, one after another on the same machine: each gets a fresh load of W warehouses, one run of
# T terminals for S seconds (no think time), then the twelve consistency checks. Durability is
# the same on both (meridiand --commit-mode sync, synchronous_commit=on). Prints one markdown
# table with tpmC, New-Order p99 and the ratio to PostgreSQL, and `uptime` before and after.
# Standard library only; server wrappers from ../commit/bench_commit.py.
#
#   bench_tpcc.py [--warehouses 1] [--terminals 4] [--seconds 60] [--tpcc build/bin/meridian-tpcc]
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
from bench_commit import Postgres  # noqa: E402
from meridian_daemon import MeridianDaemon  # noqa: E402


def uptime():
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def tpcc(args, command, conn, *extra):
    cmd = [args.tpcc, command, "--no-progress", *conn, *extra]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=7200)
    print(f"$ {' '.join(cmd)}\n{p.stdout[-3000:]}{p.stderr[-2000:]}", flush=True)
    return p


def measure(args, name, conn, tmp):
    w = ["--warehouses", str(args.warehouses)]
    if tpcc(args, "load", conn, *w, "--threads", "4").returncode != 0:
        raise RuntimeError(f"{name}: load failed")
    path = os.path.join(tmp, name.replace(" ", "_") + ".json")
    before = uptime()
    tpcc(args, "run", conn, *w, "--terminals", str(args.terminals), "--duration",
         str(args.seconds), "--json", path)
    after = uptime()
    checked = tpcc(args, "check", conn).returncode == 0
    with open(path, encoding="utf-8") as f:
        result = json.load(f)
    return result, checked, before, after


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--meridiand", default=os.environ.get("MERIDIAND", "build/bin/meridiand"))
    ap.add_argument("--tpcc", default=os.environ.get("MERIDIAN_TPCC", "build/bin/meridian-tpcc"))
    ap.add_argument("--warehouses", type=int, default=1)
    ap.add_argument("--terminals", type=int, default=4)
    ap.add_argument("--seconds", type=int, default=60)
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="bench-tpcc.")
    rows = []
    daemon = MeridianDaemon(args.meridiand, extra_args=["--commit-mode", "sync",
                                                        "--log-level", "warn"])
    with daemon:
        rows.append(("Meridian gRPC",) + measure(
            args, "meridian grpc", ["--port", str(daemon.grpc_port)], tmp))
        rows.append(("Meridian pg protocol",) + measure(
            args, "meridian pg", ["--driver", "pg", "--port", str(daemon.pg_port)], tmp))
    pg = Postgres(True)
    try:
        pg.start()
        rows.append(("PostgreSQL 15",) + measure(
            args, "postgres", ["--driver", "pg", "--port", str(pg.port), "--user", pg.user,
                               "--dbname", pg.db], tmp))
        pg.stop()
    finally:
        pg.cleanup()
    base = rows[-1][1]["tpmC"]
    print(f"\n{args.warehouses} warehouse(s), {args.terminals} terminals, {args.seconds} s, "
          "no think time, synchronous commit\n")
    print("| server | tpmC | tpmTotal | vs PostgreSQL | New-Order p50 ms | New-Order p99 ms | "
          "retries | errors | 12 checks | uptime before / after |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---|---|")
    for name, r, checked, before, after in rows:
        lat = r["transactions"]["new_order"]["latency_ms"]
        ratio = r["tpmC"] / base if base else 0
        load = lambda u: u.split("load average:")[-1].strip()  # noqa: E731
        print(f"| {name} | {r['tpmC']:.0f} | {r['tpmTotal']:.0f} | {ratio:.2f}x | "
              f"{lat['p50']:.1f} | {lat['p99']:.1f} | {r['retries']} | {r['errors']} | "
              f"{'pass' if checked else 'FAIL'} | {load(before)} / {load(after)} |")
    shutil.rmtree(tmp, ignore_errors=True)
    return 0 if all(row[2] for row in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
