# The clips the vision benchmarks make for themselves (vision-bench.sh, throughput-sweep.sh), sourced
# by them. Deterministic: ffmpeg's noise filter has a fixed seed, so every machine makes the same file.
#   rw_people_clip FILE SECONDS SIZE [X264 ARGS...]
#       two real people (cut from the test photos, scaled ×2.5 and ×1.5 at 1080p) walking back and
#       forth over a moving test pattern with per-frame noise (so decoding costs what camera footage
#       costs); they cross, one hiding the other, every 10–15 s. 30 fps H.264, libx264 `veryfast`
#       unless the arguments say otherwise (e.g. `-bf 0`: no B-frames, as phones often encode).
#       Made once: an existing FILE is kept.
rw_people_clip() {
    local file=$1 seconds=$2 size=$3
    shift 3
    [[ -s $file ]] && return
    echo "making $file (once)..." >&2
    local scale=""
    [[ $size == 1920x1080 ]] || scale=",scale=${size/x/:}"
    ffmpeg -hide_banner -nostdin -v error -y \
        -f lavfi -i "testsrc2=size=1920x1080:rate=30,noise=alls=10:allf=t+u" \
        -loop 1 -framerate 30 -i models/test-photos/person.jpg \
        -loop 1 -framerate 30 -i models/test-photos/bus.jpg \
        -filter_complex "[1:v]crop=120:320:170:75,scale=300:800[a];[2:v]crop=190:560:40:370,scale=285:840[b];[0:v][a]overlay=x='200+600*(1-cos(2*PI*t/20))':y=150:shortest=1[ab];[ab][b]overlay=x='1500-500*(1-cos(2*PI*t/30))':y=200:shortest=1$scale" \
        -t "$seconds" -c:v libx264 -preset veryfast "$@" -pix_fmt yuv420p -movflags +faststart "$file.tmp.mp4"
    mv "$file.tmp.mp4" "$file"
}
