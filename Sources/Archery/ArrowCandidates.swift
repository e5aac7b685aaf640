/// Which of the finder's groups are arrows, and which are believed first when there are more than
/// the archer shot.
///
/// Away from the rings the finder's colour model is weakest: pins, knots in the boss, the paper's
/// edge and old holes there make round groups, while a miss leaves its arrow in the boss, shaft
/// and all. A shaft cut in two (by a ring line's band, or at its fletching) gives a second group
/// on its own line, beyond its impact: that piece is the same arrow.
enum ArrowCandidates {
    /// A round group further out than this (face radii) is not an arrow.
    static let roundGroupReach = 1.03
    /// A shaft whose both ends lie within this many arrow radii of another shaft's line (at least
    /// 0.01 face radii), and within `ArrowFinder.collinearGap` of its ends, is a piece of it.
    static let pieceOffLine = 2.0

    /// The impacts that may be arrows, in the order given.
    static func plausible(_ impacts: [ArrowImpact], face: TargetFace, arrowRadius: Double) -> [ArrowImpact] {
        let heads = impacts.map { face.faceCoordinates(pixelX: $0.pixelX, pixelY: $0.pixelY) }
        let tails = impacts.map { i in i.tailX.flatMap { x in i.tailY.flatMap { y in face.faceCoordinates(pixelX: x, pixelY: y) } } }
        let offLine = max(0.01, pieceOffLine * arrowRadius)
        var dropped = Set<Int>()
        for a in impacts.indices {
            guard let p = heads[a] else { dropped.insert(a); continue }
            if !impacts[a].isShaft, (p.x * p.x + p.y * p.y).squareRoot() > roundGroupReach { dropped.insert(a) }
        }
        // Two impacts closer than one arrow's diameter are one arrow (shafts cannot share a hole):
        // a shaft followed into a group ends where that group's own impact is.
        for a in impacts.indices where !dropped.contains(a) {
            for b in impacts.indices where b > a && !dropped.contains(b) {
                guard let p = heads[a], let q = heads[b], ((p.x - q.x) * (p.x - q.x) + (p.y - q.y) * (p.y - q.y)).squareRoot() < 2 * arrowRadius else { continue }
                dropped.insert(impacts[a].confidence >= impacts[b].confidence ? b : a)
                if dropped.contains(a) { break }
            }
        }
        // Two shafts on one line, end to end: one arrow. Its impact is the end of the two that one of
        // them took for its impact; the other piece goes.
        for a in impacts.indices where !dropped.contains(a) && impacts[a].isShaft {
            for b in impacts.indices where b > a && !dropped.contains(b) && impacts[b].isShaft {
                guard let ha = heads[a], let ta = tails[a], let hb = heads[b], let tb = tails[b] else { continue }
                let dx = ta.x - ha.x, dy = ta.y - ha.y, length = (dx * dx + dy * dy).squareRoot()
                guard length > 0 else { continue }
                let along = { (q: (x: Double, y: Double)) in ((q.x - ha.x) * dx + (q.y - ha.y) * dy) / length }
                let across = { (q: (x: Double, y: Double)) in abs(-(q.x - ha.x) * dy + (q.y - ha.y) * dx) / length }
                guard across(hb) <= offLine, across(tb) <= offLine else { continue }
                let (lowB, highB) = (min(along(hb), along(tb)), max(along(hb), along(tb)))
                // End to end: b starts within the joining gap of a's span (and may overlap it).
                guard lowB <= length + ArrowFinder.collinearGap, highB >= -ArrowFinder.collinearGap else { continue }
                let ends = (min(0, lowB), max(length, highB))
                let bHeadIsEnd = abs(along(hb) - ends.0) < 1e-9 || abs(along(hb) - ends.1) < 1e-9
                let aHeadIsEnd = ends.0 == 0 || ends.1 == 0
                if aHeadIsEnd && !bHeadIsEnd { dropped.insert(b) }
                else if bHeadIsEnd && !aHeadIsEnd { dropped.insert(a) }
                else { dropped.insert(impacts[a].confidence >= impacts[b].confidence ? b : a) }
                if dropped.contains(a) { break }
            }
        }
        return impacts.indices.filter { !dropped.contains($0) }.map { impacts[$0] }
    }

    /// The `count` most believable of `items` (lowest `tier` first, then by confidence), in their
    /// given order, and how many were left out. All of them when `count` is nil.
    static func strongest<T>(_ items: [T], count: Int?, tier: (T) -> Int, confidence: (T) -> Double) -> (kept: [T], leftOut: Int) {
        guard let count, items.count > count else { return (items, 0) }
        let ranked = items.indices.sorted { a, b in
            tier(items[a]) != tier(items[b]) ? tier(items[a]) < tier(items[b]) : confidence(items[a]) > confidence(items[b])
        }
        let keep = Set(ranked.prefix(count))
        return (items.indices.filter(keep.contains).map { items[$0] }, items.count - count)
    }

    /// How believable a kind of candidate is when more were found than shot: a shaft inside the
    /// face, then a shaft near its edge (where the paper's edge, the boss and the stand make most
    /// phantoms on the benchmark's tuning ends), then a round group (a hole from an earlier end, or
    /// an arrow seen end on).
    static func tier(isShaft: Bool, distance: Double) -> Int {
        guard isShaft else { return 2 }
        return distance > ArrowReviewTuning.nearEdge ? 1 : 0
    }
}
