#!/usr/bin/env python3
"""Daemon CPU and context switches per TPC-C transaction, binaries alternating.

cpu_per_txn.py SECONDS MERIDIAND [MERIDIAND ...]: for each binary in turn, a fresh data
directory, meridian-tpcc load (1 warehouse) and run (4 terminals, SECONDS) over the PostgreSQL
protocol; prints tpmC, tpmTotal, the daemon's user+system CPU and its threads' context switches
(from /proc) per transaction, and the load average. Ports: CPU_PER_TXN_PORT (default 31171) and
the next one. Less sensitive to a busy machine than tpmC:
pass the same binaries several times, alternating (A B A B).
"""
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
def stat(pid):
    f = open(f"/proc/{pid}/stat").read().split(")")[1].split()
    cpu = (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")
    sw = 0
    for t in glob.glob(f"/proc/{pid}/task/*/status"):
        try:
            for line in open(t):
                if "ctxt_switches" in line: sw += int(line.split()[1])
        except OSError: pass
    return cpu, sw
tpcc = os.environ.get("MERIDIAN_TPCC", "build/bin/meridian-tpcc")
port = int(os.environ.get("CPU_PER_TXN_PORT", "31171"))  # and port + 1 for gRPC
for i, b in enumerate(sys.argv[2:]):
    d = os.path.join(tempfile.gettempdir(), f"meridian_cpu_per_txn{port}_{i}")
    shutil.rmtree(d, ignore_errors=True); os.makedirs(d)
    p = subprocess.Popen([b, f"--data-dir={d}/data", f"--pg-listen=127.0.0.1:{port}", f"--grpc-listen=127.0.0.1:{port + 1}", "--log-level=warn", "--commit-mode", "sync"])
    time.sleep(1.5)
    conn = ["--driver", "pg", "--port", str(port)]
    subprocess.run([tpcc, "load", "--no-progress", *conn, "--warehouses", "1", "--threads", "4"], check=True, capture_output=True)
    c0, s0 = stat(p.pid)
    dur = int(sys.argv[1])
    subprocess.run([tpcc, "run", "--no-progress", *conn, "--warehouses", "1", "--terminals", "4", "--duration", str(dur), "--json", f"{d}/r.json"], check=True, capture_output=True)
    c1, s1 = stat(p.pid)
    r = json.load(open(f"{d}/r.json"))
    tot = r.get("tpmTotal") or r.get("tpm_total")
    txns = tot * dur / 60
    print(f"{b}: tpmC {r.get('tpmC')} tpmTotal {tot:.0f} cpu/txn {1000*(c1-c0)/txns:.3f} ms switches/txn {(s1-s0)/txns:.1f} load {os.getloadavg()[0]:.1f}", flush=True)
    p.terminate(); p.wait()
