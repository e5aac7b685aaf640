#!/usr/bin/env bash
# Where a job's video bytes travel (issue 30): for each way a worker on another machine can get its
# video, the bytes per job that the coordinator sends, that the store sends and that the worker
# reads, as multiples of the file's size. Counted by the kernel, not by us: each process's
# /proc/PID/io (`wchar`: bytes it wrote to files and sockets; `rchar`: bytes it read), sampled
# before the jobs and after they all succeeded. The modes:
#   http  local storage, the worker streams the video from the coordinator
#         (REELWORK_VIDEO_SOURCE=http, no shared folder): the way before object storage
#   s3    the bucket of a real S3 server (rclone's `serve s3`, tools/s3-server/serve.sh); the
#         worker reads it by a presigned URL, the coordinator serves no video bytes
# Uploads are not counted (they reach the coordinator the same way in both modes today).
#   loadtest/storage-bytes.sh [JOBS]     (default 4 jobs; the debug build, .build/debug/reelwork)
# A few KB a job of API, database and log traffic are in the counts; the clips are ~6 MB so that
# this is noise.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
jobs=${1:-4}
[[ $jobs =~ ^[1-9][0-9]*$ ]] || { echo "usage: $0 [JOBS]" >&2; exit 2; }
# shellcheck source=../scripts/lib/services.sh
source scripts/lib/services.sh
# shellcheck source=compare.sh
source loadtest/compare.sh
rw_install_deps
scripts/setup-models.sh >/dev/null
scripts/setup-s3-server.sh >/dev/null
bin=${REELWORK_BENCH_BIN:-$root/.build/debug/reelwork}
[[ -x $bin ]] || { echo "no $bin: run swift build first" >&2; exit 2; }

dir="$root/.local/bench/storage-bytes"
rm -rf "$dir"; mkdir -p "$dir"; chmod 755 "$dir"
rw_bench_servers "$dir"
s3_port=$(rw_free_port)
psql=(psql -X -q -At -h 127.0.0.1 -p "$pg_port" -U postgres)
mkdir -p "$dir/s3/videos"
# serve.sh runs until its input closes: a FIFO held open by this script.
mkfifo "$dir/s3-hold"
tools/s3-server/serve.sh "$dir/s3" 127.0.0.1 "$s3_port" bench-key bench-secret-0123456789 <"$dir/s3-hold" >"$dir/s3-ready" &
pids+=($!)
exec 7>"$dir/s3-hold"
for _ in $(seq 200); do grep -q listening "$dir/s3-ready" 2>/dev/null && break; sleep 0.05; done
grep -q listening "$dir/s3-ready" || { echo "the S3 server did not start: $(cat "$dir/s3-ready")" >&2; exit 1; }
rclone_pid=$(pgrep -f "rclone serve s3 .*127.0.0.1:$s3_port" | head -1)

echo "==> $((jobs + 1)) clips of 20 s 1280x720 H.264 (the first warms the worker up: its models are read then)" >&2
for i in $(seq 0 "$jobs"); do
  ffmpeg -hide_banner -nostdin -v error -y -f lavfi -i "testsrc2=size=1280x720:rate=30,hue=h=$((i * 40))" -t 20 \
    -c:v libx264 -preset veryfast -b:v 2500k -pix_fmt yuv420p "$dir/clip-$i.mp4"
done
clip_bytes=$(cat $(seq -f "$dir/clip-%g.mp4" 1 "$jobs") | wc -c)

io() { awk -v k="$2" '$1 == k":" { print $2 }' "/proc/$1/io"; }

# run MODE: a coordinator and one worker on their own folders, the clips uploaded, one tennis job
# each; prints "MODE coordinator_sent store_sent worker_read" in bytes over all jobs.
run() {
  local mode=$1 port; port=$(rw_free_port)
  "${psql[@]}" -d postgres -c "DROP DATABASE IF EXISTS bytes_$mode" -c "CREATE DATABASE bytes_$mode" >/dev/null
  local common=(REELWORK_DATABASE_URL="postgres://postgres@127.0.0.1:${pg_port}/bytes_$mode" REELWORK_REDIS_URL="redis://127.0.0.1:${redis_port}/0"
                REELWORK_QUEUE_PREFIX="bytes-$mode" REELWORK_COORDINATOR_URL="http://127.0.0.1:$port" LOG_LEVEL=warning)
  if [[ $mode == s3 ]]; then
    common+=(REELWORK_STORAGE=s3 REELWORK_S3_ENDPOINT="http://127.0.0.1:$s3_port" REELWORK_S3_BUCKET=videos REELWORK_S3_PATH_STYLE=1
             AWS_ACCESS_KEY_ID=bench-key AWS_SECRET_ACCESS_KEY=bench-secret-0123456789)
  fi
  env "${common[@]}" "$bin" migrate --dir "$root/migrations" >/dev/null
  local key; key=$(env "${common[@]}" "$bin" keys create --operator | tail -1)
  local worker_key; worker_key=$(env "${common[@]}" "$bin" keys create --worker | tail -1)
  env "${common[@]}" REELWORK_STORAGE_DIR="$dir/coordinator-$mode" REELWORK_BIND="127.0.0.1:$port" \
    "$bin" coordinator >"$dir/coordinator-$mode.log" 2>&1 &
  local coordinator=$!; pids+=("$coordinator")
  for _ in $(seq 300); do curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break; sleep 0.1; done
  for i in $(seq 0 "$jobs"); do
    curl -fsS -o "$dir/video-$mode-$i.json" -X POST -T "$dir/clip-$i.mp4" -H "Authorization: Bearer $key" "http://127.0.0.1:$port/v1/videos"
  done
  env "${common[@]}" REELWORK_STORAGE_DIR="$dir/worker-$mode" REELWORK_VIDEO_SOURCE=http REELWORK_API_KEY="$worker_key" \
    "$bin" worker --slots 1 >"$dir/worker-$mode.log" 2>&1 &
  local worker=$!; pids+=("$worker")
  submit() { # submit MODE I: a tennis job for clip I
    local video; video=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["id"])' "$dir/video-$1-$2.json")
    curl -fsS -o /dev/null -X POST -H "Authorization: Bearer $key" -H 'Content-Type: application/json' \
      -d "{\"videoId\":\"$video\",\"sport\":\"tennis\"}" "http://127.0.0.1:$port/v1/jobs"
  }
  ended() { "${psql[@]}" -d "bytes_$mode" -c "SELECT count(*) FROM jobs WHERE status IN ('succeeded', 'failed', 'cancelled')"; }
  # await N: until N jobs have ended (10 minutes at most)
  await() { for _ in $(seq 3000); do (( $(ended) >= $1 )) && return; sleep 0.2; done; }
  # The worker reads its models on its first job: counting starts after a warm-up job.
  submit "$mode" 0; await 1
  local c0 w0 s0; c0=$(io "$coordinator" wchar); w0=$(io "$worker" rchar); s0=$(io "$rclone_pid" wchar)
  for i in $(seq "$jobs"); do submit "$mode" "$i"; done
  await $((jobs + 1))
  local done_count; done_count=$(ended)
  local failed; failed=$("${psql[@]}" -d "bytes_$mode" -c "SELECT count(*) FROM jobs WHERE status <> 'succeeded'")
  (( done_count == jobs + 1 && failed == 0 )) || { echo "$mode: $done_count of $((jobs + 1)) jobs ended, $failed not succeeded; see $dir/*-$mode.log" >&2; exit 1; }
  echo "$mode $(( $(io "$coordinator" wchar) - c0 )) $(( $(io "$rclone_pid" wchar) - s0 )) $(( $(io "$worker" rchar) - w0 ))"
  kill "$worker" "$coordinator"; wait "$worker" "$coordinator" 2>/dev/null || true
}

{ run http; run s3; } >"$dir/counts.txt"
echo
printf '%-5s %22s %22s %22s\n' mode "coordinator sent/job" "store sent/job" "worker read/job"
while read -r mode coordinator store worker; do
  [[ $mode == http ]] && store=0
  awk -v m="$mode" -v c="$coordinator" -v s="$store" -v w="$worker" -v b="$clip_bytes" -v n="$jobs" 'BEGIN {
    printf "%-5s %12.2f MB %6.2fx %12.2f MB %6.2fx %12.2f MB %6.2fx\n", m, c / n / 1e6, c / b, s / n / 1e6, s / b, w / n / 1e6, w / b }'
done <"$dir/counts.txt"
printf '(the clips: %.2f MB a job on average; x = multiple of the file size)\n' "$(awk -v b="$clip_bytes" -v n="$jobs" 'BEGIN { print b / n / 1e6 }')"
