"""Resource limits from outside, over the PostgreSQL protocol:

  - a sort bigger than the memory limit spills to temporary files and finishes below it;
  - so does a GROUP BY of three million text groups (hash aggregation spills);
  - a statement that needs more memory than --memory-limit-mb (a string_agg of ten million
    texts: one value of a gigabyte) fails with 53200 instead of the daemon being killed, and the next
    statements run again once the memory is given back;
  - a SQL text longer than --max-statement-bytes fails with 54000 and costs no memory;
  - a statement_timeout stops a long statement with 57014 within a second of its deadline;
  - a 512 KB identifier is cut to 63 bytes with PostgreSQL's NOTICE (quoting at most 256 bytes).

The daemon must be alive and answering at the end; its peak resident size is printed."""
import sys
import time

import psycopg

from txn_server import Server, rss_kib

LIMIT_MB = 400


def main():
    server = Server(extra_args=["--memory-limit-mb", str(LIMIT_MB),
                                "--max-statement-bytes", str(1 << 20)])
    if not server.is_meridian:
        print("SKIP: limits_test runs only against meridiand")
        return 77
    server.start()
    try:
        conn = psycopg.connect(server.conninfo(), autocommit=True)
        pid = server.pid()
        # 1. Memory: a sort of ten million rows with text (gigabytes in memory) spills to
        # temporary files beyond work_mem and finishes below the limit.
        started = time.monotonic()
        with conn.cursor() as cur:
            cur.execute("SELECT count(*), max(pad) FROM (SELECT g, repeat('x', 100) || g AS pad "
                        "FROM generate_series(1, 3000000) g ORDER BY pad DESC) s")
            assert cur.fetchone() == (3000000, "x" * 100 + "999999")
        sorted_mb = rss_kib(pid) // 1024
        print(f"3,000,000-row sort done in {time.monotonic() - started:.2f} s; "
              f"resident {sorted_mb} MiB")
        assert sorted_mb < LIMIT_MB, f"the external sort held {sorted_mb} MiB"
        # A GROUP BY of three million text groups spills beyond work_mem too.
        started = time.monotonic()
        with conn.cursor() as cur:
            cur.execute("SELECT count(*) FROM (SELECT repeat('x', 100) || g AS pad "
                        "FROM generate_series(1, 3000000) g GROUP BY pad) s")
            assert cur.fetchone() == (3000000,)
        grouped_mb = rss_kib(pid) // 1024
        print(f"3,000,000-group aggregate done in {time.monotonic() - started:.2f} s; "
              f"resident {grouped_mb} MiB")
        assert grouped_mb < LIMIT_MB, f"the hash aggregate held {grouped_mb} MiB"
        # One aggregate value a gigabyte long cannot spill: string_agg of ten million texts.
        started = time.monotonic()
        try:
            with conn.cursor() as cur:
                cur.execute("SELECT length(string_agg(repeat('x', 100) || g, ',')) "
                            "FROM generate_series(1, 10000000) g")
                raise AssertionError(f"the string_agg finished: {cur.fetchone()}")
        except psycopg.Error as e:
            assert e.sqlstate == "53200", f"expected 53200, got {e.sqlstate}: {e}"
        peak_mb = rss_kib(pid) // 1024
        print(f"53200 after {time.monotonic() - started:.2f} s; resident now {peak_mb} MiB")
        deadline = time.monotonic() + 20
        while True:
            try:
                with conn.cursor() as cur:
                    cur.execute("SELECT 1 + 1")
                    assert cur.fetchone()[0] == 2
                break
            except psycopg.Error as e:
                assert e.sqlstate == "53200", f"{e.sqlstate}: {e}"
                assert time.monotonic() < deadline, "the daemon did not give its memory back"
                time.sleep(0.2)
        print(f"statements run again; resident {rss_kib(pid) // 1024} MiB")
        # 2. Statement size: refused before parsing.
        long_sql = "SELECT 5 IN (" + ",".join(str(i) for i in range(300000)) + ")"
        assert len(long_sql) > (1 << 20)
        try:
            with conn.cursor() as cur:
                cur.execute(long_sql)
            raise AssertionError("a statement above --max-statement-bytes ran")
        except psycopg.Error as e:
            assert e.sqlstate == "54000", f"expected 54000, got {e.sqlstate}: {e}"
        # Below the limit the same shape runs.
        with conn.cursor() as cur:
            cur.execute("SELECT 5 IN (" + ",".join(str(i) for i in range(100000)) + ")")
            assert cur.fetchone()[0] is True
        # 3. statement_timeout stops a long statement near its deadline.
        with conn.cursor() as cur:
            cur.execute("SET statement_timeout = '1s'")
            started = time.monotonic()
            try:
                cur.execute("SELECT count(*) FROM generate_series(1, 2000000000) a")
                raise AssertionError("the long statement finished")
            except psycopg.Error as e:
                assert e.sqlstate == "57014", f"expected 57014, got {e.sqlstate}: {e}"
            took = time.monotonic() - started
            assert took < 2.5, f"statement_timeout of 1 s stopped the statement after {took:.2f} s"
            cur.execute("RESET statement_timeout")
            cur.execute("SELECT 42")
            assert cur.fetchone()[0] == 42
        # 4. A 512 KB identifier is cut to 63 bytes with PostgreSQL's NOTICE, and the cut name
        # is the table's name.
        notices = []
        conn.add_notice_handler(lambda d: notices.append(d.message_primary))
        with conn.cursor() as cur:
            cur.execute("CREATE TABLE " + "x" * (1 << 19) + " (x int)")
            assert any("will be truncated to \"" + "x" * 63 + "\"" in n for n in notices), notices
            assert all(len(n) < 2048 for n in notices), [len(n) for n in notices]
            cur.execute("INSERT INTO " + "x" * 63 + " VALUES (1)")
            cur.execute("SELECT count(*) FROM " + "x" * 70)
            assert cur.fetchone()[0] == 1
        conn.close()
        assert server.daemon.alive(), "meridiand died"
        server.stop()
    except BaseException:
        print(server.daemon.log()[-5000:])
        server.daemon.__exit__(None, None, None)  # no daemon left running after a failure
        raise
    print("limits: 1 passed, 0 failed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
