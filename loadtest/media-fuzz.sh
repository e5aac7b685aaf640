#!/usr/bin/env bash
# The long fuzz run of the container and decoder paths (the test suite runs a few thousand cases;
# this runs as many as you ask): damaged copies of real videos in several containers (cut at
# every box boundary, box sizes made absurd, bits flipped), each probed, checked against the
# limits and decoded by loadtest/media-fuzz in one release build. A trap ends the driver: the
# script then names the case and keeps its bytes.
#   loadtest/media-fuzz.sh [CASES] [SEED]     (defaults: 20000 cases, seed 1)
set -euo pipefail
cd "$(dirname "$0")/.."
cases=${1:-20000}
seed=${2:-1}
# shellcheck source=../scripts/lib/services.sh
source scripts/lib/services.sh
rw_install_deps

echo "==> building media-fuzz (release)"
swift build -c release --product media-fuzz >/dev/null
bin="$(swift build -c release --show-bin-path)/media-fuzz"

work=.local/fuzz
sources=$work/sources
mkdir -p "$sources"
source_clip() {   # NAME FFMPEG-ARGS...
  local name=$1; shift
  [[ -s $sources/$name ]] || ffmpeg -hide_banner -nostdin -v error -y "$@" "$sources/$name"
}
clip=(-f lavfi -i testsrc2=size=320x240:rate=25 -t 1)
source_clip index-at-end.mp4 "${clip[@]}" -c:v libx264 -pix_fmt yuv420p
source_clip faststart.mp4 "${clip[@]}" -c:v libx264 -pix_fmt yuv420p -movflags +faststart
source_clip fragmented.mp4 "${clip[@]}" -c:v libx264 -pix_fmt yuv420p -movflags frag_keyframe+empty_moov
source_clip rotated.mov "${clip[@]}" -c:v libx264 -pix_fmt yuv420p -metadata:s:v rotate=90
source_clip clip.mkv "${clip[@]}" -c:v libx264 -pix_fmt yuv420p
source_clip clip.ts "${clip[@]}" -c:v libx264 -pix_fmt yuv420p -f mpegts
source_clip mjpeg.avi "${clip[@]}" -c:v mjpeg
source_clip hevc.mp4 "${clip[@]}" -c:v libx265 -pix_fmt yuv420p -x265-params log-level=none

echo "==> $cases damaged files, seed $seed"
status=0
"$bin" "$sources"/* --cases "$cases" --seed "$seed" --work-dir "$work" || status=$?
if (( status != 0 )); then
  if [[ -s $work/current-case.txt ]]; then
    cp "$work/case.bin" "$work/crash-$(date +%s).bin"
    echo "media-fuzz died (status $status) on: $(cat "$work/current-case.txt")" >&2
    echo "its bytes are kept in $work/crash-*.bin; replay: $bin $sources/* --seed $seed --only \"<label>\"" >&2
  fi
  exit 1
fi
