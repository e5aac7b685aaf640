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

    public var corrector: RowCorrector? { TennisCorrections.corrector }
}
