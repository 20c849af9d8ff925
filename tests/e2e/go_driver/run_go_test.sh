#!/usr/bin/env bash
# The Go driver's tests (client/go) against the meridiand named by $MERIDIAND: generates the
# gRPC code from proto/ (client/go/gen.sh, as `go generate` does), then `go test ./...`.
# Modules come through the go client into the default module cache.
set -euo pipefail
if ! command -v go >/dev/null && [ -x /usr/local/go/bin/go ]; then
  PATH=/usr/local/go/bin:$PATH
fi
command -v go >/dev/null || { echo "run_go_test: go is not installed" >&2; exit 1; }
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../../client/go"
go generate ./...
go vet ./...
go test -count=1 -v ./...
