#!/usr/bin/env python3
# Commit throughput, write volume per commit and recovery time of meridiand, side by side with
# PostgreSQL 15 on the same machine (tests/bench/RESULTS.md). Standard library only; needs
# meridiand ($MERIDIAND or --meridiand), Debian's pgbench/psql and PostgreSQL 15's server
# binaries (/usr/lib/postgresql/15/bin; started as user postgres when run as root).
#
#   bench_commit.py [--seconds 8] [--clients 1,16,256] [--recovery-mb 100,1000] [--smoke]
#   BENCH_PORTS=LOW-HIGH in the environment keeps the servers' ports in that range.
#
# 1. Single-row update transactions (pgbench -M prepared, one UPDATE by primary key on a
#    16,384-row table per transaction) at each client count, in each commit mode:
#    meridiand --commit-mode sync|async vs PostgreSQL synchronous_commit on|off. Reported:
#    transactions/s and bytes written per commit (the server processes' write_bytes from
#    /proc/PID/io over the run, divided by the committed transactions), and Meridian/PostgreSQL.
# 2. Footprint under nonstop updates (garbage collection keeps it bounded).
# 3. Recovery time against data size: meridiand loaded with about N MB of rows, a burst of
#    updates, SIGKILL, then the time from the restart until the first query answers.
import argparse
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

PG_BIN = "/usr/lib/postgresql/15/bin"
ROWS = 16384


_port_range = None


def free_port():
    """A free port: the kernel's choice, or the next free one of BENCH_PORTS=LOW-HIGH."""
    global _port_range
    spec = os.environ.get("BENCH_PORTS")
    if spec:
        if _port_range is None:
            low, high = (int(p) for p in spec.split("-"))
            _port_range = iter(range(low, high + 1))
        for port in _port_range:
            with socket.socket() as s:
                try:
                    s.bind(("127.0.0.1", port))
                    return port
                except OSError:
                    continue
        raise RuntimeError(f"no free port left in BENCH_PORTS={spec}")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port, proc, timeout=120):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.02)
    raise RuntimeError("server did not start")


def psql(port, user, sql, db):
    out = subprocess.run(["psql", "-h", "127.0.0.1", "-p", str(port), "-U", user, "-d", db, "-X",
                          "-q", "-t", "-A", "-v", "ON_ERROR_STOP=1", "-c", sql],
                         capture_output=True, text=True, timeout=3600)
    if out.returncode != 0:
        raise RuntimeError(f"psql failed: {out.stderr}")
    return out.stdout.strip()


def child_pids(root_pid):
    """The processes whose parent is root_pid (PostgreSQL's backends and helpers)."""
    pids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    if int(f.read().rsplit(")", 1)[1].split()[1]) == root_pid:
                        pids.append(int(entry))
            except (OSError, ValueError, IndexError):
                pass
    return pids


def tree_write_bytes(root_pid):
    """write_bytes of root_pid and its children."""
    pids = [root_pid] + child_pids(root_pid)
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/io") as f:
                for line in f:
                    if line.startswith("write_bytes:"):
                        total += int(line.split()[1])
        except OSError:
            pass
    return total


class Meridian:
    name = "meridiand"

    # extra_args: more meridiand flags, e.g. ("--buffer-pool-mb", "2048").
    def __init__(self, binary, mode, extra_args=()):
        self.binary, self.mode, self.extra_args = binary, mode, list(extra_args)
        self.dir = tempfile.mkdtemp(prefix="bench-commit-m.")
        self.user, self.db = "meridian", "meridian"

    def start(self):
        self.port = free_port()
        self.proc = subprocess.Popen(
            [self.binary, "--data-dir", self.dir + "/data", "--grpc-listen",
             f"127.0.0.1:{free_port()}", "--pg-listen", f"127.0.0.1:{self.port}",
             "--commit-mode", self.mode, "--log-level", "warn"] + self.extra_args,
            stdout=subprocess.DEVNULL, stderr=open(self.dir + "/log", "ab"))
        wait_port(self.port, self.proc)
        return self

    def pid(self):
        return self.proc.pid

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        self.proc.wait(timeout=120)

    def cleanup(self):
        shutil.rmtree(self.dir, ignore_errors=True)


class Postgres:
    name = "PostgreSQL 15"

    # settings: extra "name=value" server settings (-c), e.g. max_parallel_workers_per_gather=0.
    def __init__(self, synchronous, settings=()):
        self.synchronous = synchronous
        self.settings = "".join(f" -c {s}" for s in settings)
        self.dir = tempfile.mkdtemp(prefix="bench-commit-pg.")
        os.chmod(self.dir, 0o777)
        self.user, self.db = "postgres", "postgres"
        self.as_postgres = os.geteuid() == 0

    def run(self, args):
        if self.as_postgres:
            args = ["su", "postgres", "-c", " ".join(args)]
        subprocess.run(args, check=True, capture_output=True, timeout=600)

    def start(self):
        self.port = free_port()
        data = self.dir + "/data"
        if not os.path.exists(data):
            self.run([f"{PG_BIN}/initdb", "-D", data, "-A", "trust"])
        sync = "on" if self.synchronous else "off"
        self.run([f"{PG_BIN}/pg_ctl", "-D", data, "-l", self.dir + "/log", "-o",
                  f"'-p {self.port} -k /tmp -c max_connections=300 -c synchronous_commit={sync}"
                  f"{self.settings}'",
                  "-w", "start"])
        with open(data + "/postmaster.pid") as f:
            self._pid = int(f.readline())
        return self

    def pid(self):
        return self._pid

    def stop(self):
        self.run([f"{PG_BIN}/pg_ctl", "-D", self.dir + "/data", "-m", "fast", "-w", "stop"])

    def cleanup(self):
        shutil.rmtree(self.dir, ignore_errors=True)


def stop_and_remove(servers):
    """Stops every server (a failure is reported, not raised) and removes its directory."""
    for server in servers:
        try:
            server.stop()
        except Exception as e:  # noqa: BLE001 - still remove the data directories
            print(f"{server.name}: stop failed: {e}", file=sys.stderr)
        server.cleanup()


def setup_table(server):
    psql(server.port, server.user, "CREATE TABLE bench_accounts (aid INTEGER PRIMARY KEY, "
         "abalance INTEGER NOT NULL)", server.db)
    psql(server.port, server.user, "INSERT INTO bench_accounts VALUES (1, 0)", server.db)
    n = 1
    while n < ROWS:
        psql(server.port, server.user, f"INSERT INTO bench_accounts SELECT aid + {n}, abalance "
             f"FROM bench_accounts", server.db)
        n *= 2


def pgbench(server, clients, seconds, script):
    args = ["pgbench", "-h", "127.0.0.1", "-p", str(server.port), "-U", server.user, "-n",
            "-M", "prepared", "-T", str(seconds), "-c", str(clients), "-j", "2", "-f", script,
            server.db]
    before = tree_write_bytes(server.pid())
    out = subprocess.run(args, capture_output=True, text=True, timeout=seconds * 10 + 120)
    written = tree_write_bytes(server.pid()) - before
    if out.returncode != 0:
        raise RuntimeError(f"pgbench failed: {out.stderr[-2000:]}")
    tps = float(re.search(r"tps = ([0-9.]+)", out.stdout).group(1))
    txns = int(re.search(r"number of transactions actually processed: (\d+)", out.stdout).group(1))
    failed = re.search(r"number of failed transactions: (\d+)", out.stdout)
    return tps, written / max(txns, 1), int(failed.group(1)) if failed else 0


def throughput(args, script):
    rows = []
    for mode, pg_sync in (("sync", True), ("async", False)):
        results = {}
        for server in (Meridian(args.meridiand, mode), Postgres(pg_sync)):
            try:
                server.start()
                setup_table(server)
                for c in args.clients:
                    results[(server.name, c)] = pgbench(server, c, args.seconds, script)
                server.stop()
            finally:
                server.cleanup()
        for c in args.clients:
            m, p = results[("meridiand", c)], results[("PostgreSQL 15", c)]
            rows.append((mode, c, m, p))
            print(f"{mode:5} {c:4} clients: meridiand {m[0]:9.0f} tps {m[1]:8.0f} B/commit "
                  f"(failed {m[2]}) | PostgreSQL {p[0]:9.0f} tps {p[1]:8.0f} B/commit | "
                  f"ratio {m[0] / p[0]:.2f}x", flush=True)
    print("\n| commit mode | clients | meridiand tx/s | PostgreSQL 15 tx/s | ratio | meridiand "
          "bytes/commit | PostgreSQL bytes/commit |")
    print("|---|---|---|---|---|---|---|")
    for mode, c, m, p in rows:
        pg_mode = "synchronous_commit=on" if mode == "sync" else "synchronous_commit=off"
        print(f"| {mode} / {pg_mode} | {c} | {m[0]:.0f} | {p[0]:.0f} | {m[0] / p[0]:.2f}x | "
              f"{m[1]:.0f} | {p[1]:.0f} |")


def recovery(args, script):
    print("\n| data dir | rows | load time | restart after SIGKILL until first query | "
          "what recovery did (meridiand's log) |")
    print("|---|---|---|---|---|")
    for mb in args.recovery_mb:
        server = Meridian(args.meridiand, "sync")
        try:
            server.start()
            # ~120 bytes per row on disk (tuple, slot, index entry).
            target_rows = max(1024, mb * 1024 * 1024 // 120)
            t0 = time.monotonic()
            psql(server.port, server.user, "CREATE TABLE big (id INTEGER PRIMARY KEY, v INTEGER, "
                 "filler TEXT)", server.db)
            psql(server.port, server.user, "INSERT INTO big VALUES (1, 0, repeat('x', 60))",
                 server.db)
            n = 1
            while n < target_rows:
                step = min(n, target_rows - n)
                psql(server.port, server.user, f"INSERT INTO big SELECT id + {n}, v, filler FROM "
                     f"big WHERE id <= {step}", server.db)
                n += step
            load_s = time.monotonic() - t0
            # Two background checkpoints: the load overflows the buffer pool, so the first may
            # flush the index plainly (too many dirty pages for one image, docs/txn.md
            # section 5); the next one images what is left.
            time.sleep(12)
            # A burst of committed updates, then the crash in the middle of more.
            bench = subprocess.Popen(["pgbench", "-h", "127.0.0.1", "-p", str(server.port), "-U",
                                      server.user, "-n", "-M", "prepared", "-T", "30", "-c", "16",
                                      "-j", "2", "-f", script, server.db],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            time.sleep(3)
            size = sum(os.path.getsize(os.path.join(r, f))
                       for r, _, fs in os.walk(server.dir + "/data") for f in fs)
            server.proc.send_signal(signal.SIGKILL)
            server.proc.wait()
            bench.wait()
            t0 = time.monotonic()
            server.start()
            psql(server.port, server.user, "SELECT 1", server.db)
            ready = time.monotonic() - t0
            count = psql(server.port, server.user, "SELECT count(*) FROM big", server.db)
            with open(server.dir + "/log", errors="replace") as f:
                lines = [l for l in f if "recovered after an unclean stop" in l]
            did = lines[-1].split("recovered after an unclean stop", 1)[1].strip(" :\n") \
                if lines else "?"
            print(f"| {size / 1e6:.0f} MB | {count} | {load_s:.0f} s | {ready:.2f} s | {did} |",
                  flush=True)
            server.stop()
        finally:
            server.cleanup()


def footprint(args, script):
    """Garbage collection: data files of a 16,384-row table under nonstop updates."""
    server = Meridian(args.meridiand, "sync")
    try:
        server.start()
        setup_table(server)
        sizes = []
        for _ in range(args.footprint_rounds):
            subprocess.run(["pgbench", "-h", "127.0.0.1", "-p", str(server.port), "-U",
                            server.user, "-n", "-M", "prepared", "-T", str(args.seconds), "-c",
                            "16", "-j", "2", "-f", script, server.db],
                           capture_output=True, timeout=args.seconds * 10 + 60, check=True)
            time.sleep(6)  # one background checkpoint (and garbage collection pass)
            size = sum(os.path.getsize(os.path.join(r, f))
                       for r, _, fs in os.walk(server.dir + "/data/tables") for f in fs)
            sizes.append(size)
            print(f"footprint after {len(sizes) * args.seconds} s of updates: "
                  f"{size / 1e6:.2f} MB of table files", flush=True)
        server.stop()
        return sizes
    finally:
        server.cleanup()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--meridiand", default=os.environ.get("MERIDIAND", "build/bin/meridiand"))
    ap.add_argument("--seconds", type=int, default=8)
    ap.add_argument("--clients", default="1,16,256")
    ap.add_argument("--recovery-mb", default="100,1000")
    ap.add_argument("--footprint-rounds", type=int, default=6)
    ap.add_argument("--skip-throughput", action="store_true")
    ap.add_argument("--smoke", action="store_true", help="1 s runs, 1 and 4 clients, 5 MB")
    args = ap.parse_args()
    if args.smoke:
        args.seconds, args.clients, args.recovery_mb = 1, "1,4", "5"
        args.footprint_rounds = 1
    args.clients = [int(c) for c in args.clients.split(",")]
    args.recovery_mb = [int(m) for m in args.recovery_mb.split(",") if m]
    with tempfile.NamedTemporaryFile("w", suffix=".sql", delete=False) as f:
        f.write(f"\\set aid random(1, {ROWS})\n"
                "UPDATE bench_accounts SET abalance = abalance + 1 WHERE aid = :aid;\n")
        script = f.name
    with tempfile.NamedTemporaryFile("w", suffix=".sql", delete=False) as f:
        f.write("\\set id random(1, 1000)\nUPDATE big SET v = v + 1 WHERE id = :id;\n")
        big_script = f.name
    os.chmod(script, 0o644)
    try:
        print(f"machine: {os.cpu_count()} cores; {args.seconds} s per run; pgbench -M prepared "
              f"-j 2 on the same cores", flush=True)
        if not args.skip_throughput:
            throughput(args, script)
        if args.footprint_rounds > 0:
            footprint(args, script)
        if args.recovery_mb:
            recovery(args, big_script)
    finally:
        os.unlink(script)
        os.unlink(big_script)


if __name__ == "__main__":
    sys.exit(main())
