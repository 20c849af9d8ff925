# Starts a real meridiand for the PostgreSQL client tests: free loopback ports for gRPC and the
# PostgreSQL listener, a temporary data directory, ready when the PostgreSQL port accepts TCP;
# stopped with SIGTERM (SIGKILL if it hangs) and cleaned up. For crash tests: kill() (SIGKILL,
# data directory kept) and restart() (same data directory, same ports). Standard library only.
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class MeridianDaemon:
    """meridiand on free ports; use as a context manager. Path from $MERIDIAND or the argument."""

    def __init__(self, binary=None, extra_args=()):
        self.binary = binary or os.environ.get("MERIDIAND", "")
        if not self.binary or not os.access(self.binary, os.X_OK):
            raise RuntimeError(f"meridiand not found (set MERIDIAND): {self.binary!r}")
        self.extra_args = list(extra_args)
        self.dir = tempfile.mkdtemp(prefix="meridian-pgclients.")
        self.log_path = os.path.join(self.dir, "meridiand.log")
        self.proc = None
        self.pg_port = 0
        self.grpc_port = 0
        # time.monotonic() of the last spawn and of the first accepted TCP connection after it.
        self.spawned_at = None
        self.accepting_at = None

    def start(self):
        for _ in range(3):  # a port taken between picking and binding: try again
            self.pg_port = free_port()
            self.grpc_port = free_port()
            if self._spawn(30):
                return self
            self._kill()
        raise RuntimeError("meridiand did not start:\n" + self.log())

    def _spawn(self, timeout):
        """Starts meridiand on self.dir/data and the current ports; True once the PostgreSQL
        port accepts TCP, False when the process exits or the timeout passes first."""
        args = [self.binary, "--data-dir", os.path.join(self.dir, "data"),
                "--grpc-listen", f"127.0.0.1:{self.grpc_port}",
                "--pg-listen", f"127.0.0.1:{self.pg_port}"] + self.extra_args
        log = open(self.log_path, "ab")
        self.accepting_at = None
        self.spawned_at = time.monotonic()
        self.proc = subprocess.Popen(args, stdout=log, stderr=log, stdin=subprocess.DEVNULL)
        log.close()
        deadline = self.spawned_at + timeout
        while time.monotonic() < deadline and self.proc.poll() is None:
            try:
                with socket.create_connection(("127.0.0.1", self.pg_port), timeout=1):
                    self.accepting_at = time.monotonic()
                    return True
            except OSError:
                time.sleep(0.02)
        return False

    def kill(self):
        """SIGKILL (a crash: nothing is flushed) and wait; returns the exit code. The data
        directory is kept for restart()."""
        self._kill()
        return self.proc.returncode if self.proc is not None else None

    def restart(self, timeout=60):
        """Starts meridiand again on the same data directory and the same ports, after stop()
        or kill(); returns self once the PostgreSQL port accepts TCP (recovery may still be
        running behind it). Raises RuntimeError with the log when it does not come up."""
        if self.alive():
            raise RuntimeError("restart() of a running meridiand")
        if self._spawn(timeout):
            return self
        self._kill()
        raise RuntimeError("meridiand did not restart:\n" + self.log())

    def log(self):
        try:
            with open(self.log_path, encoding="utf-8", errors="replace") as f:
                return f.read()
        except OSError:
            return ""

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def _kill(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    def stop(self):
        """SIGTERM and wait; returns the exit code."""
        code = None
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                code = self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self._kill()
        elif self.proc is not None:
            code = self.proc.returncode
        return code

    def conninfo(self, user="meridian", dbname="meridian"):
        return f"host=127.0.0.1 port={self.pg_port} user={user} dbname={dbname}"

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)
