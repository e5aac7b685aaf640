#!/usr/bin/env bash
# The vision benchmarks behind docs/benchmarks/vision.md ("Vision: …" sections): inference against Python
# onnxruntime, the streamed stages' overhead, whole-clip analysis speed, and peak memory.
#
# usage: loadtest/vision-bench.sh [RUNS] [SECTIONS]
#   RUNS      repetitions of each timed measurement (default 5; medians are reported)
#   SECTIONS  any of: infer stages e2e memory drop (default: the first four)
#
# Needs scripts/setup-models.sh (models, libonnxruntime, the Python tools). Generated clips and
# tensors are cached in .local/bench/ (gitignored); the first run makes
# them (about 2 minutes). Everything runs in release mode on this machine, one thing at a time.
set -euo pipefail

RUNS=${1:-5}
SECTIONS=${2:-"infer stages e2e memory"}
cd "$(dirname "$0")/.."
DIR=.local/bench
mkdir -p "$DIR"

[[ -f models/yolov4-tiny-int8.onnx && -f models/yolov4-tiny.onnx && -f models/pose_landmark_full.onnx && -d models/.pytools ]] ||
    { echo "models missing: run scripts/setup-models.sh" >&2; exit 1; }

swift build -c release --product vision-bench >&2
swift build -c release --product reelwork >&2
BIN_DIR=$(swift build -c release --show-bin-path)
BENCH=$BIN_DIR/vision-bench
REELWORK=$BIN_DIR/reelwork
PY="python3 tools/models/reference_infer.py"

# ---- material (made once) ------------------------------------------------------------------------
# shellcheck source=clips.sh
source loadtest/clips.sh
# 60 s of 1080p30 H.264 (libx264 veryfast): two real people walking over a noisy test pattern.
CLIP=$DIR/people-1080p30-60s.mp4
rw_people_clip "$CLIP" 60 1920x1080
# The same minute encoded without B-frames, as phones often encode: every frame is then a reference.
NOB=$DIR/people-1080p30-60s-nobframes.mp4
[[ $SECTIONS != *drop* ]] || rw_people_clip "$NOB" 60 1920x1080 -bf 0
# The same minute ten times over (stream copy): 10 minutes, 18,000 frames.
LONG=$DIR/people-1080p30-600s.mp4
if [[ ! -s $LONG ]]; then
    for _ in $(seq 10); do echo "file '$(basename "$CLIP")'"; done >"$DIR/concat10.txt"
    ffmpeg -hide_banner -nostdin -v error -y -f concat -safe 0 -i "$DIR/concat10.txt" -c copy -movflags +faststart "$LONG.tmp.mp4"
    mv "$LONG.tmp.mp4" "$LONG"
fi
# The exact tensors reference_infer.py's `bench` feeds (numpy default_rng(0), values 0…1).
PYTHONPATH=models/.pytools python3 -c "
import numpy as np
np.random.default_rng(0).random([1, 3, 416, 416], dtype=np.float32).tofile('$DIR/yolo-input.raw')
np.random.default_rng(0).random([1, 256, 256, 3], dtype=np.float32).tofile('$DIR/pose-input.raw')"

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
field() { python3 -c "import json, sys; print(json.loads(sys.stdin.read())['$1'])"; }
echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); runs: $RUNS"

# ---- 1. inference: Swift vs Python, same model, threads and tensor -------------------------------
if [[ $SECTIONS == *infer* ]]; then
    # The default detector (int8), its fp32 original, and the pose model: each run by both sides
    # from the same file.
    for variant in yolo:models/yolov4-tiny-int8.onnx yolo:models/yolov4-tiny.onnx pose:models/pose_landmark_full.onnx; do
        model=${variant%%:*} file=${variant#*:}
        for threads in 1 2; do
            ours=() theirs=()
            for _ in $(seq "$RUNS"); do
                ours+=("$("$BENCH" infer $model --model "$file" --input "$DIR/$model-input.raw" --threads $threads --runs 50 | field median_ms)")
                theirs+=("$($PY bench $model --model "$file" --threads $threads --runs 50 | field median_ms)")
            done
            o=$(printf '%s\n' "${ours[@]}" | median) t=$(printf '%s\n' "${theirs[@]}" | median)
            echo "infer $(basename "$file") threads=$threads: swift ${ours[*]} | python ${theirs[*]} -> median swift $o ms, python $t ms, ratio $(awk -v a="$o" -v b="$t" 'BEGIN { printf "%.3f", a / b }') (target <= 1.05)"
        done
    done
fi

# ---- 2. stage overhead: streamed decode+objects+pose against decode-only + inference-only ---------
if [[ $SECTIONS == *stages* ]]; then
    ratios=()
    for run in $(seq "$RUNS"); do
        line=$("$BENCH" stages "$CLIP" --threads 2)
        echo "stages run $run: $line"
        ratios+=("$(field ratio <<<"$line")")
    done
    echo "stages: median ratio streamed / (decode + inference) $(printf '%s\n' "${ratios[@]}" | median) (target <= 1.15)"
fi

# ---- 3. end to end: the whole analysis of 60 s of 1080p30 at 10 fps sampling ---------------------
if [[ $SECTIONS == *e2e* ]]; then
    # People followed by their landmarks (the default) and the detector on every sample, run by
    # turns so both see the same machine; the yardstick is ffmpeg decoding the same file on the
    # same two threads in the same loop. Then the fp32 detector (every sample, its old figure).
    factors_tracked=() factors_every=() factors_ffmpeg=() cpu_tracked=() cpu_every=()
    for run in $(seq "$RUNS"); do
        start=$(date +%s.%N)
        ffmpeg -hide_banner -nostdin -v error -threads 2 -i "$CLIP" -f null -
        seconds=$(python3 -c "print($(date +%s.%N) - $start)")
        factors_ffmpeg+=("$(python3 -c "print(60 / $seconds)")")
        echo "e2e ffmpeg decode run $run: $seconds s, realtime factor ${factors_ffmpeg[-1]}"
        for mode in tracked every; do
            line=$(REELWORK_PERSON_DETECTION=$mode "$BENCH" analyze "$CLIP" --threads 2)
            echo "e2e int8 $mode run $run (load $(cut -d' ' -f1 /proc/loadavg)): $line"
            if [[ $mode == tracked ]]; then
                factors_tracked+=("$(field realtime_factor <<<"$line")") cpu_tracked+=("$(field cpu_seconds <<<"$line")")
            else
                factors_every+=("$(field realtime_factor <<<"$line")") cpu_every+=("$(field cpu_seconds <<<"$line")")
            fi
        done
    done
    tracked=$(printf '%s\n' "${factors_tracked[@]}" | median) every=$(printf '%s\n' "${factors_every[@]}" | median)
    ffm=$(printf '%s\n' "${factors_ffmpeg[@]}" | median)
    echo "e2e detector int8, people followed: median realtime factor $tracked (target >= 6), CPU s $(printf '%s\n' "${cpu_tracked[@]}" | median)"
    echo "e2e detector int8, detector every sample: median realtime factor $every, CPU s $(printf '%s\n' "${cpu_every[@]}" | median)"
    echo "e2e ffmpeg decode alone: median realtime factor $ffm; followed / every $(python3 -c "print(round($tracked / $every, 2))"), followed / ffmpeg $(python3 -c "print(round($tracked / $ffm, 2))")"
    factors=()
    for run in $(seq "$RUNS"); do
        line=$(REELWORK_PERSON_DETECTION=every REELWORK_DETECTOR_MODEL=models/yolov4-tiny.onnx "$BENCH" analyze "$CLIP" --threads 2)
        echo "e2e fp32 every run $run: $line"
        factors+=("$(field realtime_factor <<<"$line")")
    done
    echo "e2e detector fp32, detector every sample: median realtime factor $(printf '%s\n' "${factors[@]}" | median)"
fi

# ---- 5. frames left undecoded: the e2e analysis with and without DecodeOptions.dropsUnsampledFrames --
if [[ $SECTIONS == *drop* ]]; then
    for file in "$CLIP" "$NOB"; do
        # How many frames nothing refers to (ffmpeg's decoder told to skip them all).
        refs=$(ffmpeg -hide_banner -nostdin -skip_frame noref -i "$file" -f null - 2>&1 | grep -o 'frame= *[0-9]*' | tail -1 | tr -dc 0-9)
        echo "drop $(basename "$file"): $refs reference frames of $(ffprobe -v error -count_packets -select_streams v:0 -show_entries stream=nb_read_packets -of csv=p=0 "$file")"
        fd=() fe=() cpud=() cpue=() prints=()
        for run in $(seq "$RUNS"); do
            # Alternating, so both see the same machine.
            line=$("$BENCH" analyze "$file" --threads 2)
            echo "drop $(basename "$file") dropping run $run (load $(cut -d' ' -f1 /proc/loadavg)): $line"
            fd+=("$(field realtime_factor <<<"$line")") cpud+=("$(field cpu_seconds <<<"$line")") prints+=("$(field found_fnv1a <<<"$line")")
            line=$("$BENCH" analyze "$file" --threads 2 --decode-every-frame)
            echo "drop $(basename "$file") every-frame run $run (load $(cut -d' ' -f1 /proc/loadavg)): $line"
            fe+=("$(field realtime_factor <<<"$line")") cpue+=("$(field cpu_seconds <<<"$line")") prints+=("$(field found_fnv1a <<<"$line")")
        done
        echo "drop $(basename "$file"): median realtime factor $(printf '%s\n' "${fd[@]}" | median) dropping, $(printf '%s\n' "${fe[@]}" | median) every frame decoded; median CPU s $(printf '%s\n' "${cpud[@]}" | median) and $(printf '%s\n' "${cpue[@]}" | median)"
        echo "drop $(basename "$file"): detections and poses fingerprints: $(printf '%s\n' "${prints[@]}" | sort -u | tr '\n' ' ')(one expected)"
    done
fi

# ---- 4. memory: peak RSS of `reelwork analyze` (both models loaded) on 1 and 10 minutes ------------
if [[ $SECTIONS == *memory* ]]; then
    for file in "$CLIP" "$LONG"; do
        out=$(mktemp)
        /usr/bin/time -f "%M %e" -o "$out.time" "$REELWORK" analyze "$file" --sport tennis --compact >"$out" 2>/dev/null
        read -r kb seconds <"$out.time"
        echo "memory $(basename "$file"): peak RSS $((kb / 1024)) MiB, $seconds s, result $(wc -c <"$out") bytes"
        rm -f "$out" "$out.time"
    done
fi
