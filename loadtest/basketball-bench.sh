#!/usr/bin/env bash
# The basketball tracking pass (BasketballTracker.process on every frame) against decoding the same
# 1080p60 clip (a rendered shooting session, BasketballScenes) with `ffmpeg -benchmark`, runs
# repeated, medians reported.
#
# usage: loadtest/basketball-bench.sh [RUNS] [SECONDS]     (defaults: 5 runs, a 20 s clip)
# Target: tracking costs less than decoding: tracker ms/frame ÷ decode ms/frame < 1.
# PACKAGE_PATH=DIR builds the benchmark from another package holding the same targets (a small one
# with only Basketball, BasketballScenes, BowlingScenes, SportMath, BenchSupport, Media, Pictures,
# SportKit and ReelworkCore builds in a few minutes).
# REELWORK=PATH (a release `reelwork`) also times the whole job pass per run, `reelwork analyze
# --sport basketball`: one decode, RGB for every frame, the detector on the sampled frames (10 a
# second) where colour is not following the ball, the tracker; and the same pass with the detector
# on every sample (REELWORK_PERSON_DETECTION=every, the mode before issue 29), in the same run;
# reported in frames/s beside ffmpeg's decode alone.
set -euo pipefail
RUNS=${1:-5}
SECONDS_LONG=${2:-20}
cd "$(dirname "$0")/.."

PACKAGE=${PACKAGE_PATH:-.}
swift build --package-path "$PACKAGE" -c release --product basketball-bench >&2
BIN="$(swift build --package-path "$PACKAGE" -c release --show-bin-path)/basketball-bench"
FILE=.local/bench/basketball-1080p60-${SECONDS_LONG}s.mp4
if [ ! -s "$FILE" ] || [ ! -s "$FILE.options.json" ]; then
    mkdir -p "$(dirname "$FILE")"
    echo "rendering $FILE (once)..." >&2
    "$BIN" render "$FILE" --seconds "$SECONDS_LONG" --fps 60 --height 1080 >&2
fi
FRAMES=$(ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames -of csv=p=0 "$FILE")
echo "file: $FILE ($(du -h "$FILE" | cut -f1), $FRAMES frames), runs: $RUNS" >&2

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
field() { python3 -c "import json,sys; print(json.loads(sys.argv[1])[sys.argv[2]])" "$1" "$2"; }

declare -a decode_wall decode_cpu track ratio_wall ratio_cpu job_fps job_ratio every_fps every_ratio
for run in $(seq "$RUNS"); do
    # Decode alone, every frame, FFmpeg's own threads; `bench:` gives wall (rtime) and CPU (utime + stime).
    bench=$(ffmpeg -hide_banner -nostdin -benchmark -i "$FILE" -f null - 2>&1 | grep -o 'bench: utime=.*' | tail -1)
    utime=$(echo "$bench" | sed -E 's/.*utime=([0-9.]+)s.*/\1/'); stime=$(echo "$bench" | sed -E 's/.*stime=([0-9.]+)s.*/\1/')
    rtime=$(echo "$bench" | sed -E 's/.*rtime=([0-9.]+)s.*/\1/')
    dw=$(python3 -c "print($rtime * 1000 / $FRAMES)"); dc=$(python3 -c "print(($utime + $stime) * 1000 / $FRAMES)")
    line=$("$BIN" track "$FILE" --options "$FILE.options.json")
    tm=$(field "$line" tracker_ms_per_frame)
    echo "run $run: decode ${dw} ms/frame wall, ${dc} ms/frame CPU; tracker: $line"
    decode_wall+=("$dw"); decode_cpu+=("$dc"); track+=("$tm")
    ratio_wall+=("$(python3 -c "print($tm / $dw)")"); ratio_cpu+=("$(python3 -c "print($tm / $dc)")")
    if [ -n "${REELWORK:-}" ]; then
        for mode in tracked every; do
            start=$(date +%s.%N)
            attempts=$(REELWORK_PERSON_DETECTION=$mode "$REELWORK" analyze "$FILE" --sport basketball --options "$FILE.options.json" --compact 2>/dev/null |
                python3 -c "import json,sys; r=json.load(sys.stdin)['result']; print(r['stats']['fieldGoalsAttempted'], 'attempts,', r['stats']['fieldGoalsMade'], 'made, the detector on', r['vision']['detectorRuns'], 'of', r['framesSampled'], 'sampled frames')")
            end=$(date +%s.%N)
            fps=$(python3 -c "print(round($FRAMES / ($end - $start), 1))")
            echo "run $run: job pass ($mode) $(python3 -c "print(round($end - $start, 2))") s wall, $fps frames/s ($attempts); decode alone $(python3 -c "print(round(1000 / $dw, 1))") frames/s"
            if [ "$mode" = tracked ]; then
                job_fps+=("$fps"); job_ratio+=("$(python3 -c "print(round(1000 / $dw / $fps, 2))")")
            else
                every_fps+=("$fps"); every_ratio+=("$(python3 -c "print(round(1000 / $dw / $fps, 2))")")
            fi
        done
    fi
done
echo "median decode ms/frame (wall):        $(printf '%s\n' "${decode_wall[@]}" | median)"
echo "median decode ms/frame (CPU, all threads): $(printf '%s\n' "${decode_cpu[@]}" | median)"
echo "median tracker ms/frame (one thread): $(printf '%s\n' "${track[@]}" | median)"
echo "median tracker ÷ decode (wall):       $(printf '%s\n' "${ratio_wall[@]}" | median)   (target < 1)"
echo "median tracker ÷ decode (CPU):        $(printf '%s\n' "${ratio_cpu[@]}" | median)"
if [ -n "${REELWORK:-}" ]; then
    echo "median job pass frames/s (wall):      $(printf '%s\n' "${job_fps[@]}" | median)   (detector every sample: $(printf '%s\n' "${every_fps[@]}" | median))"
    echo "median job pass time ÷ decode time:   $(printf '%s\n' "${job_ratio[@]}" | median)   (detector every sample: $(printf '%s\n' "${every_ratio[@]}" | median))"
fi
