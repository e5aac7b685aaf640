#!/usr/bin/env python3
"""Static int8 quantization of the YOLOv4-tiny detector (scripts/setup-models.sh runs it).

  quantize_detector.py FP32.onnx PHOTO... OUT.onnx

Why: on the 2-core machines Reelwork runs on, the fp32 detector costs ~65 CPU-ms per 416x416
frame, which caps a whole 1080p analysis at ~2x realtime; the int8 model costs ~22 CPU-ms
(ONNX Runtime's QLinearConv with AVX-512 VNNI) and finds the same people on the test photos
(tools/models/README.md, docs/benchmarks/vision.md).

How (chosen by measurement, see docs/benchmarks/vision.md "int8 detector"): QDQ format, uint8 activations,
int8 per-channel weights, Percentile 99.999 calibration with asymmetric ranges over the photos and
nine deterministic augmentations of each (flip, four 80 % crops, a 60 % centre crop, brightness
x0.6 and x1.4, a flipped darker crop), preprocessed exactly as reference_infer.py does. The two
output convolutions and the in-graph YOLO decoding stay float, so boxes and scores keep their
precision. The result is byte-identical run to run with the pinned tools (the setup pins its sha256).
"""
import os
import shutil
import sys
import tempfile

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reference_infer as ref  # noqa: E402  (puts models/.pytools first on sys.path)

import numpy as np  # noqa: E402
import onnx  # noqa: E402
from onnxruntime.quantization import (CalibrationDataReader, CalibrationMethod, QuantFormat,  # noqa: E402
                                      QuantType, quantize_static)


def augmentations(img):
    """The image and nine deterministic variants of it (uint8 RGB)."""
    h, w = img.shape[:2]
    out = [img, img[:, ::-1]]
    ch, cw = int(h * 0.8), int(w * 0.8)
    for y, x in ((0, 0), (0, w - cw), (h - ch, 0), (h - ch, w - cw)):
        out.append(img[y:y + ch, x:x + cw])
    ch6, cw6 = int(h * 0.6), int(w * 0.6)
    y, x = (h - ch6) // 2, (w - cw6) // 2
    out.append(img[y:y + ch6, x:x + cw6])
    for factor in (0.6, 1.4):
        out.append(np.clip(img.astype(np.float32) * factor, 0, 255).astype(np.uint8))
    out.append(np.clip(img[:ch, ::-1].astype(np.float32) * 0.8, 0, 255).astype(np.uint8))
    return [np.ascontiguousarray(a) for a in out]


class Calibration(CalibrationDataReader):
    def __init__(self, input_name, tensors):
        self.items = iter([{input_name: t} for t in tensors])

    def get_next(self):
        return next(self.items, None)


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    fp32, photos, out = argv[0], argv[1:-1], argv[-1]
    model = onnx.load(fp32)
    size = model.graph.input[0].type.tensor_type.shape.dim[3].dim_value
    tensors = [ref.yolo_preprocess(a, size, size) for p in photos for a in augmentations(ref.load_rgb(p))]
    keep_float = [n.name for n in model.graph.node
                  if n.name.startswith(("yolo30", "yolo37", "conv29_", "conv36_")) or n.name == "detections"]
    # The quantizer writes "<input>-inferred.onnx" beside its input: give it a private copy.
    with tempfile.TemporaryDirectory() as scratch:
        source = os.path.join(scratch, "detector.onnx")
        shutil.copyfile(fp32, source)
        quantize_static(
            source, out, Calibration(model.graph.input[0].name, tensors),
            quant_format=QuantFormat.QDQ, op_types_to_quantize=["Conv", "LeakyRelu", "MaxPool", "Concat", "Resize"],
            per_channel=True, activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8,
            nodes_to_exclude=keep_float, calibrate_method=CalibrationMethod.Percentile,
            extra_options={"CalibPercentile": 99.999, "CalibTensorRangeSymmetric": False})
    print(f"wrote {out}: {len(tensors)} calibration tensors, {len(keep_float)} nodes kept float", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
