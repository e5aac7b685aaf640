import ReelworkCore

// The Tennis module's surface as the pipeline uses it (the `swings` and `metrics` stages).
// Implementation files beside this one fill it in; keep these signatures.

/// A job's tennis options: `dominantHand` ("right"/"left", default right), `playerHeight` (metres,
/// optional: speeds in m/s when given). Sampling rate is the vision setting `sampleFps`.
public struct TennisOptions: Sendable {
    public var dominantHand: Hand
    public var playerHeight: Double?

    /// Throws `ReelworkError.invalidInput` naming the option and the problem.
    public static func parse(_ options: JSONValue) throws -> TennisOptions {
        fatalError("Tennis: not implemented yet")
    }
}

/// One body landmark in frame pixels (BlazePose's 33, in BlazePose's order).
public struct Landmark: Sendable, Equatable {
    public var x: Double
    public var y: Double
    public var visibility: Double
    public init(x: Double, y: Double, visibility: Double) { (self.x, self.y, self.visibility) = (x, y, visibility) }
}

/// A box in frame pixels.
public struct Box: Sendable, Equatable {
    public var x1, y1, x2, y2: Double
    public var confidence: Double
    public init(x1: Double, y1: Double, x2: Double, y2: Double, confidence: Double) {
        (self.x1, self.y1, self.x2, self.y2, self.confidence) = (x1, y1, x2, y2, confidence)
    }
}

/// One sampled frame of one tracked player.
public struct PoseFrame: Sendable {
    public var time: Double
    public var landmarks: [Landmark]
    public init(time: Double, landmarks: [Landmark]) { (self.time, self.landmarks) = (time, landmarks) }
}

/// Balls and rackets the detector found in one sampled frame.
public struct ObjectFrame: Sendable {
    public var time: Double
    public var balls: [Box]
    public var rackets: [Box]
    public init(time: Double, balls: [Box], rackets: [Box]) { (self.time, self.balls, self.rackets) = (time, balls, rackets) }
}

/// A swing found by the `swings` stage (type, window, keyframes), before its metrics.
public struct SwingCandidate: Sendable {}

public enum SwingDetector {
    /// The `swings` stage for one player's track (frames in time order).
    public static func detect(track: [PoseFrame], objects: [ObjectFrame], options: TennisOptions) -> [SwingCandidate] {
        fatalError("Tennis: not implemented yet")
    }
}

public enum SwingMetricsCalculator {
    /// The `metrics` stage for one swing.
    public static func measure(_ swing: SwingCandidate, track: [PoseFrame], options: TennisOptions) -> Swing {
        fatalError("Tennis: not implemented yet")
    }
}

/// A swing with its metrics.
public struct Swing: Sendable {
    /// `result.swings[i]`: `type`, `startTime`, `endTime`, `confidence`, `keyFrameTimes` {preparation,
    /// backswing, contact, followThrough, recovery}, `metrics` {peakWristSpeed, shoulderTurn,
    /// contactHeight, followThrough, trackingQuality}, `unavailable` {metric: reason}.
    public func json() -> JSONValue {
        fatalError("Tennis: not implemented yet")
    }
}
