# The daemon under test for the Python driver tests: a fresh meridiand on free ports with a
# temporary data directory (../pg_clients/meridian_daemon.py; binary from $MERIDIAND), started
# once per test module.
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pg_clients"))
from meridian_daemon import MeridianDaemon  # noqa: E402,F401
