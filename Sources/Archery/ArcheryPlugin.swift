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

    /// "6 arrows, 54": the end's arrows and its total.
    public func summary(of result: JSONValue) -> String {
        guard let arrows = ResultSummary.count(result["arrows"], "arrow"), let total = result["total"]?.number else {
            return ResultSummary.nothing
        }
        return "\(arrows), \(Int(total))"
    }

    /// `/v1/jobs/{id}/arrows`: the end's arrows moved, added or deleted, and the end rescored.
    public var confirmationRoute: ConfirmationRoute? { ArcheryConfirmation.route }
}

extension Sport {
    /// The API's name, the registry's key for `ArcheryPlugin`.
    public static let archery = Sport(rawValue: "archery")
}

extension StageName {
    /// Archery: the target face, its arrows and the end's score, from a photo (decoded as a
    /// one-frame video) or from the steady frames of a video, sampled as they are decoded.
    public static let scoring = StageName(rawValue: "scoring")
}

extension ResultTable {
    /// Seed 002's `DetectedArrow` fields, scored: one row per arrow of the detected end (the
    /// confirmed versions are stored apart, `archery_confirmations`). `arrivalTime` is a video's only.
    public static let archeryArrows = ResultTable(sqlTable: "archery_arrows", resultKey: "arrows", numberColumn: "arrowNumber", columns: [
        Column("arrowNumber", .integer), Column("score", .integer), Column("isXRing", .boolean),
        Column("normalizedX", .number), Column("normalizedY", .number), Column("distanceFromCenter", .number),
        Column("clockPositionDeg", .number), Column("confidence", .number), Column("pixelX", .number), Column("pixelY", .number),
        Column("arrivalTime", .number),
    ])
}
