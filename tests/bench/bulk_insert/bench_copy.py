#!/usr/bin/env python3
"""COPY FROM STDIN of N generated rows (id,id%1000,'row id' into a table with a primary key),
sent by psycopg 3 in 64 KiB writes, autocommit; prints wall time, the server's CPU time (from
/proc: the daemon's pid, or PostgreSQL's backend) and, for meridiand, its peak RSS.

  bench_copy.py --meridiand BIN [BIN ...] [--postgres CONNINFO] [--rows N] [--rounds R]

Each meridiand binary runs on a fresh data directory per round (--buffer-pool-mb 2048, ports
31095/31096), alternating with the others and with PostgreSQL; results go to RESULTS.md by hand.
"""
import argparse
import os
import shutil
import socket
import subprocess
import tempfile
import time

import psycopg


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def peak_rss_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return 0.0


def copy_once(conninfo, data, server_pid=None):
    with psycopg.connect(conninfo, autocommit=True) as conn:
        conn.execute("DROP TABLE IF EXISTS copy_bench")
        conn.execute("CREATE TABLE copy_bench (id int PRIMARY KEY, a int, t text)")
        pid = server_pid or conn.execute("SELECT pg_backend_pid()").fetchone()[0]
        time.sleep(1)
        cpu0, t0 = cpu_seconds(pid), time.monotonic()
        with conn.cursor() as cur, cur.copy("COPY copy_bench FROM STDIN WITH (FORMAT csv)") as cp:
            for at in range(0, len(data), 65536):
                cp.write(data[at:at + 65536])
        return time.monotonic() - t0, cpu_seconds(pid) - cpu0, pid


def wait_port(port, timeout=30):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise RuntimeError(f"meridiand did not listen on {port}")


def run_meridiand(binary, data):
    tmp = tempfile.mkdtemp(prefix="bench-copy-")
    proc = subprocess.Popen([binary, f"--data-dir={tmp}/data", "--pg-listen=127.0.0.1:31095",
                             "--grpc-listen=127.0.0.1:31096", "--log-level=warn",
                             "--buffer-pool-mb=2048"], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        wait_port(31095)
        wall, cpu, _ = copy_once("host=127.0.0.1 port=31095 user=meridian dbname=meridian", data,
                                 proc.pid)
        return wall, cpu, peak_rss_mb(proc.pid)
    finally:
        proc.terminate()
        proc.wait()
        shutil.rmtree(tmp, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--meridiand", nargs="+", required=True)
    ap.add_argument("--postgres", help="conninfo of a PostgreSQL 15 database to compare with")
    ap.add_argument("--rows", type=int, default=1000000)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    data = "".join(f"{i},{i % 1000},row {i}\n" for i in range(1, args.rows + 1)).encode()
    print(f"COPY of {args.rows} rows ({len(data) / 1e6:.1f} MB), load {os.getloadavg()[0]:.2f}")
    for r in range(1, args.rounds + 1):
        for binary in args.meridiand:
            wall, cpu, rss = run_meridiand(binary, data)
            print(f"round {r} {binary}: wall {wall:.2f} s, daemon CPU {cpu:.2f} s, "
                  f"peak RSS {rss:.0f} MB")
        if args.postgres:
            wall, cpu, _ = copy_once(args.postgres, data)
            print(f"round {r} PostgreSQL: wall {wall:.2f} s, backend CPU {cpu:.2f} s")
    print(f"load {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
