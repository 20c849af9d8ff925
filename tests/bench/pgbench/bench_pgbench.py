#!/usr/bin/env python3
# pgbench's built-in select-only and tpcb-like scripts against meridiand and PostgreSQL 15 on the
# same machine, same data (tpcb_setup.sql: scale 1), same client counts, same durability
# (meridiand --commit-mode sync vs synchronous_commit=on), in the simple and prepared query
# modes; prints one table with the ratios (tests/bench/RESULTS.md). Standard library only; uses
# the server wrappers of ../commit/bench_commit.py.
#
#   bench_pgbench.py [--seconds 8] [--clients 1,16,64] [--modes simple,prepared]
#                    [--scripts select-only,tpcb-like] [--scale N] [--buffer-mb M] [--smoke]
# --scale N > 1 loads both with `pgbench -i -s N` instead (issue 17's table: --scale 10
# --buffer-mb 2048 --clients 1,8,64,256 --modes prepared --scripts tpcb-like --seconds 15);
# --buffer-mb M gives meridiand --buffer-pool-mb M and PostgreSQL shared_buffers = M MB.
import argparse
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "commit"))
from bench_commit import Meridian, Postgres  # noqa: E402


def load(server, scale):
    if scale > 1:
        out = subprocess.run(["pgbench", "-i", "-q", "-s", str(scale), "-h", "127.0.0.1", "-p",
                              str(server.port), "-U", server.user, server.db],
                             capture_output=True, text=True, timeout=3600)
        if out.returncode != 0:
            raise RuntimeError(f"{server.name}: pgbench -i failed: {out.stderr[-1500:]}")
        return
    out = subprocess.run(["psql", "-h", "127.0.0.1", "-p", str(server.port), "-U", server.user,
                          "-d", server.db, "-X", "-q", "-v", "ON_ERROR_STOP=1", "-f",
                          os.path.join(HERE, "tpcb_setup.sql")],
                         capture_output=True, text=True, timeout=3600)
    if out.returncode != 0:
        raise RuntimeError(f"{server.name}: setup failed: {out.stderr}")


def pgbench(server, script, mode, clients, seconds):
    args = ["pgbench", "-h", "127.0.0.1", "-p", str(server.port), "-U", server.user, "-n",
            "-b", script, "-M", mode, "-T", str(seconds), "-c", str(clients),
            "-j", str(min(clients, 2)), server.db]
    out = subprocess.run(args, capture_output=True, text=True, timeout=seconds * 10 + 120)
    if out.returncode != 0:
        raise RuntimeError(f"{server.name}: pgbench {script} -M {mode} -c {clients} failed:\n"
                           f"{out.stdout[-1500:]}{out.stderr[-1500:]}")
    tps = float(re.search(r"tps = ([0-9.]+)", out.stdout).group(1))
    failed = re.search(r"number of failed transactions: (\d+)", out.stdout)
    return tps, int(failed.group(1)) if failed else 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--meridiand", default=os.environ.get("MERIDIAND", "build/bin/meridiand"))
    ap.add_argument("--seconds", type=int, default=8)
    ap.add_argument("--clients", default="1,16,64")
    ap.add_argument("--modes", default="simple,prepared")
    ap.add_argument("--scripts", default="select-only,tpcb-like")
    ap.add_argument("--scale", type=int, default=1)
    ap.add_argument("--buffer-mb", type=int, default=0)
    ap.add_argument("--smoke", action="store_true", help="1 s runs at 1 and 4 clients")
    args = ap.parse_args()
    clients = [int(c) for c in args.clients.split(",")]
    if args.smoke:
        args.seconds, clients = 1, [1, 4]
    modes, scripts = args.modes.split(","), args.scripts.split(",")
    results = {}
    m_args, pg_settings = (), ()
    if args.buffer_mb > 0:
        m_args = ("--buffer-pool-mb", str(args.buffer_mb))
        pg_settings = (f"shared_buffers={args.buffer_mb}MB",)
    for server in (Meridian(args.meridiand, "sync", m_args), Postgres(True, pg_settings)):
        try:
            server.start()
            load(server, args.scale)
            for script in scripts:
                for mode in modes:
                    for c in clients:
                        results[(server.name, script, mode, c)] = pgbench(
                            server, script, mode, c, args.seconds)
                        tps, failed = results[(server.name, script, mode, c)]
                        print(f"{server.name:13} {script:11} {mode:8} {c:3} clients: "
                              f"{tps:9.0f} tps, {failed} failed", flush=True)
            server.stop()
        finally:
            server.cleanup()
    print("\n| script | mode | clients | meridiand tps | PostgreSQL 15 tps | ratio | failed "
          "(meridiand) |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for script in scripts:
        for mode in modes:
            for c in clients:
                m = results[("meridiand", script, mode, c)]
                p = results[("PostgreSQL 15", script, mode, c)]
                print(f"| {script} | {mode} | {c} | {m[0]:.0f} | {p[0]:.0f} | "
                      f"{m[0] / p[0]:.2f}x | {m[1]} |")
    failures = sum(r[1] for k, r in results.items() if k[0] == "meridiand")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
