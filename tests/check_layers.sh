#!/usr/bin/env bash
# Fails when a module includes a layer above it (STYLE.md: a layer DAG the build enforces):
#   engine/storage  → nothing above engine/common
#   engine/*        → never server/, client/, proto, grpc or antlr
#   parser/src      → only parser/ and engine/include/meridian/status.h
#   client/         → never engine/, parser/, server/
# ANTLR headers may appear only in parser/src.
set -u
cd "$(dirname "$0")/.."
fail=0
check() {  # check <dir> <regex of forbidden includes> <why>
  local hits
  hits=$(grep -rnE "^#include [<\"]($2)" "$1" --include='*.h' --include='*.cc' 2>/dev/null)
  if [ -n "$hits" ]; then
    echo "layer violation ($3):"
    echo "$hits"
    fail=1
  fi
}
check engine/storage 'catalog/|exec/|database/|meridian/database.h|meridian/parser|grpc|antlr4|meridian.pb|server/' "storage uses nothing above it"
check engine/txn 'catalog/|exec/|database/|meridian/database.h|meridian/parser|server/' "txn uses storage only"
check engine 'grpc|grpcpp|antlr4|meridian.pb|meridian.grpc|server/|client/' "no gRPC, protobuf or ANTLR type in engine/"
check client 'storage/|catalog/|exec/|meridian/database.h|meridian/parser|antlr4|server/' "client depends on proto only"
check server 'storage/|catalog/|exec/|antlr4' "server uses the engine's public API only"
for d in engine server client tests; do
  hits=$(grep -rln 'antlr4-runtime\|#include "antlr4' "$d" --include='*.h' --include='*.cc' 2>/dev/null)
  [ -n "$hits" ] && { echo "ANTLR outside parser/: $hits"; fail=1; }
done
if [ $fail -eq 0 ]; then echo "layers: 1 passed, 0 failed"; else echo "layers: 0 passed, 1 failed"; fi
exit $fail
