/// One object the detector found in a frame.
public struct Detection: Sendable, Equatable {
    /// The model's class index (COCO for YOLOv4-tiny: 0 person, 32 sports ball, 38 tennis racket).
    public var classId: Int
    /// The class score: objectness × class probability (Darknet) or the class score (Ultralytics).
    public var confidence: Double
    /// Where, in source-frame pixels, clamped to the frame.
    public var box: BoundingBox

    public init(classId: Int, confidence: Double, box: BoundingBox) {
        self.classId = classId
        self.confidence = confidence
        self.box = box
    }
}

/// The COCO class ids Reelwork's stages care about.
public enum COCOClass {
    public static let person = 0
    public static let sportsBall = 32
    public static let tennisRacket = 38
    /// What the `objects` stage keeps from an 80-class COCO detector, with the names it reports.
    public static let sportsObjects: [Int: String] = [person: "person", sportsBall: "sports ball", tennisRacket: "tennis racket"]
}
