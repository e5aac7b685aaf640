import Media
import ReelworkCore

/// Turns a YOLO output tensor into detections in source-frame pixels, as tools/models/README.md
/// states and `reference_infer.py` does (in float64, the same formulas in the same order):
/// every (box, class) with score > `scoreThreshold` is a candidate; per class, greedy NMS by
/// descending score drops boxes whose IoU with a kept one is > `iouThreshold`; boxes are clamped
/// to the frame; the result is sorted by score, highest first (ties: lower class first).
///
/// Keeps its scratch space between calls, so decoding allocates only the returned array.
public struct DetectionDecoder {
    public let layout: DetectorLayout
    /// The network input's size in pixels (Ultralytics boxes come in input pixels).
    public let inputWidth: Int
    public let inputHeight: Int
    public var scoreThreshold: Double
    public var iouThreshold: Double

    private struct Candidate {
        var row: Int
        var classId: Int
        var score: Double
        var box: BoundingBox
    }
    private var candidates: [Candidate] = []
    private var kept: [Candidate] = []

    public init(layout: DetectorLayout, inputWidth: Int, inputHeight: Int, scoreThreshold: Double = 0.25, iouThreshold: Double = 0.45) {
        self.layout = layout
        self.inputWidth = inputWidth
        self.inputHeight = inputHeight
        self.scoreThreshold = scoreThreshold
        self.iouThreshold = iouThreshold
    }

    /// Decodes `output` (the model's output, `layout`'s element count) for a source frame of
    /// `sourceWidth` × `sourceHeight` that was stretched onto the input, or, with `letterbox`,
    /// fitted into it with that placement.
    public mutating func decode(_ output: borrowing FixedBuffer<Float>, sourceWidth: Int, sourceHeight: Int,
                                letterbox: LetterboxPlacement? = nil) -> [Detection] {
        output.withUnsafeBufferPointer {
            collect($0, sourceWidth: sourceWidth, sourceHeight: sourceHeight, letterbox: letterbox)
        }
        return suppress()
    }

    /// Fills `candidates` with every (box, class) over the threshold.
    private mutating func collect(_ output: UnsafeBufferPointer<Float>, sourceWidth: Int, sourceHeight: Int,
                                  letterbox: LetterboxPlacement?) {
        let classes = layout.classes, count = layout.boxes
        precondition(output.count >= count * (classes + (layout.isDarknet ? 5 : 4)), "output too small for \(layout)")
        let w = Double(sourceWidth), h = Double(sourceHeight)
        candidates.removeAll(keepingCapacity: true)

        let darknet = layout.isDarknet
        // Attribute a of box `row`: rows of 5 + C values (Darknet) or one row per attribute (Ultralytics).
        let rowLength = classes + 5
        @inline(__always) func value(_ row: Int, _ a: Int) -> Double {
            Double(darknet ? output[row * rowLength + a] : output[a * count + row])
        }
        // Multipliers taking (cx, cy, w, h) to source pixels, or to input pixels when letterboxed.
        let scaleX: Double, scaleY: Double
        if darknet {
            (scaleX, scaleY) = letterbox == nil ? (w, h) : (Double(inputWidth), Double(inputHeight))
        } else {
            (scaleX, scaleY) = letterbox == nil ? (w / Double(inputWidth), h / Double(inputHeight)) : (1, 1)
        }
        for row in 0..<count {
            // Class probabilities are at most 1, so no class can pass where objectness does not.
            if darknet, value(row, 4) <= scoreThreshold { continue }
            var box: BoundingBox?
            for c in 0..<classes {
                let score = darknet ? value(row, 4) * value(row, 5 + c) : value(row, 4 + c)
                guard score > scoreThreshold else { continue }
                if box == nil {
                    box = Self.box(cx: value(row, 0) * scaleX, cy: value(row, 1) * scaleY,
                                   w: value(row, 2) * scaleX, h: value(row, 3) * scaleY,
                                   letterbox: letterbox, width: w, height: h)
                }
                candidates.append(Candidate(row: row, classId: c, score: score, box: box!))
            }
        }
    }

    /// Corners from centre and size, mapped out of a letterbox when there is one, clamped to the frame.
    private static func box(cx: Double, cy: Double, w: Double, h: Double, letterbox: LetterboxPlacement?,
                            width: Double, height: Double) -> BoundingBox {
        var x1 = cx - w / 2, y1 = cy - h / 2, x2 = cx + w / 2, y2 = cy + h / 2
        if let placement = letterbox {
            let k = placement.sourcePerInputPixel
            let left = Double(placement.left), top = Double(placement.top)
            (x1, y1, x2, y2) = ((x1 - left) * k, (y1 - top) * k, (x2 - left) * k, (y2 - top) * k)
        }
        return BoundingBox(x1: min(max(x1, 0), width), y1: min(max(y1, 0), height),
                           x2: min(max(x2, 0), width), y2: min(max(y2, 0), height))
    }

    /// Per-class greedy NMS over `candidates`; sorted by score.
    private mutating func suppress() -> [Detection] {
        // Class by class, best first; equal scores keep the model's row order (the reference's stable sort).
        candidates.sort { a, b in
            if a.classId != b.classId { return a.classId < b.classId }
            if a.score != b.score { return a.score > b.score }
            return a.row < b.row
        }
        kept.removeAll(keepingCapacity: true)
        var classStart = 0
        for (index, candidate) in candidates.enumerated() {
            if index > 0, candidate.classId != candidates[index - 1].classId { classStart = kept.count }
            let overlaps = kept[classStart...].contains { $0.box.iou(candidate.box) > iouThreshold }
            if !overlaps { kept.append(candidate) }
        }
        let order = kept.indices.sorted { a, b in
            if kept[a].score != kept[b].score { return kept[a].score > kept[b].score }
            if kept[a].classId != kept[b].classId { return kept[a].classId < kept[b].classId }
            return a < b
        }
        return order.map { Detection(classId: kept[$0].classId, confidence: kept[$0].score, box: kept[$0].box) }
    }
}

extension DetectorLayout {
    var isDarknet: Bool {
        if case .darknet = self { return true }
        return false
    }
}
