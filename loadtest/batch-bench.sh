#!/usr/bin/env bash
# The batch benchmark (issue 12): N no-op jobs created through the coordinator's API in batches of
# 500 (POST /v1/batches, then one POST /v1/batches/{id}/jobs per batch), claimed and run by
# `reelwork worker` processes, state in a durable PostgreSQL; beside it, in the same script and on
# the same servers, the same jobs created one per request (queue-bench.sh's mode), and Celery 5
# running the same number of no-op tasks with the same concurrency on the same Redis (Celery keeps
# no per-stage state: it only stores each task's result). Runs alternate (batches, one per request,
# Celery) so all three see the same machine; it prints each run, the medians and the ratios, and
# pgbench's select-only rate first, to compare this machine's state with other days. Servers are
# stopped on exit.
#   loadtest/batch-bench.sh [RUNS] [JOBS]     # defaults: 5 runs, 20000 jobs; WORKERS=2 SLOTS=6
#   CELERY_WORKERS (default WORKERS × SLOTS: the same number of jobs at once), CELERY_POOL=prefork
#   BIN_DIR=DIR: run the reelwork and queue-loadtest binaries in DIR instead of building them
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
# shellcheck source=../scripts/lib/services.sh
source scripts/lib/services.sh
# shellcheck source=compare.sh
source loadtest/compare.sh
runs=${1:-5}
jobs=${2:-20000}
workers=${WORKERS:-2}
slots=${SLOTS:-6}
batch=${BATCH:-500}
celery_workers=${CELERY_WORKERS:-$((workers * slots))}
celery_pool=${CELERY_POOL:-prefork}

rw_install_deps
python=$(loadtest/celery/setup.sh)
bin=$(rw_release_bin reelwork queue-loadtest)

dir="$root/.local/bench/batch"
rm -rf "$dir" && mkdir -p "$dir" && chmod 755 "$dir"
cleanup() { rw_stop_postgres "$dir/pg" || true; rw_stop_redis "$dir/redis" || true; }
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
pg_port=$(rw_free_port)
redis_port=$(rw_free_port)
RW_PG_EXTRA_CONF="shared_preload_libraries = 'pg_stat_statements'
max_connections = 200" rw_start_postgres "$dir/pg" "$pg_port" postgres
rw_start_redis "$dir/redis" "$redis_port"
psql -X -q -h 127.0.0.1 -p "$pg_port" -U postgres -d postgres -c "CREATE EXTENSION IF NOT EXISTS pg_stat_statements"
admin="postgres://postgres@127.0.0.1:${pg_port}/postgres"

echo
echo "==> this machine today: pgbench select-only, 8 clients, 10 s"
psql -X -q -h 127.0.0.1 -p "$pg_port" -U postgres -d postgres -c "CREATE DATABASE pgbench"
pgbench -q -i -s 4 -h 127.0.0.1 -p "$pg_port" -U postgres pgbench >/dev/null 2>&1
echo "$(pgbench -n -S -c 8 -j 2 -T 10 -h 127.0.0.1 -p "$pg_port" -U postgres pgbench 2>/dev/null | awk '/^tps/ {print $3; exit}') tps"

reelwork_run() {   # NAME RUN DRIVER-ARGS...; sets rate and cpu
  local out="$dir/$1-$2.txt"
  "$bin/queue-loadtest" --binary "$bin/reelwork" --admin-database-url "$admin" --redis-url "redis://127.0.0.1:${redis_port}/0" \
    --workers "$workers" --slots "$slots" --jobs "$jobs" --coordinator-port "$(rw_free_port)" "${@:3}" >"$out" 2>&1 \
    || { cat "$out"; echo "queue-loadtest failed ($1, run $2)" >&2; exit 1; }
  grep -q FAILED "$out" && { cat "$out"; echo "an invariant failed ($1, run $2)" >&2; exit 1; }
  rate=$(awk '/^  throughput/ { print $2 }' "$out")
  cpu=$(awk '/^  CPU/ { print $2 }' "$out")
}
celery_run() {   # RUN; sets rate and cpu
  local out="$dir/celery-$1.txt"
  # A db of its own (1) on the same Redis server, every key under Celery's own prefix.
  "$python" loadtest/celery/noop_bench.py --redis-url "redis://127.0.0.1:${redis_port}/1" --jobs "$jobs" \
    --workers "$celery_workers" --pool "$celery_pool" --log "$dir/celery-worker-$1.log" >"$out" 2>&1 \
    || { cat "$out"; echo "the Celery run failed (run $1)" >&2; exit 1; }
  rate=$(grep -o 'jobs_per_s=[0-9.]*' "$out" | cut -d= -f2)
  cpu=$(grep -o 'cpu_ms_per_job=[0-9.]*' "$out" | cut -d= -f2)
}

echo
echo "==> ${runs} alternating runs of ${jobs} no-op jobs (${workers} Reelwork workers × ${slots} slots, ${celery_workers} Celery ${celery_pool} workers)"
echo "    load average $(cut -d' ' -f1-3 /proc/loadavg)"
# Each column: jobs/s end to end, and in brackets the milliseconds of CPU per job spent by the whole
# stack (its processes, its servers and its driver), a figure the neighbours' load moves much
# less than the rate.
printf '%-4s %22s %22s %22s %16s\n' run "batches of $batch" "one job per request" "celery" "batches / celery"
batched=() single=() celery=() batched_cpu=() single_cpu=() celery_cpu=() ratios=()
for i in $(seq 1 "$runs"); do
  reelwork_run batches "$i" --batch-size "$batch" --submitters 4; b=$rate bc=$cpu
  reelwork_run single "$i" --submitters 16; s=$rate sc=$cpu
  celery_run "$i"; c=$rate cc=$cpu
  batched+=("$b") single+=("$s") celery+=("$c") batched_cpu+=("$bc") single_cpu+=("$sc") celery_cpu+=("$cc")
  ratios+=("$(awk -v b="$b" -v c="$c" 'BEGIN { printf "%.2f", b / c }')")
  printf '%-4s %14s (%5s ms) %14s (%5s ms) %14s (%5s ms) %16s\n' "$i" "$b" "$bc" "$s" "$sc" "$c" "$cc" "${ratios[-1]}"
done
median() { printf '%s\n' "$@" | rw_median; }
mb=$(median "${batched[@]}") ms=$(median "${single[@]}") mc=$(median "${celery[@]}")
printf '%-4s %14s (%5s ms) %14s (%5s ms) %14s (%5s ms)\n' median "$mb" "$(median "${batched_cpu[@]}")" \
  "$ms" "$(median "${single_cpu[@]}")" "$mc" "$(median "${celery_cpu[@]}")"
echo "batches / celery: $(awk -v b="$mb" -v c="$mc" 'BEGIN { printf "%.2f", b / c }') (medians), $(median "${ratios[@]}") (median of the run-by-run ratios)"
echo "batches / one job per request: $(awk -v b="$mb" -v s="$ms" 'BEGIN { printf "%.2f", b / s }') (medians)"
echo "load average after the runs: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "the last batch run in full:"
cat "$dir/batches-${runs}.txt"
