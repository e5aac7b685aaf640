#!/usr/bin/env bash
# Command one: install what is missing, build, start a local Reelwork stack (PostgreSQL, Redis,
# a coordinator and two workers, all on 127.0.0.1 with data under .local/stack), submit sample
# clips, show their per-stage progress, and print the results. scripts/stop-local.sh stops it.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
# shellcheck source=lib/services.sh
source scripts/lib/services.sh

rw_install_deps
scripts/setup-models.sh

# Release: the workers then analyse at the speed users see (the per-frame Swift code, resizing and
# tracking, is unoptimised in a debug build).
# The first build compiles every dependency with optimisation, about 20 minutes on 2 cores; SwiftPM
# prints each step as it goes. Later runs find it built and go on at once.
echo "==> building reelwork in release mode (the first build takes about 20 minutes on 2 cores; later ones seconds)"
swift build -c release --product reelwork
bin_dir=$(swift build -c release --show-bin-path)
bin="$bin_dir/reelwork"

stack="$root/.local/stack"
mkdir -p "$stack/logs" "$stack/pids"
scripts/stop-local.sh --quiet || true

# Below Linux's ephemeral range (32768–60999): a port in it can be taken for a moment by any
# outgoing connection, the workers' own among them, and the coordinator would fail to bind.
pg_port=${REELWORK_LOCAL_PG_PORT:-25432}
redis_port=${REELWORK_LOCAL_REDIS_PORT:-26379}
http_port=${REELWORK_LOCAL_HTTP_PORT:-28080}

echo "==> starting PostgreSQL on 127.0.0.1:${pg_port} and Redis on 127.0.0.1:${redis_port}"
rw_start_postgres "$stack/pg" "$pg_port" reelwork
rw_start_redis "$stack/redis" "$redis_port"

export REELWORK_DATABASE_URL="postgres://postgres@127.0.0.1:${pg_port}/reelwork"
export REELWORK_REDIS_URL="redis://127.0.0.1:${redis_port}/0"
export REELWORK_STORAGE_DIR="$stack/storage"
export REELWORK_BIND="127.0.0.1:${http_port}"
export REELWORK_COORDINATOR_URL="http://127.0.0.1:${http_port}"
# Webhooks may reach a receiver on this machine, so a newcomer can try them here; every other
# internal address stays refused.
export REELWORK_WEBHOOK_ALLOW_ADDRESSES="127.0.0.1/32"

echo "==> migrating"
"$bin" migrate --dir "$root/migrations"

echo "==> making API keys (an operator's, the demo club's, the workers')"
# Keys are made straight in PostgreSQL: the first one needs no running coordinator.
operator_key=$("$bin" keys create --operator --label "run-local operator" | tail -1)
club_key=$("$bin" keys create --club demo-club --label "run-local demo club" | tail -1)
worker_key=$("$bin" keys create --worker --label "run-local workers" | tail -1)

echo "==> starting the coordinator on ${REELWORK_BIND} and two workers"
nohup "$bin" coordinator >"$stack/logs/coordinator.log" 2>&1 &
echo $! >"$stack/pids/coordinator.pid"
for i in 1 2; do
  REELWORK_API_KEY=$worker_key nohup "$bin" worker --worker-id "local-worker-$i" >"$stack/logs/worker-$i.log" 2>&1 &
  echo $! >"$stack/pids/worker-$i.pid"
done
for _ in $(seq 1 100); do
  curl -fsS "$REELWORK_COORDINATOR_URL/healthz" >/dev/null 2>&1 && break
  sleep 0.2
done
curl -fsS "$REELWORK_COORDINATOR_URL/healthz" >/dev/null || { echo "coordinator did not start; see $stack/logs/coordinator.log" >&2; tail -20 "$stack/logs/coordinator.log" >&2; exit 1; }

echo "==> making the tennis samples in .local/samples (a real photo of a person swinging, each with its known truth)"
scripts/make-samples.sh "$root/.local/samples"

echo "==> rendering a bowling sample (a lane from behind the bowler, four shots with known truth)"
bowling="$root/.local/samples-bowling/lane-720p.mp4"
if [ ! -s "$bowling" ] || [ ! -s "$bowling.options.json" ] || [ ! -s "$bowling.truth.json" ]; then
  mkdir -p "$(dirname "$bowling")"
  echo "    (building the renderer, bowling-bench, in release mode too: it shares the build above)"
  swift build -c release --product bowling-bench
  # Rendered under a temporary name, so an interrupted run leaves no half-made clip behind.
  "$bin_dir/bowling-bench" render "$bowling.tmp.mp4" --seconds 15 --camera 720p | tee "$bowling.truth.txt"
  mv "$bowling.tmp.mp4.options.json" "$bowling.options.json"
  mv "$bowling.tmp.mp4.truth.json" "$bowling.truth.json"
  mv "$bowling.tmp.mp4" "$bowling"
else
  cat "$bowling.truth.txt" 2>/dev/null || true
fi

echo "==> rendering a basketball sample (a side-view shooting session at 720p30, every attempt with known truth)"
basketball="$root/.local/samples-basketball/session-720p.mp4"
if [ ! -s "$basketball" ] || [ ! -s "$basketball.truth.json" ]; then
  mkdir -p "$(dirname "$basketball")"
  swift build -c release --product basketball-bench
  "$bin_dir/basketball-bench" render "$basketball.tmp.mp4" --seconds 30 --fps 30 --height 720 | tee "$basketball.truth.txt"
  mv "$basketball.tmp.mp4.truth.json" "$basketball.truth.json"
  rm -f "$basketball.tmp.mp4.options.json"   # the sample finds the rim itself
  mv "$basketball.tmp.mp4" "$basketball"
else
  cat "$basketball.truth.txt" 2>/dev/null || true
fi

echo "==> rendering an archery sample (a photo of a face 20° off axis with six arrows, known truth)"
archery="$root/.local/samples-archery/end-20deg.jpg"
# A truth from before archery's y turned downwards (migration 0013) names no convention: made again.
if [ ! -s "$archery" ] || ! grep -q '"convention":"y down"' "$archery.truth.json" 2>/dev/null; then
  mkdir -p "$(dirname "$archery")"
  swift build -c release --product archery-bench
  # A binary PPM from the renderer, then a JPEG made by ffmpeg with 4:2:0 chroma, as phones store them.
  "$bin_dir/archery-bench" render "$archery.ppm" | tee "$archery.truth.txt"
  ffmpeg -nostdin -hide_banner -loglevel error -y -i "$archery.ppm" -pix_fmt yuvj420p -q:v 2 "$archery.tmp.jpg"
  mv "$archery.ppm.truth.json" "$archery.truth.json"
  mv "$archery.tmp.jpg" "$archery"
  rm -f "$archery.ppm"
else
  cat "$archery.truth.txt" 2>/dev/null || true
fi

echo "==> submitting as demo-club"
export REELWORK_API_KEY=$club_key
tennis_samples=("$root"/.local/samples/tennis-*.mp4)
"$bin" submit "${tennis_samples[@]}" --sport tennis >"$stack/tennis-jobs.txt"
"$bin" submit "$bowling" --sport bowling --options "$bowling.options.json" >"$stack/bowling-job.txt"
"$bin" submit "$basketball" --sport basketball >"$stack/basketball-job.txt"
"$bin" submit "$archery" --sport archery >"$stack/archery-job.txt"
cat "$stack/tennis-jobs.txt" "$stack/bowling-job.txt" "$stack/basketball-job.txt" "$stack/archery-job.txt" >"$stack/job-ids.txt"
# Which job is which clip (submit prints one id per file, in order), for the truth beside each result.
paste -d ' ' "$stack/job-ids.txt" <(printf '%s\n' "${tennis_samples[@]}" "$bowling" "$basketball" "$archery") >"$stack/job-clips.txt"

echo "==> progress"
"$bin" jobs watch $(cat "$stack/job-ids.txt") || true

echo
echo "==> results"
"$bin" jobs results $(cat "$stack/job-ids.txt")
echo
echo "==> each result beside its clip's known truth"
"$bin" jobs results $(cat "$stack/job-ids.txt") --format json >"$stack/results.json"
python3 scripts/lib/sample-truth.py "$stack/job-clips.txt" "$stack/results.json"
echo
echo "==> the bowling job's shots (CSV)"
"$bin" jobs results "$(cat "$stack/bowling-job.txt")" --format csv

cat <<MSG

The stack is still running:
  API          $REELWORK_COORDINATOR_URL   (try: curl -H "Authorization: Bearer \$REELWORK_API_KEY" $REELWORK_COORDINATOR_URL/v1/jobs)
  dashboard    $REELWORK_COORDINATOR_URL/dashboard   (sign in with either key below)
  keys         operator   $operator_key
               demo-club  $club_key
               (shown once; \`$bin keys list\` lists them, \`$bin keys revoke ID\` ends one)
  CLI          export REELWORK_COORDINATOR_URL=$REELWORK_COORDINATOR_URL REELWORK_API_KEY=$club_key; $bin jobs list
  webhooks     receivers on 127.0.0.1 are allowed here: $bin webhooks create http://127.0.0.1:9000/hook
  PostgreSQL   psql $REELWORK_DATABASE_URL
  logs         $stack/logs/
  stop it      scripts/stop-local.sh
MSG
