import Pictures
import ReelworkCore
import SportKit

/// Archery (seed 002) as a plug-in: one every-frame stage, `scoring`, sees the decoded frames of a
/// photo (FFmpeg decodes a JPEG or PNG as a one-frame video) or of a video of the face, and scores
/// the end (`ArcheryAnalysis`). No models run: the face and the arrows are found from colours.
public struct ArcheryPlugin: SportPlugin {
    public init() {}

    public var sport: Sport { .archery }

    public func plan(options: JSONValue) -> SportPlan {
        SportPlan(sampled: .none, everyFrameStage: .scoring)
    }

    public func analysis(options: JSONValue) throws -> any SportAnalysis {
        ArcheryAnalysis(options: try ArcheryOptions.parse(options))
    }

    public var table: ResultTable? { .archeryArrows }

    public var report: (any SportReport)? { ArcheryPicture() }
}
