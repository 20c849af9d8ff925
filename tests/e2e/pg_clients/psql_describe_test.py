# psql's \d against a real meridiand: runs psql_describe/*.sql with `psql -X -q -a -f` (statements
# echoed, stderr merged into stdout) and compares the output with the .out file beside it. The
# .out files are PostgreSQL 15's output for the same script (see README.md for how to check
# them again); each difference is a failure. Standard library only; run by ctest with
# $MERIDIAND set.
import difflib
import glob
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from meridian_daemon import MeridianDaemon  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    psql = shutil.which("psql") or "/usr/bin/psql"
    scripts = sorted(glob.glob(os.path.join(HERE, "psql_describe", "*.sql")))
    if not scripts:
        print("FAILED: no scripts in psql_describe/", file=sys.stderr)
        return 1
    failed = []
    for script in scripts:
        name = os.path.basename(script)
        with open(script[:-4] + ".out", encoding="utf-8") as f:
            expected = f.read()
        with MeridianDaemon() as daemon:  # a fresh database for each script
            r = subprocess.run([psql, daemon.conninfo(), "-X", "-q", "-a", "-f", script],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               timeout=120, env=dict(os.environ, PGTZ="UTC", LC_ALL="C"))
            # psql names the script in its messages: drop the directory so the .out is portable.
            actual = r.stdout.replace(script, name)
            code = daemon.stop()
            if code != 0:
                failed.append(f"{name}: meridiand exited with {code}")
                print(daemon.log()[-5000:], file=sys.stderr)
        if actual != expected:
            failed.append(f"{name}: output differs")
            sys.stdout.writelines(difflib.unified_diff(
                expected.splitlines(True), actual.splitlines(True), "expected " + name,
                "meridiand " + name))
    if failed:
        print("FAILED: " + "; ".join(failed), file=sys.stderr)
        return 1
    print(f"psql describe: {len(scripts)} scripts passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
