import SportKit

/// One point of the ball's path: where it touched the lane in one frame.
public struct TrackPoint: Sendable, Equatable {
    /// Seconds from the start of the video.
    public var time: Double
    public var frameIndex: Int
    /// The contact point in image pixels (blob centre moved down one radius).
    public var x: Double
    public var y: Double
    /// Lane coordinates of the contact point; nil without calibration.
    public var board: Double?
    public var distanceFt: Double?
    /// Filled in across frames where the ball was not seen.
    public var interpolated: Bool
    /// 1 for a detection; lower for interpolated points, lower still across long gaps.
    public var confidence: Double
    /// The PAP marker's angle around the ball centre (radians, image axes), when seen.
    public var markerAngle: Double?

    public init(time: Double, frameIndex: Int, x: Double, y: Double, board: Double? = nil, distanceFt: Double? = nil,
                interpolated: Bool = false, confidence: Double = 1, markerAngle: Double? = nil) {
        (self.time, self.frameIndex, self.x, self.y) = (time, frameIndex, x, y)
        (self.board, self.distanceFt, self.interpolated, self.confidence, self.markerAngle) =
            (board, distanceFt, interpolated, confidence, markerAngle)
    }
}

/// How a shot ended when it did not simply reach the pins (seed 003 `ShotResult`, the cases video
/// alone can tell).
public enum ShotEnd: String, Sendable, Equatable {
    case gutter
    case incomplete
}

/// Something about a shot a person should know: a stable `code` and seed 003's message.
public typealias ShotFlag = ReviewReason

/// One shot's tracked path, from leaving the bowler's hand to the pins, the gutter or loss of track.
public struct ShotTrack: Sendable {
    public var points: [TrackPoint]
    /// nil: reached the pins (or, without calibration, unknown).
    public var end: ShotEnd?
    /// Whether `board` and `distanceFt` are filled in.
    public var calibrated: Bool
    public var flags: [ShotFlag]

    public init(points: [TrackPoint], end: ShotEnd? = nil, calibrated: Bool, flags: [ShotFlag] = []) {
        (self.points, self.end, self.calibrated, self.flags) = (points, end, calibrated, flags)
    }
}
