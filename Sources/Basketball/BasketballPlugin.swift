import Pictures
import ReelworkCore
import SportKit

/// Basketball (seed 001) as a plug-in: `objects` runs the detector on the sampled frames, and
/// `shots` sees every decoded frame during the decode (the rim; the ball by its colour, its motion
/// and, on the sampled frames, the detector's sports-ball boxes; each attempt made or missed) and
/// sets `result.hoop`, `result.shots`, `result.stats`. No pose model runs.
public struct BasketballPlugin: SportPlugin, FrameSizedOptions {
    public init() {}

    public var sport: Sport { .basketball }

    public func plan(options: JSONValue) -> SportPlan {
        SportPlan(sampled: .objects, everyFrameStage: .shots)
    }

    public func analysis(options: JSONValue) throws -> any SportAnalysis {
        BasketballAnalysis(options: try BasketballOptions.parse(options))
    }

    /// The `hoop` option's ends inside the uploaded video's frame.
    public func checkOptions(_ options: JSONValue, frameWidth width: Int, frameHeight height: Int) throws {
        try BasketballOptions.parse(options).hoop?.checkInside(width: width, height: height)
    }

    public var table: ResultTable? { .basketballShots }

    public var report: (any SportReport)? { BasketballPicture() }

    /// "10 shots, 6 made" (the made ones from `stats`, seed 001's shooting line).
    public func summary(of result: JSONValue) -> String {
        guard let shots = ResultSummary.count(result["shots"], "shot") else { return ResultSummary.nothing }
        return shots + (result["stats"]?["fieldGoalsMade"]?.number.map { ", \(Int($0)) made" } ?? "")
    }

    public var corrector: RowCorrector? { BasketballCorrections.corrector }
}

extension Sport {
    /// The API's name, the registry's key for `BasketballPlugin`.
    public static let basketball = Sport(rawValue: "basketball")
}

extension StageName {
    /// Basketball: the rim, the ball in every decoded frame, each attempt made or missed, the stats.
    public static let shots = StageName(rawValue: "shots")
}

extension ResultTable {
    /// Seed 001's shots from video: one row per attempt (`result.shots`, issue 14).
    public static let basketballShots = ResultTable(sqlTable: "basketball_shots", resultKey: "shots", numberColumn: "shotNumber", columns: [
        Column("shotNumber", .integer), Column("releaseTime", .number), Column("rimTime", .number), Column("made", .boolean),
        Column("shotType", .text), Column("distanceFt", .number), Column("confidence", .number),
    ])
}
