#!/usr/bin/env python3
"""Reelwork's Python reference for the detection and pose models (ONNX Runtime's Python package).

The Swift code and its tests/benchmarks compare against this. Every step is written out so that the
Swift side can do exactly the same; tools/models/README.md describes it in prose.

  reference_infer.py yolo IMAGE [--model models/yolov4-tiny.onnx] [--threads N]
                          [--dump-raw FILE] [--threshold 0.25] [--iou 0.45]
  reference_infer.py yolo --raw FILE [--source-size W,H] ...
  reference_infer.py pose IMAGE --box x1,y1,x2,y2 [--model models/pose_landmark_full.onnx] [--dump-raw FILE]
  reference_infer.py pose --raw FILE [--box x1,y1,x2,y2] ...
  reference_infer.py bench yolo|pose [--threads N] [--runs R] [--warmup W] [--model PATH]

Raw tensor files are bare little-endian float32, no header, in the model's input layout
(YOLO: 1x3x416x416 NCHW; pose: 1x256x256x3 NHWC).

The private tools folder models/.pytools (made by scripts/setup-models.sh) is put first on
sys.path, so `python3 tools/models/reference_infer.py ...` works without any other setup.
"""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_PYTOOLS = os.environ.get("REELWORK_PYTOOLS", os.path.join(ROOT, "models", ".pytools"))
if os.path.isdir(_PYTOOLS) and _PYTOOLS not in sys.path:
    sys.path.insert(0, _PYTOOLS)

import argparse  # noqa: E402
import json  # noqa: E402
import time  # noqa: E402

try:
    import numpy as np  # noqa: E402
except ImportError:
    sys.exit("reference_infer: numpy is missing; run scripts/setup-models.sh first")

DEFAULT_YOLO = os.path.join(ROOT, "models", "yolov4-tiny.onnx")
DEFAULT_POSE = os.path.join(ROOT, "models", "pose_landmark_full.onnx")
DEFAULT_NAMES = os.path.join(ROOT, "models", "coco.names")

POSE_SIZE = 256
POSE_CROP_SCALE = 1.25
POSE_LANDMARKS = [
    "nose", "left_eye_inner", "left_eye", "left_eye_outer", "right_eye_inner", "right_eye",
    "right_eye_outer", "left_ear", "right_ear", "mouth_left", "mouth_right", "left_shoulder",
    "right_shoulder", "left_elbow", "right_elbow", "left_wrist", "right_wrist", "left_pinky",
    "right_pinky", "left_index", "right_index", "left_thumb", "right_thumb", "left_hip",
    "right_hip", "left_knee", "right_knee", "left_ankle", "right_ankle", "left_heel",
    "right_heel", "left_foot_index", "right_foot_index",
]


class UsageError(Exception):
    pass


# ---------------------------------------------------------------------------------------------
# Images and the two resampling rules


def load_rgb(path):
    """Decodes an image to uint8 RGB [H, W, 3], pixels as stored (no EXIF rotation, no colour
    management; alpha dropped, greyscale expanded)."""
    try:
        from PIL import Image
    except ImportError:
        raise UsageError("Pillow is missing; run scripts/setup-models.sh first")
    try:
        with Image.open(path) as im:
            return np.asarray(im.convert("RGB"), dtype=np.uint8)
    except OSError as e:
        raise UsageError(f"cannot read image {path}: {e}")


def bilinear_weights(dst, src, start, step, clamp):
    """For output positions 0..dst-1: the source pixel pair (i0, i1) and the weight of i1.

    Source coordinate of output pixel o:  s = start + (o + 0.5) * step - 0.5
    (pixel centres at integer + 0.5 in continuous coordinates on both sides).
      clamp=True  (whole-image resize): s = max(s, 0); i0 = floor(s), i1 = min(i0 + 1, src - 1),
                  i0 = min(i0, src - 1); weight f = s - floor(s) (edge pixels repeat).
      clamp=False (crop):  i0 = floor(s), i1 = i0 + 1, f = s - i0; indices outside 0..src-1 read 0.
    """
    s = start + (np.arange(dst, dtype=np.float64) + 0.5) * step - 0.5
    if clamp:
        s = np.maximum(s, 0.0)
    i0 = np.floor(s)
    f = (s - i0).astype(np.float32)
    i0 = i0.astype(np.int64)
    i1 = i0 + 1
    if clamp:
        i0 = np.minimum(i0, src - 1)
        i1 = np.minimum(i1, src - 1)
    return i0, i1, f


def sample(img, i, axis):
    """img taken at indices i along axis, zero where i is outside the image."""
    n = img.shape[axis]
    valid = (i >= 0) & (i < n)
    out = np.take(img, np.clip(i, 0, n - 1), axis=axis)
    if not valid.all():
        shape = [1] * img.ndim
        shape[axis] = len(i)
        out = out * valid.reshape(shape).astype(out.dtype)
    return out


def resample(img, out_h, out_w, top, left, step_y, step_x, clamp):
    """Separable bilinear resampling of uint8/float [H, W, 3] to float32 [out_h, out_w, 3] in the
    input's value range: first along y (rows), then along x, in float32."""
    src = img.astype(np.float32)
    y0, y1, fy = bilinear_weights(out_h, img.shape[0], top, step_y, clamp)
    x0, x1, fx = bilinear_weights(out_w, img.shape[1], left, step_x, clamp)
    fy = fy[:, None, None]
    rows = sample(src, y0, 0) * (np.float32(1) - fy) + sample(src, y1, 0) * fy
    fx = fx[None, :, None]
    return sample(rows, x0, 1) * (np.float32(1) - fx) + sample(rows, x1, 1) * fx


def read_raw(path, shape):
    want = int(np.prod(shape))
    size = os.path.getsize(path)
    if size != want * 4:
        raise UsageError(f"{path}: {size} bytes, expected {want * 4} (float32 {'x'.join(map(str, shape))})")
    return np.fromfile(path, dtype="<f4").reshape(shape).astype(np.float32)


def write_raw(path, tensor):
    np.ascontiguousarray(tensor, dtype="<f4").tofile(path)


# ---------------------------------------------------------------------------------------------
# ONNX Runtime


def session(model, threads):
    try:
        import onnxruntime as ort
    except ImportError:
        raise UsageError("onnxruntime is missing; run scripts/setup-models.sh first")
    if not os.path.isfile(model):
        raise UsageError(f"model not found: {model} (run scripts/setup-models.sh)")
    so = ort.SessionOptions()
    so.intra_op_num_threads = threads
    so.inter_op_num_threads = 1
    so.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    so.log_severity_level = 3
    return ort.InferenceSession(model, sess_options=so, providers=["CPUExecutionProvider"])


# ---------------------------------------------------------------------------------------------
# YOLO


def yolo_input_size(sess):
    shape = sess.get_inputs()[0].shape
    if len(shape) != 4 or not all(isinstance(d, int) for d in shape[2:]):
        return 416, 416
    return shape[3], shape[2]


def yolo_preprocess(img, width, height):
    """uint8 RGB [H, W, 3] -> float32 [1, 3, height, width], RGB, plain (stretching) bilinear
    resize with half-pixel centres and clamped edges (as OpenCV's INTER_LINEAR), then / 255."""
    h, w = img.shape[:2]
    resized = resample(img, height, width, 0.0, 0.0, h / height, w / width, clamp=True)
    return (resized / np.float32(255.0)).transpose(2, 0, 1)[None].astype(np.float32)


def iou(box, boxes):
    x1 = np.maximum(box[0], boxes[:, 0])
    y1 = np.maximum(box[1], boxes[:, 1])
    x2 = np.minimum(box[2], boxes[:, 2])
    y2 = np.minimum(box[3], boxes[:, 3])
    inter = np.maximum(x2 - x1, 0) * np.maximum(y2 - y1, 0)
    area = (box[2] - box[0]) * (box[3] - box[1])
    areas = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
    union = area + areas - inter
    return np.where(union > 0, inter / np.maximum(union, 1e-12), 0.0)


def yolo_layout(out):
    """"darknet" for [1, N, 5 + C] (N > 5 + C), "ultralytics" for [1, 4 + C, N] (N > 4 + C)."""
    shape = np.shape(out)
    if len(shape) == 3 and shape[2] >= 6 and shape[1] > shape[2]:
        return "darknet"
    if len(shape) == 3 and shape[1] >= 5 and shape[2] > shape[1]:
        return "ultralytics"
    raise UsageError(f"unrecognised detector output shape {list(shape)}; give --layout")


def yolo_decode(out, in_w, in_h, src_w, src_h, threshold, iou_threshold, layout="auto"):
    """Model output -> detections in source pixels.

    Darknet layout [1, N, 5 + C] (this project's yolov4-tiny.onnx): cx, cy, w, h as fractions of
    the input, objectness, C class probabilities; score = objectness * prob.
    Ultralytics layout [1, 4 + C, N] (YOLOv8/YOLO11 exports): cx, cy, w, h in input pixels, then C
    class scores; score = class score.
    Every (box, class) with score > threshold is a candidate; greedy NMS per class (IoU >
    iou_threshold suppresses the lower score); boxes clamped to the image; sorted by score.
    """
    if layout == "auto":
        layout = yolo_layout(out)
    out = np.asarray(out, dtype=np.float64)[0]
    if layout == "darknet":  # [N, 5 + C]
        xywh = out[:, :4] * np.array([src_w, src_h, src_w, src_h])
        scores = out[:, 4:5] * out[:, 5:]
    elif layout == "ultralytics":  # [4 + C, N]
        out = out.T
        xywh = out[:, :4] * np.array([src_w / in_w, src_h / in_h, src_w / in_w, src_h / in_h])
        scores = out[:, 4:]
    else:
        raise UsageError(f"unknown layout {layout!r}")
    boxes = np.stack([xywh[:, 0] - xywh[:, 2] / 2, xywh[:, 1] - xywh[:, 3] / 2,
                      xywh[:, 0] + xywh[:, 2] / 2, xywh[:, 1] + xywh[:, 3] / 2], axis=1)
    boxes = np.clip(boxes, 0, [src_w, src_h, src_w, src_h])
    found = []
    rows, classes = np.nonzero(scores > threshold)
    for c in np.unique(classes):
        idx = rows[classes == c]
        idx = idx[np.argsort(-scores[idx, c], kind="stable")]
        while len(idx):
            best = idx[0]
            found.append((float(scores[best, c]), int(c), boxes[best]))
            if len(idx) == 1:
                break
            rest = idx[1:]
            idx = rest[iou(boxes[best], boxes[rest]) <= iou_threshold]
    found.sort(key=lambda d: (-d[0], d[1]))
    return found


def load_names(path, count):
    if path and os.path.isfile(path):
        with open(path, encoding="utf-8") as f:
            names = [line.strip() for line in f if line.strip()]
        if len(names) >= count:
            return names
    return [str(i) for i in range(count)]


def cmd_yolo(args):
    sess = session(args.model, args.threads)
    in_w, in_h = yolo_input_size(sess)
    if args.raw:
        x = read_raw(args.raw, (1, 3, in_h, in_w))
        src_w, src_h = parse_size(args.source_size) if args.source_size else (in_w, in_h)
    else:
        if not args.image:
            raise UsageError("yolo: give IMAGE or --raw FILE")
        img = load_rgb(args.image)
        src_h, src_w = img.shape[:2]
        x = yolo_preprocess(img, in_w, in_h)
    if args.dump_raw:
        write_raw(args.dump_raw, x)
    out = sess.run(None, {sess.get_inputs()[0].name: x})[0]
    layout = yolo_layout(out) if args.layout == "auto" else args.layout
    found = yolo_decode(out, in_w, in_h, src_w, src_h, args.threshold, args.iou, layout)
    classes = out.shape[2] - 5 if layout == "darknet" else out.shape[1] - 4
    names = load_names(args.names, classes)
    print(json.dumps([{"class": c, "name": names[c], "score": round(s, 5),
                       "box": [round(float(v), 2) for v in b]} for s, c, b in found]))


# ---------------------------------------------------------------------------------------------
# Pose


def pose_crop_rect(box):
    """The square crop: centred on the box, side = 1.25 x the box's larger side."""
    x1, y1, x2, y2 = box
    side = POSE_CROP_SCALE * max(x2 - x1, y2 - y1)
    if side <= 0:
        raise UsageError(f"empty box {box}")
    cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    return cx - side / 2, cy - side / 2, side


def pose_preprocess(img, box):
    """uint8 RGB [H, W, 3] + person box -> float32 [1, 256, 256, 3] NHWC RGB 0..1 (bilinear, half-pixel
    centres, the image extended with zeros outside), and the crop (left, top, side)."""
    left, top, side = pose_crop_rect(box)
    step = side / POSE_SIZE
    crop = resample(img, POSE_SIZE, POSE_SIZE, top, left, step, step, clamp=False)
    return (crop / np.float32(255.0))[None].astype(np.float32), (left, top, side)


def sigmoid(v):
    return 1.0 / (1.0 + np.exp(-v))


def cmd_pose(args):
    sess = session(args.model, args.threads)
    box = parse_box(args.box) if args.box else None
    if args.raw:
        x = read_raw(args.raw, (1, POSE_SIZE, POSE_SIZE, 3))
        rect = pose_crop_rect(box) if box else (0.0, 0.0, float(POSE_SIZE))
    else:
        if not args.image or not box:
            raise UsageError("pose: give IMAGE and --box x1,y1,x2,y2 (or --raw FILE)")
        x, rect = pose_preprocess(load_rgb(args.image), box)
    if args.dump_raw:
        write_raw(args.dump_raw, x)
    landmarks, presence = sess.run(["landmarks", "presence"], {"input": x})
    left, top, side = rect
    k = side / POSE_SIZE
    pts = landmarks.reshape(39, 5).astype(np.float64)
    out = []
    for i, name in enumerate(POSE_LANDMARKS):
        px, py, pz, vis, pres = pts[i]
        out.append({"name": name, "x": round(left + px * k, 3), "y": round(top + py * k, 3),
                    "z": round(pz * k, 3), "visibility": round(float(sigmoid(vis)), 5),
                    "presence": round(float(sigmoid(pres)), 5)})
    print(json.dumps({"score": round(float(presence.reshape(-1)[0]), 5),
                      "crop": [round(left, 3), round(top, 3), round(side, 3)],
                      "landmarks": out}))


# ---------------------------------------------------------------------------------------------
# Benchmark


def cmd_bench(args):
    model = args.model or (DEFAULT_YOLO if args.which == "yolo" else DEFAULT_POSE)
    sess = session(model, args.threads)
    inp = sess.get_inputs()[0]
    shape = [d if isinstance(d, int) else 1 for d in inp.shape]
    x = np.random.default_rng(0).random(shape, dtype=np.float32)  # fixed input: seed 0, 0..1
    feed = {inp.name: x}
    for _ in range(args.warmup):
        sess.run(None, feed)
    times = []
    for _ in range(args.runs):
        t0 = time.perf_counter()
        sess.run(None, feed)
        times.append((time.perf_counter() - t0) * 1000.0)
    t = np.array(times)
    import onnxruntime as ort
    print(json.dumps({"model": args.which, "file": os.path.relpath(model, ROOT) if model.startswith(ROOT) else model,
                      "threads": args.threads, "runs": args.runs, "warmup": args.warmup,
                      "median_ms": round(float(np.median(t)), 3), "mean_ms": round(float(t.mean()), 3),
                      "min_ms": round(float(t.min()), 3), "p90_ms": round(float(np.percentile(t, 90)), 3),
                      "onnxruntime": ort.__version__}))


# ---------------------------------------------------------------------------------------------


def parse_box(text):
    try:
        v = [float(p) for p in text.split(",")]
    except ValueError:
        v = []
    if len(v) != 4 or v[2] <= v[0] or v[3] <= v[1]:
        raise UsageError(f"--box expects x1,y1,x2,y2 with x2 > x1 and y2 > y1, got {text!r}")
    return v


def parse_size(text):
    try:
        w, h = (int(p) for p in text.replace("x", ",").split(","))
    except ValueError:
        raise UsageError(f"--source-size expects W,H, got {text!r}")
    return w, h


def main(argv=None):
    ap = argparse.ArgumentParser(description="Reelwork's Python reference runner for the YOLO and pose models.")
    sub = ap.add_subparsers(dest="cmd", required=True)

    y = sub.add_parser("yolo", help="detect objects; prints JSON [{class, name, score, box}]")
    y.add_argument("image", nargs="?")
    y.add_argument("--model", default=DEFAULT_YOLO)
    y.add_argument("--names", default=DEFAULT_NAMES)
    y.add_argument("--threads", type=int, default=1)
    y.add_argument("--threshold", type=float, default=0.25)
    y.add_argument("--iou", type=float, default=0.45)
    y.add_argument("--layout", choices=["auto", "darknet", "ultralytics"], default="auto",
                   help="output layout: darknet [1,N,5+C] or ultralytics [1,4+C,N] (default: from the shape)")
    y.add_argument("--raw", help="use this preprocessed float32 1x3xHxW file instead of an image")
    y.add_argument("--source-size", help="W,H of the image the --raw tensor came from (boxes are mapped to it)")
    y.add_argument("--dump-raw", help="write the preprocessed input tensor here")
    y.set_defaults(func=cmd_yolo)

    p = sub.add_parser("pose", help="33 body landmarks of the person in --box; prints JSON")
    p.add_argument("image", nargs="?")
    p.add_argument("--box", help="x1,y1,x2,y2 of the person in source pixels")
    p.add_argument("--model", default=DEFAULT_POSE)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--raw", help="use this preprocessed float32 1x256x256x3 file instead of an image")
    p.add_argument("--dump-raw", help="write the preprocessed input tensor here")
    p.set_defaults(func=cmd_pose)

    b = sub.add_parser("bench", help="median ms per inference; prints JSON")
    b.add_argument("which", choices=["yolo", "pose"])
    b.add_argument("--model")
    b.add_argument("--threads", type=int, default=1)
    b.add_argument("--runs", type=int, default=50)
    b.add_argument("--warmup", type=int, default=5)
    b.set_defaults(func=cmd_bench)

    args = ap.parse_args(argv)
    try:
        args.func(args)
    except UsageError as e:
        print(f"reference_infer: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
