#!/usr/bin/env bash
# The bowling `ball` stage against decode-only on the same 1080p30 clip (a rendered lane with
# shots, BowlingScenes), both in one process per run, runs repeated; medians reported.
#
# usage: loadtest/bowling-bench.sh [RUNS] [THREADS]     (defaults: 5 runs, decoder threads 0 = FFmpeg's choice)
# Target: tracking costs less than decoding: tracker time ÷ decode-only time < 1.
set -euo pipefail
RUNS=${1:-5}
THREADS=${2:-0}
cd "$(dirname "$0")/.."

swift build -c release --product bowling-bench >&2
BIN="$(swift build -c release --show-bin-path)/bowling-bench"
FILE=.local/bench/bowling-1080p30-30s.mp4
if [ ! -s "$FILE" ] || [ ! -s "$FILE.options.json" ]; then
    mkdir -p "$(dirname "$FILE")"
    echo "rendering $FILE (once)..." >&2
    "$BIN" render "$FILE" --seconds 30 >&2
fi
echo "file: $FILE ($(du -h "$FILE" | cut -f1)), runs: $RUNS, decoder threads: $THREADS" >&2

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
field() { python3 -c "import json,sys; print(json.loads(sys.argv[1])[sys.argv[2]])" "$1" "$2"; }

declare -a decode ball tracker ratio added
for run in $(seq "$RUNS"); do
    line=$("$BIN" ball "$FILE" --options "$FILE.options.json" --threads "$THREADS")
    echo "run $run: $line"
    decode+=("$(field "$line" decode_fps)"); ball+=("$(field "$line" ball_fps)")
    ratio+=("$(field "$line" tracker_over_decode)"); added+=("$(field "$line" added_over_decode)")
done
echo "median decode-only fps:        $(printf '%s\n' "${decode[@]}" | median)"
echo "median decode+RGB+ball fps:    $(printf '%s\n' "${ball[@]}" | median)"
echo "median tracker ÷ decode-only:  $(printf '%s\n' "${ratio[@]}" | median)   (target < 1)"
echo "median (RGB + tracker) ÷ decode-only: $(printf '%s\n' "${added[@]}" | median)"
