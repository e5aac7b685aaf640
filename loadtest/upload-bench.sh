#!/usr/bin/env bash
# Upload throughput with the input limits on, against the upload path before them: a release
# build of this tree and one of BASELINE_REV (default cd28ea8, the last commit without the limits),
# each coordinator with its own database and storage, receiving the same 400 MB MPEG-TS file
# (hashed while streaming, every packet demuxed by the probe), runs alternating so both see the
# same machine. A plain copy of the file is the yardstick (the disk). Target: the limits cost
# under 2% of the upload time.
#   loadtest/upload-bench.sh [RUNS] [BASELINE_REV]     (defaults: 5 runs, cd28ea8)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
runs=${1:-5}
rev=${2:-cd28ea8}
# shellcheck source=../scripts/lib/services.sh
source scripts/lib/services.sh
# shellcheck source=compare.sh
source loadtest/compare.sh
rw_install_deps

dir="$root/.local/bench/upload"
mkdir -p "$dir"
chmod 755 "$dir"
echo "==> building release binaries: this tree, and $rev (in .local/bench/baseline)"
swift build -c release --product reelwork >/dev/null
current="$(swift build -c release --show-bin-path)/reelwork"
baseline="$(rw_build_baseline "$root/.local/bench/baseline" "$rev" reelwork)/reelwork"

file=$dir/upload-400mb.ts
if [[ ! -s $file ]]; then
  echo "==> making a 400 MB MPEG-TS file (10 s of 720p, repeated: TS segments concatenate)"
  ffmpeg -hide_banner -nostdin -v error -y -f lavfi -i testsrc2=size=1280x720:rate=30 -t 10 -c:v libx264 -preset ultrafast \
    -b:v 8M -pix_fmt yuv420p -f mpegts "$dir/segment.ts"
  : >"$file.tmp"
  while (( $(stat -c %s "$file.tmp") < 400000000 )); do cat "$dir/segment.ts" >>"$file.tmp"; done
  mv "$file.tmp" "$file"
fi
bytes=$(stat -c %s "$file")

rw_bench_servers "$dir"
psql=(psql -X -q -h 127.0.0.1 -p "$pg_port" -U postgres)

# start NAME BINARY MIGRATIONS: a coordinator with its own database and storage; prints its port.
start() {
  local name=$1 bin=$2 migrations=$3 port
  port=$(rw_free_port)
  "${psql[@]}" -d postgres -c "DROP DATABASE IF EXISTS upload_$name" -c "CREATE DATABASE upload_$name" >/dev/null
  rm -rf "$dir/storage-$name"
  export REELWORK_DATABASE_URL="postgres://postgres@127.0.0.1:${pg_port}/upload_$name"
  export REELWORK_REDIS_URL="redis://127.0.0.1:${redis_port}/0" REELWORK_QUEUE_PREFIX="upload-$name"
  export REELWORK_STORAGE_DIR="$dir/storage-$name" REELWORK_BIND="127.0.0.1:$port" LOG_LEVEL=warning
  "$bin" migrate --dir "$migrations" >/dev/null
  # A build from before API keys has no `keys` command and needs no key.
  "$bin" keys create --operator 2>/dev/null | tail -1 >"$dir/key-$name" || true
  "$bin" coordinator >"$dir/coordinator-$name.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 1 100); do curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break; sleep 0.1; done
  echo "$port"
}
port_now=$(start now "$current" "$root/migrations")
port_before=$(start before "$baseline" "$root/.local/bench/baseline/migrations")

# upload NAME PORT: seconds for one upload of the file, from an empty store.
upload() {
  local name=$1 port=$2
  "${psql[@]}" -d "upload_$name" -c "DELETE FROM videos" >/dev/null
  rm -rf "$dir/storage-$name/videos"/*
  # The previous upload's 400 MB are still being written back: flush them first, or whichever
  # upload runs second pays for the other's disk writes.
  sync
  curl -sS -o "$dir/answer-$name.json" -w '%{time_total}' -X POST -T "$file" -H 'Content-Type: application/octet-stream' \
    -H "Authorization: Bearer $(cat "$dir/key-$name")" \
    "http://127.0.0.1:$port/v1/videos"
}

echo "==> $runs uploads of $((bytes / 1000000)) MB to each coordinator, alternating (this tree: port $port_now; $rev: port $port_before)"
: >"$dir/now.txt"; : >"$dir/before.txt"; : >"$dir/copy.txt"
for i in $(seq 1 "$runs"); do
  if (( i % 2 )); then
    upload now "$port_now" >>"$dir/now.txt"; echo >>"$dir/now.txt"
    upload before "$port_before" >>"$dir/before.txt"; echo >>"$dir/before.txt"
  else
    upload before "$port_before" >>"$dir/before.txt"; echo >>"$dir/before.txt"
    upload now "$port_now" >>"$dir/now.txt"; echo >>"$dir/now.txt"
  fi
  grep -q '"contentHash"' "$dir/answer-now.json" || { echo "upload failed: $(cat "$dir/answer-now.json")" >&2; exit 1; }
  start_copy=$(date +%s.%N); cp "$file" "$dir/copy.ts"; end_copy=$(date +%s.%N); rm -f "$dir/copy.ts"
  awk -v a="$start_copy" -v b="$end_copy" 'BEGIN { printf "%.3f\n", b - a }' >>"$dir/copy.txt"
  printf 'run %s: with limits %ss, before %ss, copy %ss\n' "$i" "$(tail -n1 "$dir/now.txt")" "$(tail -n1 "$dir/before.txt")" "$(tail -n1 "$dir/copy.txt")"
done
now=$(rw_median <"$dir/now.txt"); before=$(rw_median <"$dir/before.txt"); copy=$(rw_median <"$dir/copy.txt")
echo
rate() { awk -v b="$bytes" -v t="$1" 'BEGIN { printf "%.1f", b / 1000000 / t }'; }
printf 'median upload with the limits:    %s s (%s MB/s)\n' "$now" "$(rate "$now")"
printf 'median upload before (%s):   %s s (%s MB/s)\n' "$rev" "$before" "$(rate "$before")"
printf 'median plain copy (yardstick):    %s s (%s MB/s)\n' "$copy" "$(rate "$copy")"
printf 'with limits / before: %s (target < 1.02); median of the run-by-run ratios: %s\n' \
  "$(awk -v a="$now" -v b="$before" 'BEGIN { printf "%.3f", a / b }')" \
  "$(paste "$dir/now.txt" "$dir/before.txt" | awk 'NF == 2 { printf "%.4f\n", $1 / $2 }' | rw_median)"
