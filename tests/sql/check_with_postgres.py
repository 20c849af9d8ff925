#!/usr/bin/env python3
"""Runs Meridian's sqllogictest files against a real PostgreSQL through psql, to check that the
expected results in tests/sql/<feature>/*.test are PostgreSQL's (a developer tool, not part of ctest).

Usage: check_with_postgres.py [--psql "psql -h /tmp -p 55432 -U postgres -X"] [--one-session] FILE...
Uses the same value rules as meridian-slt (I integer, R %.3f, T text with '@' for bytes outside
0x20-0x7e, NULL, (empty), booleans true/false under T), the same sort modes and hashing, and
checks `statement error <SQLSTATE>`. Each file starts from a fresh schema `slt_check`.
By default each record runs in its own psql process; with --one-session every record of a file
runs in one psql session, as meridian-slt runs a file, so BEGIN ... COMMIT/ROLLBACK across
records behaves as it does there (needed for files with transaction blocks). A file with
`connection NAME` records always runs that way, one psql session per connection name: an
`async` record is sent and must be seen waiting for a lock (pg_stat_activity.wait_event_type
'Lock' for its backend, polled) before the next record runs, and `wait NAME` reads and checks
its result. `restart [kill]` ends every session (PostgreSQL itself is not restarted: the next
records reconnect, so what was not committed is gone, as after a restart). `query plan` records
are skipped: the plans are Meridian's.
"""
import time
import hashlib
import re
import shlex
import subprocess
import sys

SEP = "\x1f"
RSEP = "\x1d"
NULL = "\x1eNULL\x1e"


def run_psql(psql, sql):
    cmd = shlex.split(psql) + ["-A", "-t", "-q", "-v", "VERBOSITY=verbose", "-v", "ON_ERROR_STOP=1",
                               "-F", SEP, "-R", RSEP, "-P", "null=" + NULL, "-c",
                               "SET search_path TO slt_check;\n" + sql]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        m = re.search(r"ERROR:  ([0-9A-Z]{5}):", p.stderr)
        return None, (m.group(1) if m else "?????"), p.stderr.strip()
    out = p.stdout[:-1] if p.stdout.endswith("\n") else p.stdout
    rows = [line.split(SEP) for line in out.split(RSEP)] if p.stdout != "" else []
    return rows, None, ""


class Session:
    """One psql process for a whole file: each record is written to its stdin followed by
    \\echo and \\warn markers, and its result read back from stdout and stderr up to them."""

    def __init__(self, psql):
        cmd = shlex.split(psql) + ["-A", "-t", "-q", "-v", "VERBOSITY=verbose", "-F", SEP, "-R",
                                   RSEP, "-P", "null=" + NULL]
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, bufsize=1)
        self.count = 0
        self.run("SET search_path TO slt_check")

    def _read_until(self, stream, marker):
        lines = []
        while True:
            line = stream.readline()
            if line == "":
                raise RuntimeError("psql exited")
            if line.rstrip("\n") == marker:
                return lines
            lines.append(line)

    def run(self, sql):
        self.send(sql)
        return self.receive()

    def pid(self):
        rows, _, _ = self.run("SELECT pg_backend_pid()")
        return rows[0][0]

    def send(self, sql):
        """Writes sql to the session without reading its result (receive reads it)."""
        self.count += 1
        text = sql.rstrip()
        if not text.endswith(";"):
            text += ";"
        marker = "@@slt-check-%d@@" % self.count
        self.proc.stdin.write("%s\n\\echo %s\n\\warn %s\n" % (text, marker, marker))
        self.proc.stdin.flush()

    def receive(self):
        marker = "@@slt-check-%d@@" % self.count
        out = "".join(self._read_until(self.proc.stdout, marker))
        err = "".join(self._read_until(self.proc.stderr, marker))
        m = re.search(r"ERROR:  ([0-9A-Z]{5}):", err)
        if m:
            return None, m.group(1), err.strip()
        out = out[:-1] if out.endswith("\n") else out
        rows = [line.split(SEP) for line in out.split(RSEP)] if out != "" else []
        return rows, None, ""

    def close(self):
        self.proc.stdin.close()
        self.proc.wait()


def fmt(value, t):
    if value == NULL:
        return "NULL"
    if t == "I":
        if value in ("t", "f"):
            return "1" if value == "t" else "0"
        try:
            return str(int(float(value))) if "." in value or "e" in value else str(int(value))
        except ValueError:
            return "0"
    if t == "R":
        return "%.3f" % float(value)
    if value == "":
        return "(empty)"
    if value in ("t", "f"):  # psql prints booleans as t/f; meridian-slt prints true/false
        return "true" if value == "t" else "false"
    return "".join(c if 0x20 <= ord(c) <= 0x7E else "@" * len(c.encode()) for c in value)


def parse(text):
    lines = text.split("\n")
    i, recs, conds = 0, [], []
    while i < len(lines):
        line = lines[i]
        if line.strip() == "":
            conds = []
            i += 1
            continue
        if line.startswith("#"):
            i += 1
            continue
        tok = line.split()
        i += 1
        if tok[0] in ("skipif", "onlyif"):
            conds.append((tok[0], tok[1]))
            continue
        rec = {"line": i, "cmd": tok, "conds": conds, "sql": [], "expected": None,
               "async": len(tok) > 1 and tok[0] in ("statement", "query") and tok[-1] == "async"}
        if rec["async"]:
            tok.pop()
        conds = []
        if tok[0] in ("connection", "wait", "restart"):  # one line, no SQL
            recs.append(rec)
            continue
        while i < len(lines) and lines[i].strip() != "" and not lines[i].startswith("----"):
            rec["sql"].append(lines[i])
            i += 1
        if i < len(lines) and lines[i].startswith("----"):
            i += 1
            rec["expected"] = []
            while i < len(lines) and lines[i].strip() != "":
                rec["expected"].append(lines[i])
                i += 1
        recs.append(rec)
    return recs


def check(rec, rows, state, msg):
    """What is wrong with a statement or query record's outcome, or None."""
    cmd = rec["cmd"]
    if cmd[0] == "statement":
        want_error = cmd[1] == "error"
        if want_error and state is None:
            return "succeeded, error expected"
        if want_error and len(cmd) > 2 and cmd[2] != state:
            return "expected %s, got %s (%s)" % (cmd[2], state, msg)
        if not want_error and state is not None:
            return "failed: " + msg
        return None
    if state is not None:
        return "failed: " + msg
    types = cmd[1]
    sort = cmd[2] if len(cmd) > 2 else "nosort"
    frows = [[fmt(v, types[c] if c < len(types) else "T") for c, v in enumerate(r)] for r in rows]
    if rows and len(rows[0]) != len(types):
        return "column count %d vs types %s" % (len(rows[0]), types)
    if sort == "rowsort":
        frows.sort()
    vals = [v for r in frows for v in r]
    if sort == "valuesort":
        vals.sort()
    exp = rec["expected"] or []
    h = "%d values hashing to %s" % (
        len(vals), hashlib.md5("".join(v + "\n" for v in vals).encode()).hexdigest())
    if len(exp) == 1 and re.match(r"^\d+ values hashing to [0-9a-f]{32}$", exp[0]):
        ok = exp[0] == h
    else:
        ok = exp == vals or (len(exp) == len(frows) and
                             [" ".join(r) for r in frows] == [e.replace("\t", " ") for e in exp])
    if rec["expected"] is not None and not ok:
        return "mismatch: expected %r got %r" % (exp, [" ".join(r) for r in frows])
    return None


def wait_blocked(psql, pid, since, timeout=30.0):
    """'blocked' once backend pid waits for a lock, 'finished' once it is idle again after a
    statement that started at or after since (the server's clock before the statement was sent;
    an idle backend that has not started it yet is neither)."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        rows, _, _ = run_psql(psql, "SELECT coalesce(wait_event_type, ''), state, "
                                    "query_start >= '%s'::timestamptz FROM pg_stat_activity "
                                    "WHERE pid = %s" % (since, pid))
        if rows and rows[0][0] == "Lock":
            return "blocked"
        if rows and rows[0][1] != "active" and rows[0][2] == "t":
            return "finished"
    return "timeout"


def main():
    args = sys.argv[1:]
    psql = "psql -h /tmp -p 55432 -U postgres -X"
    one_session = False
    while args and args[0] in ("--psql", "--one-session"):
        if args[0] == "--psql":
            psql, args = args[1], args[2:]
        else:
            one_session, args = True, args[1:]
    total_fail = 0
    for path in args:
        run_psql(psql.replace("-X", "-X"), "")  # warm-up
        subprocess.run(shlex.split(psql) + ["-q", "-c", "DROP SCHEMA IF EXISTS slt_check CASCADE;"
                                            " CREATE SCHEMA slt_check;"], capture_output=True)
        recs = parse(open(path).read())
        many = any(rec["cmd"][0] == "connection" for rec in recs)
        sessions = {}  # connection name -> Session (one-session and connection files)
        pending = {}   # connection name -> its async record
        current = "default"

        def session(name):
            if name not in sessions:
                sessions[name] = Session(psql)
            return sessions[name]

        passed = failed = skipped = 0
        threshold = 0
        for rec in recs:
            cmd = rec["cmd"]
            if any((k == "onlyif" and e != "postgresql") or (k == "skipif" and e == "postgresql")
                   for k, e in rec["conds"]):
                continue
            if cmd[0] == "hash-threshold":
                threshold = int(cmd[1])
                continue
            if cmd[0] == "halt":
                break
            if cmd[0] == "connection":
                current = cmd[1]
                continue
            if cmd[0] == "query" and len(cmd) == 2 and cmd[1] == "plan":
                skipped += 1
                continue
            sql = "\n".join(rec["sql"])
            problem = None
            if cmd[0] == "restart":
                for s in sessions.values():
                    s.close()
                sessions.clear()
                pending.clear()
            elif cmd[0] == "wait":
                started = pending.pop(cmd[1], None)
                if started is None:
                    problem = "no async record runs on " + cmd[1]
                else:
                    rec, sql = started, "\n".join(started["sql"])
                    problem = check(rec, *session(cmd[1]).receive())
            elif rec["async"]:
                s = session(current)
                pid = s.pid()
                since = run_psql(psql, "SELECT clock_timestamp()")[0][0][0]
                s.send(sql)
                how = wait_blocked(psql, pid, since)
                if how == "blocked":
                    pending[current] = rec
                    continue
                s.receive()
                problem = "async statement did not block (%s)" % how
            else:
                if one_session or many:
                    rows, state, msg = session(current).run(sql)
                else:
                    rows, state, msg = run_psql(psql, sql)
                problem = check(rec, rows, state, msg)
            if problem:
                failed += 1
                print("FAIL %s:%d: %s\n    %s" % (path, rec["line"], problem, sql.replace("\n", "\n    ")))
            else:
                passed += 1
        for s in sessions.values():
            s.close()
        print("%s: %d passed, %d failed, %d skipped" % (path, passed, failed, skipped))
        total_fail += failed
    sys.exit(1 if total_fail else 0)


if __name__ == "__main__":
    main()
