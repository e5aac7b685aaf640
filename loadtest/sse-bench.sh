#!/usr/bin/env bash
# What 500 live-event clients cost the coordinator (issue 13: < 50 MB extra): a release coordinator
# and one worker on their own PostgreSQL and Redis; clients.py first holds N idle keep-alive
# connections (each made one GET /healthz: the yardstick, what a plain open connection costs the
# server), then N GET /v1/events streams while no-op jobs run, checks that every stream received
# every job's job.succeeded event, and prints the coordinator's resident memory at each step.
# Several runs, then the medians. Servers and processes it started are stopped on exit.
#   loadtest/sse-bench.sh [RUNS] [CLIENTS] [JOBS]     # defaults: 3 runs, 500 clients, 20 jobs
#   BIN_DIR=DIR: run the reelwork binary in DIR instead of building it
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
# shellcheck source=../scripts/lib/services.sh
source scripts/lib/services.sh
# shellcheck source=compare.sh
source loadtest/compare.sh
runs=${1:-3}
clients=${2:-500}
jobs=${3:-20}

rw_install_deps
bin=$(rw_release_bin reelwork)

dir="$root/.local/bench/sse"
rm -rf "$dir" && mkdir -p "$dir" && chmod 755 "$dir"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  rw_stop_postgres "$dir/pg" || true
  rw_stop_redis "$dir/redis" || true
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
pg_port=$(rw_free_port)
redis_port=$(rw_free_port)
api_port=$(rw_free_port)
rw_start_postgres "$dir/pg" "$pg_port" postgres
rw_start_redis "$dir/redis" "$redis_port"
export REELWORK_DATABASE_URL="postgres://postgres@127.0.0.1:${pg_port}/postgres"
export REELWORK_REDIS_URL="redis://127.0.0.1:${redis_port}/0"
export REELWORK_STORAGE_DIR="$dir/videos" REELWORK_BIND="127.0.0.1:${api_port}" REELWORK_DIAGNOSTICS=1
# All clients share one key here: its per-key request rate must allow them to connect at once.
export REELWORK_RATE_LIMIT_PER_SECOND=100000
export REELWORK_COORDINATOR_URL="http://127.0.0.1:${api_port}"
# One client holds one file descriptor in the coordinator: room for the idle and the streaming ones.
(( $(ulimit -n) >= 4096 )) || ulimit -n 4096
"$bin/reelwork" migrate >/dev/null
key=$("$bin/reelwork" keys create --operator | tail -n 1)
worker_key=$("$bin/reelwork" keys create --worker | tail -n 1)
"$bin/reelwork" coordinator >"$dir/coordinator.log" 2>&1 &
coordinator=$!
pids+=("$coordinator")
REELWORK_API_KEY=$worker_key "$bin/reelwork" worker --slots 4 >"$dir/worker.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do curl -fsS "$REELWORK_COORDINATOR_URL/healthz" >/dev/null 2>&1 && break; sleep 0.1; done
ffmpeg -v error -f lavfi -i testsrc2=size=160x120:rate=10 -t 1 -c:v libx264 -pix_fmt yuv420p "$dir/tiny.mp4"
video=$(curl -fsS -X POST --data-binary @"$dir/tiny.mp4" -H "Authorization: Bearer $key" "$REELWORK_COORDINATOR_URL/v1/videos?filename=tiny.mp4" |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["id"])')

echo "==> ${runs} runs: ${clients} idle connections, then ${clients} event streams while ${jobs} no-op jobs run"
for run in $(seq "$runs"); do
  python3 loadtest/sse-bench/clients.py --url "$REELWORK_COORDINATOR_URL" --key "$key" --video "$video" --pid "$coordinator" \
    --clients "$clients" --jobs "$jobs" | tee "$dir/run-$run.txt"
done
idle=$(grep -ho 'idle_delta_mib=[0-9.-]*' "$dir"/run-*.txt | cut -d= -f2 | rw_median)
streams=$(grep -ho 'streams_delta_mib=[0-9.-]*' "$dir"/run-*.txt | cut -d= -f2 | rw_median)
# The first run, on a fresh coordinator, grows it most; later runs reuse memory the allocator kept.
worst=$(grep -ho 'streams_delta_mib=[0-9.-]*' "$dir"/run-*.txt | cut -d= -f2 | sort -n | tail -n 1)
echo
echo "median over ${runs} runs: ${clients} idle connections +${idle} MiB; ${clients} event streams +${streams} MiB" \
  "($(python3 -c "print(round(${streams} * 1024 / ${clients}, 1))") KiB a stream); the most any run added: +${worst} MiB" \
  "(target: < 50 MB for 500)"
