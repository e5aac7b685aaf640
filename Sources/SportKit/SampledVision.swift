/// The detector's boxes and the tracked people's poses on the sampled frames, as plain values
/// (the Vision module's types stay in the pipeline). Pixels are in the displayed frame.
public struct SampledVision: Sendable {
    /// One detected object.
    public struct Box: Sendable, Equatable {
        public var classId: Int
        public var confidence: Double
        public var x1, y1, x2, y2: Double
        public init(classId: Int, confidence: Double, x1: Double, y1: Double, x2: Double, y2: Double) {
            (self.classId, self.confidence, self.x1, self.y1, self.x2, self.y2) = (classId, confidence, x1, y1, x2, y2)
        }
    }

    /// The boxes kept in one sampled frame.
    public struct Frame: Sendable {
        public var time: Double
        public var boxes: [Box]
        public init(time: Double, boxes: [Box]) { (self.time, self.boxes) = (time, boxes) }
    }

    /// One body landmark (BlazePose's order).
    public struct Landmark: Sendable, Equatable {
        public var x, y, visibility: Double
        public init(x: Double, y: Double, visibility: Double) { (self.x, self.y, self.visibility) = (x, y, visibility) }
    }

    /// One tracked person's pose in one sampled frame.
    public struct PoseSample: Sendable {
        public var time: Double
        public var landmarks: [Landmark]
        public init(time: Double, landmarks: [Landmark]) { (self.time, self.landmarks) = (time, landmarks) }
    }

    /// One tracked person's poses, in time order.
    public struct Track: Sendable {
        public var id: Int
        public var poses: [PoseSample]
        public init(id: Int, poses: [PoseSample]) { (self.id, self.poses) = (id, poses) }
    }

    /// The detector's class names by id, for the classes kept; nil: a custom detector whose
    /// classes are unknown (every class kept, none of them named).
    public var classNames: [Int: String]?
    /// Every sampled frame, in order.
    public var frames: [Frame]
    /// Every tracked person, in track id order.
    public var tracks: [Track]

    public init(classNames: [Int: String]?, frames: [Frame], tracks: [Track]) {
        (self.classNames, self.frames, self.tracks) = (classNames, frames, tracks)
    }

    /// The ids of the classes called `name` (COCO's "sports ball"); none with unnamed classes.
    public func classIds(named name: String) -> Set<Int> {
        Set((classNames ?? [:]).filter { $0.value == name }.keys)
    }
}
