#!/usr/bin/env bash
# A real client's latency while another address sends 10,000 requests with forged (well-formed,
# unknown) keys: the per-address limit (REELWORK_RATE_LIMIT_PER_ADDRESS, default 200/s) against
# the same coordinator with that limit lifted, runs alternating. The yardstick is the real client's
# own quiet latency, measured in the same run just before each flood. Target: the real client's
# p99 under the flood within 2x of its quiet p99 with the limit on. Prints one line per run and the
# medians.
#   loadtest/forged-keys-bench.sh [RUNS] [FORGED]     (defaults: 5 runs, 10000 forged requests)
# REELWORK_BENCH_BIN picks the binary (default: a release build of this tree); RW_FLOOD_NICE the
# flood process's nice (default 19: the attacker's generator takes only idle CPU; 0: an equal).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
runs=${1:-5}
forged=${2:-10000}
# shellcheck source=../scripts/lib/services.sh
source scripts/lib/services.sh
# shellcheck source=compare.sh
source loadtest/compare.sh
rw_install_deps

dir="$root/.local/bench/forged-keys"
mkdir -p "$dir"
chmod 755 "$dir"
if [[ -n ${REELWORK_BENCH_BIN:-} ]]; then
  bin=$REELWORK_BENCH_BIN
else
  echo "==> building the release binary"
  swift build -c release --product reelwork >/dev/null
  bin="$(swift build -c release --show-bin-path)/reelwork"
fi

rw_bench_servers "$dir"
psql=(psql -X -q -h 127.0.0.1 -p "$pg_port" -U postgres)
"${psql[@]}" -d postgres -c "DROP DATABASE IF EXISTS forged" -c "CREATE DATABASE forged" >/dev/null
export REELWORK_DATABASE_URL="postgres://postgres@127.0.0.1:${pg_port}/forged"
export REELWORK_REDIS_URL="redis://127.0.0.1:${redis_port}/0" REELWORK_STORAGE_DIR="$dir/storage" LOG_LEVEL=error
"$bin" migrate --dir "$root/migrations" >/dev/null
key=$("$bin" keys create --club bench | tail -1)

# run LIMIT: one flood against a fresh coordinator whose per-address limit is LIMIT; prints flood.py's line.
run() {
  local limit=$1 port pid
  port=$(rw_free_port)
  REELWORK_BIND="127.0.0.1:$port" REELWORK_RATE_LIMIT_PER_ADDRESS=$limit "$bin" coordinator >"$dir/coordinator.log" 2>&1 &
  pid=$!
  pids+=("$pid")
  for _ in $(seq 1 100); do curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break; sleep 0.1; done
  python3 loadtest/forged-keys/flood.py --url "http://127.0.0.1:$port" --key "$key" --forged "$forged" --flood-nice "${RW_FLOOD_NICE:-19}"
  kill "$pid"
  wait "$pid" 2>/dev/null || true
}

declare -a on_ratio=() off_ratio=()
for i in $(seq 1 "$runs"); do
  on=$(run 200)
  off=$(run 100000000)
  echo "run $i  limit on (200/s):  $on"
  echo "run $i  limit off:         $off"
  on_ratio+=("$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["p99_ratio"])' "$on")")
  off_ratio+=("$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["p99_ratio"])' "$off")")
done
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
echo "median p99 under the flood / quiet p99: limit on $(median "${on_ratio[@]}")x, limit off $(median "${off_ratio[@]}")x (target: on <= 2x)"
