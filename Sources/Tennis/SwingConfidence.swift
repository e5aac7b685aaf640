import SportKit

/// A swing's `confidence`: the chance that it is right in everything a coach reads from it (a real
/// swing, contact within 2 sampled frames, the right type), calibrated on the accuracy benchmark
/// (`loadtest/accuracy-bench.sh tennis`, tuning seeds 1,000,000+; docs/benchmarks/accuracy.md has the
/// reliability table): the share right among clean swings there, times, for each doubt, the share
/// right among swings with it relative to the clean ones, and for a racket wrist missing around
/// contact, a factor by how many frames are missing. (A swing whose player is not tracked at all in
/// its window gets 0 from `SwingMeasurer`.)
enum SwingConfidence {
    /// Swings with every frame around contact seen and no review reason.
    static let clean = 0.98
    /// Each review reason but a missing racket wrist (which `missingFactor` weighs by how much is
    /// missing), by code.
    static let factors: [String: Double] = [
        "personNearby": 0.93,
        "atClipEdge": 0.97,
        "nearSwingThreshold": 0.76
    ]

    /// By the frames within `SwingTuning.reviewContactFrames` of contact (five) where the racket
    /// wrist was not seen: a few are bridged by the frames beside them; with four the contact rests
    /// on one frame, and with none seen it is read across the gap. Each is the share right among
    /// swings with that many missing relative to clean swings (98.5 % right) on the tuning seeds:
    /// 97.8 % with one missing, 97.1 % with two or three, 89.3 % with four, 61.5 % with all five.
    static func missingFactor(_ missing: Int) -> Double {
        switch missing {
        case ...0: return 1
        case 1: return 0.99
        case 2, 3: return 0.98
        case 4: return 0.9
        default: return 0.62
        }
    }

    /// `missingAtContact`: frames within `SwingTuning.reviewContactFrames` of contact where the
    /// racket wrist was not seen.
    static func value(missingAtContact: Int, review: [SwingReview]) -> Double {
        let reasons = review.reduce(1.0) { $0 * (factors[$1.code] ?? 1) }
        return min(1, max(0, clean * reasons * missingFactor(missingAtContact)))
    }
}
