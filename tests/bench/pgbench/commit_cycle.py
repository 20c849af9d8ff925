#!/usr/bin/env python3
# The committer's cycle from a syscall trace of meridiand (tests/bench/RESULTS.md, "Why
# pgbench tpcb-like loses at 8 clients"): per commit group, the time in the doublewrite
# batch's writes and its fdatasync, the commit-log append, the in-place writes, the syncs a
# doublewrite area owes when it comes round (log and data files), and the rest (the
# committer's CPU and its waits for commits to arrive or for a CPU).
#
#   perf trace -p PID -e pwrite64,fdatasync -o trace.txt -- sleep 2   (during a run)
#   commit_cycle.py trace.txt DATA_DIR_PID
#
# The committer is the thread with the most fdatasyncs of the doublewrite file; the file
# descriptors are read from /proc/PID/fd, so run it while the daemon is up.
import collections
import os
import re
import sys


def main():
    trace, pid = sys.argv[1], int(sys.argv[2])
    names = {}
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            names[int(fd)] = os.path.basename(os.readlink(f"/proc/{pid}/fd/{fd}"))
        except OSError:
            pass
    dw = next(fd for fd, n in names.items() if n == "doublewrite")
    log = next(fd for fd, n in names.items() if n == "commit.log")
    line_re = re.compile(r"\s*([0-9.]+) \(\s*([0-9.]+) ms\): \S+/(\d+) (\w+)\(fd: (\d+)")
    rows = []
    for line in open(trace):
        m = line_re.match(line)
        if m:
            rows.append((float(m[1]), float(m[2]), int(m[3]), m[4], int(m[5])))
    syncs = collections.Counter(r[2] for r in rows if r[3] == "fdatasync" and r[4] == dw)
    committer = syncs.most_common(1)[0][0]
    rows = [r for r in rows if r[2] == committer]
    phases = collections.OrderedDict((k, 0.0) for k in (
        "doublewrite writes", "doublewrite fdatasync", "commit-log append", "in-place writes",
        "area syncs (log, data files)", "other (CPU, waits)"))
    groups, prev_end = 0, None
    for start, dur, _, call, fd in rows:
        if prev_end is not None:
            phases["other (CPU, waits)"] += max(0.0, start - prev_end)
        prev_end = start + dur
        if call == "fdatasync" and fd == dw:
            phases["doublewrite fdatasync"] += dur
            groups += 1
        elif call == "fdatasync":
            phases["area syncs (log, data files)"] += dur
        elif fd == dw:
            phases["doublewrite writes"] += dur
        elif fd == log:
            phases["commit-log append"] += dur
        else:
            phases["in-place writes"] += dur
    span = rows[-1][0] + rows[-1][1] - rows[0][0]
    print(f"committer thread {committer}: {span:.0f} ms traced, {groups} groups, "
          f"{span / groups:.3f} ms per group")
    print("| phase | ms per group | share |")
    print("|---|---:|---:|")
    for k, v in phases.items():
        print(f"| {k} | {v / groups:.3f} | {100 * v / span:.1f}% |")


if __name__ == "__main__":
    main()
