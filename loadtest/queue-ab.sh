#!/usr/bin/env bash
# The queue driver on this tree and on BASELINE_REV side by side: one durable PostgreSQL and one
# Redis, runs alternating (this tree, then the baseline) so both see the same machine, each run
# with its own workers and database. For a change that must not slow the queue down, this is the
# comparison that holds on a noisy machine: absolute figures from queue-bench.sh move with the
# neighbours, the ratio between two builds measured together does not.
#   loadtest/queue-ab.sh [RUNS] [BASELINE_REV] [-- DRIVER-ARGS...]
#   defaults: 3 runs, cd28ea8, --jobs 5000 (no-op jobs); e.g. -- --jobs 60 --clips
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
runs=${1:-3}
rev=${2:-cd28ea8}
shift $(( $# < 2 ? $# : 2 ))
[[ ${1:-} == -- ]] && shift
driver_args=("$@")
(( ${#driver_args[@]} )) || driver_args=(--jobs 5000)
# shellcheck source=../scripts/lib/services.sh
source scripts/lib/services.sh
# shellcheck source=compare.sh
source loadtest/compare.sh
rw_install_deps

dir="$root/.local/bench/queue-ab"
mkdir -p "$dir"
chmod 755 "$dir"
echo "==> building release binaries: this tree, and $rev (in .local/bench/baseline)"
swift build -c release --product reelwork >/dev/null
swift build -c release --product queue-loadtest >/dev/null
current_bin=$(swift build -c release --show-bin-path)
baseline_bin=$(rw_build_baseline "$root/.local/bench/baseline" "$rev" reelwork queue-loadtest)

rm -rf "$dir/servers" && mkdir -p "$dir/servers" && chmod 755 "$dir/servers"
cleanup() { rw_stop_postgres "$dir/servers/pg" || true; rw_stop_redis "$dir/servers/redis" || true; }
trap cleanup EXIT INT TERM
pg_port=$(rw_free_port)
redis_port=$(rw_free_port)
RW_PG_EXTRA_CONF="max_connections = 200" rw_start_postgres "$dir/servers/pg" "$pg_port" postgres
rw_start_redis "$dir/servers/redis" "$redis_port"
admin="postgres://postgres@127.0.0.1:${pg_port}/postgres"
redis="redis://127.0.0.1:${redis_port}/0"

run() {   # NAME SOURCE-DIR BIN-DIR RUN
  local out="$dir/$1-$4.txt"
  (cd "$2" && "$3/queue-loadtest" --binary "$3/reelwork" --admin-database-url "$admin" --redis-url "$redis" \
    --workers "${WORKERS:-2}" --slots "${SLOTS:-6}" "${driver_args[@]}") >"$out" 2>&1 \
    || { cat "$out"; echo "queue-loadtest failed ($1, run $4)" >&2; exit 1; }
  grep -q FAILED "$out" && { cat "$out"; echo "an invariant failed ($1, run $4)" >&2; exit 1; }
  awk '/^  throughput/ { sub(/^.*jobs\/s end to end \(/, ""); sub(/ s;.*/, ""); print }' "$out"
}
echo "==> $runs alternating runs of: queue-loadtest ${driver_args[*]}"
printf '%-4s %14s %14s %8s\n' run "this tree (s)" "$rev (s)" ratio
current_times=() baseline_times=() ratios=()
for i in $(seq 1 "$runs"); do
  c=$(run current "$root" "$current_bin" "$i")
  b=$(run baseline "$root/.local/bench/baseline" "$baseline_bin" "$i")
  current_times+=("$c") baseline_times+=("$b")
  ratios+=("$(awk -v c="$c" -v b="$b" 'BEGIN { printf "%.3f", c / b }')")
  printf '%-4s %14s %14s %8s\n' "$i" "$c" "$b" "${ratios[-1]}"
done
median() { printf '%s\n' "$@" | rw_median; }
mc=$(median "${current_times[@]}")
mb=$(median "${baseline_times[@]}")
awk -v c="$mc" -v b="$mb" -v rev="$rev" 'BEGIN {
  printf "median wall time: this tree %s s, %s %s s; this tree / baseline: %.3f (lower is faster)\n", c, rev, b, c / b }'
echo "median of the run-by-run ratios: $(median "${ratios[@]}")"
