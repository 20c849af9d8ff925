#!/usr/bin/env bash
# Creates the Python virtual environment of the driver and deployment tests at PYENV_DIR
# (usually build/pyenv-driver): the test tools of requirements.txt, then the driver from
# client/python, reinstalled on every run so the tests always see the current source (its gRPC
# stubs are generated from proto/ by that install). Needs python3-venv
# (deploy/install-deps.sh). Run by ctest as the setup fixture meridian_driver_pyenv.
#
# Usage: setup_driver_pyenv.sh PYENV_DIR
set -euo pipefail

pyenv=${1:?usage: setup_driver_pyenv.sh PYENV_DIR}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
pip=("$pyenv/bin/python" -m pip --disable-pip-version-check --quiet)

# The tools are installed once; a half-made environment is made again from scratch.
if ! { [ -x "$pyenv/bin/python" ] && [ -e "$pyenv/.requirements-done" ] &&
       cmp -s "$here/requirements.txt" "$pyenv/.requirements-done"; }; then
  rm -rf "$pyenv"
  python3 -m venv "$pyenv"
  "${pip[@]}" install --prefer-binary -r "$here/requirements.txt"
  cp "$here/requirements.txt" "$pyenv/.requirements-done"
fi

# The driver, from a copy of its source (pip's in-tree build would leave build/ and
# *.egg-info in client/python); the copy keeps the repository layout setup.py looks for.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/client" "$work/proto"
cp -r "$root/client/python" "$work/client/python"
rm -rf "$work/client/python/build" "$work/client/python"/*.egg-info
cp "$root/proto/meridian.proto" "$work/proto/"
"${pip[@]}" install --no-build-isolation --force-reinstall --no-deps "$work/client/python"
# Its runtime dependencies (grpcio, protobuf) came with grpcio-tools; check they import.
(cd / && "$pyenv/bin/python" -c 'import meridian, grpc; print("setup_driver_pyenv: meridian",
      meridian.__version__, "with grpcio", grpc.__version__)')
