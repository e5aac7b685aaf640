import Pictures
import ReelworkCore
import SportKit

/// Tennis (seed 004) as a plug-in: the detector and the pose model on the sampled frames, then
/// `swings` (candidates in each player's wrist speed) and `metrics` (`result.swings`).
public struct TennisPlugin: SportPlugin {
    public init() {}

    public var sport: Sport { .tennis }

    public func plan(options: JSONValue) -> SportPlan {
        SportPlan(sampled: .objectsAndPoses, afterDecode: [.swings, .metrics])
    }

    public func analysis(options: JSONValue) throws -> any SportAnalysis {
        TennisAnalysis(options: try TennisOptions.parse(options))
    }

    public var table: ResultTable? { .tennisSwings }

    public var report: (any SportReport)? { TennisPicture() }

    /// "2 swings".
    public func summary(of result: JSONValue) -> String {
        ResultSummary.count(result["swings"], "swing") ?? ResultSummary.nothing
    }

    public var corrector: RowCorrector? { TennisCorrections.corrector }
}

extension Sport {
    /// The API's name, the registry's key for `TennisPlugin`.
    public static let tennis = Sport(rawValue: "tennis")
}

extension StageName {
    /// Tennis: swing candidates from the dominant wrist's speed, with type and keyframes.
    public static let swings = StageName(rawValue: "swings")
    /// Tennis: each swing's metrics (seed 004 `SegmentMetrics`).
    public static let metrics = StageName(rawValue: "metrics")
}

extension ResultTable {
    /// Seed 004's swing fields: the type, the window, `keyFrameTimes` and `SegmentMetrics`.
    public static let tennisSwings = ResultTable(sqlTable: "tennis_swings", resultKey: "swings", numberColumn: "swingNumber", columns: [
        Column("swingNumber", .integer), Column("trackId", .integer), Column("type", .text),
        Column("startTime", .number), Column("endTime", .number), Column("confidence", .number),
        Column("preparationTime", .number, path: ["keyFrameTimes", "preparation"]),
        Column("backswingTime", .number, path: ["keyFrameTimes", "backswing"]),
        Column("contactTime", .number, path: ["keyFrameTimes", "contact"]),
        Column("followThroughTime", .number, path: ["keyFrameTimes", "followThrough"]),
        Column("recoveryTime", .number, path: ["keyFrameTimes", "recovery"]),
        Column("peakWristSpeed", .number, path: ["metrics", "peakWristSpeed"]),
        Column("peakWristSpeedUnit", .text, path: ["metrics", "peakWristSpeedUnit"]),
        Column("shoulderTurn", .number, path: ["metrics", "shoulderTurn"]),
        Column("contactHeight", .number, path: ["metrics", "contactHeight"]),
        Column("followThrough", .number, path: ["metrics", "followThrough"]),
        Column("trackingQuality", .number, path: ["metrics", "trackingQuality"]),
    ])
}
