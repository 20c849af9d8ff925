#!/usr/bin/env python3
"""Multi-row INSERT loads, Meridian vs PostgreSQL 15 side by side (issue 17 item 7).

Loads ROWS rows of a TPC-C order_line shaped table (primary key of four columns) in INSERT
statements of BATCH literal rows each, through psql over the PostgreSQL protocol, into both
servers, alternating, RUNS times; then the same with an E'' string in each statement's first
row (which the parser's bulk INSERT shortcut declines, so ANTLR parses every row). Prints the
seconds of each run and the ratio of the medians (PostgreSQL time / Meridian time; > 1 means
Meridian is faster). Both servers must be running; nothing is asserted.

  python3 tests/bench/bulk_insert/bench_bulk_insert.py \
      --meridian="-h 127.0.0.1 -p 56101 -U meridian meridian" \
      --postgres="-h /tmp -p 55432 -U postgres tpcc"
"""
import argparse
import os
import random
import shlex
import statistics
import subprocess
import tempfile
import time

TABLE = ("CREATE TABLE bulk_ol (ol_o_id INT, ol_d_id INT, ol_w_id INT, ol_number INT, "
         "ol_i_id INT, ol_supply_w_id INT, ol_delivery_d TIMESTAMP, ol_quantity NUMERIC(2), "
         "ol_amount NUMERIC(6,2), ol_dist_info CHAR(24), "
         "PRIMARY KEY (ol_w_id, ol_d_id, ol_o_id, ol_number))")


def write_load(path, rows, batch, escape_first):
    rnd = random.Random(17)
    with open(path, "w") as f:
        for start in range(0, rows, batch):
            values = []
            for k in range(start, min(start + batch, rows)):
                info = "'%s'" % ("x" * 24)
                if escape_first and k == start:
                    info = "E" + info
                values.append("(%d,%d,1,%d,%d,1,NULL,5,%.2f,%s)" % (
                    k // 10, 1 + k % 10, k % 10 + 1, rnd.randint(1, 100000),
                    rnd.random() * 100, info))
            f.write("INSERT INTO bulk_ol VALUES " + ",".join(values) + ";\n")


def psql(conn, *args):
    subprocess.run(["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1"] + shlex.split(conn) + list(args),
                   check=True, stdout=subprocess.DEVNULL)


def timed_load(conn, path):
    psql(conn, "-c", "DROP TABLE IF EXISTS bulk_ol", "-c", TABLE)
    t0 = time.monotonic()
    psql(conn, "-f", path)
    return time.monotonic() - t0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--meridian", required=True, help="psql connection options for meridiand")
    ap.add_argument("--postgres", required=True, help="psql connection options for PostgreSQL")
    ap.add_argument("--rows", type=int, default=100000)
    ap.add_argument("--batch", type=int, default=1000)
    ap.add_argument("--runs", type=int, default=3)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for escape_first in (False, True):
            path = os.path.join(tmp, "load.sql")
            write_load(path, a.rows, a.batch, escape_first)
            times = {"meridian": [], "postgres": []}
            for _ in range(a.runs):
                times["meridian"].append(timed_load(a.meridian, path))
                times["postgres"].append(timed_load(a.postgres, path))
            m = statistics.median(times["meridian"])
            p = statistics.median(times["postgres"])
            label = "E'' first row (ANTLR parses all)" if escape_first else "literal rows"
            print("%s: %d rows in INSERTs of %d: meridian %s s, postgres %s s, ratio %.2fx" % (
                label, a.rows, a.batch, " | ".join("%.2f" % t for t in times["meridian"]),
                " | ".join("%.2f" % t for t in times["postgres"]), p / m))
        psql(a.meridian, "-c", "DROP TABLE bulk_ol")
        psql(a.postgres, "-c", "DROP TABLE bulk_ol")


if __name__ == "__main__":
    main()
