import Pictures
import ReelworkCore
import SportKit

/// Basketball (seed 001) as a plug-in: `shots` sees every decoded frame during the decode (the rim,
/// the ball by colour and motion, each attempt made or missed) and sets `result.hoop`,
/// `result.shots`, `result.stats`. No detector or pose model runs: the every-frame consumer is handed
/// each frame before the detector would see it, and on 2 cores the detector costs more than the
/// decode and the tracker together (BENCHMARKS.md), so its sports-ball boxes are not used here.
public struct BasketballPlugin: SportPlugin, FrameSizedOptions {
    public init() {}

    public var sport: Sport { .basketball }

    public func plan(options: JSONValue) -> SportPlan {
        SportPlan(sampled: .none, everyFrameStage: .shots)
    }

    public func analysis(options: JSONValue) throws -> any SportAnalysis {
        BasketballAnalysis(options: try BasketballOptions.parse(options))
    }

    /// The `hoop` option's ends inside the uploaded video's frame.
    public func checkOptions(_ options: JSONValue, frameWidth width: Int, frameHeight height: Int) throws {
        try BasketballOptions.parse(options).hoop?.checkInside(width: width, height: height)
    }

    public var table: ResultTable? { .basketballShots }

    public var report: (any SportReport)? { BasketballReport() }
}
