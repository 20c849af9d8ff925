#!/usr/bin/env bash
# Generates internal/pb (meridian.pb.go, meridian_grpc.pb.go) from ../../proto/meridian.proto
# with Debian's protoc and the protoc-gen-go / protoc-gen-go-grpc versions pinned as tools in
# go.mod (built into a temporary GOBIN through the Go module proxy). Run by `go generate ./...`;
# nothing generated is in git.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
proto_dir=$(cd "$here/../../proto" && pwd)
pkg=meridian.local/client/go/internal/pb
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
(cd "$here" && GOBIN=$bin go install tool)
mkdir -p "$here/internal/pb"
protoc --plugin=protoc-gen-go="$bin/protoc-gen-go" \
  --plugin=protoc-gen-go-grpc="$bin/protoc-gen-go-grpc" \
  -I "$proto_dir" \
  --go_out="$here/internal/pb" --go_opt=paths=source_relative --go_opt=Mmeridian.proto=$pkg \
  --go-grpc_out="$here/internal/pb" --go-grpc_opt=paths=source_relative \
  --go-grpc_opt=Mmeridian.proto=$pkg \
  meridian.proto
