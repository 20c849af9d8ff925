# pgbench smoke test: a real meridiand, the accounts table made by pgbench_setup.sql through
# psql, then pgbench (Debian's, PostgreSQL 15) running the select-only script pgbench_select.sql
# with 16 clients for a few seconds in each query protocol: -M simple (values in the text),
# -M extended (Parse/Bind with $1 per query) and -M prepared (named statements, Bind per query);
# -n (no VACUUM). Then `pgbench -i -s 1` (its initializer, unchanged) and its built-in tpcb-like
# with 8 clients against a daemon of only 2 worker threads: most transactions wait for the one branch
# row, and the worker pool must grow rather than hang with every thread waiting. Passes when
# every pgbench run exits 0 and reports no failed transaction, and pgbench -i made its 100,000
# accounts and three primary keys.
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


def run(args, timeout=300):
    print("+", " ".join(args), flush=True)
    r = subprocess.run(args, capture_output=True, text=True, timeout=timeout)
    print(r.stdout, end="")
    print(r.stderr, end="", file=sys.stderr)
    return r


def check_run(bench, name, problems, counts):
    out = bench.stdout
    processed = re.search(r"number of transactions actually processed: (\d+)", out)
    failed = re.search(r"number of failed transactions: (\d+)", out)
    if bench.returncode != 0:
        problems.append(f"{name}: pgbench exit status {bench.returncode}")
    if not processed or int(processed.group(1)) == 0:
        problems.append(f"{name}: no transaction processed")
    else:
        counts.append(f"{name} {processed.group(1)}")
    if not failed or int(failed.group(1)) != 0:
        problems.append(f"{name}: failed transactions (or no count of them)")


def tpcb_on_two_threads(pgbench, psql, problems, counts):
    with MeridianDaemon(extra_args=["--worker-threads", "2"]) as daemon:
        # pgbench's own initializer, unchanged: CREATE TABLE ... WITH (fillfactor), TRUNCATE and
        # COPY ... WITH (FREEZE ON) in one transaction, VACUUM ANALYZE, ALTER TABLE ADD PRIMARY KEY.
        setup = run([pgbench, "-i", "-s", "1", "-h", "127.0.0.1", "-p", str(daemon.pg_port),
                     "-U", "meridian", "meridian"])
        if setup.returncode != 0:
            problems.append("tpcb-like: pgbench -i failed")
            return
        check = run([psql, daemon.conninfo(), "-X", "-A", "-t", "-c",
                     "SELECT (SELECT count(*) FROM pgbench_accounts) || '|' || "
                     "(SELECT count(*) FROM pg_constraint WHERE contype = 'p' AND conrelid IN "
                     "('pgbench_accounts'::regclass, 'pgbench_branches'::regclass, "
                     "'pgbench_tellers'::regclass))"])
        if check.stdout.strip() != "100000|3":
            problems.append(f"pgbench -i: expected 100000 accounts and 3 primary keys, got "
                            f"{check.stdout.strip()!r}")
            return
        try:
            bench = run([pgbench, "-n", "-b", "tpcb-like", "-M", "prepared", "-c", "8", "-j", "2",
                         "-T", SECONDS, "-h", "127.0.0.1", "-p", str(daemon.pg_port), "-U",
                         "meridian", "meridian"], timeout=120)
            check_run(bench, "tpcb-like on 2 worker threads", problems, counts)
        except subprocess.TimeoutExpired:
            problems.append("tpcb-like on 2 worker threads: pgbench hung")
        code = daemon.stop()
        if code != 0:
            problems.append(f"meridiand (2 worker threads) exited with {code}")
            print(daemon.log()[-5000:], file=sys.stderr)


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
            check_run(bench, f"-M {mode}", problems, counts)
        if not daemon.alive():
            problems.append("meridiand died")
        code = daemon.stop()
        if code != 0:
            problems.append(f"meridiand exited with {code}")
        if problems:
            print("FAILED: " + "; ".join(problems), file=sys.stderr)
            print(daemon.log()[-5000:], file=sys.stderr)
            return 1
    tpcb_on_two_threads(pgbench, psql, problems, counts)
    if problems:
        print("FAILED: " + "; ".join(problems), file=sys.stderr)
        return 1
    print(f"pgbench smoke: 4 passed, 0 failed (transactions: {', '.join(counts)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
