# The server under test for the transaction end-to-end tests: a fresh meridiand on free ports with
# a temporary data directory (../pg_clients/meridian_daemon.py, binary from $MERIDIAND), or, when
# $MERIDIAN_TEST_CONNINFO is set, an already running server (how the tests are checked against a
# real PostgreSQL). Standard library only; psycopg is imported by the tests themselves.
import os
import resource
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pg_clients"))
from meridian_daemon import MeridianDaemon  # noqa: E402

CONNINFO_ENV = "MERIDIAN_TEST_CONNINFO"


def external_conninfo():
    """The conninfo of an existing server to test instead of meridiand, or None."""
    return os.environ.get(CONNINFO_ENV) or None


def env_int(name, default):
    value = os.environ.get(name)
    return int(value) if value else default


class Server:
    """One server for a test module. start(), conninfo(), stop(); daemon is the MeridianDaemon
    (None against an external server)."""

    def __init__(self, extra_args=()):
        self.external = external_conninfo()
        self.daemon = None if self.external else MeridianDaemon(extra_args=extra_args)

    @property
    def is_meridian(self):
        return self.daemon is not None

    def start(self):
        if self.daemon is not None:
            self.daemon.start()
        return self

    def conninfo(self):
        return self.external if self.external else self.daemon.conninfo()

    def pid(self):
        return self.daemon.proc.pid if self.daemon is not None and self.daemon.alive() else None

    def stop(self):
        """Stops meridiand with SIGTERM and removes its directory; raises AssertionError with the
        log when it had died or did not exit with 0."""
        if self.daemon is None:
            return
        was_alive = self.daemon.alive()
        code = self.daemon.stop()
        log = self.daemon.log()
        self.daemon.__exit__(None, None, None)
        if not was_alive or code != 0:
            raise AssertionError(f"meridiand {'had died' if not was_alive else 'exited'} "
                                 f"with {code}:\n{log[-20000:]}")

    def mount_small_disk(self, size_mb):
        """Mounts a tmpfs of size_mb MiB as the daemon's data directory (before start). Returns
        (the data directory, None), or (None, why) where no tmpfs can be mounted (needs root);
        release_small_disk() undoes it."""
        data = os.path.join(self.daemon.dir, "data")
        os.makedirs(data, exist_ok=True)
        r = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size_mb}m", "tmpfs", data],
                           capture_output=True, text=True)
        if r.returncode != 0:
            shutil.rmtree(self.daemon.dir, ignore_errors=True)
            return None, r.stderr.strip()
        return data, None

    def release_small_disk(self, data):
        """Kills the daemon if it still runs, unmounts data and removes its directory."""
        if self.daemon.alive():
            self.daemon.kill()
        subprocess.run(["umount", "-l", data], capture_output=True)
        shutil.rmtree(self.daemon.dir, ignore_errors=True)


def proc_status_int(pid, field):
    """The first number of a line of /proc/PID/status ("VmRSS", "Threads")."""
    with open(f"/proc/{pid}/status", encoding="ascii") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise RuntimeError(f"no {field} for pid {pid}")


def rss_kib(pid):
    """VmRSS of a process in KiB, from /proc/PID/status."""
    return proc_status_int(pid, "VmRSS")


def raise_open_file_limit(needed):
    """Raises RLIMIT_NOFILE (soft, up to the hard limit) for this process and so for the daemon
    it starts; returns the new soft limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = needed if hard == resource.RLIM_INFINITY else min(needed, hard)
    if soft != resource.RLIM_INFINITY and soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]
