#!/usr/bin/env bash
# Creates the Python virtual environment of the PostgreSQL client tests (psycopg 3 with its
# binary wheel, SQLAlchemy and Alembic, from requirements.txt beside this script) at PYENV_DIR,
# usually build/pyenv. Idempotent: does nothing when the environment already imports psycopg,
# sqlalchemy and alembic. Needs python3-venv (deploy/install-deps.sh). Run by ctest as the setup
# fixture of e2e_psycopg.
#
# Usage: setup_pyenv.sh PYENV_DIR
set -euo pipefail

if [ $# -ne 1 ]; then
  echo "usage: $0 PYENV_DIR" >&2
  exit 2
fi
pyenv=$1
here=$(cd "$(dirname "$0")" && pwd)

if [ -x "$pyenv/bin/python" ] &&
  "$pyenv/bin/python" -c 'import psycopg, sqlalchemy, alembic' 2>/dev/null; then
  echo "setup_pyenv: $pyenv has psycopg $("$pyenv/bin/python" -c 'import psycopg; print(psycopg.__version__)')"
  exit 0
fi
# A half-made environment (an earlier run interrupted) is made again from scratch.
rm -rf "$pyenv"
python3 -m venv "$pyenv"
"$pyenv/bin/python" -m pip install --quiet --disable-pip-version-check \
  --only-binary=:all: -r "$here/requirements.txt"
"$pyenv/bin/python" -c 'import psycopg; print("setup_pyenv: psycopg", psycopg.__version__, "with libpq", psycopg.pq.version())'
