#!/usr/bin/env bash
# Makes a few short sample clips with FFmpeg's test sources (once; kept in DIR).
set -euo pipefail
dir=${1:?usage: make-samples.sh DIR}
mkdir -p "$dir"
make() {
  local name=$1; shift
  [ -s "$dir/$name" ] || ffmpeg -nostdin -hide_banner -loglevel error -y "$@" -c:v libx264 -pix_fmt yuv420p "$dir/$name"
}
make rally-720p.mp4 -f lavfi -i "testsrc2=size=1280x720:rate=30" -t 6
make serve-1080p.mp4 -f lavfi -i "mandelbrot=size=1920x1080:rate=30" -t 4
make low-light.mp4 -f lavfi -i "testsrc2=size=1280x720:rate=30,lutyuv=y=val*0.25" -t 3
