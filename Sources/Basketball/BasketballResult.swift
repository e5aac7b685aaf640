import ReelworkCore

/// What a session found: the hoop, each attempt, the totals.
public struct BasketballResult: Sendable {
    public var hoop: RimLine
    public var hoopSource: HoopSource
    public var shots: [BasketballShot]
    public var stats: ShootingStats
    public var framesSeen: Int
    /// Frames in which a ball was tracked (colour, or a detector box).
    public var framesWithBall: Int
    /// Of those, frames in which only the detector's sports-ball box showed it (no blob of the
    /// ball's colour agreed): a ball against something of its colour, or of another colour.
    public var framesWithBallFromDetector: Int
    public var threePointDistanceFt: Double

    /// `result`: `hoop` {rimLeft, rimRight, source, pixelsPerFoot}, `shots[]`, `stats`,
    /// `framesSeen`, `framesWithBall`, `framesWithBallFromDetector`, `threePointDistanceFt`.
    public func json() -> JSONValue { BasketballJSON.result(self) }

    /// One row per shot, with `csvHeader` as its first row.
    public func csv() -> String { BasketballJSON.csv(shots) }

    /// The CSV's columns: the shot fields of `result.shots[i]` that are scalars.
    public static var csvHeader: [String] { BasketballJSON.csvHeader }
}

/// Where the rim's ends came from.
public enum HoopSource: String, Sendable {
    case option, found
}
