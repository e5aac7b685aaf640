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

    public var corrector: RowCorrector? { BowlingCorrections.corrector }
}
