#!/usr/bin/env bash
# What one real job costs the shared servers (issue 15's capacity model, docs/SCALING.md): runs
# real clips (the main command's samples: tennis 1080p and 720p, the bowling lane) through a
# release coordinator and WORKERS workers that read the videos over HTTP from the coordinator
# (REELWORK_VIDEO_SOURCE=http, as on machines that share no disk), on a durable PostgreSQL with
# pg_stat_statements and on Redis, and prints, per job and per second of a job running:
#   PostgreSQL statements, write transactions, rows written, WAL bytes;
#   Redis commands executed (INFO's total, which counts those inside the queue's scripts too),
#   bytes in and out, live events published;
#   bytes the coordinator sent (the videos streamed to workers, and API answers).
# Uploads are done before the counters start: the figures are what running the jobs costs.
#   loadtest/job-costs.sh [ROUNDS]     # default 2 rounds of the samples; WORKERS=1 SLOTS=2
#   BIN_DIR=DIR: run the reelwork binary in DIR instead of building it
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
# shellcheck source=../scripts/lib/services.sh
source scripts/lib/services.sh
# shellcheck source=compare.sh
source loadtest/compare.sh
rounds=${1:-2}
workers=${WORKERS:-1}
slots=${SLOTS:-2}

rw_install_deps
scripts/setup-models.sh >/dev/null
bin=$(rw_release_bin reelwork)

dir="$root/.local/bench/job-costs"
rm -rf "$dir" && mkdir -p "$dir/logs" && chmod 755 "$dir"
pids=()
cleanup() {
  local pid
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do rw__wait_exit "$pid" 20 || kill -KILL "$pid" 2>/dev/null || true; done
  rw_stop_postgres "$dir/pg" || true
  rw_stop_redis "$dir/redis" || true
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

samples=("$root"/.local/samples/patterns/serve-1080p.mp4 "$root"/.local/samples/patterns/rally-720p.mp4)
bowling="$root/.local/samples-bowling/lane-720p.mp4"
for clip in "${samples[@]}" "$bowling" "$bowling.options.json"; do
  [[ -s $clip ]] || { echo "missing $clip: run scripts/run-local.sh once (it makes the samples)" >&2; exit 1; }
done

pg_port=$(rw_free_port)
redis_port=$(rw_free_port)
http_port=$(rw_free_port)
RW_PG_EXTRA_CONF="shared_preload_libraries = 'pg_stat_statements'" rw_start_postgres "$dir/pg" "$pg_port" reelwork
rw_start_redis "$dir/redis" "$redis_port"
psql=(psql -X -q -tA -h 127.0.0.1 -p "$pg_port" -U postgres -d reelwork)
redis=(redis-cli -p "$redis_port")
"${psql[@]}" -c "CREATE EXTENSION IF NOT EXISTS pg_stat_statements"
export REELWORK_DATABASE_URL="postgres://postgres@127.0.0.1:${pg_port}/reelwork"
export REELWORK_REDIS_URL="redis://127.0.0.1:${redis_port}/0"
export REELWORK_STORAGE_DIR="$dir/storage"
export REELWORK_BIND="127.0.0.1:${http_port}"
export REELWORK_COORDINATOR_URL="http://127.0.0.1:${http_port}"
"$bin/reelwork" migrate --dir migrations >/dev/null
club_key=$("$bin/reelwork" keys create --club costs --label "job-costs club" | tail -1)
worker_key=$("$bin/reelwork" keys create --worker --label "job-costs workers" | tail -1)

"$bin/reelwork" coordinator >"$dir/logs/coordinator.log" 2>&1 &
coordinator_pid=$!
pids+=("$coordinator_pid")
for _ in $(seq 1 100); do curl -fsS "$REELWORK_COORDINATOR_URL/healthz" >/dev/null 2>&1 && break; sleep 0.2; done
curl -fsS "$REELWORK_COORDINATOR_URL/healthz" >/dev/null || { tail -20 "$dir/logs/coordinator.log" >&2; exit 1; }

# Uploads first, before any worker runs, so no job starts before the counters do.
export REELWORK_API_KEY=$club_key
: >"$dir/job-ids.txt"
for round in $(seq 1 "$rounds"); do
  # Each round's jobs are new: identical options are the same job.
  echo "{\"note\": \"round $round\"}" >"$dir/tennis-$round.json"
  "$bin/reelwork" submit "${samples[@]}" --sport tennis --options "$dir/tennis-$round.json" >>"$dir/job-ids.txt"
  jq -c --arg r "$round" '. + {note: ("round " + $r)}' "$bowling.options.json" >"$dir/bowling-$round.json"
  "$bin/reelwork" submit "$bowling" --sport bowling --options "$dir/bowling-$round.json" >>"$dir/job-ids.txt"
done
jobs=$(wc -l <"$dir/job-ids.txt")
video_bytes=$(( ($(stat -c %s "${samples[@]}" | paste -sd+ | bc) + $(stat -c %s "$bowling")) * rounds ))

counters() {   # one line: pg statements, rows written, xact id, WAL bytes, redis commands, redis bytes, events, coordinator wchar
  local statements rows xact wal commands bytes events wchar
  read -r statements rows < <("${psql[@]}" -F ' ' -c "SELECT COALESCE(sum(calls), 0),
                                    COALESCE(sum(rows) FILTER (WHERE s.query ~* '^\s*(INSERT|UPDATE|DELETE)'), 0)
                                    FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid WHERE d.datname = 'reelwork'")
  xact=$("${psql[@]}" -c "SELECT pg_current_xact_id()::text::bigint")
  wal=$("${psql[@]}" -c "SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint")
  commands=$("${redis[@]}" INFO stats | tr -d '\r' | awk -F: '/^total_commands_processed:/ {print $2}')
  bytes=$("${redis[@]}" INFO stats | tr -d '\r' | awk -F: '/^total_net_(input|output)_bytes:/ {n += $2} END {print n}')
  events=$("${redis[@]}" XINFO STREAM reelwork:events 2>/dev/null | tr -d '\r' | awk 'p {print; exit} /^entries-added$/ {p = 1}')
  wchar=$(awk '/^wchar:/ {print $2}' "/proc/$coordinator_pid/io")
  echo "$statements $rows $xact $wal $commands $bytes ${events:-0} $wchar"
}

echo "==> $jobs jobs ($rounds rounds of 2 tennis clips and 1 bowling clip; $(( video_bytes / 1000000 )) MB of video), $workers workers × $slots slots, videos over HTTP"
before=$(counters)
started=$(date +%s.%N)
for i in $(seq 1 "$workers"); do
  REELWORK_API_KEY=$worker_key REELWORK_VIDEO_SOURCE=http REELWORK_WORKER_SLOTS=$slots \
    "$bin/reelwork" worker --worker-id "costs-$i" >"$dir/logs/worker-$i.log" 2>&1 &
  pids+=("$!")
done
while [[ $("${psql[@]}" -c "SELECT count(*) FROM jobs WHERE status NOT IN ('succeeded', 'failed', 'cancelled')") != 0 ]]; do sleep 1; done
elapsed=$(awk -v s="$started" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }')
after=$(counters)
"${psql[@]}" -c "SELECT status || ': ' || count(*) FROM jobs GROUP BY status"
job_seconds=$("${psql[@]}" -c "SELECT round(sum(EXTRACT(EPOCH FROM finished_at - started_at))::numeric, 1) FROM jobs")
video_seconds=$("${psql[@]}" -c "SELECT round(sum(v.duration_seconds)::numeric, 1) FROM jobs j JOIN videos v ON v.id = j.video_id")

read -r -a b <<<"$before"
read -r -a a <<<"$after"
report() {   # LABEL INDEX
  awk -v label="$1" -v d="$(( a[$2] - b[$2] ))" -v jobs="$jobs" -v js="$job_seconds" \
    'BEGIN { printf "  %-44s %12.1f per job %10.2f per job-second\n", label, d / jobs, d / js }'
}
echo
echo "ran in $elapsed s; the jobs ran $job_seconds job-seconds in all (start to end of each) for $video_seconds s of video"
report "PostgreSQL statements" 0
report "PostgreSQL rows written (INSERT/UPDATE/DELETE)" 1
report "PostgreSQL write transactions" 2
report "PostgreSQL WAL bytes" 3
report "Redis commands executed (scripts' included)" 4
report "Redis bytes in and out" 5
report "live events published" 6
report "coordinator bytes written (videos, API)" 7
echo "  video bytes per job (the files)              $(( video_bytes / jobs ))"
