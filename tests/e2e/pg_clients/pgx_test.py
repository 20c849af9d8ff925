# Go's pgx v5 driver against a real meridiand: starts a daemon on free ports (meridian_daemon.py),
# runs `go test -count=1 ./...` in pgx/ with MERIDIAN_PG_URL pointing at it, streams go's output
# and returns go's exit code (1 if the daemon does not stop cleanly). Go is found on PATH or at
# /usr/local/go/bin/go; modules come through the ordinary go client (GOFLAGS=-mod=readonly, the
# default module and build caches, so reruns are offline and fast). Standard library only.
# Run by ctest as e2e_pgx with $MERIDIAND set; extra arguments go to `go test` (e.g. -run Batch -v).
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from meridian_daemon import MeridianDaemon  # noqa: E402

MODULE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "pgx")


def find_go():
    go = shutil.which("go")
    if go:
        return go
    if os.access("/usr/local/go/bin/go", os.X_OK):
        return "/usr/local/go/bin/go"
    return None


def main():
    go = find_go()
    if go is None:
        print("e2e_pgx: Go is missing: no `go` on PATH and no /usr/local/go/bin/go. "
              "Install Go 1.25 or newer (https://go.dev/dl/) to run the pgx client tests.",
              file=sys.stderr, flush=True)
        return 1
    daemon = MeridianDaemon().start()
    code = 1
    try:
        env = dict(os.environ)
        env["MERIDIAN_PG_URL"] = (f"postgres://meridian@127.0.0.1:{daemon.pg_port}/meridian"
                                  "?sslmode=disable&connect_timeout=20")
        env["GOFLAGS"] = (env.get("GOFLAGS", "") + " -mod=readonly").strip()
        cmd = [go, "test", "-count=1", "-timeout", "300s"] + (sys.argv[1:] or ["-v"]) + ["./..."]
        print("e2e_pgx: " + " ".join(cmd) + f" (in {MODULE_DIR}, MERIDIAN_PG_URL="
              f"{env['MERIDIAN_PG_URL']})", flush=True)
        code = subprocess.call(cmd, cwd=MODULE_DIR, env=env)
    finally:
        stop_code = daemon.stop()
        log = daemon.log()
        daemon.__exit__(None, None, None)
        if stop_code != 0:
            print(f"e2e_pgx: meridiand exited with {stop_code}:\n{log}", file=sys.stderr, flush=True)
            code = code or 1
        elif code != 0:
            print("e2e_pgx: meridiand log:\n" + log[-20000:], file=sys.stderr, flush=True)
    return code


if __name__ == "__main__":
    sys.exit(main())
