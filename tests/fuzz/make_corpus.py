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
    pattern = os.path.join(ROOT, "tests", "sql", "**", "*.test")
    for path in sorted(glob.glob(pattern, recursive=True)):
        stmts = statements(path)
        setup = [s for s in stmts if re.match(r"\s*(CREATE|INSERT)\b", s, re.I)]
        queries = [s for s in stmts if re.match(r"\s*(SELECT|WITH|VALUES)\b", s, re.I)]
        for s in stmts[:PER_FILE]:
            if len(s) <= 4096:
                write("fuzz_sql", s)
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
    sql_corpus()
    pgwire_corpus()
    storage_corpus()
    for h in sorted(os.listdir(CORPUS)):
        print(h, len(os.listdir(os.path.join(CORPUS, h))), file=sys.stderr)
