/// Made or missed (DOMAIN.md): the ball's centre passes down through the rim's height between its
/// two ends and goes on below the net, staying inside the hoop on the way. Off the board and in is
/// made (the crossing after the bounce counts); a rim-out, an airball or a ball off the board that
/// falls outside is missed.
struct ShotJudge {
    /// The net may push the ball sideways a little: half a rim width beyond the ends is still inside.
    static let netSlackRimWidths = 0.5

    let rim: RimLine

    func isMade(_ attempt: ArraySlice<BallPoint>) -> Bool { verdict(attempt).made }

    /// Made or missed, and whether it was a close call (`ShotReview.madeMissedClose`): the
    /// crossing that made it lay within `ShotReviewTuning.closeRimWidths` of a rim end; or, for a
    /// miss, a downward crossing lay that near outside an end, or one between the ends was not
    /// followed below the net because the ball was lost (not because it left the hoop sideways).
    func verdict(_ attempt: ArraySlice<BallPoint>) -> ShotVerdict {
        let netBottom = ShotFinder.netDepthRimWidths * rim.widthPixels
        let slack = Self.netSlackRimWidths * rim.widthPixels
        let width = max(1e-9, rim.right.x - rim.left.x)
        let close = ShotReviewTuning.closeRimWidths
        var closeCall: ShotVerdict.CloseCall?
        var i = attempt.startIndex
        while i < attempt.endIndex - 1 {
            let a = attempt[i], b = attempt[i + 1]
            let level = rim.y(atX: (a.x + b.x) / 2)
            // Downwards across the rim's height: above it, then at or below.
            if a.y < level, b.y >= level {
                let f = (level - a.y) / (b.y - a.y)
                let x = a.x + f * (b.x - a.x)
                // Across the rim in rim widths from its left end: 0…1 between the ends.
                let share = (x - rim.left.x) / width
                if x > rim.left.x, x < rim.right.x {
                    // On below the net, inside the hoop all the way.
                    var j = i + 1
                    var leftTheHoop = false
                    while j < attempt.endIndex {
                        let p = attempt[j]
                        guard p.x >= rim.left.x - slack, p.x <= rim.right.x + slack else { leftTheHoop = true; break }
                        if p.y > rim.y(atX: p.x) + netBottom {
                            let margin = min(share, 1 - share)
                            return ShotVerdict(made: true, closeCall: margin < close ? .nearRimEnd(margin) : nil)
                        }
                        j += 1
                    }
                    if !leftTheHoop { closeCall = closeCall ?? .notFollowedBelowNet }
                } else {
                    let outside = share <= 0 ? -share : share - 1
                    if outside < close { closeCall = closeCall ?? .justOutsideRim(outside) }
                }
            }
            i += 1
        }
        return ShotVerdict(made: false, closeCall: closeCall)
    }
}

/// What `ShotJudge` decided, and why it may be wrong.
struct ShotVerdict: Equatable {
    enum CloseCall: Equatable {
        /// Made across the rim this share of its width inside an end.
        case nearRimEnd(Double)
        /// Missed: came down this share of a rim width outside an end.
        case justOutsideRim(Double)
        /// Missed: came down between the ends, then the ball was lost above the net's bottom.
        case notFollowedBelowNet
    }

    var made: Bool
    var closeCall: CloseCall?
}
