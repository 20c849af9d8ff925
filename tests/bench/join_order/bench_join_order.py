#!/usr/bin/env python3
"""Join order: queries whose FROM order is bad, timed on one or more meridiand binaries over the
same data (a star schema: fact with FACT_ROWS rows and indexes on its customer and product keys,
customer 5,000, product 1,000, store 100 rows; ANALYZE'd).

Usage: bench_join_order.py [--fact-rows N] [--runs R] NAME=MERIDIAND [NAME=MERIDIAND ...]
Each binary gets a fresh data directory and free ports; per query it prints the best of R runs
(psql \\timing, one session, after one untimed warm-up run), the result (so the binaries can be
seen to agree) and the join order (the scans of EXPLAIN, top to bottom).
"""
import argparse
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

QUERIES = {
    # Two big inputs joined on a non-selective key first, the selective table last.
    "chain": "SELECT count(*) FROM fact f1 JOIN fact f2 ON f2.c = f1.c JOIN customer c ON "
             "c.id = f1.c WHERE c.region = 'r7' AND c.id < 300",
    # A cross product of two filtered dimensions first, the fact table last.
    "cross_first": "SELECT count(*), sum(f.amount) FROM customer c, product p, fact f WHERE "
                   "f.c = c.id AND f.p = p.id AND c.region = 'r7' AND p.cat = 'cat3'",
    # A star written fact first with three filtered dimensions.
    "star": "SELECT count(*), sum(f.amount) FROM fact f, customer c, product p, store s WHERE "
            "f.c = c.id AND f.p = p.id AND f.s = s.id AND c.region = 'r7' AND p.cat = 'cat3' "
            "AND s.city = 'city1'",
    # One customer's rows, the customer listed last.
    "point_last": "SELECT count(*), sum(f.amount) FROM fact f, product p, customer c WHERE "
                  "f.p = p.id AND f.c = c.id AND c.id = 42",
}


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def psql(port, sql, extra=()):
    cmd = ["psql", "-h", "127.0.0.1", "-p", str(port), "-U", "meridian", "-d", "meridian", "-X",
           "-q", "-v", "ON_ERROR_STOP=1", *extra]
    p = subprocess.run(cmd, input=sql, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"psql failed: {p.stderr}")
    return p.stdout


def load_script(fact_rows):
    rng = random.Random(1)
    out = ["CREATE TABLE fact (id INT PRIMARY KEY, c INT, p INT, s INT, amount INT);",
           "CREATE TABLE customer (id INT PRIMARY KEY, region TEXT);",
           "CREATE TABLE product (id INT PRIMARY KEY, cat TEXT);",
           "CREATE TABLE store (id INT PRIMARY KEY, city TEXT);", "COPY fact FROM STDIN;"]
    for i in range(fact_rows):
        out.append(f"{i}\t{rng.randrange(5000)}\t{rng.randrange(1000)}\t{rng.randrange(100)}\t"
                   f"{rng.randrange(1000)}")
    out.append("\\.")
    for table, n, prefix, mod in (("customer", 5000, "r", 50), ("product", 1000, "cat", 20),
                                  ("store", 100, "city", 10)):
        out.append(f"COPY {table} FROM STDIN;")
        out += [f"{i}\t{prefix}{i % mod}" for i in range(n)]
        out.append("\\.")
    out += ["CREATE INDEX fact_c ON fact (c);", "CREATE INDEX fact_p ON fact (p);", "ANALYZE;"]
    return "\n".join(out) + "\n"


def run_binary(name, binary, script, runs):
    data = tempfile.mkdtemp(prefix="bench-join-order-")
    pg, grpc = free_port(), free_port()
    proc = subprocess.Popen([binary, "--data-dir", data, "--pg-listen", f"127.0.0.1:{pg}",
                             "--grpc-listen", f"127.0.0.1:{grpc}"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(600):
            try:
                socket.create_connection(("127.0.0.1", pg), timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        psql(pg, script)
        for qname, q in QUERIES.items():
            plan = psql(pg, f"EXPLAIN {q};", ["-A", "-t"])
            scans = [re.sub(r"\s+\(cost.*", "", l).strip(" ->") for l in plan.splitlines()
                     if " on " in l and "Scan" in l]
            timed = "\\timing on\n" + "\n".join([q + ";"] * (runs + 1)) + "\n"
            out = psql(pg, timed, ["-A", "-t"])
            times = [float(t) for t in re.findall(r"Time: ([0-9.]+) ms", out)][1:]
            result = out.splitlines()[0]
            print(f"{name:>8} {qname:<12} best {min(times):9.1f} ms  result {result:<12} "
                  f"order: {' / '.join(scans)}", flush=True)
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=60)
        shutil.rmtree(data, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fact-rows", type=int, default=200000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("binaries", nargs="+", help="NAME=PATH of a meridiand")
    args = ap.parse_args()
    script = load_script(args.fact_rows)
    for spec in args.binaries:
        name, _, path = spec.partition("=")
        run_binary(name, os.path.abspath(path), script, args.runs)


if __name__ == "__main__":
    main()
