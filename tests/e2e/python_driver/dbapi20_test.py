# Stuart Bishop's DB-API 2.0 compliance suite (PyPI dbapi-compliance, module dbapi20), unmodified,
# against the Python driver and a real meridiand. As the suite asks, a driver's subclass names
# the module and connect arguments and overrides the two tests it leaves to drivers:
# test_nextset (no stored procedures here: a two-statement execute gives the two result sets)
# and test_setoutputsize (a no-op: results are streamed in bounded chunks), and tearDown, which
# the suite invites drivers to override: its default drops both tables in one transaction, so
# when the first is missing the error aborts the transaction (25P02, as in PostgreSQL) and the
# second table is left behind for the next test; here each drop runs in autocommit.
import unittest

import dbapi20
import meridian
from driver_server import MeridianDaemon

daemon = None


def setUpModule():
    global daemon
    daemon = MeridianDaemon().start()
    MeridianDBAPI20Test.connect_kw_args = {"host": "127.0.0.1", "port": daemon.grpc_port}


def tearDownModule():
    code = daemon.stop()
    if code != 0:
        raise AssertionError(f"meridiand exited with {code}:\n{daemon.log()}")


class MeridianDBAPI20Test(dbapi20.DatabaseAPI20Test):
    driver = meridian
    connect_args = ()
    connect_kw_args = {}

    def tearDown(self):
        con = self._connect()
        try:
            con.autocommit = True
            cur = con.cursor()
            for table in ("booze", "barflys"):
                cur.execute(f"DROP TABLE IF EXISTS {self.table_prefix}{table}")
        finally:
            con.close()

    def test_nextset(self):
        con = self._connect()
        try:
            cur = con.cursor()
            self.executeDDL1(cur)
            for sql in self._populate():
                cur.execute(sql)
            cur.execute(f"select count(*) from {self.table_prefix}booze; "
                        f"select name from {self.table_prefix}booze")
            self.assertEqual(cur.fetchone()[0], len(self.samples))
            self.assertTrue(cur.nextset())
            self.assertEqual(len(cur.fetchall()), len(self.samples))
            self.assertIsNone(cur.nextset())
        finally:
            con.close()

    def test_setoutputsize(self):
        con = self._connect()
        try:
            cur = con.cursor()
            cur.setoutputsize(10, 0)
            self._paraminsert(cur)
        finally:
            con.close()


if __name__ == "__main__":
    unittest.main(verbosity=2)
