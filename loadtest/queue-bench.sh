#!/usr/bin/env bash
# The queue benchmark: builds release binaries, starts a durable PostgreSQL (pg_stat_statements
# loaded) and Redis (AOF everysec) on free ports under .local/bench/queue, measures the servers'
# own limits with redis-benchmark and pgbench, then runs queue-loadtest RUNS times (no-op jobs)
# plus one chaos run and one tiny-clip run, and prints everything. Servers are stopped on exit.
#   loadtest/queue-bench.sh [JOBS] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
# shellcheck source=../scripts/lib/services.sh
source scripts/lib/services.sh
jobs=${1:-3000}
runs=${2:-3}
workers=${WORKERS:-2}
slots=${SLOTS:-6}

rw_install_deps
echo "==> building release binaries"
swift build -c release --product reelwork >/dev/null
swift build -c release --product queue-loadtest >/dev/null

dir="$root/.local/bench/queue"
rm -rf "$dir" && mkdir -p "$dir" && chmod 755 "$dir"
cleanup() { rw_stop_postgres "$dir/pg" || true; rw_stop_redis "$dir/redis" || true; }
trap cleanup EXIT INT TERM
pg_port=$(rw_free_port)
redis_port=$(rw_free_port)
RW_PG_EXTRA_CONF="shared_preload_libraries = 'pg_stat_statements'
max_connections = 200" rw_start_postgres "$dir/pg" "$pg_port" postgres
rw_start_redis "$dir/redis" "$redis_port"
psql=(psql -X -q -h 127.0.0.1 -p "$pg_port" -U postgres)
"${psql[@]}" -d postgres -c "CREATE EXTENSION IF NOT EXISTS pg_stat_statements"

echo
echo "==> yardsticks: the servers' own limits on this machine"
echo "redis-benchmark (50 clients, 200k requests each test):"
# -q still draws a progress line with carriage returns; keep only each test's final figure.
finals() { tr '\r' '\n' | grep 'requests per second'; }
redis-benchmark -p "$redis_port" -q -n 200000 -t ping_mbulk,lpush,rpop,hset | finals
redis-benchmark -p "$redis_port" -q -n 200000 eval "redis.call('HINCRBY', KEYS[1], 'a', 1) return redis.call('ZADD', KEYS[2], 1, ARGV[1])" 2 bench:h bench:z m | finals
"${psql[@]}" -d postgres -c "CREATE DATABASE pgbench"
pgbench -q -i -s 4 -h 127.0.0.1 -p "$pg_port" -U postgres pgbench >/dev/null 2>&1
for mode in "-S select-only" "-N simple-update (durable commits)"; do
  flag=${mode%% *}
  tps=$(pgbench -n "$flag" -c 8 -j 2 -T 10 -h 127.0.0.1 -p "$pg_port" -U postgres pgbench 2>/dev/null | awk '/^tps/ {print $3; exit}')
  echo "pgbench ${mode#* }, 8 clients, 10 s: ${tps} tps"
done
# pgbench -N is 5 statements per transaction (3 UPDATE/INSERT + BEGIN/END).

admin="postgres://postgres@127.0.0.1:${pg_port}/postgres"
redis="redis://127.0.0.1:${redis_port}/0"
driver=(.build/release/queue-loadtest --binary .build/release/reelwork --admin-database-url "$admin" --redis-url "$redis"
        --workers "$workers" --slots "$slots")

echo
echo "==> ${runs} runs of ${jobs} no-op jobs (enqueue → claim → stage updates → complete, state in PostgreSQL)"
for i in $(seq 1 "$runs"); do
  "${psql[@]}" -d postgres -c "SELECT pg_stat_statements_reset()" >/dev/null
  "${driver[@]}" --jobs "$jobs" | tee "$dir/run-$i.txt"
done
echo
printf 'median throughput over %s runs: ' "$runs"
grep -h "throughput" "$dir"/run-*.txt | awk '{print $2}' | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)] " jobs/s"}'

echo
echo "==> latency at a steady 500 jobs/s"
"${driver[@]}" --jobs 3000 --rate 500

echo
echo "==> chaos: 1000 no-op jobs while a random worker is SIGKILLed every 2–4 s, caps 8 global / 4 per club"
"${driver[@]}" --jobs 1000 --rate 150 --chaos --global-cap 8 --club-cap 4

echo
echo "==> 200 real tiny clips (probe + decode)"
"${driver[@]}" --jobs 200 --clips
