#!/usr/bin/env python3
"""Differential check of JSON/JSONB against PostgreSQL (a developer tool, not part of ctest):
mutates a few JSON documents at random (deleted and inserted characters, escapes, surrogates,
spliced documents) and runs each through a set of JSON casts, operators and functions on both
servers over psycopg, reporting every result or SQLSTATE that differs.

Usage: json_differential.py MERIDIAN_DSN POSTGRES_DSN [COUNT [SEED]]
  e.g. json_differential.py "host=127.0.0.1 port=5433 user=postgres dbname=postgres" \\
                            "host=/tmp port=55432 user=postgres dbname=lead"
Exit status 1 when anything differs.
"""
import random
import sys

import psycopg

SEEDS = ['{"a": [1, 2.5e3, "x\\u00e9\\ud83d\\ude00", {"b": null}], "c": true}', '[[[]]]',
         '"\\\\\\""', '-0.0e-5', '{"":{"":[]}}', '{"a":1,"a":[2,3],"aa":{"c":"d"}}',
         '[1, "a", null, [true]]']
PIECES = list('{}[]":,\\u0123456789eE+-. truefalsn\t\n') + [
    '\\u', '\\ud83d', '\\udc00', '\u00e9', '\\n', '"a"', '{"a":', '[0]']
QUERIES = [
    "SELECT %s::jsonb::text", "SELECT %s::json -> 'a'", "SELECT jsonb_pretty(%s::jsonb)",
    "SELECT %s::jsonb @> '{\"a\": [1]}'", "SELECT %s::jsonb ->> 'c'", "SELECT (%s::json ->> 'a')",
    "SELECT %s::jsonb -> 0", "SELECT %s::json #>> '{a,0}'", "SELECT jsonb_typeof(%s::jsonb)",
    "SELECT %s::jsonb = '{\"a\": [1]}'", "SELECT jsonb_strip_nulls(%s::jsonb)::text",
    "SELECT %s::jsonb || '[1]'", "SELECT %s::jsonb < '[1]'", "SELECT %s::jsonb ? 'a'",
    "SELECT %s::jsonb #- '{a,0}'", "SELECT jsonb_set(%s::jsonb, '{a,0}', '9')",
    "SELECT jsonb_insert(%s::jsonb, '{a,0}', '9')",
    "SELECT count(*) FROM jsonb_array_elements(%s::jsonb)",
    "SELECT string_agg(key || '=' || value, ',') FROM json_each_text(%s::json)",
    "SELECT json_array_length(%s::json)", "SELECT %s::jsonb - 'a'",
    "SELECT %s::jsonb <@ '{\"a\": [1, 2.5e3]}'", "SELECT json_strip_nulls(%s::json)",
    "SELECT jsonb_array_elements_text(%s::jsonb)", "SELECT %s::json #> '{}'",
    "SELECT (%s::jsonb)['a'][0]", "SELECT json_typeof(%s::json -> 1)",
    "SELECT to_jsonb(%s::text)", "SELECT json_build_object('k', %s::json)",
    "SELECT jsonb_agg(e.value ORDER BY e.value) FROM jsonb_array_elements(%s::jsonb) AS e",
]


def documents(count, seed):
    rng = random.Random(seed)
    for _ in range(count):
        s = list(rng.choice(SEEDS))
        for _ in range(rng.randint(0, 3)):
            op, pos = rng.random(), rng.randint(0, len(s))
            if op < 0.4 and s:
                del s[min(pos, len(s) - 1)]
            elif op < 0.8:
                s.insert(pos, rng.choice(PIECES))
            else:
                s[min(pos, len(s) - 1) if s else 0:0] = rng.choice(SEEDS)
        yield "".join(s)


def results(dsn, docs):
    out = []
    with psycopg.connect(dsn, autocommit=True) as conn:
        for text in docs:
            for q in QUERIES:
                try:
                    out.append(repr(conn.execute(q, (text,)).fetchall()))
                except psycopg.Error as e:
                    out.append("ERROR " + str(e.sqlstate))
    return out


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 1500
    seed = int(sys.argv[4]) if len(sys.argv) > 4 else 11
    docs = list(documents(count, seed))
    a, b = results(sys.argv[1], docs), results(sys.argv[2], docs)
    differ = 0
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            differ += 1
            if differ <= 20:
                print("%s with %r\n  meridian: %s\n  postgres: %s" % (
                    QUERIES[i % len(QUERIES)], docs[i // len(QUERIES)], x[:200], y[:200]))
    print("%d queries, %d differ" % (len(a), differ))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
