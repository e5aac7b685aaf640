import ReelworkCore

/// One attempt.
public struct BasketballShot: Sendable, Equatable {
    public var shotNumber: Int
    /// When the ball left the shooter, seconds.
    public var releaseTime: Double
    /// When the ball came down to the rim's height.
    public var rimTime: Double
    public var made: Bool
    public var shotType: ShotType
    /// Horizontal distance from the ball at release to the rim's centre, in the rim's plane.
    public var distanceFt: Double
    /// 0–1: the chance the attempt is right (real, made/missed and 2PT/3PT), calibrated on the
    /// accuracy benchmark (`ShotConfidence`): lowered by each `review` reason.
    public var confidence: Double
    public var releasePoint: FramePoint
    /// The ball's centre from release to the end of the attempt: [t, x, y].
    public var trajectory: [ShotPathPoint]
    /// Why a person should look at it (empty: nothing in doubt).
    public var review: [ShotReview]

    public init(shotNumber: Int, releaseTime: Double, rimTime: Double, made: Bool, shotType: ShotType, distanceFt: Double,
                confidence: Double, releasePoint: FramePoint, trajectory: [ShotPathPoint], review: [ShotReview] = []) {
        (self.shotNumber, self.releaseTime, self.rimTime, self.made) = (shotNumber, releaseTime, rimTime, made)
        (self.shotType, self.distanceFt, self.confidence) = (shotType, distanceFt, confidence)
        (self.releasePoint, self.trajectory, self.review) = (releasePoint, trajectory, review)
    }

    public func json() -> JSONValue { BasketballJSON.shot(self) }
}

public enum ShotType: String, Sendable, CaseIterable {
    case twoPoint = "2PT"
    case threePoint = "3PT"
}

public struct ShotPathPoint: Sendable, Equatable {
    public var t: Double
    public var x: Double
    public var y: Double
    public init(t: Double, x: Double, y: Double) { (self.t, self.x, self.y) = (t, x, y) }
}
