/// Made or missed (DOMAIN.md): the ball's centre passes down through the rim's height between its
/// two ends and goes on below the net, staying inside the hoop on the way. Off the board and in is
/// made (the crossing after the bounce counts); a rim-out, an airball or a ball off the board that
/// falls outside is missed.
struct ShotJudge {
    /// The net may push the ball sideways a little: half a rim width beyond the ends is still inside.
    static let netSlackRimWidths = 0.5

    let rim: RimLine

    func isMade(_ attempt: ArraySlice<BallPoint>) -> Bool {
        let netBottom = ShotFinder.netDepthRimWidths * rim.widthPixels
        let slack = Self.netSlackRimWidths * rim.widthPixels
        var i = attempt.startIndex
        while i < attempt.endIndex - 1 {
            let a = attempt[i], b = attempt[i + 1]
            let level = rim.y(atX: (a.x + b.x) / 2)
            // Downwards across the rim's height: above it, then at or below.
            if a.y < level, b.y >= level {
                let f = (level - a.y) / (b.y - a.y)
                let x = a.x + f * (b.x - a.x)
                if x > rim.left.x, x < rim.right.x {
                    // On below the net, inside the hoop all the way.
                    var j = i + 1
                    while j < attempt.endIndex {
                        let p = attempt[j]
                        guard p.x >= rim.left.x - slack, p.x <= rim.right.x + slack else { break }
                        if p.y > rim.y(atX: p.x) + netBottom { return true }
                        j += 1
                    }
                }
            }
            i += 1
        }
        return false
    }
}
