import Foundation
import SportKit

/// Why a person should look at a shot (`result.shots[i].review`, each `{code, message}` as a tennis
/// swing's `review` and a bowling shot's `flags`): what the tracker saw too little of, or what lay
/// too near a line, to be sure. Each lowers the shot's `confidence` by its factor (`ShotConfidence`).
public typealias ShotReview = ReviewReason

extension ShotReview {
    /// Around its arrival at the rim (± `ShotReviewTuning.rimWindowSeconds`) the ball is seen in
    /// too few frames: hidden by the rim, the net, the board or a player, so made or missed was
    /// decided on what little was seen.
    static func hiddenAtRim(seen: Int, of expected: Int) -> ShotReview {
        ShotReview(code: "ballHiddenAtRim",
                   message: "the ball is seen in \(seen) of the \(expected) frames around its arrival at the rim")
    }

    /// Made or missed was a close call: the ball came down across the rim's height just inside or
    /// just outside an end, or it went in between the ends and was not seen again below the net.
    static func madeMissedClose(_ why: ShotVerdict.CloseCall) -> ShotReview {
        let message: String
        switch why {
        case .nearRimEnd(let share):
            message = String(format: "the ball came down %.0f%% of a rim width inside the rim's end: in or off the rim is close", share * 100)
        case .justOutsideRim(let share):
            message = String(format: "the ball came down %.0f%% of a rim width outside the rim's end: it may have gone in", share * 100)
        case .notFollowedBelowNet:
            message = "the ball came down inside the rim but was not seen below the net: called missed for want of seeing it go through"
        }
        return ShotReview(code: "madeMissedClose", message: message)
    }

    /// The release lies within the distance's measuring error of the three-point line: one camera
    /// sees the floor's depth foreshortened (a shooter off the rim's plane looks nearer), so 2PT
    /// or 3PT may be wrong.
    static func nearThreePointLine(distanceFt: Double, lineFt: Double) -> ShotReview {
        ShotReview(code: "nearThreePointLine",
                   message: String(format: "released %.1f ft from the rim as measured, within the measuring error of the %.2f ft three-point line",
                                   distanceFt, lineFt))
    }

    /// Few ball points lie between the release and the top of the flight: the release (and so
    /// the distance, or whether this was a shot at all) rests on little.
    static func fewArcPoints(_ count: Int) -> ShotReview {
        ShotReview(code: "fewArcPoints", message: "only \(count) ball points between the release and the top of the flight")
    }

    /// The flight was out of sight for longer than the tracker's gap and bridged as one arc (over
    /// the frame's top, behind a banner, too blurred to see).
    static func flightGap(seconds: Double) -> ShotReview {
        ShotReview(code: "flightGap", message: String(format: "the ball was out of sight for %.2f s in flight (bridged as one arc)", seconds))
    }

    /// The ball came within a ball's width of the frame's edge in flight: part of the flight may
    /// be outside the picture, and a ball cut by the edge is measured off-centre.
    static func atFrameEdge() -> ShotReview {
        ShotReview(code: "atFrameEdge", message: "the ball's flight reaches the edge of the frame: part of it may be outside the picture")
    }
}

/// Where the review reasons draw their lines. Chosen on the accuracy benchmark's tuning seeds
/// (`loadtest/accuracy-bench.sh basketball 12 1000000`), never on the held-back ones.
enum ShotReviewTuning {
    /// Frames looked at either side of the rim time, in seconds.
    static let rimWindowSeconds = 0.2
    /// Below this share of those frames with the ball seen, the ball was hidden at the rim.
    static let rimSeenShare = 0.7
    /// A crossing this near a rim end (inside or outside), in rim widths, is a close call.
    static let closeRimWidths = 0.15
    /// Measured release distances on the tuning seeds were short by up to a third (a shooter off
    /// the rim's plane): between these shares of the line, 2PT or 3PT is in doubt.
    static let threePointBand = 0.65...1.15
    /// Fewer ball points than this from the release to the apex is few.
    static let minArcPoints = 6
    /// A ball centre nearer the frame's edge than this many expected ball radii is at the edge.
    static let edgeBallRadii = 2.0
}
