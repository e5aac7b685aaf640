#!/usr/bin/env bash
# Stops the local stack that scripts/run-local.sh started: only the processes it recorded by PID.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=lib/services.sh
source scripts/lib/services.sh
stack="$(pwd)/.local/stack"
quiet=${1:-}
for pidfile in "$stack"/pids/*.pid; do
  [ -f "$pidfile" ] || continue
  pid=$(cat "$pidfile")
  if kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null || true
  fi
  rm -f "$pidfile"
done
[ -d "$stack/pg" ] && rw_stop_postgres "$stack/pg" || true
[ -d "$stack/redis" ] && rw_stop_redis "$stack/redis" || true
[ "$quiet" = "--quiet" ] || echo "local stack stopped (data kept in $stack)"
