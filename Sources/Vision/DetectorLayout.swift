/// How a YOLO export lays out its output, recognised from the output's shape.
public enum DetectorLayout: Sendable, Equatable, CustomStringConvertible {
    /// YOLOv4 / Darknet with the box decoding in the graph: `[1, N, 5 + C]`, one row per box:
    /// cx, cy, w, h as fractions of the input, objectness, C class probabilities.
    case darknet(boxes: Int, classes: Int)
    /// YOLOv8 / YOLO11: `[1, 4 + C, N]`, attribute-major: cx, cy, w, h in input pixels, then C
    /// class scores; no objectness.
    case ultralytics(boxes: Int, classes: Int)

    /// The layout of an output of `shape`, told apart as `reference_infer.py` does: `[1, N, 5 + C]`
    /// with N > 5 + C is Darknet's, `[1, 4 + C, N]` with N > 4 + C is Ultralytics'.
    /// Throws a `.detector` VisionError naming the shape for anything else.
    public init(shape: [Int], model: String) throws {
        if shape.count == 3, shape[0] == 1, shape.allSatisfy({ $0 > 0 }) {
            if shape[2] >= 6, shape[1] > shape[2] {
                self = .darknet(boxes: shape[1], classes: shape[2] - 5)
                return
            }
            if shape[1] >= 5, shape[2] > shape[1] {
                self = .ultralytics(boxes: shape[2], classes: shape[1] - 4)
                return
            }
        }
        let shown = "[" + shape.map { $0 < 0 ? "?" : String($0) }.joined(separator: ", ") + "]"
        throw VisionError(.detector,
            "detector model \(model) has an output of shape \(shown), which is not a known YOLO layout: expected YOLOv4/Darknet [1, N, 5 + classes] or YOLOv8/YOLO11 [1, 4 + classes, N] (N boxes, more than the values per box), with fixed sizes")
    }

    public var boxes: Int {
        switch self { case .darknet(let n, _), .ultralytics(let n, _): return n }
    }

    public var classes: Int {
        switch self { case .darknet(_, let c), .ultralytics(_, let c): return c }
    }

    public var description: String {
        switch self {
        case .darknet(let n, let c): return "Darknet [1, \(n), \(5 + c)]"
        case .ultralytics(let n, let c): return "Ultralytics [1, \(4 + c), \(n)]"
        }
    }
}
