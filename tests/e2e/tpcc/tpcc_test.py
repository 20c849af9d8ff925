# meridian-tpcc against a real meridiand (tools/tpcc): one warehouse loaded once, then in order
# (1) a 20 s run with 8 terminals over gRPC and a short one over the PostgreSQL protocol, each
# followed by the twelve consistency checks; (2) two terminals on one district at REPEATABLE
# READ, where first-updater-wins must surface as retried 40001s, never as errors; (3) kill -9 of
# meridiand in the middle of a run, restart on the same data directory: the terminals
# reconnect, the checks pass and no acknowledged New-Order is lost; (4) the checks do fail on a
# damaged database. Standard library and psql.
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pg_clients"))
from meridian_daemon import MeridianDaemon  # noqa: E402

TPCC = os.environ.get("MERIDIAN_TPCC", "")
INITIAL_ORDERS = 30000  # 10 districts x 3000 orders per warehouse after the load


def env_float(name, default):
    value = os.environ.get(name)
    return float(value) if value else default


RUN_SECONDS = env_float("MERIDIAN_TPCC_SECONDS", 20)


class TpccTest(unittest.TestCase):
    daemon = None
    tmp = None

    @classmethod
    def setUpClass(cls):
        if not TPCC or not os.access(TPCC, os.X_OK):
            raise RuntimeError(f"meridian-tpcc not found (set MERIDIAN_TPCC): {TPCC!r}")
        cls.tmp = tempfile.mkdtemp(prefix="meridian-tpcc-test.")
        cls.daemon = MeridianDaemon().start()
        out = cls.tpcc("load", "--warehouses", "1", "--threads", "3", timeout=300)
        assert "load: 1 warehouse(s)" in out, out

    @classmethod
    def tearDownClass(cls):
        if cls.daemon is not None:
            log = cls.daemon.log()
            alive = cls.daemon.alive()
            code = cls.daemon.stop()
            cls.daemon.__exit__(None, None, None)
            if not alive or code != 0:
                print(log[-5000:], file=sys.stderr)
        if cls.tmp is not None:
            shutil.rmtree(cls.tmp, ignore_errors=True)

    @classmethod
    def tpcc(cls, command, *args, driver="grpc", expect=(0,), timeout=240):
        port = cls.daemon.grpc_port if driver == "grpc" else cls.daemon.pg_port
        cmd = [TPCC, command, "--driver", driver, "--port", str(port), "--no-progress", *args]
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        out = p.stdout + p.stderr
        print(f"$ {' '.join(cmd)}\n{out}", flush=True)
        if p.returncode not in expect:
            raise AssertionError(f"exit {p.returncode} (expected {expect}):\n{out}")
        return out

    def run_json(self, name, *args, driver="grpc", expect=(0,)):
        path = os.path.join(self.tmp, name + ".json")
        out = self.tpcc("run", "--warehouses", "1", "--json", path, *args, driver=driver,
                        expect=expect)
        with open(path, encoding="utf-8") as f:
            return json.load(f), out

    def assert_checks_pass(self, driver="grpc"):
        out = self.tpcc("check", driver=driver)
        self.assertIn("check: 12 of 12 conditions passed", out)
        self.assertEqual(out.count("[PASS]"), 12, out)

    def psql(self, sql):
        p = subprocess.run(["psql", "-X", "-At", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p",
                            str(self.daemon.pg_port), "-U", "meridian", "meridian", "-c", sql],
                           capture_output=True, text=True, timeout=60, check=True)
        return p.stdout.strip()

    def count_orders(self):
        return int(self.psql("SELECT count(*) FROM orders"))

    def test_1_run_grpc_then_pg(self):
        self.assert_checks_pass()  # the freshly loaded database
        before = self.count_orders()
        result, out = self.run_json("grpc", "--terminals", "8", "--duration", str(RUN_SECONDS),
                                    "--report-interval", "5")
        self.assertEqual(result["errors"], 0, result["error_samples"])
        tx = result["transactions"]
        for name in ("new_order", "payment", "order_status", "delivery", "stock_level"):
            self.assertGreater(tx[name]["count"], 0, name)
            lat = tx[name]["latency_ms"]
            self.assertTrue(0 < lat["p50"] <= lat["p90"] <= lat["p95"] <= lat["p99"] <= lat["max"],
                            (name, lat))
        self.assertAlmostEqual(result["tpmC"], tx["new_order"]["count"] * 60 / RUN_SECONDS,
                               delta=0.01)
        # The deck deals 45 New-Orders per 100 transactions.
        total = sum(t["count"] for t in tx.values())
        self.assertGreater(total, 100)
        self.assertAlmostEqual(tx["new_order"]["count"] / total, 0.45, delta=0.05)
        self.assertGreaterEqual(out.count("] tpmC"), 3, "periodic lines")
        # Every acknowledged New-Order is in the database (rolled-back ones are not).
        self.assertEqual(self.count_orders() - before, result["new_orders_committed"])
        self.assert_checks_pass()

        pg, out = self.run_json("pg", "--terminals", "4", "--duration", "5", "--compare",
                                os.path.join(self.tmp, "grpc.json"), driver="pg")
        self.assertEqual(pg["errors"], 0, pg["error_samples"])
        self.assertGreater(pg["transactions"]["new_order"]["count"], 0)
        self.assertIn("compared with", out)
        self.assert_checks_pass(driver="pg")

    def test_2_conflicts_are_retried(self):
        result, _ = self.run_json("conflict", "--one-district", "--terminals", "2",
                                  "--isolation", "repeatable-read", "--duration", "8")
        self.assertEqual(result["errors"], 0, result["error_samples"])
        self.assertGreater(result["retries"], 0, "two terminals on one district never conflicted")
        self.assertGreater(result["transactions"]["new_order"]["count"], 0)
        self.assert_checks_pass()

    def test_3_kill_mid_run(self):
        before = self.count_orders()
        path = os.path.join(self.tmp, "crash.json")
        port = str(self.daemon.grpc_port)
        run = subprocess.Popen([TPCC, "run", "--port", port, "--warehouses", "1", "--terminals",
                                "8", "--duration", "15", "--report-interval", "3", "--json",
                                path], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        time.sleep(5)
        self.daemon.kill()
        time.sleep(1)
        self.daemon.restart()
        out, _ = run.communicate(timeout=240)
        print(out, flush=True)
        self.assertIn(run.returncode, (0, 1), out)
        with open(path, encoding="utf-8") as f:
            result = json.load(f)
        self.assertGreater(result["reconnects"], 0, "the terminals never saw the crash")
        committed = result["new_orders_committed"]
        self.assertGreater(committed, 0)
        self.assertLessEqual(committed, self.count_orders() - before, "an acknowledged New-Order was lost")
        self.assert_checks_pass()

    def test_4_check_catches_damage(self):
        """The checks can fail: one warehouse's W_YTD off by a cent breaks conditions 1 and 8
        only; a deleted NEW-ORDER row breaks 5 and 11 (and 2 or 3 by where it was)."""
        self.psql("UPDATE warehouse SET w_ytd = w_ytd + 0.01 WHERE w_id = 1")
        out = self.tpcc("check", expect=(1,))
        failed = sorted(int(line.split()[1]) for line in out.splitlines() if "[FAIL]" in line)
        self.assertEqual(failed, [1, 8], out)
        self.assertIn("check: 10 of 12 conditions passed", out)
        self.psql("UPDATE warehouse SET w_ytd = w_ytd - 0.01 WHERE w_id = 1")
        self.psql("DELETE FROM new_order WHERE no_w_id = 1 AND no_d_id = 4 AND no_o_id = "
                  "(SELECT max(no_o_id) FROM new_order WHERE no_w_id = 1 AND no_d_id = 4) - 5")
        out = self.tpcc("check", expect=(1,))
        failed = sorted(int(line.split()[1]) for line in out.splitlines() if "[FAIL]" in line)
        self.assertEqual(failed, [3, 5, 11], out)


if __name__ == "__main__":
    unittest.main(verbosity=2)
