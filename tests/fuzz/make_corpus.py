#!/usr/bin/env python3
"""Seeds the fuzz corpora (tests/fuzz/corpus/<harness>/) and the SQL dictionary.

fuzz_sql: statements extracted from tests/sql/**/*.test (the text after `statement ...` and
`query ...` lines, up to `----` or a blank line): each file's first statements alone, and each
file's CREATE/INSERT setup followed by one of its queries (so the query finds its tables inside
the harness's transaction), at most 4096 bytes each, capped per file to keep the corpus small.
fuzz_sql.dict: the grammar's keywords (K_* rules of parser/grammar/MeridianSql.g4).
fuzz_pgwire and fuzz_storage: a few valid inputs built here (see the harnesses' mode bytes).
Deterministic: running it again gives the same files (named by content hash).
Usage: tests/fuzz/make_corpus.py   (from the repository root)
"""
import glob
import hashlib
import os
import re
import struct
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CORPUS = os.path.join(ROOT, "tests", "fuzz", "corpus")
PER_FILE = 3


def statements(path):
    out, cur, taking = [], [], False
    for line in open(path, encoding="utf-8", errors="replace"):
        line = line.rstrip("\n")
        if taking:
            if line.strip() == "" or line.strip() == "----":
                if cur:
                    out.append("\n".join(cur))
                cur, taking = [], False
            else:
                cur.append(line)
        elif line.startswith("statement ") or line.startswith("query "):
            taking = True
    if cur:
        out.append("\n".join(cur))
    return out


def write(harness, data):
    d = os.path.join(CORPUS, harness)
    os.makedirs(d, exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    name = hashlib.sha1(data).hexdigest()[:16]
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def sql_corpus():
    """Writes the fuzz_sql seeds; returns the statements taken from tests/sql."""
    taken = []
    pattern = os.path.join(ROOT, "tests", "sql", "**", "*.test")
    for path in sorted(glob.glob(pattern, recursive=True)):
        stmts = statements(path)
        setup = [s for s in stmts if re.match(r"\s*(CREATE|INSERT)\b", s, re.I)]
        queries = [s for s in stmts if re.match(r"\s*(SELECT|WITH|VALUES)\b", s, re.I)]
        for s in stmts[:PER_FILE]:
            if len(s) <= 4096:
                write("fuzz_sql", s)
                taken.append(s)
        prefix = ";\n".join(setup)
        for q in queries[:: max(1, len(queries) // PER_FILE)][:PER_FILE]:
            text = prefix + ";\n" + q if prefix else q
            if len(text) <= 4096:
                write("fuzz_sql", text)
    # Against the harness's fixture tables t, u, s, tv and seq.
    for s in [
        "SELECT * FROM t JOIN s ON s.t_a = t.a WHERE t.b LIKE 'f%' ORDER BY 1",
        "SELECT x, sum(y), count(*) FROM u GROUP BY x HAVING count(*) > 0",
        "UPDATE t SET c = c * 2 WHERE a IN (SELECT t_a FROM s) RETURNING *",
        "DELETE FROM s WHERE v > 10",
        "INSERT INTO t VALUES (6, 'six', 6.6, '2026-01-01', NULL) ON CONFLICT (a) DO NOTHING",
        "SELECT j -> 'k', j ->> 0, jsonb_typeof(j) FROM u",
        "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 5) SELECT * FROM r",
        "SELECT a, row_number() OVER (ORDER BY b), lag(c) OVER w FROM t WINDOW w AS (PARTITION BY e)",
        "SELECT nextval('seq'), date_trunc('month', ts), ts + interval '1 day' FROM u",
        "EXPLAIN ANALYZE SELECT * FROM tv WHERE a = 3",
        "PREPARE p(int) AS SELECT * FROM t WHERE a = $1; EXECUTE p(2)",
        "SAVEPOINT a; INSERT INTO s (t_a, v) VALUES (99, 1); ROLLBACK TO a",
        "COPY t FROM STDIN",
        "SELECT regexp_replace(b, '(o)+', 'X', 'g'), substring(b from 2) FROM t",
        "ALTER TABLE u ADD COLUMN w INT DEFAULT 7; SELECT * FROM u",
    ]:
        write("fuzz_sql", s)
    keywords = set()
    for m in re.finditer(r"^K_([A-Z_0-9]+)\s*:", open(os.path.join(ROOT, "parser", "grammar",
                                                              "MeridianSql.g4")).read(), re.M):
        keywords.add(m.group(1))
    with open(os.path.join(ROOT, "tests", "fuzz", "fuzz_sql.dict"), "w") as f:
        f.write("# The SQL grammar's keywords (tests/fuzz/make_corpus.py writes this file).\n")
        for k in sorted(keywords):
            f.write('"%s"\n' % k)
        for tok in ["(", ")", ",", ";", "'", "::", "->", "->>", "||", "<=", "<>", "$1", "*"]:
            f.write('"%s"\n' % tok)
    return taken


def i32(v):
    return struct.pack(">I", v & 0xFFFFFFFF)


def i16(v):
    return struct.pack(">H", v & 0xFFFF)


def typed(t, body):
    return t.encode() + i32(len(body) + 4) + body


def cstr(s):
    return s.encode() + b"\0"


def pgwire_corpus():
    startup = i32(196608) + cstr("user") + cstr("meridian") + cstr("database") + cstr("db") + b"\0"
    startup = i32(len(startup) + 4) + startup
    ssl = i32(8) + i32(80877103)
    cancel = i32(16) + i32(80877102) + i32(1000) + i32(0xDEADBEEF)
    parse = typed("P", cstr("s1") + cstr("SELECT $1::int") + i16(1) + i32(23))
    bind = typed("B", cstr("") + cstr("s1") + i16(1) + i16(1) + i16(2) + i32(4) + i32(42) +
                 i32(0xFFFFFFFF) + i16(1) + i16(1))
    rest = (typed("D", b"P" + cstr("")) + typed("E", cstr("") + i32(0)) + typed("S", b"") +
            typed("Q", cstr("SELECT 1")) + typed("C", b"S" + cstr("s1")) + typed("H", b"") +
            typed("f", cstr("oops")) + typed("X", b""))
    write("fuzz_pgwire", b"\x00" + ssl + startup + parse + bind + rest)
    write("fuzz_pgwire", b"\x00" + cancel)
    write("fuzz_pgwire", b"\x01" + parse + bind + rest)
    write("fuzz_pgwire", b"\x01" + typed("p", cstr("SCRAM-SHA-256") + i32(32) +
                                         b"n,,n=,r=rOprNGfwEbeRWgbNEkqO1234"))
    write("fuzz_pgwire", b"\x02n,,n=user,r=rOprNGfwEbeRWgbNEkqO\n"
                         b"c=biws,r=rOprNGfwEbeRWgbNEkqOfixednonce,p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=")
    write("fuzz_pgwire", b"\x03SCRAM-SHA-256$4096:W22ZaJ0SNY7soEsUEjb6gQ==$"
                         b"WG5d8oPm3OtcPnkdi4Uo7BkeZkBFzpcXkuLmtbsT4qY=:"
                         b"HKPX0ZXs7ou7evv6+Hpl/5SIBIM2uv+fsmtJhDGRaQ4=")


# Protocol buffers wire format, enough for the requests of proto/meridian.proto.
def varint(v):
    v &= (1 << 64) - 1
    out = b""
    while True:
        b = v & 0x7F
        v >>= 7
        if v:
            out += bytes([b | 0x80])
        else:
            return out + bytes([b])


def pb_int(field, v):
    return varint(field << 3) + varint(v)


def pb_bytes(field, data):
    if isinstance(data, str):
        data = data.encode()
    return varint(field << 3 | 2) + varint(len(data)) + data


def pb_double(field, v):
    return varint(field << 3 | 1) + struct.pack("<d", v)


def grpc_corpus(sql_statements):
    """fuzz_grpc: byte 0 the method, byte 1 the flags, then the request (fuzz_grpc.cc)."""
    OPEN, EXEC, SESSION, PREPARE, DEALLOC, DESCRIBE, CANCEL, CLOSE, ATTACH = range(9)
    KEEP_ID, NO_SECRET, WRONG_SECRET = 1, 2, 4

    def out(method, flags, body):
        write("fuzz_grpc", bytes([method, flags]) + body)

    def oid(o):
        return pb_bytes(10, pb_int(3, o))

    def execute(sql, extra=b""):
        return pb_bytes(2, sql) + extra

    fixture = [
        "SELECT * FROM t JOIN s ON s.t_a = t.a WHERE t.b LIKE 'f%' ORDER BY 1",
        "SELECT x, y, z, j, ts FROM u; SELECT * FROM b",
        "UPDATE t SET c = c * 2 WHERE a IN (SELECT t_a FROM s) RETURNING *",
        "INSERT INTO t VALUES (6, 'six', 6.6, '2026-01-01', NULL) ON CONFLICT (a) DO NOTHING",
        "SELECT nextval('seq'), ts + interval '1 day', j -> 'k' FROM u",
        "COMMIT; BEGIN; DELETE FROM s WHERE v > 10",
        "SELECT generate_series(1, 10000)",
        "SELECT * FROM \"" + "\u00e9" * 600 + "\"",
        "SELECT E'\\xff', 'x' || chr(233)",
        "SAVEPOINT a; INSERT INTO s (t_a, v) VALUES (99, 1); ROLLBACK TO a",
        "COPY t TO STDOUT",
        "SELECT $1::int + $2, $3::text, $4, $5::bytea, $6::float8",
    ]
    params = (pb_bytes(3, pb_int(3, 7)) + pb_bytes(3, pb_bytes(5, "12")) +
              pb_bytes(3, pb_int(1, 1)) + pb_bytes(3, pb_int(2, 1)) +
              pb_bytes(3, pb_bytes(6, b"\x00\xff")) + pb_bytes(3, pb_double(4, 2.5)))
    for sql in fixture:
        out(EXEC, 0, execute(sql, params if "$1" in sql else b""))
    out(EXEC, 0, execute("SELECT $1, $2", params + oid(23) + oid(25)))
    out(EXEC, 0, execute("SELECT * FROM t", pb_int(7, 1) + pb_bytes(8, "q1") + pb_int(6, 1)))
    out(EXEC, 0, execute("SELECT count(*) FROM t, t t2, t t3", pb_int(11, 5) + pb_int(6, 2)))
    out(EXEC, 0, execute("SELECT 1", pb_bytes(5, pb_int(3, 1) + pb_int(4, 1))))
    out(EXEC, 0, pb_bytes(4, "nope") + pb_bytes(2, "SELECT 1"))
    out(EXEC, KEEP_ID, pb_bytes(1, "x" * 2000) + execute("SELECT 1"))
    out(EXEC, NO_SECRET, execute("SELECT 1"))
    out(EXEC, WRONG_SECRET, execute("SELECT 1"))
    for sql in sql_statements[::max(1, len(sql_statements) // 60)]:
        out(EXEC, 0, execute(sql))
    for sql in fixture[:5]:
        out(SESSION, 0, execute(sql))
    out(SESSION, 0, execute("SELECT 1/0"))
    out(PREPARE, 0, pb_bytes(2, "SELECT * FROM t WHERE a = $1") + pb_bytes(4, pb_int(3, 23)))
    out(PREPARE, 0, pb_bytes(2, "INSERT INTO s (t_a, v) VALUES ($1, $2)") + pb_bytes(3, "ins"))
    out(PREPARE, 0, pb_bytes(2, "COMMIT"))
    out(PREPARE, 0, pb_bytes(2, "SELECT $1") + pb_bytes(4, pb_int(3, 99999)))
    out(DEALLOC, 0, pb_bytes(2, "missing"))
    out(DESCRIBE, 0, b"")
    out(DESCRIBE, 0, pb_bytes(2, "t"))
    out(DESCRIBE, 0, pb_bytes(2, "no_such_table"))
    out(CANCEL, 0, pb_bytes(2, "q1"))
    out(CLOSE, 0, b"")
    out(CLOSE, KEEP_ID, pb_bytes(1, "0123456789abcdef0123456789abcdef"))
    out(ATTACH, 0, b"")
    out(ATTACH, NO_SECRET, b"")
    out(OPEN, 0, pb_bytes(1, "alice") + pb_bytes(3, "app") +
        pb_bytes(4, pb_bytes(1, "TimeZone") + pb_bytes(2, "UTC")))
    out(OPEN, 0, pb_bytes(2, "other_db"))
    out(OPEN, 0, pb_bytes(1, "u" * 3000) + pb_bytes(5, "secret"))


def storage_corpus():
    # A heap page with two tuples: header (32 bytes), two slots, tuples at the page's end.
    page = bytearray(8192)
    page[4] = 1  # kHeap
    page[5] = 1  # format version
    tuples = [b"\x00" * 20 + b"tuple one", b"\x00" * 20 + b"second tuple!"]
    end = 8192
    struct.pack_into("<H", page, 6, len(tuples))
    for i, t in enumerate(tuples):
        end -= len(t)
        page[end:end + len(t)] = t
        struct.pack_into("<HH", page, 32 + 4 * i, end, len(t))
    struct.pack_into("<HH", page, 16, 32 + 4 * len(tuples), end)
    write("fuzz_storage", b"\x00\x02\x06\x02" + bytes(page).rstrip(b"\0"))
    # A B+tree leaf with one cell (u16 key length, u16 value length, key, value).
    node = bytearray(8192)
    node[4] = 4  # kBTreeLeaf
    node[5] = 1
    cell = struct.pack("<HH", 3, 5) + b"keyvalue"
    off = 8192 - len(cell)
    node[off:] = cell
    struct.pack_into("<H", node, 6, 1)
    struct.pack_into("<HH", node, 16, 48 + 2, off)
    struct.pack_into("<H", node, 48, off)
    write("fuzz_storage", b"\x01" + bytes(node))
    # An R*-tree leaf of 2 dimensions (type 8, version 1, level 0, dims, capacity).
    rnode = bytearray(64)
    rnode[4] = 8
    rnode[5] = 1
    struct.pack_into("<H", rnode, 6, 0)
    struct.pack_into("<HHH", rnode, 32, 0, 2, 0)
    write("fuzz_storage", b"\x02\x01" + bytes(rnode))
    # A tuple alone and commit log payloads: a group of one commit and one end stamp.
    write("fuzz_storage", b"\x03\x03\x02\x06\x03" + b"\x00" * 20 + b"\x03\x00" + b"\x00" * 8)
    group = (b"\x01" + struct.pack("<I", 1) + struct.pack("<QQ", 7, 9) + struct.pack("<I", 1) +
             struct.pack("<IIHQ", 1, 2, 3, 7))
    write("fuzz_storage", b"\x04" + group + b"\xff\xfe" + b"\x02" + struct.pack("<II", 0, 0) +
          struct.pack("<Q", 5))


if __name__ == "__main__":
    taken = sql_corpus()
    pgwire_corpus()
    grpc_corpus(taken)
    storage_corpus()
    for h in sorted(os.listdir(CORPUS)):
        print(h, len(os.listdir(os.path.join(CORPUS, h))), file=sys.stderr)
