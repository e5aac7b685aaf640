#!/usr/bin/env python3
"""Writes the tiny ONNX models that Tests/VisionTests uses (0.3 and 33 KB; the outputs are committed).

Needs `onnx` and `numpy`; the private tools folder made by scripts/setup-models.sh has both:

    PYTHONPATH=models/.pytools python3 tools/models/make_vision_test_models.py [OUT_DIR]

OUT_DIR defaults to Tests/VisionTests/Fixtures. Deterministic: the same script writes the same bytes.
Each model ignores its input's values (y = constant + 0 * mean(x)), so its output is known exactly.

Models (opset 13, IR version 7):
  unknown_layout.onnx       images[1,3,32,32] -> out[1,7,3]: no YOLO layout; loading it must fail naming [1, 7, 3]
  ultralytics_layout.onnx   images[1,3,64,64] -> output0[1,84,100], YOLOv8/YOLO11's attribute-major layout:
                            box 0 = person (class 0) 0.9 at cx 32, cy 16, w 20, h 10 (input pixels);
                            box 1 = the same place, person 0.6 (suppressed by NMS);
                            box 2 = sports ball (class 32) 0.8 at cx 8, cy 56, w 4, h 4; every other score 0
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OPSET = 13
IR_VERSION = 7


def save(graph, path):
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], producer_name="reelwork-tests")
    model.ir_version = IR_VERSION
    onnx.checker.check_model(model)
    onnx.save(model, path)


def constant_output(name, input_shape, output_name, value):
    """images -> output_name = value + 0 * ReduceMean(images) (broadcast), so the output depends on the input."""
    x = helper.make_tensor_value_info("images", TensorProto.FLOAT, input_shape)
    y = helper.make_tensor_value_info(output_name, TensorProto.FLOAT, list(value.shape))
    nodes = [
        helper.make_node("ReduceMean", ["images"], ["mean"], keepdims=0),
        helper.make_node("Mul", ["mean", "zero"], ["nothing"]),
        helper.make_node("Add", ["value", "nothing"], [output_name]),
    ]
    init = [numpy_helper.from_array(value.astype(np.float32), "value"),
            numpy_helper.from_array(np.array(0.0, dtype=np.float32), "zero")]
    return helper.make_graph(nodes, name, [x], [y], initializer=init)


def unknown_layout():
    value = np.arange(21, dtype=np.float32).reshape(1, 7, 3) / 32
    return constant_output("unknown_layout", [1, 3, 32, 32], "out", value)


def ultralytics_layout():
    out = np.zeros((1, 84, 100), dtype=np.float32)
    for box, (cx, cy, w, h, cls, score) in enumerate([(32, 16, 20, 10, 0, 0.9), (32, 16, 20, 10, 0, 0.6), (8, 56, 4, 4, 32, 0.8)]):
        out[0, 0:4, box] = [cx, cy, w, h]
        out[0, 4 + cls, box] = score
    return constant_output("ultralytics_layout", [1, 3, 64, 64], "output0", out)


def main():
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "Tests", "VisionTests", "Fixtures")
    os.makedirs(out, exist_ok=True)
    for name, build in [("unknown_layout", unknown_layout), ("ultralytics_layout", ultralytics_layout)]:
        path = os.path.join(out, name + ".onnx")
        save(build(), path)
        print(f"{path}: {os.path.getsize(path)} bytes")


if __name__ == "__main__":
    main()
