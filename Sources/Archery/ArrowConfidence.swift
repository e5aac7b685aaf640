import Foundation
import SportKit

/// An arrow's `confidence`: the chance that it is a real arrow scored right, calibrated on the
/// accuracy benchmark's POV-Ray ends (`loadtest/accuracy-bench.sh archery 40 1000000`, the tuning
/// seeds; the scorer prints the share right by reason and the reliability table).
///
/// A logistic model of the review reasons: the log-odds of being right are `intercept` plus each
/// reason's weight, fitted by maximum likelihood with a small ridge (weight 1 on the squared
/// weights, none on the intercept). Not Basketball's product of shares: archery's reasons come
/// together (most arrows of a crowded end are near an edge or a line too), and multiplying their
/// shares read the tuning ends' middle arrows a third too low. A weight is at most 0: a reason
/// never makes an arrow more believable.
enum ArrowConfidence {
    /// An arrow with no reason: right about two times in three on the tuning ends (most phantoms
    /// there are pieces of real shafts, which no reason catches yet).
    static let intercept = 0.71
    /// Each review reason's weight in log-odds, by code.
    static let weights: [String: Double] = [
        "onScoringLine": -0.49,
        "noShaftSeen": -1.38,
        // Crossing shafts were right as often as others on the tuning ends: a person should
        // still see which impact is which, but the reason does not lower the confidence.
        "crossingShafts": 0,
        "endsAlike": -0.65,
        "nearFaceEdge": -2.27,
        "moreFoundThanShot": -0.08,
    ]

    static func value(review: [ArrowReview]) -> Double {
        let logOdds = review.reduce(intercept) { $0 + (weights[$1.code] ?? 0) }
        return 1 / (1 + exp(-logOdds))
    }
}
