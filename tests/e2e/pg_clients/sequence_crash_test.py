# Sequences survive kill -9 without repeating a value (PostgreSQL's rule): a real meridiand,
# psql sessions taking nextval from a plain sequence and inserting into a SERIAL table (some
# inside transactions that roll back), SIGKILL, restart on the same data directory, then every
# new value must be above every value handed out before the crash; the rolled-back nextval
# stays used (sequences are not transactional). A clean stop and restart continue exactly
# (no gap). Standard library only; run by ctest with $MERIDIAND set.
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from meridian_daemon import MeridianDaemon  # noqa: E402


def psql(daemon, sql):
    exe = shutil.which("psql") or "/usr/bin/psql"
    r = subprocess.run([exe, daemon.conninfo(), "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1",
                        "-c", sql], capture_output=True, text=True, timeout=120)
    if r.returncode != 0:
        raise RuntimeError(f"psql failed: {sql}\n{r.stderr}")
    return [line for line in r.stdout.splitlines() if line]


def main():
    problems = []
    with MeridianDaemon() as daemon:
        psql(daemon, "CREATE SEQUENCE s; CREATE TABLE t (id SERIAL PRIMARY KEY, v INTEGER)")
        seen = []
        for _ in range(5):
            seen += [int(x) for x in psql(daemon, "SELECT nextval('s') FROM generate_series(1, 7)")]
        psql(daemon, "INSERT INTO t (v) SELECT g FROM generate_series(1, 100) g")
        psql(daemon, "BEGIN; INSERT INTO t (v) VALUES (0); ROLLBACK")
        rolled_back = int(psql(daemon, "SELECT setval('s', nextval('s'))")[0])
        before_seq = max(seen + [rolled_back])
        before_ids = int(psql(daemon, "SELECT max(id) FROM t")[0])
        daemon.kill()
        daemon.restart()
        after_seq = int(psql(daemon, "SELECT nextval('s')")[0])
        after_id = int(psql(daemon, "INSERT INTO t (v) VALUES (1) RETURNING id")[0])
        print(f"before kill: s {before_seq}, t.id {before_ids} (one more rolled back); "
              f"after restart: s {after_seq}, t.id {after_id}")
        if after_seq <= before_seq:
            problems.append(f"nextval('s') after kill -9 gave {after_seq} <= {before_seq}")
        if after_id <= before_ids + 1:
            problems.append(f"the SERIAL after kill -9 gave {after_id} <= {before_ids + 1}")
        if int(psql(daemon, "SELECT count(*) FROM t")[0]) != 101:
            problems.append("t lost or gained rows")
        # A clean stop writes the exact state: no gap after the restart.
        last = int(psql(daemon, "SELECT nextval('s')")[0])
        daemon.stop()
        daemon.restart()
        again = int(psql(daemon, "SELECT nextval('s')")[0])
        if again != last + 1:
            problems.append(f"after a clean restart nextval gave {again}, expected {last + 1}")
    if problems:
        for p in problems:
            print("FAILED:", p, file=sys.stderr)
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
