"""Idle PostgreSQL-protocol connections keep no input buffer: 400 connections that each ran a
query and then wait for their next message add little to meridiand's resident memory. While a
connection waits with nothing buffered its 16 KiB read buffer is freed (server/pgwire
pg_connection.cc, ReadMessage); before that change each idle connection cost about 22 KiB of
RSS here, 16 KiB of it the buffer. The bound below, 14 KiB per connection, fails if the buffer
is kept. Then every connection runs another query, so freeing did not break reading.

Runs against meridiand only."""
import os
import sys
import time

import psycopg

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from txn_server import Server, raise_open_file_limit, rss_kib  # noqa: E402

SKIP = 77
CONNECTIONS = 400
MAX_KIB_PER_CONNECTION = 14


def open_idle(conninfo, n):
    conns = [psycopg.connect(conninfo, autocommit=True) for _ in range(n)]
    for i, c in enumerate(conns):
        assert c.execute("SELECT %s::int + 1", (i,)).fetchone() == (i + 1,)
    return conns


def main():
    server = Server(extra_args=["--log-level", "warn"])
    if not server.is_meridian:
        print("SKIP: idle_buffer_test runs only against meridiand")
        return SKIP
    raise_open_file_limit(4 * CONNECTIONS + 256)
    server.start()
    try:
        warm = open_idle(server.conninfo(), 20)
        time.sleep(0.5)
        before = rss_kib(server.pid())
        idle = open_idle(server.conninfo(), CONNECTIONS)
        time.sleep(0.5)
        after = rss_kib(server.pid())
        per = (after - before) / CONNECTIONS
        print(f"{per:.1f} KiB of RSS per idle connection ({CONNECTIONS} connections)")
        assert per < MAX_KIB_PER_CONNECTION, f"{per:.1f} KiB per idle connection"
        for i, c in enumerate(idle + warm):
            assert c.execute("SELECT repeat('x', 40000)").fetchone()[0] == "x" * 40000
            assert c.execute("SELECT length(%s)", ("y" * 50000,)).fetchone() == (50000,)
            c.close()
        server.stop()
    finally:
        if server.daemon.alive():
            server.daemon.kill()
    print("idle_buffer: 1 passed, 0 failed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
