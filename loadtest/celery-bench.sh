#!/usr/bin/env bash
# The Celery yardstick for the queue benchmark (issue 12): Celery 5 (pinned venv under
# .local/celery-venv, made by loadtest/celery/setup.sh) on a throwaway Redis started like ours
# (scripts/lib/services.sh: AOF everysec, on a free port under .local/bench/celery), N no-op
# tasks enqueued in chunks of 500 and run by W worker processes (prefork pool, concurrency W;
# POOL=threads for one process of W threads), acks late, results stored in Redis. Runs RUNS
# times, each with a fresh worker, prints every run's line and the median jobs/s. Redis is
# stopped on exit.
#   loadtest/celery-bench.sh [RUNS] [JOBS] [WORKERS]    # defaults: 5 runs, 20000 jobs, 4 workers
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
# shellcheck source=../scripts/lib/services.sh
source scripts/lib/services.sh
runs=${1:-5}
jobs=${2:-20000}
workers=${3:-4}
pool=${POOL:-prefork}

command -v redis-server >/dev/null 2>&1 || rw_install_deps
python=$(loadtest/celery/setup.sh)

dir="$root/.local/bench/celery"
rm -rf "$dir" && mkdir -p "$dir"
# Ctrl-C or TERM ends the script (noop_bench.py stops its own worker); Redis is stopped on exit.
trap 'rw_stop_redis "$dir/redis" || true' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
redis_port=$(rw_free_port)
rw_start_redis "$dir/redis" "$redis_port"
# A db of its own on top of the key prefix, so it can share a Redis with our queue (db 0).
redis="redis://127.0.0.1:${redis_port}/1"

# The machine is shared: the load average says how busy it was around the runs.
echo "==> ${runs} runs of ${jobs} no-op Celery tasks, ${workers} workers (${pool} pool); load average $(cut -d' ' -f1-3 /proc/loadavg)"
for i in $(seq 1 "$runs"); do
  "$python" loadtest/celery/noop_bench.py --redis-url "$redis" --jobs "$jobs" --workers "$workers" \
    --pool "$pool" --log "$dir/worker-$i.log" | tee "$dir/run-$i.txt"
done
median() {   # FIELD: the median of FIELD=VALUE over the runs
  grep -ho "$1=[0-9.]*" "$dir"/run-*.txt | cut -d= -f2 | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'
}
echo "celery median over ${runs} runs: $(median jobs_per_s) jobs/s, $(median cpu_ms_per_job) ms CPU per job"
echo "load average after the runs: $(cut -d' ' -f1-3 /proc/loadavg)"
