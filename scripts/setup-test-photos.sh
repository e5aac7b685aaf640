#!/usr/bin/env bash
# Puts four real photos in models/test-photos/ (gitignored), for tests and for
# tools/models/reference_infer.py:
#
#   bus.jpg, zidane.jpg   ultralytics 8.4.190 (PyPI wheel, ultralytics/assets/; AGPL-3.0)
#   person.jpg            Debian bookworm's darknet package (/usr/share/darknet/data/person.jpg;
#                         GPL-3.0+ or MIT or WTFPL), fetched with apt-get download, not installed
#   messi5.jpg            Debian bookworm's opencv-doc package (OpenCV's samples/data/messi5.jpg,
#                         Apache-2.0): a real football, which the detector finds as "sports ball"
#
# Downloads are kept in models/.cache/; every photo is checked against the sha256 pinned below
# and a mismatch stops the script naming the file. Idempotent: prints "test photos: up to date"
# when all four are in place. REELWORK_PYTHON picks the Python used for pip (default python3).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
# shellcheck disable=SC2034  # read by scripts/lib/models.sh
MDL_TAG="test photos"
# shellcheck source=scripts/lib/models.sh
source scripts/lib/models.sh

MODELS=$ROOT/models
CACHE=$MODELS/.cache
DEST=$MODELS/test-photos

ULTRALYTICS_PKG=ultralytics==8.4.190
ULTRALYTICS_WHEEL=ultralytics-8.4.190-py3-none-any.whl
ULTRALYTICS_WHEEL_SHA=bd309728efa168af64d39040136828edd2dbcb4aeceb4510bdff4f3ca0ea01b8
BUS_SHA=c02019c4979c191eb739ddd944445ef408dad5679acab6fd520ef9d434bfbc63
ZIDANE_SHA=16d73869e3267a7d4ed00de8e860833bd1657c1b252e94c0c348277adc7b6edb
PERSON_SHA=cdcbab947e46110fc2b77784ac54ddbbab2640f1e44cb5e91fc8984a9793a7d1
MESSI_SHA=1d570e49654e84c7a943918537bd9e5e1ef82920152e147c834006e235be97c9

if mdl_sha_ok "$DEST/bus.jpg" "$BUS_SHA" && mdl_sha_ok "$DEST/zidane.jpg" "$ZIDANE_SHA" &&
    mdl_sha_ok "$DEST/person.jpg" "$PERSON_SHA" && mdl_sha_ok "$DEST/messi5.jpg" "$MESSI_SHA"; then
    mdl_say "up to date"
    exit 0
fi

mkdir -p "$DEST" "$CACHE"
exec 9>"$MODELS/.test-photos.lock"
flock 9

if ! mdl_sha_ok "$DEST/bus.jpg" "$BUS_SHA" || ! mdl_sha_ok "$DEST/zidane.jpg" "$ZIDANE_SHA"; then
    PY=$(mdl_python)
    mdl_fetch_wheel "$PY" "$CACHE/wheels" "$ULTRALYTICS_PKG" "$ULTRALYTICS_WHEEL" "$ULTRALYTICS_WHEEL_SHA"
    mdl_say "extracting bus.jpg and zidane.jpg from $ULTRALYTICS_WHEEL"
    mdl_extract_checked "$PY" "$CACHE/wheels/$ULTRALYTICS_WHEEL" ultralytics/assets/bus.jpg "$DEST/bus.jpg" "$BUS_SHA"
    mdl_extract_checked "$PY" "$CACHE/wheels/$ULTRALYTICS_WHEEL" ultralytics/assets/zidane.jpg "$DEST/zidane.jpg" "$ZIDANE_SHA"
fi

# debian_photo PACKAGE PATH NAME SHA: extracts PATH from Debian's PACKAGE (apt-get download, not
# installed; the .deb is kept in models/.cache/debs) to models/test-photos/NAME, checked against SHA.
debian_photo() {
    local package=$1 path=$2 name=$3 sha=$4
    mdl_sha_ok "$DEST/$name" "$sha" && return 0
    for tool in apt-get dpkg-deb tar; do
        if ! command -v "$tool" >/dev/null 2>&1; then
            mdl_err "$tool is needed to fetch $name from Debian's $package package"
            exit 1
        fi
    done
    local debdir=$CACHE/debs debs deb tmp
    mkdir -p "$debdir"
    debs=("$debdir/${package}"_*.deb)
    deb=${debs[0]}
    if [[ ! -f $deb ]]; then
        mdl_say "downloading Debian's $package package (apt-get download $package)"
        tmp=$(mktemp -d "$debdir/.download.XXXXXX")
        # Root downloads into a folder apt's sandbox user cannot write: say so, instead of a warning.
        fetch() { (cd "$tmp" && apt-get -q -o APT::Sandbox::User=root download "$package"); }
        if ! fetch >"$tmp/apt.log" 2>&1; then
            mdl_say "updating apt's package lists and trying again"
            if ! apt-get -q update >"$tmp/apt-update.log" 2>&1 || ! fetch >"$tmp/apt.log" 2>&1; then
                mdl_err "apt-get download $package failed:"
                cat "$tmp"/apt*.log | tail -n 15 | sed 's/^/  | /' >&2
                rm -rf "$tmp"
                exit 1
            fi
        fi
        mv "$tmp/${package}"_*.deb "$debdir/"
        rm -rf "$tmp"
        debs=("$debdir/${package}"_*.deb)
        deb=${debs[0]}
    fi
    mdl_say "extracting $name from ${deb##*/}"
    if ! dpkg-deb --fsys-tarfile "$deb" | tar -xO "./$path" >"$DEST/$name.part"; then
        rm -f "$DEST/$name.part"
        mdl_err "${deb##*/} has no $path (remove it from models/.cache/debs to fetch it again)"
        exit 1
    fi
    mv -f "$DEST/$name.part" "$DEST/$name"
    if ! mdl_check_sha "$DEST/$name" "$sha" "$name from ${deb##*/} (pinned in scripts/setup-test-photos.sh)"; then
        rm -f "$deb"
        exit 1
    fi
}

debian_photo darknet usr/share/darknet/data/person.jpg person.jpg "$PERSON_SHA"
debian_photo opencv-doc usr/share/doc/opencv-doc/examples/data/messi5.jpg messi5.jpg "$MESSI_SHA"
mdl_say "ready: models/test-photos/bus.jpg, zidane.jpg, person.jpg, messi5.jpg"
