#!/usr/bin/env python3
"""Checks the two converted models against independent implementations (not part of the setup).

  yolov4-tiny.onnx         vs OpenCV's Darknet loader (cv2.dnn.readNetFromDarknet) on the same
                           input: every row of the 2535x85 output (box, objectness; class scores
                           where OpenCV reports them, as objectness x probability)
  pose_landmark_full.onnx  vs the TFLite interpreter (ai-edge-litert), both with TFLite's reference
                           kernels and its default XNNPACK kernels, on person crops and noise

Inputs: the three test photos (scripts/setup-test-photos.sh) preprocessed exactly as
reference_infer.py does, plus a seeded random tensor. Exits 1 if a difference exceeds the limit
(YOLO 1e-4; pose x/y 1e-3 crop pixels on the photo crops, presence 1e-4).

The verification packages (opencv-python-headless 4.12.0.88, ai-edge-litert 2.3.0) are installed on
first use into models/.verify-tools with pip --no-deps --target; nothing touches the system Python.

  python3 tools/models/verify_conversions.py
"""

import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
MODELS = os.path.join(ROOT, "models")
VERIFY_TOOLS = os.path.join(MODELS, ".verify-tools")
VERIFY_REQUIREMENTS = ["opencv-python-headless==4.12.0.88", "ai-edge-litert==2.3.0",
                       "tqdm==4.67.1"]

sys.dont_write_bytecode = True  # no __pycache__ in tools/models
sys.path.insert(0, HERE)
import reference_infer as ref  # noqa: E402  (puts models/.pytools on sys.path)

import numpy as np  # noqa: E402


def ensure_verify_tools():
    stamp = os.path.join(VERIFY_TOOLS, ".stamp")
    want = "\n".join(VERIFY_REQUIREMENTS)
    if not (os.path.isfile(stamp) and open(stamp).read() == want):
        print("verify: installing " + " ".join(VERIFY_REQUIREMENTS) + " into models/.verify-tools", flush=True)
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--disable-pip-version-check", "--no-deps",
                        "--only-binary=:all:", "--upgrade", "--target", VERIFY_TOOLS] + VERIFY_REQUIREMENTS,
                       check=True)
        with open(stamp, "w") as f:
            f.write(want)
    sys.path.insert(1, VERIFY_TOOLS)


def photos():
    out = []
    for name in ("bus", "zidane", "person"):
        path = os.path.join(MODELS, "test-photos", name + ".jpg")
        if os.path.isfile(path):
            out.append((name, ref.load_rgb(path)))
    if not out:
        print("verify: no test photos (run scripts/setup-test-photos.sh); using noise only")
    return out


def verify_yolo(imgs):
    import cv2
    src = os.path.join(MODELS, ".cache", "src", "yolov4-tiny")
    net = cv2.dnn.readNetFromDarknet(os.path.join(src, "yolov4-tiny.cfg"), os.path.join(src, "yolov4-tiny.weights"))
    names = net.getUnconnectedOutLayersNames()
    sess = ref.session(os.path.join(MODELS, "yolov4-tiny.onnx"), 2)
    inputs = [(n, ref.yolo_preprocess(img, 416, 416)) for n, img in imgs]
    inputs.append(("noise", np.random.default_rng(0).random((1, 3, 416, 416), dtype=np.float32)))
    worst = 0.0
    for name, x in inputs:
        net.setInput(x)
        cv = np.concatenate([o.reshape(-1, 85) for o in net.forward(names)], 0)
        ours = sess.run(None, {"images": x})[0][0]
        d_box = float(np.abs(cv[:, :5] - ours[:, :5]).max())
        scores = ours[:, 4:5] * ours[:, 5:]
        reported = cv[:, 5:] > 0
        d_cls = float(np.abs(cv[:, 5:][reported] - scores[reported]).max()) if reported.any() else 0.0
        worst = max(worst, d_box, d_cls)
        print(f"verify: yolo {name:7s} max |ONNX - OpenCV| box+objectness {d_box:.2e}, class scores {d_cls:.2e}")
    return worst <= 1e-4


def verify_pose(imgs):
    from ai_edge_litert.interpreter import Interpreter, OpResolverType
    tfl = os.path.join(MODELS, ".cache", "src", "pose_landmark_full.tflite")
    interpreters = {}
    for kind, resolver in (("ref", OpResolverType.BUILTIN_REF), ("xnnpack", OpResolverType.AUTO)):
        it = Interpreter(model_path=tfl, num_threads=1, experimental_op_resolver_type=resolver)
        it.allocate_tensors()
        interpreters[kind] = it
    sess = ref.session(os.path.join(MODELS, "pose_landmark_full.onnx"), 2)
    yolo = ref.session(os.path.join(MODELS, "yolov4-tiny.onnx"), 2)
    inputs = []
    for name, img in imgs:
        h, w = img.shape[:2]
        dets = ref.yolo_decode(yolo.run(None, {"images": ref.yolo_preprocess(img, 416, 416)})[0], 416, 416, w, h, 0.25, 0.45)
        people = [d for d in dets if d[1] == 0]
        if people:
            box = max(people, key=lambda d: (d[2][2] - d[2][0]) * (d[2][3] - d[2][1]))[2]
            inputs.append((name, ref.pose_preprocess(img, list(box))[0], True))
    inputs.append(("noise", np.random.default_rng(0).random((1, 256, 256, 3), dtype=np.float32), False))
    ok = True
    for name, x, photo in inputs:
        lm, pres = sess.run(["landmarks", "presence"], {"input": x})
        lm = lm.reshape(39, 5)
        line = []
        for kind, it in interpreters.items():
            it.set_tensor(it.get_input_details()[0]["index"], x)
            it.invoke()
            outs = {d["name"]: it.get_tensor(d["index"]) for d in it.get_output_details()}
            t = outs["Identity"].reshape(39, 5)
            d_xy = float(np.abs(t[:, :2] - lm[:, :2]).max())
            d_z = float(np.abs(t[:, 2] - lm[:, 2]).max())
            d_logit = float(np.abs(t[:, 3:] - lm[:, 3:]).max())
            d_p = float(np.abs(outs["Identity_1"] - pres).max())
            line.append(f"{kind}: x/y {d_xy:.1e} px, z {d_z:.1e}, logits {d_logit:.1e}, presence {d_p:.1e}")
            if photo and (d_xy > 1e-3 or d_p > 1e-4):
                ok = False
        print(f"verify: pose {name:7s} max |ONNX - TFLite| " + "; ".join(line))
    return ok


def main():
    ensure_verify_tools()
    imgs = photos()
    ok_yolo = verify_yolo(imgs)
    ok_pose = verify_pose(imgs)
    print(f"verify: yolov4-tiny.onnx {'OK' if ok_yolo else 'FAILED'}, pose_landmark_full.onnx {'OK' if ok_pose else 'FAILED'}")
    return 0 if ok_yolo and ok_pose else 1


if __name__ == "__main__":
    sys.exit(main())
