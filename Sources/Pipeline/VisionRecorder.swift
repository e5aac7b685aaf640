import ReelworkCore
import Vision

/// Collects what the `objects` and `pose` stages found, frame by frame, in compact form, and
/// writes it out as the analysis document's `result.detections` and `result.poses`.
///
/// JSON shapes (numbers rounded: times to 1 ms, pixels to 0.1 px, scores to 0.001):
///
///     "detections": [{"t": 0.1, "boxes": [[classId, confidence, x1, y1, x2, y2], …]}, …]   one entry per frame the detector saw
///     "poses": [{"trackId": 1, "frames": [{"t": 0.1, "score": 0.99, "box": [x1, y1, x2, y2],
///                                         "landmarks": [x, y, visibility, …]}, …]}, …]        33 landmarks × 3 values
///
/// Pixels are in the displayed frame (rotation applied), `vision.frameWidth` × `vision.frameHeight`.
struct VisionRecorder {
    struct FrameBoxes {
        var time: Double
        var boxes: [Detection]
    }

    struct TrackFrame {
        var time: Double
        var score: Float
        var box: BoundingBox
        /// x, y (tenths of a pixel) and visibility (thousandths) per landmark: integers, so 10 minutes
        /// of one player's landmarks take 2.4 MB, and dividing back gives the shortest decimals.
        var values: [Int32]
    }

    /// Which detector classes are kept, with their names; nil keeps every class.
    let classes: [Int: String]?
    private(set) var frames: [FrameBoxes] = []
    private(set) var tracks: [Int: [TrackFrame]] = [:]

    init(classes: [Int: String]?) {
        self.classes = classes
    }

    mutating func record(_ detections: [Detection], at time: Double) {
        let kept = classes.map { wanted in detections.filter { wanted[$0.classId] != nil } } ?? detections
        frames.append(FrameBoxes(time: time, boxes: kept))
    }

    mutating func record(_ pose: Pose, track: Int, box: BoundingBox, at time: Double) {
        var values: [Int32] = []
        values.reserveCapacity(pose.landmarks.count * 3)
        for landmark in pose.landmarks {
            values.append(Self.scaled(landmark.x, 10))
            values.append(Self.scaled(landmark.y, 10))
            values.append(Self.scaled(landmark.visibility, 1000))
        }
        tracks[track, default: []].append(TrackFrame(time: time, score: Float(pose.score), box: box, values: values))
    }

    /// `result.detections`.
    func detectionsJSON() -> JSONValue {
        .array(frames.map { frame in
            .object(["t": Self.number(frame.time, 1000),
                     "boxes": .array(frame.boxes.map { box in
                         .array([.number(Double(box.classId)), Self.number(box.confidence, 1000)] + Self.corners(box.box))
                     })])
        })
    }

    /// `result.poses`, tracks in id order.
    func posesJSON() -> JSONValue {
        .array(tracks.keys.sorted().map { id in
            .object(["trackId": .number(Double(id)),
                     "frames": .array(tracks[id]!.map { frame in
                         .object(["t": Self.number(frame.time, 1000),
                                  "score": Self.number(Double(frame.score), 1000),
                                  "box": .array(Self.corners(frame.box)),
                                  "landmarks": .array(frame.values.enumerated().map { index, value in
                                      .number(Double(value) / (index % 3 == 2 ? 1000 : 10))
                                  })])
                     })])
        })
    }

    private static func corners(_ box: BoundingBox) -> [JSONValue] {
        [number(box.x1, 10), number(box.y1, 10), number(box.x2, 10), number(box.y2, 10)]
    }

    private static func round(_ value: Double, _ scale: Double) -> Double { (value * scale).rounded() / scale }

    /// A model that outputs NaN must not crash the worker or produce unencodable JSON: such values become 0.
    private static func scaled(_ value: Double, _ scale: Double) -> Int32 {
        let v = (value * scale).rounded()
        return v.isFinite ? Int32(clamping: Int(max(min(v, 1e9), -1e9))) : 0
    }

    private static func number(_ value: Double, _ scale: Double) -> JSONValue {
        let v = round(value, scale)
        return .number(v.isFinite ? v : 0)
    }
}
