#!/usr/bin/env bash
# Makes the tennis sample clips, each with its known truth beside it (NAME.truth.json), once; kept
# in DIR. A real photo of a person (person.jpg, from scripts/setup-test-photos.sh) is swept across
# a court by ffmpeg, as the tennis tests do: each sweep of the wrist is one swing, its contact at
# the sweep's speed peak. Also two plain FFmpeg test patterns in DIR/patterns (1080p and 720p),
# which loadtest/job-costs.sh times: they cost a job's full decode and inference and find nothing.
set -euo pipefail
dir=${1:?usage: make-samples.sh DIR}
cd "$(dirname "$0")/.."
scripts/setup-test-photos.sh >/dev/null
person=models/test-photos/person.jpg
mkdir -p "$dir/patterns"

encode() {
  local out=$1; shift
  [ -s "$out" ] && return
  ffmpeg -nostdin -hide_banner -loglevel error -y "$@" -c:v libx264 -pix_fmt yuv420p "$out.tmp.mp4"
  mv "$out.tmp.mp4" "$out"
}

# A green court with white lines, a dark back wall and sensor noise (640×360, 30 fps).
court="color=c=0x3f7a4f:size=640x360:rate=30,drawbox=x=0:y=300:w=640:h=6:c=white:t=fill"
court+=",drawbox=x=40:y=120:w=6:h=240:c=white:t=fill,drawbox=x=594:y=120:w=6:h=240:c=white:t=fill"
court+=",drawbox=x=0:y=150:w=640:h=40:c=0x2a2a2a:t=fill,noise=alls=12:allf=t"

# One sweep of 300 px whose speed peaks at time P (tanh, 0.12 s), rising 30 px along the way.
sweep_x() { echo "150*tanh((t-$1)/0.12)"; }
sweep_y() { echo "30/pow(cosh((t-$1)/0.25),2)"; }

# tennis NAME SECONDS X Y EXTRA TRUTH: the person's cut-out at (X, Y) over the court.
tennis() {
  local name=$1 seconds=$2 x=$3 y=$4 extra=$5 truth=$6
  encode "$dir/$name" -f lavfi -i "$court" -loop 1 -i "$person" \
    -filter_complex "[1:v]crop=120:320:170:75[p];[0:v][p]overlay=x='$x':y='$y':shortest=1$extra" -t "$seconds"
  echo "$truth" >"$dir/$name.truth.json"
}

tennis tennis-one-swing.mp4 3.6 "250+$(sweep_x 1.8)" "38-$(sweep_y 1.8)" "" \
  '{"sport": "tennis", "swings": [{"contact": 1.8}], "warnings": []}'
# Across and back: two swings.
tennis tennis-two-swings.mp4 6 "250+$(sweep_x 1.8)-$(sweep_x 4.2)-150" "38-$(sweep_y 1.8)-$(sweep_y 4.2)" "" \
  '{"sport": "tennis", "swings": [{"contact": 1.8}, {"contact": 4.2}], "warnings": []}'
# The same swing filmed in poor light: still found, with the frame-quality warning.
tennis tennis-low-light.mp4 3.6 "250+$(sweep_x 1.8)" "38-$(sweep_y 1.8)" ",lutyuv=y=val*0.3" \
  '{"sport": "tennis", "swings": [{"contact": 1.8}], "warnings": ["too_dark"]}'

encode "$dir/patterns/rally-720p.mp4" -f lavfi -i "testsrc2=size=1280x720:rate=30" -t 6
encode "$dir/patterns/serve-1080p.mp4" -f lavfi -i "mandelbrot=size=1920x1080:rate=30" -t 4
