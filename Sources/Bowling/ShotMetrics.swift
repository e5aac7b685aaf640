/// One shot's metrics, each nil with a reason in `unavailable` when it cannot be computed.
/// `result.shots[i]`: seed 000's `Shot` field names, plus `startTime`, `endTime`, `confidence`,
/// `flags`, `unavailable` {metric: reason} and `trajectory` [{t, x, y, board, distanceFt, phase}];
/// `json()` is in ShotMetricsJSON.swift.
public struct ShotMetrics: Sendable {
    public var shotNumber: Int
    public var startTime: Double
    public var endTime: Double
    /// mph.
    public var launchSpeed: Double?
    public var impactSpeed: Double?
    public var foulLineBoard: Double?
    public var arrowBoard: Double?
    public var breakpointBoard: Double?
    /// Feet past the foul line.
    public var breakpointDistance: Double?
    public var pocketBoard: Double?
    public var pocketOffset: Double?
    /// Degrees.
    public var entryAngle: Double?
    /// Revolutions per minute.
    public var revRate: Double?
    public var revCategory: RevCategory?
    /// 0–1.
    public var strikeProbability: Double?
    /// nil: reached the pins.
    public var result: ShotEnd?
    public var confidence: Double = 0
    public var flags: [ShotFlag] = []
    /// Metric name → why it is nil.
    public var unavailable: [String: String] = [:]
    public var trajectory: [TrajectoryPoint] = []
    /// Per track point, filled while measuring.
    var phases: [String?] = []

    public init(shotNumber: Int, startTime: Double, endTime: Double) {
        (self.shotNumber, self.startTime, self.endTime) = (shotNumber, startTime, endTime)
    }
}
