/// Balls and rackets the detector found in one sampled frame.
public struct ObjectFrame: Sendable {
    public var time: Double
    public var balls: [Box]
    public var rackets: [Box]
    public init(time: Double, balls: [Box], rackets: [Box]) { (self.time, self.balls, self.rackets) = (time, balls, rackets) }
}

/// A box in frame pixels.
public struct Box: Sendable, Equatable {
    public var x1, y1, x2, y2: Double
    public var confidence: Double
    public init(x1: Double, y1: Double, x2: Double, y2: Double, confidence: Double) {
        (self.x1, self.y1, self.x2, self.y2, self.confidence) = (x1, y1, x2, y2, confidence)
    }
}
