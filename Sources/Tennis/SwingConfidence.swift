import SportKit

/// A swing's `confidence`: the chance that it is right in everything a coach reads from it (a real
/// swing, contact within 2 sampled frames, the right type), calibrated on the accuracy benchmark
/// (`loadtest/accuracy-bench.sh tennis`, tuning seeds 1,000,000+; docs/benchmarks/accuracy.md has the
/// reliability table): the share right among clean swings there, times, for each doubt, the share
/// right among swings with it relative to the clean ones. (A swing whose player is not tracked at
/// all in its window gets 0 from `SwingMeasurer`.)
enum SwingConfidence {
    /// Swings with every frame around contact seen and no review reason.
    static let clean = 0.97
    /// One frame around contact without the racket wrist (too few to be a review reason).
    static let oneFrameMissing = 0.95
    /// Each review reason, by code.
    static let factors: [String: Double] = [
        "landmarksMissingAtContact": 0.83,
        "personNearby": 0.88,
        "atClipEdge": 0.95,
        "nearSwingThreshold": 0.55,
    ]

    /// `missingAtContact`: frames within `SwingTuning.reviewContactFrames` of contact where the
    /// racket wrist was not seen.
    static func value(missingAtContact: Int, review: [SwingReview]) -> Double {
        let reasons = review.reduce(1.0) { $0 * (factors[$1.code] ?? 1) }
        return min(1, max(0, clean * reasons * (missingAtContact == 1 ? oneFrameMissing : 1)))
    }
}
