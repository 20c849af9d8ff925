#!/usr/bin/env python3
"""Cost of one fdatasync after an 8 KiB pwrite, on preallocated space and on writes that grow the
file, in each directory given (default: /tmp and the current directory). The floor under a
1-client commit: see RESULTS.md's pgbench sections.

  fsync_probe.py [DIR ...] [--writes N]
"""
import argparse
import os
import time


def probe(path, grow, n):
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_TRUNC)
    try:
        if not grow:
            os.posix_fallocate(fd, 0, n * 8192)
            os.fsync(fd)
        buf = b"x" * 8192
        start = time.perf_counter()
        for i in range(n):
            os.pwrite(fd, buf, i * 8192)
            os.fdatasync(fd)
        return (time.perf_counter() - start) / n * 1e6
    finally:
        os.close(fd)
        os.unlink(path)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dirs", nargs="*", default=["/tmp", "."])
    ap.add_argument("--writes", type=int, default=500)
    args = ap.parse_args()
    for d in args.dirs:
        path = os.path.join(d, f"fsync_probe.{os.getpid()}")
        print(f"{d}: preallocated {probe(path, False, args.writes):.0f} us, "
              f"growing {probe(path, True, args.writes):.0f} us per fdatasync")


if __name__ == "__main__":
    main()
