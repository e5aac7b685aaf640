#!/usr/bin/env bash
# Archery on a 12-megapixel photo: face finding + arrows + scoring, timed in one process over
# several runs (the photo is rendered once by ArcheryScenes, not timed); median reported.
#
# usage: loadtest/archery-bench.sh [RUNS]     (default 7)
# Target: median < 1 s on the 2-core machine (release build).
set -euo pipefail
RUNS=${1:-7}
cd "$(dirname "$0")/.."
swift build -c release --product archery-bench >&2
BIN="$(swift build -c release --show-bin-path)/archery-bench"
"$BIN" "$RUNS"
