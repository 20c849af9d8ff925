#!/usr/bin/env bash
# Fails when a module includes a layer above it (STYLE.md: a layer DAG the build enforces):
#   engine/storage  → nothing above engine/common
#   engine/catalog  → never the query layers (binder ... main) nor database/
#   the query layers include only layers below them, in the order
#     binder < execution < function < optimizer < planner < commands < main
#   except the known wrong-way includes listed in KNOWN_UPWARD below (engine/README.md says why;
#   each later issue removes some; a new one fails here). The build enforces the outer ring:
#   each engine library's include root is its own folder, so a layer that does not link
#   another cannot include it at all (see meridian_add_library ROOT/SEES).
#   engine/*        → never server/, client/, proto, grpc or antlr
#   parser/src      → only parser/ and engine/include/meridian/status.h
#   client/         → never engine/, parser/, server/
#   server/pgwire   → never server/grpc, gRPC or protobuf (the two front ends are separate
#                     libraries under the Daemon)
#   server/grpc     → of pgwire/ only pg_auth.h (the accounts both front ends share)
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
check engine/storage 'catalog/|binder/|planner/|optimizer/|execution/|function/|commands/|main/database/|meridian/database.h|meridian/parser|grpc|antlr4|meridian.pb|server/' "storage uses nothing above it"
check engine/txn 'catalog/|binder/|planner/|optimizer/|execution/|function/|commands/|main/database/|meridian/database.h|meridian/parser|server/' "txn uses storage only"
check engine 'grpc|grpcpp|antlr4|meridian.pb|meridian.grpc|server/|client/' "no gRPC, protobuf or ANTLR type in engine/"
check client 'storage/|catalog/|binder/|planner/|optimizer/|execution/|function/|commands/|main/meridian/database.h|meridian/parser|antlr4|server/' "client depends on proto only"
check server 'storage/|catalog/|binder/|planner/|optimizer/|execution/|function/|commands/|main/antlr4' "server uses the engine's public API only"
check server/pgwire 'grpc/|grpcpp/|grpc\+\+|meridian\.pb|meridian\.grpc\.pb|sql_service\.h|grpc_auth\.h|error_mapping\.h' "pgwire does not use the gRPC front end"
hits=$(grep -rnE '^#include "(pgwire/)?pg_[a-z_]+\.h"' server/grpc --include='*.h' --include='*.cc' | grep -v '"pg_auth\.h"')
if [ -n "$hits" ]; then
  echo "layer violation (grpc uses only pg_auth.h of pgwire/):"
  echo "$hits"
  fail=1
fi
check engine/catalog 'binder/|planner/|optimizer/|execution/|function/|commands/|main/database/' "catalog uses storage and txn only"

# The query layers, bottom first; a layer includes only layers before it in this list.
LAYERS=(binder execution function optimizer planner commands main)
# Wrong-way includes that exist today ("file header"); remove a line when its edge goes.
KNOWN_UPWARD="
binder/binder.cc planner/planner.h
binder/bind_insert.cc planner/planner.h
binder/bound_statement.h execution/operators.h
binder/bound_expr.cc execution/operator.h
binder/bind_expr.cc execution/evaluator.h
binder/bind_function.cc execution/evaluator.h
binder/bind_expr.cc optimizer/access_path.h
execution/index_scan.cc optimizer/access_path.h
execution/modify_table.h optimizer/access_path.h
execution/modify_checks.cc optimizer/access_path.h
execution/modify_checks.cc main/session_settings.h
execution/sort.cc main/session_settings.h
function/system_functions.cc main/session_settings.h
function/sequence.cc main/session_settings.h
binder/bind_identity.cc function/sequence.h
commands/alter_table.cc main/session_settings.h
commands/copy.cc main/session_settings.h
commands/copy.cc main/transaction_block.h
commands/create_table_as.cc main/session_settings.h
commands/drop_table.cc main/session_settings.h
commands/variable.cc main/session_settings.h
commands/view_ddl.cc main/session_settings.h
"
for ((i = 0; i < ${#LAYERS[@]}; i++)); do
  above=$(IFS='|'; echo "${LAYERS[*]:i+1}")
  [ -z "$above" ] && continue
  while IFS=: read -r file _ inc; do
    header=$(sed -E 's/^#include "([^"]+)".*/\1/' <<<"$inc")
    rel=${file#engine/}
    if ! grep -qxF "$rel $header" <<<"$KNOWN_UPWARD"; then
      echo "layer violation (${LAYERS[i]} includes a layer above it): $file: $inc"
      fail=1
    fi
  done < <(grep -rnE "^#include \"($above)/" "engine/${LAYERS[i]}" --include='*.h' --include='*.cc' 2>/dev/null)
done

for d in engine server client tests; do
  hits=$(grep -rln 'antlr4-runtime\|#include "antlr4' "$d" --include='*.h' --include='*.cc' 2>/dev/null)
  [ -n "$hits" ] && { echo "ANTLR outside parser/: $hits"; fail=1; }
done
if [ $fail -eq 0 ]; then echo "layers: 1 passed, 0 failed"; else echo "layers: 0 passed, 1 failed"; fi
exit $fail
