# The installed C++ client library as an application uses it: `cmake --install` of this build
# into a temporary prefix (component client), then client/examples configured with
# CMAKE_PREFIX_PATH=<prefix> (find_package(meridian CONFIG), meridian::client), built, and its
# program run against a real meridiand started with a users file and TLS (a self-signed
# certificate made by the openssl CLI). The example checks each of its own steps and exits 0
# only when all passed. Standard library only.
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pg_clients"))
from meridian_daemon import MeridianDaemon  # noqa: E402

CMAKE = os.environ.get("CMAKE_COMMAND", "cmake")
BUILD_DIR = os.environ.get("MERIDIAN_BUILD_DIR", "")
EXAMPLES = os.environ.get("MERIDIAN_EXAMPLES_DIR", "")


def run(args, **kw):
    result = subprocess.run(args, capture_output=True, text=True, timeout=540, **kw)
    if result.returncode != 0:
        raise AssertionError(f"{' '.join(args)} exited {result.returncode}:\n"
                             f"{result.stdout}\n{result.stderr}")
    return result


class InstalledClientTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="meridian-install.")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def test_example_builds_from_the_installed_package_and_runs(self):
        prefix = os.path.join(self.tmp, "prefix")
        run([CMAKE, "--install", BUILD_DIR, "--prefix", prefix, "--component", "client"])
        for f in ("include/meridian/client/connection.h", "include/meridian/client/transaction.h",
                  "lib/cmake/meridian/meridianConfig.cmake", "lib/libmeridian_client.a"):
            self.assertTrue(os.path.exists(os.path.join(prefix, f)), f)
        # The generated protobuf code stays hidden behind the public headers.
        self.assertFalse(any(name.endswith(".pb.h")
                             for _, _, files in os.walk(prefix) for name in files))

        build = os.path.join(self.tmp, "build")
        configure = [CMAKE, "-S", EXAMPLES, "-B", build, f"-DCMAKE_PREFIX_PATH={prefix}"]
        if os.environ.get("MERIDIAN_GENERATOR"):
            configure.append(f"-G{os.environ['MERIDIAN_GENERATOR']}")
        if os.environ.get("MERIDIAN_CXX"):
            configure.append(f"-DCMAKE_CXX_COMPILER={os.environ['MERIDIAN_CXX']}")
        if os.environ.get("MERIDIAN_SANITIZE", "").upper() in ("ON", "1", "TRUE"):
            # The installed library was compiled with the sanitizers: so must its user be.
            flags = "-fsanitize=address,undefined"
            configure += [f"-DCMAKE_CXX_FLAGS={flags}", f"-DCMAKE_EXE_LINKER_FLAGS={flags}"]
        run(configure)
        run([CMAKE, "--build", build, "-j", "2"])
        program = os.path.join(build, "inventory")
        self.assertTrue(os.access(program, os.X_OK))

        cert, key, users = (os.path.join(self.tmp, n) for n in ("cert.pem", "key.pem", "users"))
        run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj",
             "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
             "-keyout", key, "-out", cert])
        with open(users, "w") as f:
            f.write("inventory:example-pass\n")
        with MeridianDaemon(extra_args=["--users-file", users, "--tls-cert", cert,
                                        "--tls-key", key]) as daemon:
            args = [program, "--port", str(daemon.grpc_port), "--user", "inventory",
                    "--sslrootcert", cert, "--ssl-server-name", "localhost"]
            ok = subprocess.run(args, capture_output=True, text=True, timeout=120,
                                env=dict(os.environ, MERIDIAN_PASSWORD="example-pass"))
            print(ok.stdout)
            self.assertEqual(ok.returncode, 0, ok.stdout + ok.stderr + daemon.log())
            self.assertIn("over TLS", ok.stdout)
            self.assertIn("inventory: all steps ok", ok.stdout)
            bad = subprocess.run(args, capture_output=True, text=True, timeout=60,
                                 env=dict(os.environ, MERIDIAN_PASSWORD="wrong"))
            self.assertEqual(bad.returncode, 2)
            self.assertIn("28P01", bad.stderr)
            self.assertTrue(daemon.alive())


if __name__ == "__main__":
    unittest.main(verbosity=2)
