#!/usr/bin/env bash
# The vision benchmarks behind BENCHMARKS.md ("Vision: …" sections): inference against Python
# onnxruntime, the streamed stages' overhead, whole-clip analysis speed, and peak memory.
#
# usage: loadtest/vision-bench.sh [RUNS] [SECTIONS]
#   RUNS      repetitions of each timed measurement (default 5; medians are reported)
#   SECTIONS  any of: infer stages e2e memory (default: all four)
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
# 60 s of 1080p30 H.264: two real people (cut from the test photos, scaled ×2.5 and ×1.5) walking
# back and forth over a moving test pattern with per-frame noise (so decoding costs what camera
# footage costs). Deterministic: ffmpeg's noise filter has a fixed seed.
CLIP=$DIR/people-1080p30-60s.mp4
if [[ ! -s $CLIP ]]; then
    echo "making $CLIP (once, about a minute)..." >&2
    ffmpeg -hide_banner -nostdin -v error -y \
        -f lavfi -i "testsrc2=size=1920x1080:rate=30,noise=alls=10:allf=t+u" \
        -loop 1 -framerate 30 -i models/test-photos/person.jpg \
        -loop 1 -framerate 30 -i models/test-photos/bus.jpg \
        -filter_complex "[1:v]crop=120:320:170:75,scale=300:800[a];[2:v]crop=190:560:40:370,scale=285:840[b];[0:v][a]overlay=x='200+600*(1-cos(2*PI*t/20))':y=150:shortest=1[ab];[ab][b]overlay=x='1500-500*(1-cos(2*PI*t/30))':y=200:shortest=1" \
        -t 60 -c:v libx264 -preset veryfast -pix_fmt yuv420p -movflags +faststart "$CLIP.tmp.mp4"
    mv "$CLIP.tmp.mp4" "$CLIP"
fi
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
    # The default (int8) detector, then its fp32 original.
    for variant in int8 fp32; do
        factors=()
        for run in $(seq "$RUNS"); do
            if [[ $variant == fp32 ]]; then
                line=$(REELWORK_DETECTOR_MODEL=models/yolov4-tiny.onnx "$BENCH" analyze "$CLIP" --threads 2)
            else
                line=$("$BENCH" analyze "$CLIP" --threads 2)
            fi
            echo "e2e $variant run $run: $line"
            factors+=("$(field realtime_factor <<<"$line")")
        done
        echo "e2e detector $variant: median realtime factor $(printf '%s\n' "${factors[@]}" | median) (target >= 3)"
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
