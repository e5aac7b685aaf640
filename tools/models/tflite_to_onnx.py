#!/usr/bin/env python3
"""Convert a float TFLite model of the BlazePose family to ONNX, with numpy, onnx and `tflite`.

Written for MediaPipe's pose_landmark_full.tflite (mediapipe 0.10.21) and covering exactly its op
set: DEQUANTIZE (float16 weights), PAD, CONV_2D, DEPTHWISE_CONV_2D, ADD, RESIZE_BILINEAR,
MAX_POOL_2D, RESHAPE, LOGISTIC (fused activations NONE, RELU, RELU_N1_TO_1, RELU6, TANH). Any
other op, a quantised tensor, sparse weights or a dynamic shape is a clear error.

Only the part of the graph that the requested outputs need is converted (for the pose model the
segmentation mask, heatmap and world-landmark heads are left out). Inside, 4-D activations are
kept NCHW (ONNX's convolution layout); the graph input keeps the TFLite NHWC layout and is
transposed once, and a 4-D output is transposed back, so the ONNX model has the same input and
output layouts and values as the TFLite model. Weights are converted exactly (float16 -> float32,
transposes only), so the file is byte-for-byte reproducible.

Usage:
  tflite_to_onnx.py MODEL.tflite OUT.onnx [--input NAME] [--output TFLITE_NAME=ONNX_NAME ...]
e.g.
  tflite_to_onnx.py pose_landmark_full.tflite pose_landmark_full.onnx \\
      --input input --output Identity=landmarks --output Identity_1=presence
"""

import argparse
import sys

import numpy as np
import onnx
import tflite
from onnx import TensorProto, helper, numpy_helper

OPSET = 17

BUILTIN_NAMES = {v: k for k, v in vars(tflite.BuiltinOperator).items() if not k.startswith("_")}
TENSOR_DTYPES = {
    tflite.TensorType.FLOAT32: np.float32,
    tflite.TensorType.FLOAT16: np.float16,
    tflite.TensorType.INT32: np.int32,
    tflite.TensorType.INT64: np.int64,
}
PADDING_SAME = tflite.Padding.SAME
PADDING_VALID = tflite.Padding.VALID


class ConversionError(Exception):
    pass


def options(op, cls):
    table = op.BuiltinOptions()
    if table is None:
        return None
    o = cls()
    o.Init(table.Bytes, table.Pos)
    return o


class Converter:
    def __init__(self, data, input_name, output_names):
        self.data = data
        self.model = tflite.Model.GetRootAsModel(data, 0)
        if self.model.SubgraphsLength() != 1:
            raise ConversionError(f"expected 1 subgraph, found {self.model.SubgraphsLength()}")
        self.g = self.model.Subgraphs(0)
        self.codes = []
        for i in range(self.model.OperatorCodesLength()):
            oc = self.model.OperatorCodes(i)
            code = max(oc.BuiltinCode(), oc.DeprecatedBuiltinCode())
            self.codes.append(BUILTIN_NAMES.get(code, f"builtin {code}"))
        self.input_name = input_name
        self.output_names = output_names  # tflite tensor name -> onnx name
        self.nodes = []
        self.initializers = []
        self.consts = {}  # tflite tensor index -> numpy array (TFLite layout)
        self.onnx_names = {}  # tflite tensor index -> onnx tensor name (NCHW for 4-D)
        self.counter = 0

    # -- helpers -------------------------------------------------------------------------------
    def tensor(self, i):
        return self.g.Tensors(i)

    def tname(self, i):
        return self.tensor(i).Name().decode("utf-8")

    def shape(self, i):
        t = self.tensor(i)
        shape = [int(v) for v in t.ShapeAsNumpy()] if t.ShapeLength() else []
        if t.ShapeSignatureLength() and any(int(v) < 0 for v in t.ShapeSignatureAsNumpy()):
            if any(int(v) < 0 for v in t.ShapeSignatureAsNumpy()[1:]):
                raise ConversionError(f"tensor {self.tname(i)} has a dynamic shape")
        return shape

    def buffer_data(self, i):
        t = self.tensor(i)
        buf = self.model.Buffers(t.Buffer())
        if buf is None:
            return None
        if buf.Offset() > 1:
            raw = self.data[buf.Offset():buf.Offset() + buf.Size()]
        elif buf.DataLength():
            raw = buf.DataAsNumpy().tobytes()
        else:
            return None
        if t.Type() not in TENSOR_DTYPES:
            raise ConversionError(f"tensor {self.tname(i)} has unsupported type {t.Type()}")
        q = t.Quantization()
        if q is not None and (q.ScaleLength() or q.ZeroPointLength()):
            raise ConversionError(f"tensor {self.tname(i)} is quantised")
        if t.Sparsity() is not None:
            raise ConversionError(f"tensor {self.tname(i)} has sparse weights")
        arr = np.frombuffer(raw, dtype=np.dtype(TENSOR_DTYPES[t.Type()]).newbyteorder("<"))
        return arr.reshape(self.shape(i)).astype(TENSOR_DTYPES[t.Type()])

    def const_of(self, i):
        if i not in self.consts:
            data = self.buffer_data(i)
            if data is None:
                raise ConversionError(f"tensor {self.tname(i)} was expected to be a constant")
            self.consts[i] = data
        return self.consts[i]

    def is_const(self, i):
        return i in self.consts or self.buffer_data(i) is not None

    def new_name(self, prefix):
        self.counter += 1
        return f"{prefix}_{self.counter}"

    def add_const(self, prefix, array):
        name = self.new_name(prefix)
        self.initializers.append(numpy_helper.from_array(np.ascontiguousarray(array), name))
        return name

    def out_name(self, i):
        n = self.tname(i)
        if n in self.output_names and len(self.shape(i)) != 4:
            return self.output_names[n]
        return f"t{i}"

    def node(self, op, inputs, outputs, **attrs):
        self.nodes.append(helper.make_node(op, inputs, outputs, name=outputs[0], **attrs))

    def activation(self, x, fused, out):
        if fused == tflite.ActivationFunctionType.NONE:
            if x != out:
                self.node("Identity", [x], [out])
            return
        if fused == tflite.ActivationFunctionType.RELU:
            self.node("Relu", [x], [out])
        elif fused == tflite.ActivationFunctionType.RELU6:
            self.node("Clip", [x, self.add_const("zero", np.array(0, np.float32)),
                               self.add_const("six", np.array(6, np.float32))], [out])
        elif fused == tflite.ActivationFunctionType.RELU_N1_TO_1:
            self.node("Clip", [x, self.add_const("minus_one", np.array(-1, np.float32)),
                               self.add_const("one", np.array(1, np.float32))], [out])
        elif fused == tflite.ActivationFunctionType.TANH:
            self.node("Tanh", [x], [out])
        else:
            raise ConversionError(f"unsupported fused activation {fused}")

    @staticmethod
    def same_pads(in_size, kernel, stride, dilation):
        out = -(-in_size // stride)
        effective = (kernel - 1) * dilation + 1
        total = max((out - 1) * stride + effective - in_size, 0)
        return total // 2, total - total // 2

    def spatial_pads(self, padding, in_shape, kh, kw, sh, sw, dh=1, dw=1):
        if padding == PADDING_VALID:
            return [0, 0, 0, 0]
        if padding != PADDING_SAME:
            raise ConversionError(f"unsupported padding {padding}")
        top, bottom = self.same_pads(in_shape[1], kh, sh, dh)
        left, right = self.same_pads(in_shape[2], kw, sw, dw)
        return [top, left, bottom, right]

    # -- ops -----------------------------------------------------------------------------------
    def convert_op(self, op):
        kind = self.codes[op.OpcodeIndex()]
        ins = [op.Inputs(j) for j in range(op.InputsLength())]
        outs = [op.Outputs(j) for j in range(op.OutputsLength())]
        out = outs[0]
        oname = self.out_name(out)

        def act_in(k):
            i = ins[k]
            if i not in self.onnx_names:
                raise ConversionError(f"{kind}: input {self.tname(i)} is not an activation")
            return self.onnx_names[i]

        if kind == "DEQUANTIZE":
            src = self.const_of(ins[0])
            if src.dtype != np.float16:
                raise ConversionError("DEQUANTIZE of a non-float16 tensor")
            self.consts[out] = src.astype(np.float32)
            return
        if kind in ("CONV_2D", "DEPTHWISE_CONV_2D"):
            w = self.const_of(ins[1]).astype(np.float32)
            b = self.const_of(ins[2]).astype(np.float32) if len(ins) > 2 and ins[2] >= 0 else None
            in_shape = self.shape(ins[0])
            if kind == "CONV_2D":
                o = options(op, tflite.Conv2DOptions)
                wt = w.transpose(0, 3, 1, 2)  # OHWI -> OIHW
                group = in_shape[3] // w.shape[3]
            else:
                o = options(op, tflite.DepthwiseConv2DOptions)
                cin = in_shape[3]
                mult = w.shape[3] // cin
                if o.DepthMultiplier() not in (0, mult):
                    raise ConversionError("depth multiplier does not match the weights")
                wt = w.transpose(3, 0, 1, 2)  # 1,H,W,C*M -> C*M,1,H,W
                group = cin
            kh, kw = w.shape[1], w.shape[2]
            sh, sw = o.StrideH(), o.StrideW()
            dh, dw = o.DilationHFactor(), o.DilationWFactor()
            pads = self.spatial_pads(o.Padding(), in_shape, kh, kw, sh, sw, dh, dw)
            inputs = [act_in(0), self.add_const("w", wt)]
            if b is not None:
                inputs.append(self.add_const("b", b))
            tmp = self.new_name("conv")
            self.node("Conv", inputs, [tmp], kernel_shape=[kh, kw], strides=[sh, sw],
                      dilations=[dh, dw], pads=pads, group=group)
            self.activation(tmp, o.FusedActivationFunction(), oname)
        elif kind == "ADD":
            o = options(op, tflite.AddOptions)
            a_shape, b_shape = self.shape(ins[0]), self.shape(ins[1])
            if a_shape != b_shape or ins[0] not in self.onnx_names or ins[1] not in self.onnx_names:
                raise ConversionError("ADD is supported only between activations of equal shape")
            tmp = self.new_name("add")
            self.node("Add", [act_in(0), act_in(1)], [tmp])
            self.activation(tmp, o.FusedActivationFunction() if o else 0, oname)
        elif kind == "PAD":
            p = self.const_of(ins[1]).astype(np.int64)
            if len(ins) > 2:
                raise ConversionError("PAD with a constant value is not supported")
            if p.shape == (4, 2):
                order = [0, 3, 1, 2]  # NHWC -> NCHW
                pads = [int(p[d, 0]) for d in order] + [int(p[d, 1]) for d in order]
            else:
                pads = [int(v) for v in p[:, 0]] + [int(v) for v in p[:, 1]]
            self.node("Pad", [act_in(0), self.add_const("pads", np.array(pads, np.int64))], [oname],
                      mode="constant")
        elif kind == "MAX_POOL_2D":
            o = options(op, tflite.Pool2DOptions)
            kh, kw = o.FilterHeight(), o.FilterWidth()
            sh, sw = o.StrideH(), o.StrideW()
            pads = self.spatial_pads(o.Padding(), self.shape(ins[0]), kh, kw, sh, sw)
            tmp = self.new_name("maxpool")
            self.node("MaxPool", [act_in(0)], [tmp], kernel_shape=[kh, kw], strides=[sh, sw], pads=pads)
            self.activation(tmp, o.FusedActivationFunction(), oname)
        elif kind == "RESIZE_BILINEAR":
            o = options(op, tflite.ResizeBilinearOptions)
            size = [int(v) for v in self.const_of(ins[1])]
            n, _, _, c = self.shape(ins[0])
            if o.AlignCorners():
                mode = "align_corners"
            elif o.HalfPixelCenters():
                mode = "half_pixel"
            else:
                mode = "asymmetric"
            sizes = self.add_const("sizes", np.array([n, c, size[0], size[1]], np.int64))
            self.node("Resize", [act_in(0), "", "", sizes], [oname], mode="linear",
                      coordinate_transformation_mode=mode)
        elif kind == "RESHAPE":
            in_shape = self.shape(ins[0])
            out_shape = self.shape(out)
            x = act_in(0)
            if len(in_shape) == 4:
                nhwc = self.new_name("to_nhwc")
                self.node("Transpose", [x], [nhwc], perm=[0, 2, 3, 1])
                x = nhwc
            target = self.add_const("shape", np.array(out_shape, np.int64))
            if len(out_shape) == 4:
                tmp = self.new_name("reshape")
                self.node("Reshape", [x, target], [tmp])
                self.node("Transpose", [tmp], [oname], perm=[0, 3, 1, 2])
            else:
                self.node("Reshape", [x, target], [oname])
        elif kind == "LOGISTIC":
            self.node("Sigmoid", [act_in(0)], [oname])
        else:
            raise ConversionError(f"unsupported op {kind}")
        self.onnx_names[out] = oname

    # -- graph ---------------------------------------------------------------------------------
    def convert(self):
        g = self.g
        if g.InputsLength() != 1:
            raise ConversionError(f"expected 1 input, found {g.InputsLength()}")
        by_name = {self.tname(g.Outputs(j)): g.Outputs(j) for j in range(g.OutputsLength())}
        missing = [n for n in self.output_names if n not in by_name]
        if missing:
            raise ConversionError(f"no output named {', '.join(missing)}; the model has {', '.join(by_name)}")

        producers = {}
        for k in range(g.OperatorsLength()):
            op = g.Operators(k)
            for j in range(op.OutputsLength()):
                producers[op.Outputs(j)] = k
        needed = set()
        stack = [by_name[n] for n in self.output_names]
        while stack:
            t = stack.pop()
            if t in producers and producers[t] not in needed:
                needed.add(producers[t])
                op = g.Operators(producers[t])
                stack.extend(op.Inputs(j) for j in range(op.InputsLength()) if op.Inputs(j) >= 0)

        inp = g.Inputs(0)
        in_shape = self.shape(inp)
        if self.tensor(inp).Type() != tflite.TensorType.FLOAT32:
            raise ConversionError("the model input is not float32")
        if len(in_shape) == 4:
            self.node("Transpose", [self.input_name], ["input_nchw"], perm=[0, 3, 1, 2])
            self.onnx_names[inp] = "input_nchw"
        else:
            self.onnx_names[inp] = self.input_name

        for k in sorted(needed):  # TFLite stores operators in execution order
            try:
                self.convert_op(g.Operators(k))
            except ConversionError as e:
                raise ConversionError(f"operator {k} ({self.codes[g.Operators(k).OpcodeIndex()]}): {e}") from None

        outputs = []
        for tname, oname in self.output_names.items():
            t = by_name[tname]
            shape = self.shape(t)
            if len(shape) == 4:
                self.node("Transpose", [self.onnx_names[t]], [oname], perm=[0, 2, 3, 1])
            outputs.append(helper.make_tensor_value_info(oname, TensorProto.FLOAT, shape))

        graph = helper.make_graph(
            self.nodes, "tflite_model",
            [helper.make_tensor_value_info(self.input_name, TensorProto.FLOAT, in_shape)],
            outputs, initializer=self.initializers)
        model = helper.make_model(graph, producer_name="reelwork-tflite_to_onnx", producer_version="1",
                                  opset_imports=[helper.make_opsetid("", OPSET)])
        model.ir_version = 8
        model.doc_string = "Converted from TFLite by tools/models/tflite_to_onnx.py; outputs: " + ", ".join(
            f"{o} = TFLite {t}" for t, o in self.output_names.items())
        onnx.checker.check_model(model)
        inferred = onnx.shape_inference.infer_shapes(model, strict_mode=True)
        for vi in inferred.graph.output:
            dims = [d.dim_value for d in vi.type.tensor_type.shape.dim]
            want = self.shape(by_name[[t for t, o in self.output_names.items() if o == vi.name][0]])
            if dims != want:
                raise ConversionError(f"output {vi.name}: inferred shape {dims}, expected {want}")
        return model, len(needed)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("tflite")
    ap.add_argument("output")
    ap.add_argument("--input", default="input", help="name of the ONNX input (default: input)")
    ap.add_argument("--output", dest="outputs", action="append", default=[], metavar="TFLITE=ONNX",
                    help="a TFLite output to keep and its ONNX name (repeatable; default: all, names kept)")
    args = ap.parse_args(argv)
    try:
        with open(args.tflite, "rb") as f:
            data = f.read()
        if len(data) < 8 or data[4:8] != b"TFL3":
            raise ConversionError(f"{args.tflite} is not a TFLite flatbuffer (no TFL3 identifier)")
        mapping = {}
        for spec in args.outputs:
            if "=" not in spec:
                raise ConversionError(f"--output expects TFLITE=ONNX, got {spec!r}")
            t, o = spec.split("=", 1)
            mapping[t] = o
        conv = Converter(data, args.input, mapping)
        if not mapping:
            g = conv.g
            conv.output_names = {conv.tname(g.Outputs(j)): conv.tname(g.Outputs(j)) for j in range(g.OutputsLength())}
        model, ops = conv.convert()
    except (ConversionError, OSError) as e:
        print(f"tflite_to_onnx: {e}", file=sys.stderr)
        return 1
    with open(args.output, "wb") as f:
        f.write(model.SerializeToString())
    print(f"tflite_to_onnx: wrote {args.output} ({ops} TFLite operators converted; outputs "
          + ", ".join(f"{o}={t}" for t, o in conv.output_names.items()) + ")")
    return 0


if __name__ == "__main__":
    sys.exit(main())
