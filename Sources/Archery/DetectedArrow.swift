/// Seed 002's `DetectedArrow`, scored.
public struct DetectedArrow: Sendable, Equatable {
    /// −1…+1 across the face, centre 0, face radius 1, x right, y down (seed 002's
    /// `(location.y − center.y) / radius`: +0.5 is half a radius below the centre).
    public var normalizedX: Double
    public var normalizedY: Double
    /// The impact point in image pixels.
    public var pixelX: Double
    public var pixelY: Double
    /// In face radii.
    public var distanceFromCenter: Double
    /// Where the impact is around the face, as on a clock: 0° = 12 o'clock, growing clockwise
    /// (90° = 3 o'clock), 0 ≤ value < 360.
    public var clockPositionDeg: Double
    /// The chance that this is a real arrow scored right (`ArrowConfidence`): lowered by each
    /// review reason.
    public var confidence: Double
    public var boundingBox: BoundingBox
    public var score: Int
    public var isXRing: Bool
    /// Why a person should look at it; empty when nothing is in doubt.
    public var review: [ArrowReview]

    public init(normalizedX: Double, normalizedY: Double, pixelX: Double, pixelY: Double, distanceFromCenter: Double,
                clockPositionDeg: Double, confidence: Double, boundingBox: BoundingBox, score: Int, isXRing: Bool,
                review: [ArrowReview] = []) {
        (self.normalizedX, self.normalizedY, self.pixelX, self.pixelY) = (normalizedX, normalizedY, pixelX, pixelY)
        (self.distanceFromCenter, self.clockPositionDeg, self.confidence) = (distanceFromCenter, clockPositionDeg, confidence)
        (self.boundingBox, self.score, self.isXRing, self.review) = (boundingBox, score, isXRing, review)
    }
}

/// A box in image pixels.
public struct BoundingBox: Sendable, Equatable {
    public var x, y, width, height: Double
    public init(x: Double, y: Double, width: Double, height: Double) { (self.x, self.y, self.width, self.height) = (x, y, width, height) }
}
