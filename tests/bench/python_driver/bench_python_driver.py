#!/usr/bin/env python3
# Per-request cost of the Python driver (client/python): a loop of N `SELECT 1` (execute and
# fetchone) and N small autocommit INSERTs through one connection, for the driver of this tree
# and of other git revisions (--ref), and the same loops through psycopg 3 against PostgreSQL 15
# (the reference) and against meridiand's PostgreSQL listener. Each configuration runs in its own
# worker process: it connects and warms up, then the parent reads the server's CPU time
# (/proc/PID/stat: meridiand, or the PostgreSQL backend of the worker's connection), lets the
# loop run and reads it again; the worker reports the loop's wall time and its own CPU time
# (getrusage, every thread). Configurations alternate, --runs times. Prints a markdown table
# with `uptime` before and after.
#
#   bench_python_driver.py --meridiand build/bin/meridiand --ref main [--n 5000] [--runs 2]
#       [--grpc-port 31511] [--pg-port 31512] [--pg-dsn "host=/tmp port=55432 dbname=NAME ..."]
# Run it with a Python that has grpcio, grpcio-tools and psycopg (build/pyenv-driver/bin/python).
import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
WARMUP = 200
TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid):
    """utime + stime of a process (all its threads), from /proc."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def uptime():
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


# --- worker -------------------------------------------------------------------------------
def worker(kind, target, phase, n, base):
    """Connects, warms up, says "ready PID" (the PostgreSQL backend's pid, 0 for the gRPC
    driver), waits for a line on stdin, runs the loop, prints its wall and CPU seconds, and
    closes after one more line."""
    if kind == "meridian":
        import meridian
        host, port = target.rsplit(":", 1)
        conn = meridian.connect(host=host, port=int(port), autocommit=True)
        server_pid = 0
    else:
        import psycopg
        conn = psycopg.connect(target, autocommit=True)
        server_pid = conn.info.backend_pid
    cur = conn.cursor()
    cur.execute("CREATE TABLE IF NOT EXISTS bench_py (id BIGINT PRIMARY KEY, v TEXT)")

    def step(i):
        if phase == "select":
            cur.execute("SELECT 1")
            cur.fetchone()
        else:
            cur.execute("INSERT INTO bench_py VALUES (%s, %s)", (base + i, "small row"))

    for i in range(WARMUP):
        step(n + i)
    print(f"ready {server_pid}", flush=True)
    sys.stdin.readline()
    usage = resource.getrusage(resource.RUSAGE_SELF)
    cpu0 = usage.ru_utime + usage.ru_stime
    start = time.monotonic()
    for i in range(n):
        step(i)
    wall = time.monotonic() - start
    usage = resource.getrusage(resource.RUSAGE_SELF)
    print(json.dumps({"wall": wall, "cpu": usage.ru_utime + usage.ru_stime - cpu0}), flush=True)
    sys.stdin.readline()  # the parent has read the server's CPU time (the backend ends at close)
    conn.close()


# --- parent -------------------------------------------------------------------------------
def driver_from_ref(ref, tmp):
    """client/python of a git revision, with its gRPC stubs generated, in a directory."""
    out = os.path.join(tmp, ref.replace("/", "_"))
    os.makedirs(out)
    archive = subprocess.run(["git", "-C", ROOT, "archive", ref, "client/python", "proto"],
                             check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", out], input=archive, check=True)
    make_stubs(os.path.join(out, "client", "python"))
    return os.path.join(out, "client", "python")


def make_stubs(package_root):
    code = ("import sys; sys.argv = ['setup.py']; src = open('setup.py').read()"
            ".split('setup(\\n')[0]; g = {'__file__': 'setup.py'}; exec(src, g); "
            "g['generate_stubs']('.')")
    subprocess.run([sys.executable, "-c", code], cwd=package_root, check=True)


def run_one(config, phase, n, base, daemon_pid):
    kind, target, pythonpath = config["kind"], config["target"], config.get("pythonpath")
    env = dict(os.environ)
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    p = subprocess.Popen([sys.executable, __file__, "--worker", kind, "--target", target,
                          "--phase", phase, "--n", str(n), "--base", str(base)],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
    ready = p.stdout.readline().split()
    if not ready or ready[0] != "ready":
        p.kill()
        raise RuntimeError(f"{config['name']}: worker did not start")
    server_pid = daemon_pid if config["on_meridiand"] else int(ready[1])
    server0 = cpu_seconds(server_pid)
    p.stdin.write("go\n")
    p.stdin.flush()
    result = json.loads(p.stdout.readline())
    result["server"] = cpu_seconds(server_pid) - server0
    p.stdin.write("bye\n")
    p.stdin.flush()
    p.wait(timeout=60)
    return result


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--worker")
    ap.add_argument("--target")
    ap.add_argument("--phase")
    ap.add_argument("--base", type=int, default=0)
    ap.add_argument("--n", type=int, default=5000)
    ap.add_argument("--runs", type=int, default=2)
    ap.add_argument("--meridiand")
    ap.add_argument("--ref", action="append", default=[],
                    help="also measure the driver of this git revision (e.g. main)")
    ap.add_argument("--grpc-port", type=int, default=31511)
    ap.add_argument("--pg-port", type=int, default=31512)
    ap.add_argument("--pg-dsn", default="host=/tmp port=55432 user=postgres dbname=postgres")
    args = ap.parse_args()
    if args.worker:
        return worker(args.worker, args.target, args.phase, args.n, args.base)

    tmp = tempfile.mkdtemp(prefix="meridian-benchpy.")
    daemon = None
    try:
        log = open(os.path.join(tmp, "meridiand.log"), "wb")
        daemon = subprocess.Popen([args.meridiand, "--data-dir", os.path.join(tmp, "data"),
                                   "--grpc-listen", f"127.0.0.1:{args.grpc_port}",
                                   "--pg-listen", f"127.0.0.1:{args.pg_port}",
                                   "--log-level", "warn"], stdout=log, stderr=log)
        grpc_target = f"127.0.0.1:{args.grpc_port}"
        this_tree = os.path.join(ROOT, "client", "python")
        if not os.path.exists(os.path.join(this_tree, "meridian", "_proto", "meridian_pb2.py")):
            make_stubs(this_tree)
        configs = [{"name": f"meridian driver ({ref}), gRPC", "kind": "meridian",
                    "target": grpc_target, "pythonpath": driver_from_ref(ref, tmp),
                    "on_meridiand": True} for ref in args.ref]
        configs += [
            {"name": "meridian driver (this tree), gRPC", "kind": "meridian",
             "target": grpc_target, "pythonpath": this_tree, "on_meridiand": True},
            {"name": "psycopg 3, meridiand PG listener", "kind": "psycopg",
             "target": f"host=127.0.0.1 port={args.pg_port} user=meridian dbname=meridian",
             "on_meridiand": True},
            {"name": "psycopg 3, PostgreSQL 15", "kind": "psycopg", "target": args.pg_dsn,
             "on_meridiand": False},
        ]
        time.sleep(1.0)  # meridiand listening
        with __import__("psycopg").connect(args.pg_dsn, autocommit=True) as pg:
            pg.execute("DROP TABLE IF EXISTS bench_py")
        print(f"before: {uptime()}", flush=True)
        totals = {}
        base = 0
        for _ in range(args.runs):
            for config in configs:
                for phase in ("select", "insert"):
                    base += 10 * (args.n + WARMUP)
                    r = run_one(config, phase, args.n, base, daemon.pid)
                    key = (config["name"], phase)
                    totals.setdefault(key, []).append(r)
        print(f"after: {uptime()}\n", flush=True)
        pg_wall = {phase: min(r["wall"] for r in totals[(configs[-1]["name"], phase)])
                   for phase in ("select", "insert")}
        print(f"N = {args.n} per loop, best of {args.runs} runs (wall); CPU: mean per request\n")
        print("| configuration | loop | wall s (runs) | µs/request | client CPU µs | "
              "server CPU µs | PostgreSQL wall / this |")
        print("|---|---|---:|---:|---:|---:|---:|")
        for (name, phase), rs in totals.items():
            best = min(r["wall"] for r in rs)
            walls = " / ".join(f"{r['wall']:.2f}" for r in rs)
            client = sum(r["cpu"] for r in rs) / len(rs) / args.n * 1e6
            server = sum(r["server"] for r in rs) / len(rs) / args.n * 1e6
            print(f"| {name} | {phase} | {walls} | {best / args.n * 1e6:.0f} | {client:.0f} | "
                  f"{server:.0f} | {pg_wall[phase] / best:.2f}x |")
    finally:
        if daemon is not None:
            daemon.terminate()
            daemon.wait(timeout=30)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
