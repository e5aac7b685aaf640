import Media
import ReelworkCore

// The Bowling module's surface as the pipeline uses it (the `ball` and `shot_metrics` stages).
// Implementation files beside this one fill it in; keep these signatures.

/// A job's bowling options, parsed and validated before any frame is decoded:
/// `hand`, `ballProfile` {`color` {h, s, v}, `colorTolerance`, `markerColor`}, `calibration`
/// (seed 000's `CalibrationProfile` fields, or `{"lanePoints": {...}}`).
public struct BowlingOptions: Sendable {
    public var hand: Hand

    /// Throws `ReelworkError.invalidInput` for malformed options and `.needsPerson` for ones only a
    /// person can fix (no ball colour, invalid calibration), each naming the option and the problem.
    public static func parse(_ options: JSONValue) throws -> BowlingOptions {
        fatalError("Bowling: not implemented yet")
    }
}

/// The `ball` stage: fed every decoded frame in order; finds, tracks and cuts the ball's path into shots.
public final class BallTracker {
    /// Throws `.needsPerson` when the calibration does not fit this frame size.
    public init(options: BowlingOptions, frameWidth: Int, frameHeight: Int, frameRate: Double) throws {
        fatalError("Bowling: not implemented yet")
    }

    /// One decoded frame (display orientation), its time in seconds and index. May throw
    /// `.needsPerson` (e.g. the ball's colour matches the lane).
    public func process(_ image: RGBImage, time: Double, frameIndex: Int) throws {
        fatalError("Bowling: not implemented yet")
    }

    /// Ends the last shot. Throws `.needsPerson` ("Ball not detected. …") when no ball was ever seen.
    public func finish() throws -> BallTracks {
        fatalError("Bowling: not implemented yet")
    }
}

/// What the `ball` stage found: each shot's tracked points.
public struct BallTracks: Sendable {
    public var shots: [ShotTrack]
    /// Frames in which a ball was detected.
    public var framesWithBall: Int
}

public struct ShotTrack: Sendable {}

/// The `shot_metrics` stage.
public enum ShotMetricsCalculator {
    public static func measure(_ tracks: BallTracks, options: BowlingOptions) -> [ShotMetrics] {
        fatalError("Bowling: not implemented yet")
    }
}

/// One shot's metrics, each nil with a reason in `unavailable` when it cannot be computed.
public struct ShotMetrics: Sendable {
    /// `result.shots[i]`: seed 000's `Shot` field names, plus `startTime`, `endTime`, `confidence`,
    /// `flags`, `unavailable` {metric: reason} and `trajectory` [{t, x, y, board, distanceFt, phase}].
    public func json() -> JSONValue {
        fatalError("Bowling: not implemented yet")
    }
}
