/// A "sports ball" box from the object detector, in frame pixels.
public struct BallBox: Sendable, Equatable {
    public var x1, y1, x2, y2: Double
    public var confidence: Double
    public init(x1: Double, y1: Double, x2: Double, y2: Double, confidence: Double) {
        (self.x1, self.y1, self.x2, self.y2, self.confidence) = (x1, y1, x2, y2, confidence)
    }
}
