#!/usr/bin/env bash
# Throughput per machine (docs/benchmarks/throughput.md): one worker's clips per hour and
# realtime factor (seconds of video analysed per second of wall time, for the whole machine) for each
# combination of worker slots × inference threads, on a mixed set of clips: tennis and bowling, 1080p
# and 720p, encoded with and without B-frames (phones often make none). The yardstick, taken in every
# run beside the combinations: ffmpeg decoding the same clips alone, one after the other.
#
# usage: loadtest/throughput-sweep.sh [RUNS] [SLOTS] [THREADS] [SECONDS]
#   RUNS     runs of the whole sweep (default 3); each run measures every combination once, in turn,
#            so a busy moment of the machine touches them all; medians over the runs are reported
#   SLOTS    worker slots to try (REELWORK_WORKER_SLOTS), default "1 2"
#   THREADS  inference threads per job to try (REELWORK_INFERENCE_THREADS; 0 = cores ÷ slots), default "1 2"
#   SECONDS  length of each tennis clip (default 16; the bowling clips are 10 s)
# e.g. loadtest/throughput-sweep.sh 5 "1 2 3 4" "0 1 2 4" 30 for a bigger sweep.
# BIN_DIR=DIR runs binaries built elsewhere; EXTRA="--decode-every-frame" passes flags to every run.
#
# Each combination is one `vision-bench throughput` process (loadtest/vision-bench/Throughput.swift):
# the worker's pipeline and settings, its slots as threads, without the queue and the database (a few
# round trips a job). Clips are made once, cached in .local/bench/sweep/ (gitignored).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=compare.sh
source loadtest/compare.sh
# shellcheck source=clips.sh
source loadtest/clips.sh
RUNS=${1:-3}
SLOTS=${2:-"1 2"}
THREADS=${3:-"1 2"}
SECONDS_EACH=${4:-16}
EXTRA=${EXTRA:-}

[[ -f models/yolov4-tiny-int8.onnx && -f models/pose_landmark_full.onnx && -f models/test-photos/person.jpg ]] ||
    { echo "models missing: run scripts/setup-models.sh" >&2; exit 1; }
bin=$(rw_release_bin vision-bench bowling-bench)

# ---- the clips (made once) -----------------------------------------------------------------------
DIR=.local/bench/sweep
mkdir -p "$DIR"
swing() { # NAME SIZE: the tests' swept person (person.jpg, RealClipFixtures.swift) swinging every 4 s
    local name=$1 size=$2
    [[ -s $DIR/$name ]] && return
    echo "making $DIR/$name (once)..." >&2
    ffmpeg -hide_banner -nostdin -v error -y \
        -f lavfi -i "color=c=0x6a7a5a:size=640x360:rate=30,noise=alls=8:allf=t" -loop 1 -i models/test-photos/person.jpg \
        -filter_complex "[1:v]crop=120:320:170:75[p];[0:v][p]overlay=x='250+150*tanh((mod(t,4)-2)/0.12)':y='38-30/pow(cosh((mod(t,4)-2)/0.25),2)':shortest=1,scale=${size/x/:}" \
        -t "$SECONDS_EACH" -c:v libx264 -preset veryfast -pix_fmt yuv420p -movflags +faststart "$DIR/$name.tmp.mp4"
    mv "$DIR/$name.tmp.mp4" "$DIR/$name"
}
bowling() { # NAME CAMERA: a rendered lane with shots of known truth (BowlingScenes), and its options
    local name=$1 camera=$2
    [[ -s $DIR/$name && -s $DIR/$name.options.json ]] && return
    echo "rendering $DIR/$name (once)..." >&2
    "$bin/bowling-bench" render "$DIR/$name.tmp.mp4" --seconds 10 --camera "$camera" >/dev/null
    mv "$DIR/$name.tmp.mp4.options.json" "$DIR/$name.options.json"
    mv "$DIR/$name.tmp.mp4" "$DIR/$name"
}
t=${SECONDS_EACH}s
rw_people_clip "$DIR/people-1080p-bframes-$t.mp4" "$SECONDS_EACH" 1920x1080
rw_people_clip "$DIR/people-1080p-nobframes-$t.mp4" "$SECONDS_EACH" 1920x1080 -bf 0
rw_people_clip "$DIR/people-720p-bframes-$t.mp4" "$SECONDS_EACH" 1280x720
rw_people_clip "$DIR/people-720p-nobframes-$t.mp4" "$SECONDS_EACH" 1280x720 -bf 0
swing "swing-720p-$t.mp4" 1280x720
bowling bowling-1080p-10s.mp4 1080p
bowling bowling-720p-10s.mp4 720p
LIST=$DIR/clips-$t.txt
{
    for clip in people-1080p-bframes people-1080p-nobframes people-720p-bframes people-720p-nobframes swing-720p; do
        echo "tennis $DIR/$clip-$t.mp4"
    done
    for clip in bowling-1080p-10s bowling-720p-10s; do echo "bowling $DIR/$clip.mp4 $DIR/$clip.mp4.options.json"; done
} >"$LIST"
VIDEO=$(awk '{print $2}' "$LIST" | while read -r f; do ffprobe -v error -show_entries format=duration -of csv=p=0 "$f"; done | awk '{s += $1} END {printf "%.1f", s}')
CLIPS=$(wc -l <"$LIST")

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
field() { python3 -c "import json,sys; print(json.loads(sys.argv[1])[sys.argv[2]])" "$1" "$2"; }
now() { date +%s.%N; }
m() { tr ' ' '\n' | grep -v '^$' | median; }

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); clips: $CLIPS ($VIDEO s of video); runs: $RUNS; slots: $SLOTS; inference threads: $THREADS ${EXTRA:+; extra: $EXTRA}"
declare -A rate perhour cpu relative
combos=()
for slots in $SLOTS; do for threads in $THREADS; do combos+=("$slots $threads"); done; done
yard=()
for run in $(seq "$RUNS"); do
    # The yardstick: ffmpeg decoding every clip, alone, one after the other (its own threads).
    start=$(now)
    while read -r _ file _; do ffmpeg -hide_banner -nostdin -v error -i "$file" -f null -; done <"$LIST"
    seconds=$(awk -v a="$start" -v b="$(now)" 'BEGIN { print b - a }')
    y=$(awk -v v="$VIDEO" -v s="$seconds" 'BEGIN { printf "%.3f", v / s }')
    yard+=("$y")
    echo "run $run: load $(cut -d' ' -f1-3 /proc/loadavg); yardstick ffmpeg decode-only: ${seconds}s, ${y}x realtime"
    # Each run starts one combination further on, so no combination is always first after the yardstick.
    for ((i = 0; i < ${#combos[@]}; i++)); do
        key=${combos[$(((i + run - 1) % ${#combos[@]}))]}
        slots=${key% *} threads=${key#* }
        # shellcheck disable=SC2086 # EXTRA is a list of flags
        line=$("$bin/vision-bench" throughput "$LIST" --slots "$slots" --threads "$threads" $EXTRA)
        r=$(field "$line" realtime_factor)
        rate[$key]+="$r "
        perhour[$key]+="$(field "$line" clips_per_hour) "
        cpu[$key]+="$(field "$line" cpu_seconds) "
        relative[$key]+="$(awk -v a="$r" -v b="$y" 'BEGIN { printf "%.4f", a / b }') "
        echo "run $run: slots $slots, inference threads $threads (load $(cut -d' ' -f1 /proc/loadavg)): $line"
    done
done

echo
echo "medians of $RUNS runs ($CLIPS clips, $VIDEO s of video; yardstick: ffmpeg decode-only $(printf '%s\n' "${yard[@]}" | median)x realtime):"
printf '%-6s %-18s %-14s %-22s %-12s %s\n' slots "inference threads" "clips/hour" "realtime (machine)" "CPU s" "÷ yardstick"
for key in "${combos[@]}"; do
    slots=${key% *} threads=${key#* }
    printf '%-6s %-18s %-14.0f %-22s %-12.1f %s\n' "$slots" "$threads" "$(m <<<"${perhour[$key]}")" \
        "$(m <<<"${rate[$key]}" | xargs printf '%.2fx')" "$(m <<<"${cpu[$key]}")" "$(m <<<"${relative[$key]}")"
done
