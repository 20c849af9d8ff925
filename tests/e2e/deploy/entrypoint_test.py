# deploy/docker-entrypoint.sh run directly on the host against the real meridiand (no Docker
# engine here): the first start creates the user from MERIDIAN_PASSWORD_FILE as a SCRAM
# verifier and runs the init files in order; a second start on the same volume runs none of
# them and keeps the password; a wrong password is refused (28P01); no password without
# MERIDIAN_AUTH=trust, or both MERIDIAN_PASSWORD and MERIDIAN_PASSWORD_FILE, stops the start;
# SIGTERM ends meridiand with exit 0. Passwords are checked over the PostgreSQL protocol with
# psycopg (gRPC sessions are not authenticated yet).
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import unittest

import psycopg

HERE = os.path.dirname(os.path.abspath(__file__))
ENTRYPOINT = os.path.normpath(os.path.join(HERE, "..", "..", "..", "deploy",
                                           "docker-entrypoint.sh"))
PASSWORD = "s3cret:with $pecial 'chars'"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class EntrypointTest(unittest.TestCase):
    def setUp(self):
        meridiand = os.environ.get("MERIDIAND", "")
        shell = os.environ.get("MERIDIAN_SHELL", "")
        for path in (meridiand, shell):
            if not os.access(path, os.X_OK):
                self.fail(f"set MERIDIAND and MERIDIAN_SHELL to the binaries (got {path!r})")
        self.dir = tempfile.mkdtemp(prefix="meridian-entrypoint.")
        self.bin = os.path.join(self.dir, "bin")
        os.mkdir(self.bin)
        os.symlink(meridiand, os.path.join(self.bin, "meridiand"))
        os.symlink(shell, os.path.join(self.bin, "meridian"))
        self.home = os.path.join(self.dir, "home")
        self.initdb = os.path.join(self.dir, "initdb")
        os.mkdir(self.initdb)
        self.runs = os.path.join(self.dir, "runs.log")  # one line per run of the .sh files
        self.write_init_files()
        self.secret = os.path.join(self.dir, "password")
        with open(self.secret, "w") as f:
            f.write(PASSWORD + "\n")  # a trailing newline, as `echo` leaves it, is dropped
        self.proc = None
        self.grpc_port, self.pg_port = free_port(), free_port()

    def tearDown(self):
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)

    def write_init_files(self):
        files = {
            "01-schema.sql": "CREATE TABLE city (id INTEGER PRIMARY KEY, name TEXT);\n"
                             "INSERT INTO city VALUES (1, 'Lyon'), (2, 'Porto');\n",
            # Executable: run as a program, reaching the temporary server through the shell.
            "02-seed.sh": "#!/bin/sh\nset -e\necho seed >> \"$RUNS_LOG\"\n"
                          "meridian -c \"INSERT INTO city VALUES (3, 'Graz')\"\n",
            # Not executable: sourced.
            "03-sourced.sh": "echo sourced >> \"$RUNS_LOG\"\n",
            "04-after.sql": "INSERT INTO city SELECT max(id) + 1, 'after' FROM city;\n",
            "notes.txt": "ignored\n",
        }
        for name, text in files.items():
            path = os.path.join(self.initdb, name)
            with open(path, "w") as f:
                f.write(text)
        os.chmod(os.path.join(self.initdb, "02-seed.sh"), 0o755)

    def env(self, **extra):
        env = {k: v for k, v in os.environ.items() if not k.startswith("MERIDIAN_")}
        env.update({
            "PATH": self.bin + os.pathsep + env.get("PATH", "/usr/bin:/bin"),
            "MERIDIAN_HOME": self.home,
            "MERIDIAN_INITDB_DIR": self.initdb,
            "MERIDIAN_GRPC_LISTEN": f"127.0.0.1:{self.grpc_port}",
            "MERIDIAN_PG_LISTEN": f"127.0.0.1:{self.pg_port}",
            "RUNS_LOG": self.runs,
        })
        env.update(extra)
        return env

    def start(self, **extra):
        """Runs the entrypoint as the image's CMD would; returns once meridiand accepts
        PostgreSQL connections (the init phase ran before that on the same ports)."""
        self.grpc_port, self.pg_port = free_port(), free_port()
        self.log = open(os.path.join(self.dir, "entrypoint.log"), "ab")
        self.proc = subprocess.Popen([ENTRYPOINT, "meridiand"], env=self.env(**extra),
                                     stdout=self.log, stderr=self.log)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            self.assertIsNone(self.proc.poll(), "entrypoint exited:\n" + self.read_log())
            if self.log_has("init files done") or not self.first_start_expected:
                try:
                    with psycopg.connect(**self.conninfo(PASSWORD), connect_timeout=2):
                        return
                except psycopg.OperationalError:
                    pass
            time.sleep(0.1)
        self.fail("meridiand did not come up:\n" + self.read_log())

    def stop(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                code = self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
                code = None
            self.proc = None
            self.log.close()
            return code
        return self.proc.returncode if self.proc is not None else None

    def read_log(self):
        with open(os.path.join(self.dir, "entrypoint.log"), errors="replace") as f:
            return f.read()

    def log_has(self, text):
        return text in self.read_log()

    def conninfo(self, password):
        return {"host": "127.0.0.1", "port": self.pg_port, "user": "meridian",
                "dbname": "meridian", "password": password, "sslmode": "disable"}

    def cities(self):
        with psycopg.connect(**self.conninfo(PASSWORD)) as conn:
            return conn.execute("SELECT id, name FROM city ORDER BY id").fetchall()

    def runs_logged(self):
        if not os.path.exists(self.runs):
            return []
        with open(self.runs) as f:
            return f.read().split()

    def test_first_start_runs_init_files_once(self):
        self.first_start_expected = True
        self.start(MERIDIAN_PASSWORD_FILE=self.secret)
        expected = [(1, "Lyon"), (2, "Porto"), (3, "Graz"), (4, "after")]
        self.assertEqual(self.cities(), expected)
        self.assertEqual(self.runs_logged(), ["seed", "sourced"])
        self.assertIn("ignoring " + os.path.join(self.initdb, "notes.txt"), self.read_log())
        # The users file holds a SCRAM verifier, never the password itself.
        with open(os.path.join(self.home, "users")) as f:
            users = f.read()
        self.assertIn("meridian:SCRAM-SHA-256$4096:", users)
        self.assertNotIn(PASSWORD, users)
        self.assertEqual(os.stat(os.path.join(self.home, "users")).st_mode & 0o077, 0)
        with self.assertRaises(psycopg.OperationalError) as e:
            psycopg.connect(**self.conninfo("wrong password"))
        # libpq reports a refused startup without a sqlstate; the server's message says 28P01.
        self.assertIn('password authentication failed for user "meridian"', str(e.exception))
        self.assertEqual(self.stop(), 0)  # SIGTERM: graceful shutdown

        # Second start on the same home: no init file runs again; the old password still works
        # even though another one is offered now (it is only used when the file is created).
        self.first_start_expected = False
        self.start(MERIDIAN_PASSWORD="a different one")
        self.assertEqual(self.cities(), expected)
        self.assertEqual(self.runs_logged(), ["seed", "sourced"])
        self.assertIn("is used only when it is first created", self.read_log())
        self.assertEqual(self.stop(), 0)

    def run_to_exit(self, **extra):
        self.grpc_port, self.pg_port = free_port(), free_port()
        return subprocess.run([ENTRYPOINT, "meridiand"], env=self.env(**extra),
                              capture_output=True, text=True, timeout=60)

    def test_refuses_to_start_without_a_password(self):
        r = self.run_to_exit()
        self.assertEqual(r.returncode, 1)
        self.assertIn("MERIDIAN_PASSWORD", r.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.home, "data")))

    def test_refuses_password_and_password_file_together(self):
        r = self.run_to_exit(MERIDIAN_PASSWORD="x", MERIDIAN_PASSWORD_FILE=self.secret)
        self.assertEqual(r.returncode, 1)
        self.assertIn("both MERIDIAN_PASSWORD and MERIDIAN_PASSWORD_FILE", r.stderr)

    def test_failing_init_file_stops_the_start(self):
        with open(os.path.join(self.initdb, "03-bad.sql"), "w") as f:
            f.write("CREATE TABLE city (id INTEGER);\n")  # exists already: 42P07
        r = self.run_to_exit(MERIDIAN_PASSWORD="pw")
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertIn("03-bad.sql failed", r.stderr)

    def test_other_commands_run_as_given(self):
        r = subprocess.run([ENTRYPOINT, "sh", "-c", "echo hello"], env=self.env(),
                           capture_output=True, text=True, timeout=30)
        self.assertEqual((r.returncode, r.stdout), (0, "hello\n"))


if __name__ == "__main__":
    unittest.main(verbosity=2)
