import Pictures
import ReelworkCore
import SportKit

/// Bowling (seeds 000, 003) as a plug-in: `ball` sees every decoded frame during the decode
/// (detection, tracking, shots), then `shot_metrics` measures each shot (`result.shots`). The
/// detector and the pose model run only with the job option `"pose": true`.
public struct BowlingPlugin: SportPlugin {
    public init() {}

    public var sport: Sport { .bowling }

    public func plan(options: JSONValue) -> SportPlan {
        SportPlan(sampled: options["pose"] == .bool(true) ? .objectsAndPoses : .none, everyFrameStage: .ball, afterDecode: [.shotMetrics])
    }

    public func analysis(options: JSONValue) throws -> any SportAnalysis {
        BowlingAnalysis(options: try BowlingOptions.parse(options))
    }

    public var table: ResultTable? { .bowlingShots }

    public var report: (any SportReport)? { BowlingPicture() }

    /// "3 shots".
    public func summary(of result: JSONValue) -> String {
        ResultSummary.count(result["shots"], "shot") ?? ResultSummary.nothing
    }

    public var corrector: RowCorrector? { BowlingCorrections.corrector }
}

extension Sport {
    /// The API's name, the registry's key for `BowlingPlugin`.
    public static let bowling = Sport(rawValue: "bowling")
}

extension StageName {
    /// Bowling: the ball found and tracked in every decoded frame, cut into shots.
    public static let ball = StageName(rawValue: "ball")
    /// Bowling: each shot's speeds, boards, entry angle, rev rate and strike probability.
    public static let shotMetrics = StageName(rawValue: "shot_metrics")
}

extension ResultTable {
    /// Seed 000's `Shot` fields the analysis produces.
    public static let bowlingShots = ResultTable(sqlTable: "bowling_shots", resultKey: "shots", numberColumn: "shotNumber", columns: [
        Column("shotNumber", .integer), Column("startTime", .number), Column("endTime", .number),
        Column("launchSpeed", .number), Column("impactSpeed", .number),
        Column("foulLineBoard", .number), Column("arrowBoard", .number),
        Column("breakpointBoard", .number), Column("breakpointDistance", .number),
        Column("pocketBoard", .number), Column("pocketOffset", .number), Column("entryAngle", .number),
        Column("revRate", .number), Column("revCategory", .text), Column("strikeProbability", .number),
        Column("result", .text), Column("confidence", .number), Column("flags", .flags),
    ], storesTrajectory: true)
}
