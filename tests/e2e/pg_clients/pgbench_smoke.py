# pgbench smoke test: a real meridiand, the accounts table made by pgbench_setup.sql through
# psql, then pgbench (Debian's, PostgreSQL 15) running the select-only script pgbench_select.sql
# with 16 clients for a few seconds in each query protocol: -M simple (values in the text),
# -M extended (Parse/Bind with $1 per query) and -M prepared (named statements, Bind per query);
# -n (no VACUUM). Passes when every pgbench run exits 0 and reports no failed transaction.
# Standard library only; run by ctest with $MERIDIAND set.
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from meridian_daemon import MeridianDaemon  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SECONDS = os.environ.get("MERIDIAN_PGBENCH_SECONDS", "3")


def run(args):
    print("+", " ".join(args), flush=True)
    r = subprocess.run(args, capture_output=True, text=True, timeout=300)
    print(r.stdout, end="")
    print(r.stderr, end="", file=sys.stderr)
    return r


def main():
    pgbench = shutil.which("pgbench") or "/usr/bin/pgbench"
    psql = shutil.which("psql") or "/usr/bin/psql"
    with MeridianDaemon() as daemon:
        conn = daemon.conninfo()
        setup = run([psql, conn, "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1",
                     "-f", os.path.join(HERE, "pgbench_setup.sql")])
        if setup.returncode != 0 or setup.stdout.strip() != "1024|1|1024":
            print("FAILED: setup through psql", file=sys.stderr)
            return 1
        problems = []
        counts = []
        for mode in ("simple", "extended", "prepared"):
            bench = run([pgbench, "-n", "-M", mode, "-c", "16", "-j", "2", "-T", SECONDS,
                         "-f", os.path.join(HERE, "pgbench_select.sql"),
                         "-h", "127.0.0.1", "-p", str(daemon.pg_port), "-U", "meridian",
                         "meridian"])
            out = bench.stdout
            processed = re.search(r"number of transactions actually processed: (\d+)", out)
            failed = re.search(r"number of failed transactions: (\d+)", out)
            if bench.returncode != 0:
                problems.append(f"-M {mode}: pgbench exit status {bench.returncode}")
            if not processed or int(processed.group(1)) == 0:
                problems.append(f"-M {mode}: no transaction processed")
            else:
                counts.append(f"{mode} {processed.group(1)}")
            if not failed or int(failed.group(1)) != 0:
                problems.append(f"-M {mode}: failed transactions (or no count of them)")
        if not daemon.alive():
            problems.append("meridiand died")
        code = daemon.stop()
        if code != 0:
            problems.append(f"meridiand exited with {code}")
        if problems:
            print("FAILED: " + "; ".join(problems), file=sys.stderr)
            print(daemon.log()[-5000:], file=sys.stderr)
            return 1
    print(f"pgbench smoke: 3 passed, 0 failed (transactions: {', '.join(counts)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
