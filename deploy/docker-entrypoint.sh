#!/usr/bin/env bash
# Entrypoint of the Meridian image, in the manner of the official postgres image:
#   - the initial user MERIDIAN_USER (default meridian) gets the password from MERIDIAN_PASSWORD
#     or from the file named by MERIDIAN_PASSWORD_FILE (Docker secrets); it is stored as a
#     SCRAM-SHA-256 verifier in the users file ($MERIDIAN_USERS_FILE, default
#     $MERIDIAN_HOME/users), written once, when that file does not exist yet;
#   - without a password meridiand would let anyone in, so the entrypoint refuses to start
#     unless MERIDIAN_AUTH=trust says that is wanted;
#   - on the first start (empty or missing data directory) the *.sql, *.sql.gz and *.sh files
#     of $MERIDIAN_INITDB_DIR (default /docker-entrypoint-initdb.d) run in name order against a
#     temporary meridiand listening on loopback only; *.sh files are run when executable and
#     sourced otherwise (without TLS: MERIDIAN_TLS_* do not reach the temporary meridiand).
#     A failing file stops the start (exit 1);
#   - then meridiand replaces this script (exec), so it is PID 1 and SIGTERM shuts it down
#     gracefully.
# Every other MERIDIAN_* variable (MERIDIAN_DATA_DIR, MERIDIAN_GRPC_LISTEN, MERIDIAN_PG_LISTEN,
# MERIDIAN_AUTH, MERIDIAN_TLS_CERT, ...) is read by meridiand itself (server/README.md).
# A first argument starting with '-' is taken as flags for meridiand; any other command runs
# as given (e.g. `docker run ... meridian -c 'SELECT 1'`).
set -Eeuo pipefail

log() { echo "docker-entrypoint: $*" >&2; }
die() {
  log "error: $*"
  exit 1
}

# file_env VAR: sets VAR from $VAR or from the file named by ${VAR}_FILE; both set is an error.
file_env() {
  local var=$1 file_var="${1}_FILE"
  local value=${!var:-} file=${!file_var:-}
  if [ -n "$value" ] && [ -n "$file" ]; then
    die "both $var and $file_var are set; use one"
  fi
  if [ -n "$file" ]; then
    [ -r "$file" ] || die "$file_var names $file, which cannot be read"
    value=$(<"$file")
  fi
  export "$var"="$value"
  unset "$file_var"
}

# scram_verifier PASSWORD: PostgreSQL's pg_authid.rolpassword form of a SCRAM-SHA-256 secret,
# SCRAM-SHA-256$4096:salt$StoredKey:ServerKey (RFC 5802/7677), computed with the openssl tool.
scram_verifier() {
  local password=$1 iterations=4096 salt_hex salt_b64 salted client_key stored_key server_key
  salt_hex=$(openssl rand -hex 16)
  salt_b64=$(hex_to_base64 "$salt_hex")
  salted=$(openssl kdf -keylen 32 -kdfopt digest:SHA256 -kdfopt "pass:$password" \
    -kdfopt "hexsalt:$salt_hex" -kdfopt "iter:$iterations" PBKDF2 | tr -d ':\n')
  client_key=$(hmac_hex "$salted" "Client Key")
  server_key=$(hmac_hex "$salted" "Server Key")
  stored_key=$(hex_to_bytes "$client_key" | openssl dgst -sha256 -binary | openssl base64 -A)
  echo "SCRAM-SHA-256\$$iterations:$salt_b64\$$stored_key:$(hex_to_base64 "$server_key")"
}

hex_to_bytes() {
  local hex=$1 i
  # printf's %b expands the \xHH escapes built here from the hex digits.
  for ((i = 0; i < ${#hex}; i += 2)); do printf '%b' "\\x${hex:i:2}"; done
}
hex_to_base64() { hex_to_bytes "$1" | openssl base64 -A; }
hmac_hex() {
  printf '%s' "$2" | openssl dgst -sha256 -mac HMAC -macopt "hexkey:$1" -binary |
    od -An -v -tx1 | tr -d ' \n'
}

# port_of HOST:PORT
port_of() { echo "${1##*:}"; }

write_users_file() {
  local user=$1 password=$2 file=$3
  case "$user" in *:* | "") die "MERIDIAN_USER must be a non-empty name without ':'" ;; esac
  mkdir -p "$(dirname "$file")"
  (
    umask 077
    printf '# written by docker-entrypoint.sh on the first start; user:SCRAM-SHA-256 verifier\n%s:%s\n' \
      "$user" "$(scram_verifier "$password")" >"$file.tmp"
  )
  mv "$file.tmp" "$file"
  log "created user $user in $file"
}

run_init_files() {
  local dir=$1 grpc_port pg_port pid f
  grpc_port=$(port_of "${MERIDIAN_GRPC_LISTEN:-127.0.0.1:7432}")
  pg_port=$(port_of "${MERIDIAN_PG_LISTEN:-127.0.0.1:5433}")
  log "first start: running the init files of $dir on a temporary meridiand (loopback only)"
  # Plaintext on loopback: with MERIDIAN_TLS_CERT the gRPC port would accept only TLS, which the
  # init files' shell does not speak unless told.
  env -u MERIDIAN_TLS_CERT -u MERIDIAN_TLS_KEY -u MERIDIAN_TLS_CA \
    meridiand --grpc-listen "127.0.0.1:$grpc_port" --pg-listen "127.0.0.1:$pg_port" --auth trust &
  pid=$!
  # The shell and scripts reach the temporary server through these.
  export MERIDIAN_HOST=127.0.0.1 MERIDIAN_PORT=$grpc_port MERIDIAN_PG_PORT=$pg_port
  local ready=0
  for _ in $(seq 1 300); do
    kill -0 "$pid" 2>/dev/null || break
    if meridian -c 'SELECT 1' >/dev/null 2>&1; then
      ready=1
      break
    fi
    sleep 0.1
  done
  if [ "$ready" -ne 1 ]; then
    kill -TERM "$pid" 2>/dev/null || true
    wait "$pid" || true
    die "the temporary meridiand did not start"
  fi
  local failed=0
  for f in "$dir"/*; do
    [ -e "$f" ] || continue
    case "$f" in
      *.sh)
        if [ -x "$f" ]; then
          log "running $f"
          "$f" || failed=1
        else
          log "sourcing $f"
          # shellcheck disable=SC1090
          . "$f" || failed=1
        fi
        ;;
      *.sql)
        log "running $f"
        meridian -f "$f" >/dev/null || failed=1
        ;;
      *.sql.gz)
        log "running $f"
        gzip -dc "$f" | meridian >/dev/null || failed=1
        ;;
      *) log "ignoring $f" ;;
    esac
    [ "$failed" -eq 0 ] || break
  done
  kill -TERM "$pid"
  local code=0
  wait "$pid" || code=$?
  unset MERIDIAN_HOST MERIDIAN_PORT MERIDIAN_PG_PORT
  [ "$failed" -eq 0 ] || die "init file $f failed; the data directory is kept as it is" \
    "(remove it to run the init files again)"
  [ "$code" -eq 0 ] || die "the temporary meridiand exited with $code"
  log "init files done"
}

main() {
  if [ "${1:0:1}" = "-" ]; then
    set -- meridiand "$@"
  fi
  if [ "$1" != "meridiand" ]; then
    exec "$@"
  fi

  export MERIDIAN_HOME=${MERIDIAN_HOME:-/var/lib/meridian}
  export MERIDIAN_DATA_DIR=${MERIDIAN_DATA_DIR:-$MERIDIAN_HOME/data}
  local users_file=${MERIDIAN_USERS_FILE:-$MERIDIAN_HOME/users}
  local initdb_dir=${MERIDIAN_INITDB_DIR:-/docker-entrypoint-initdb.d}
  local user=${MERIDIAN_USER:-meridian}
  file_env MERIDIAN_PASSWORD

  if [ ! -e "$users_file" ]; then
    if [ -n "$MERIDIAN_PASSWORD" ]; then
      write_users_file "$user" "$MERIDIAN_PASSWORD" "$users_file"
    elif [ "${MERIDIAN_AUTH:-}" != "trust" ]; then
      die "no password for the initial user: set MERIDIAN_PASSWORD or MERIDIAN_PASSWORD_FILE" \
        "(a Docker secret), or MERIDIAN_AUTH=trust to let every client in without one"
    else
      log "WARNING: MERIDIAN_AUTH=trust: every client that reaches the ports gets in"
    fi
  elif [ -n "$MERIDIAN_PASSWORD" ]; then
    log "$users_file exists; MERIDIAN_PASSWORD is used only when it is first created"
  fi
  unset MERIDIAN_PASSWORD
  if [ -e "$users_file" ]; then
    export MERIDIAN_USERS_FILE=$users_file
  fi

  if [ ! -d "$MERIDIAN_DATA_DIR" ] || [ -z "$(ls -A "$MERIDIAN_DATA_DIR")" ]; then
    mkdir -p "$MERIDIAN_DATA_DIR"
    run_init_files "$initdb_dir"
  fi
  exec "$@"
}

main "$@"
