#!/usr/bin/env python3
"""Writes the tiny ONNX models that Tests/InferenceTests use (a few KB each; the outputs are committed).

Needs `onnx` and `numpy`. To run it without touching the system Python:

    pip install --no-deps --target models/.pytools onnx==1.23.2 protobuf ml_dtypes typing_extensions
    PYTHONPATH=models/.pytools python3 tools/models/make_test_models.py [OUT_DIR]

OUT_DIR defaults to Tests/InferenceTests/Fixtures. The models are deterministic: the same script writes
the same bytes. Every value is a small integer or a power-of-two fraction, so ONNX Runtime's results
are exact and the tests compare with ==.

Models (opset 13, IR version 7):
  affine.onnx        x[1,3,4,4] -> y = x * 2 + 1
  two_outputs.onnx   a[2,3], b[2,3] -> sum = a + b [2,3], rowmax = ReduceMax(a, axis 1) [2]
  dynamic.onnx       x[batch,4] -> y = x @ W [batch,2] with W = [[1,0],[0,1],[1,1],[2,-1]]
  argmax.onnx        x[1,5] -> idx = ArgMax(x, axis 1) [1] (int64: a non-float output)
  passthrough.onnx   x[2,3] -> y = -x, x itself (a graph input as output), k = [[0,1,2],[3,4,5]] (a constant)
  conv.onnx          x[1,8,32,32] -> y = Conv(x, W, pad 1) [1,8,32,32]; W[o,i,ky,kx] = ((o*3+i*5+ky*7+kx) % 5) - 2
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


def affine():
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 4, 4])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 3, 4, 4])
    two = numpy_helper.from_array(np.array(2.0, dtype=np.float32), "two")
    one = numpy_helper.from_array(np.array(1.0, dtype=np.float32), "one")
    nodes = [helper.make_node("Mul", ["x", "two"], ["x2"]), helper.make_node("Add", ["x2", "one"], ["y"])]
    return helper.make_graph(nodes, "affine", [x], [y], initializer=[two, one])


def two_outputs():
    a = helper.make_tensor_value_info("a", TensorProto.FLOAT, [2, 3])
    b = helper.make_tensor_value_info("b", TensorProto.FLOAT, [2, 3])
    s = helper.make_tensor_value_info("sum", TensorProto.FLOAT, [2, 3])
    m = helper.make_tensor_value_info("rowmax", TensorProto.FLOAT, [2])
    nodes = [
        helper.make_node("Add", ["a", "b"], ["sum"]),
        helper.make_node("ReduceMax", ["a"], ["rowmax"], axes=[1], keepdims=0),
    ]
    return helper.make_graph(nodes, "two_outputs", [a, b], [s, m])


def dynamic():
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 4])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, ["batch", 2])
    w = np.array([[1, 0], [0, 1], [1, 1], [2, -1]], dtype=np.float32)
    nodes = [helper.make_node("MatMul", ["x", "W"], ["y"])]
    return helper.make_graph(nodes, "dynamic", [x], [y], initializer=[numpy_helper.from_array(w, "W")])


def argmax():
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 5])
    idx = helper.make_tensor_value_info("idx", TensorProto.INT64, [1])
    nodes = [helper.make_node("ArgMax", ["x"], ["idx"], axis=1, keepdims=0)]
    return helper.make_graph(nodes, "argmax", [x], [idx])


def passthrough():
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])
    k = helper.make_tensor_value_info("k", TensorProto.FLOAT, [2, 3])
    kv = numpy_helper.from_array(np.arange(6, dtype=np.float32).reshape(2, 3), "k")
    nodes = [helper.make_node("Neg", ["x"], ["y"])]
    return helper.make_graph(nodes, "passthrough", [x], [y, x, k], initializer=[kv])


def conv_weights():
    o, i, ky, kx = np.meshgrid(np.arange(8), np.arange(8), np.arange(3), np.arange(3), indexing="ij")
    return (((o * 3 + i * 5 + ky * 7 + kx) % 5) - 2).astype(np.float32)


def conv():
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 8, 32, 32])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 8, 32, 32])
    nodes = [helper.make_node("Conv", ["x", "W"], ["y"], kernel_shape=[3, 3], pads=[1, 1, 1, 1])]
    return helper.make_graph(nodes, "conv", [x], [y], initializer=[numpy_helper.from_array(conv_weights(), "W")])


def main():
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "Tests", "InferenceTests", "Fixtures")
    os.makedirs(out, exist_ok=True)
    for name, build in [("affine", affine), ("two_outputs", two_outputs), ("dynamic", dynamic),
                        ("argmax", argmax), ("passthrough", passthrough), ("conv", conv)]:
        path = os.path.join(out, name + ".onnx")
        save(build(), path)
        print(f"{path}: {os.path.getsize(path)} bytes")


if __name__ == "__main__":
    main()
