import SportKit

/// A shot's `confidence`: the chance that it is right in everything the shooting line reads from
/// it (a real attempt, made or missed right, 2PT or 3PT right), calibrated on the accuracy
/// benchmark's POV-Ray sessions (`loadtest/accuracy-bench.sh basketball 12 1000000`, tuning seeds
/// 1,000,000–1,000,011, 33 reported shots; the scorer prints the share right by reason and the
/// reliability table): the share right among shots with no review reason, times, for each reason a
/// shot has, the share right among shots with that reason over the clean share.
///
/// Few shots carry each reason, so every share is smoothed: the clean share as (right + 1) /
/// (shots + 2); a reason's share with two more imagined shots right at the clean share, (right +
/// 2 × clean) / (shots + 2). A factor is at most 0.95: a reason a person should look at always
/// lowers the confidence a little, even where the tuning seeds had no shot wrong with it.
/// Products of factors assume the reasons independent; they are not quite (a ball hidden at the
/// rim is also what makes a close call), so shots with several reasons read low.
enum ShotConfidence {
    /// Shots with no review reason: 11 of 11 right on the tuning seeds, 12 / 13.
    static let clean = 0.92
    /// Each review reason, by code; beside each, its shots on the tuning seeds.
    static let factors: [String: Double] = [
        "ballHiddenAtRim": 0.53,    // 5 of 12 right
        "madeMissedClose": 0.40,    // 0 of 3
        "nearThreePointLine": 0.53, // 4 of 10
        "fewArcPoints": 0.62,       // 1 of 3
        "flightGap": 0.95,          // 1 of 1 (at most 0.95)
        "atFrameEdge": 0.95,        // none there (at most 0.95)
    ]

    static func value(review: [ShotReview]) -> Double {
        let reasons = review.reduce(1.0) { $0 * (factors[$1.code] ?? 1) }
        return min(1, max(0, clean * reasons))
    }
}
