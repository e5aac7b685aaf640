import Foundation
import SportKit

/// Why a person should look at an arrow (`result.arrows[i].review`, each `{code, message}` as a
/// basketball shot's and a tennis swing's `review`): what the finder saw that makes the arrow, its
/// place or its score doubtful. Each weighs on the arrow's `confidence` (`ArrowConfidence`).
public typealias ArrowReview = ReviewReason

extension ArrowReview {
    /// The impact is within the arrow's radius of a scoring line: the line-cutter rule gives the
    /// higher score, and a fraction of a millimetre decides which.
    static func onScoringLine(distance: Double, arrowRadius: Double) -> ArrowReview {
        let line = ArcheryScoring.nearestLine(to: distance)
        return ArrowReview(code: "onScoringLine",
                           message: String(format: "the impact is %.3f face radii from the line between %@ (the arrow's radius is %.3f): the line-cutter rule decides the score",
                                           abs(distance - line.radius), line.between, arrowRadius))
    }

    /// A round mark with no shaft: an arrow seen end on, or a hole from an earlier end.
    static func noShaftSeen() -> ArrowReview {
        ArrowReview(code: "noShaftSeen", message: "a round mark with no shaft seen: an arrow seen end on, or a hole from an earlier end")
    }

    /// Its shaft crosses or touches another's: the group was parted along straight runs, so the
    /// impact may be the other arrow's, or a piece of one shaft.
    static func crossingShafts() -> ArrowReview {
        ArrowReview(code: "crossingShafts",
                    message: "its shaft crosses or touches another arrow's: the two were parted along straight lines, so the impact may belong to the other")
    }

    /// The shaft looks alike at both ends (the fletching's side not told apart), so the impact may
    /// be at the other end.
    static func endsAlike() -> ArrowReview {
        ArrowReview(code: "endsAlike", message: "the shaft looks alike at both ends: the impact may be at the other end")
    }

    /// Near the face's outer edge, where the paper's edge, the boss or the stand can look like a
    /// shaft.
    static func nearFaceEdge(distance: Double) -> ArrowReview {
        ArrowReview(code: "nearFaceEdge",
                    message: String(format: "the impact is %.2f face radii out, near the face's edge, where the paper's edge or the boss can look like an arrow", distance))
    }

    /// More possible arrows than were shot: this one is among the clearest `shot`, the rest were
    /// left out, and any of the kept ones may be a mark that is not an arrow.
    static func moreFoundThanShot(found: Int, shot: Int) -> ArrowReview {
        ArrowReview(code: "moreFoundThanShot",
                    message: "\(found) possible arrows were found for \(shot) shot: this one is among the \(shot) clearest, and any of them may be a mark that is not an arrow")
    }
}

/// Where the review reasons draw their lines. Chosen on the accuracy benchmark's tuning seeds
/// (`loadtest/accuracy-bench.sh archery 40 1000000`), never on the held-back ones.
enum ArrowReviewTuning {
    /// Beyond this distance from the centre (face radii) an impact is near the face's edge.
    static let nearEdge = 0.9
    /// Below this asymmetry of a shaft's pixels along its length (|head − tail| extents over the
    /// length), its two ends look alike.
    static let endsAlikeAsymmetry = 0.1
}
