# sysbench (Debian's 1.0.20, its own Lua scripts, unchanged) against a real meridiand over the
# PostgreSQL protocol: oltp_read_write prepare (CREATE TABLE with a SERIAL key, multi-row
# INSERTs, CREATE INDEX), run with 4 threads for a few seconds (server-side prepared point and
# range selects, SUM, DISTINCT/ORDER BY, UPDATEs, DELETE + INSERT in transactions), cleanup.
# Passes when every step exits 0, transactions were processed, the table still has exactly
# table-size rows with the keys 1..table-size after the run (each DELETE is followed by the
# INSERT of the same key), and cleanup removed the table with its sequence.
# Standard library only; run by ctest with $MERIDIAND set.
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from meridian_daemon import MeridianDaemon  # noqa: E402

TABLE_SIZE = 2000
SECONDS = os.environ.get("MERIDIAN_SYSBENCH_SECONDS", "5")


def main():
    sysbench = shutil.which("sysbench")
    psql = shutil.which("psql") or "/usr/bin/psql"
    if sysbench is None:
        print("FAILED: sysbench is not installed (deploy/install-deps.sh installs it)",
              file=sys.stderr)
        return 1
    problems = []
    with MeridianDaemon() as daemon:
        base = [sysbench, "oltp_read_write", "--db-driver=pgsql", "--pgsql-host=127.0.0.1",
                f"--pgsql-port={daemon.pg_port}", "--pgsql-user=meridian", "--pgsql-db=meridian",
                "--tables=1", f"--table-size={TABLE_SIZE}"]

        def step(args, timeout=300):
            print("+", " ".join(args), flush=True)
            r = subprocess.run(args, capture_output=True, text=True, timeout=timeout)
            print(r.stdout[-3000:], end="")
            print(r.stderr[-3000:], end="", file=sys.stderr)
            return r

        def query(sql):
            r = subprocess.run([psql, daemon.conninfo(), "-X", "-A", "-t", "-c", sql],
                               capture_output=True, text=True, timeout=60)
            return r.stdout.strip()

        r = step(base + ["prepare"])
        if r.returncode != 0:
            problems.append(f"prepare exited with {r.returncode}")
        r = step(base + [f"--time={SECONDS}", "--threads=4", "run"])
        m = re.search(r"transactions:\s+(\d+)", r.stdout)
        if r.returncode != 0:
            problems.append(f"run exited with {r.returncode}")
        if not m or int(m.group(1)) == 0:
            problems.append("run processed no transaction")
        rows = query("SELECT count(*), min(id), max(id), count(DISTINCT id) FROM sbtest1")
        if rows != f"{TABLE_SIZE}|1|{TABLE_SIZE}|{TABLE_SIZE}":
            problems.append(f"sbtest1 after the run: {rows!r}")
        if query("SELECT pg_get_serial_sequence('sbtest1', 'id')") != "public.sbtest1_id_seq":
            problems.append("sbtest1.id has no owned sequence")
        r = step(base + ["cleanup"])
        if r.returncode != 0:
            problems.append(f"cleanup exited with {r.returncode}")
        if query("SELECT count(*) FROM pg_class WHERE relname LIKE 'sbtest1%'") != "0":
            problems.append("cleanup left sbtest1 or its sequence")
        code = daemon.stop()
        if code != 0:
            problems.append(f"meridiand exited with {code}")
            print(daemon.log()[-5000:], file=sys.stderr)
    if problems:
        for p in problems:
            print("FAILED:", p, file=sys.stderr)
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
