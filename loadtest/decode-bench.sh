#!/usr/bin/env bash
# Decoder throughput: Media.VideoDecoder (via decode-bench) against the ffmpeg CLI on the
# same 1080p30 H.264 file, runs alternating so both see the same machine state.
#
# usage: loadtest/decode-bench.sh [THREADS] [RUNS]     (defaults: 2 threads, 5 runs each)
# Target: our median frames/s ≥ 0.95 × ffmpeg's.
set -euo pipefail

THREADS=${1:-2}
RUNS=${2:-5}
cd "$(dirname "$0")/.."

swift build -c release --product decode-bench >&2
BIN="$(swift build -c release --show-bin-path)/decode-bench"

# Made once and cached: ~20 s of 1080p30 moving test pattern with per-frame noise, so the
# encoder cannot reduce it to almost nothing (camera footage is noisy too).
FILE=.local/bench/testsrc2-noise-1080p30-20s.mp4
if [ ! -s "$FILE" ]; then
    mkdir -p "$(dirname "$FILE")"
    echo "making $FILE (once; takes a few minutes)..." >&2
    ffmpeg -hide_banner -nostdin -v error -y \
        -f lavfi -i "testsrc2=size=1920x1080:rate=30,noise=alls=10:allf=t+u" -t 20 \
        -c:v libx264 -preset medium -pix_fmt yuv420p -movflags +faststart "$FILE.tmp.mp4"
    mv "$FILE.tmp.mp4" "$FILE"
fi
FRAMES=$(ffprobe -v error -select_streams v:0 -show_entries stream=nb_frames -of default=nw=1:nk=1 "$FILE")
echo "file: $FILE ($(du -h "$FILE" | cut -f1), $FRAMES frames, $(ffprobe -v error -show_entries format=bit_rate -of default=nw=1:nk=1 "$FILE") bit/s)"
echo "threads: $THREADS, runs: $RUNS each, alternating"

now() { date +%s.%N; }
fps() { awk -v f="$1" -v a="$2" -v b="$3" 'BEGIN { printf "%.1f", f / (b - a) }'; }
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.1f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# Runs "$@" with its stdout in $OUT and stderr discarded; sets FPS (frames per wall-clock
# second, from date +%s.%N) and CPU (user + sys seconds). On a shared machine the wall time
# swings with other load; the CPU time shows the work each decoder did.
OUT=$(mktemp)
trap 'rm -f "$OUT"' EXIT
timed() {
    local TIMEFORMAT='%U %S' start end times
    start=$(now)
    times=$( { time "$@" >"$OUT" 2>/dev/null ; } 2>&1 )
    end=$(now)
    FPS=$(fps "$FRAMES" "$start" "$end")
    CPU=$(awk '{ printf "%.2f", $1 + $2 }' <<<"$times")
}

OURS=()
THEIRS=()
for run in $(seq 1 "$RUNS"); do
    timed "$BIN" "$FILE" --threads "$THREADS"
    line=$(cat "$OUT")
    decoded=$(sed -E 's/.*frames=([0-9]+).*/\1/' <<<"$line")
    if [ "$decoded" != "$FRAMES" ]; then
        echo "decode-bench decoded '$decoded' frames, ffprobe says $FRAMES" >&2
        exit 1
    fi
    OURS+=("$FPS")
    ours="decode-bench $FPS frames/s (cpu ${CPU}s)"

    timed ffmpeg -hide_banner -nostdin -threads "$THREADS" -i "$FILE" -f null -
    THEIRS+=("$FPS")
    echo "run $run: $ours   ffmpeg $FPS frames/s (cpu ${CPU}s)"
done

OURS_MEDIAN=$(printf '%s\n' "${OURS[@]}" | median)
THEIRS_MEDIAN=$(printf '%s\n' "${THEIRS[@]}" | median)
RATIO=$(awk -v a="$OURS_MEDIAN" -v b="$THEIRS_MEDIAN" 'BEGIN { printf "%.3f", a / b }')
echo "median: decode-bench ${OURS_MEDIAN} frames/s, ffmpeg ${THEIRS_MEDIAN} frames/s, ratio ours/ffmpeg ${RATIO} (target >= 0.95)"
