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

    /// The impacts that may be arrows, in the order given. `lineShowsThrough` says, for a shaft from
    /// `head` to `tail` (face coordinates), whether the face's printed line shows through it (a
    /// shadow), hides behind it (a shaft), or cannot be told (nil; `ShadowOnTheFace`).
    static func plausible(_ impacts: [ArrowImpact], face: TargetFace, arrowRadius: Double,
                          lineShowsThrough: (_ head: (x: Double, y: Double), _ tail: (x: Double, y: Double)) -> Bool? = { _, _ in nil }) -> [ArrowImpact] {
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
                guard let ha = heads[a], let ta = tails[a], let hb = heads[b], let tb = tails[b],
                      let line = FaceLine(origin: ha, dx: ta.x - ha.x, dy: ta.y - ha.y) else { continue }
                let length = line.length, along = line.along, across = line.across
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
        // A shadow: a shaft starting at the white zone's inner edge and running outward. The shadow
        // of a shaft on the face starts where the shaft entered it; on the black zone it does not
        // show, on the coloured zones it has a shadow's colour (`ArrowFinder.isShadow`), so from an
        // arrow further in it first shows on the white, as a grey shaft would. One whose line,
        // carried on inward, runs into another impact is that arrow's shadow, and so is one the
        // face's line shows through; one that runs into none (its arrow not found) and cannot be
        // told by the line is believed after the shafts that are not (`tier`).
        var impacts = impacts
        for a in impacts.indices where !dropped.contains(a) && impacts[a].isShaft {
            guard let head = heads[a], let tail = tails[a] else { continue }
            let headRadius = (head.x * head.x + head.y * head.y).squareRoot(), tailRadius = (tail.x * tail.x + tail.y * tail.y).squareRoot()
            guard abs(headRadius - shadowEdge) <= shadowEdgeBand, tailRadius > headRadius else { continue }
            guard let inward = FaceLine(origin: head, dx: head.x - tail.x, dy: head.y - tail.y) else { continue }
            let castBy = impacts.indices.contains { b in
                guard b != a, !dropped.contains(b), let p = heads[b],
                      (p.x * p.x + p.y * p.y).squareRoot() < shadowEdge - shadowEdgeBand else { return false }
                let along = inward.along(p)
                return along > 0 && inward.across(p) <= max(shadowLineReach, shadowLineSlope * along)
            }
            if castBy || lineShowsThrough(head, tail) == true { dropped.insert(a) } else { impacts[a].mayBeShadow = true }
        }
        return impacts.indices.filter { !dropped.contains($0) }.map { impacts[$0] }
    }

    /// The white zone's inner edge (face radii): a shadow cast by an arrow further in starts there.
    static let shadowEdge = 0.8
    /// How far from `shadowEdge` a shadow's inner end may be found (the edge's blur, the line).
    static let shadowEdgeBand = 0.025
    /// How near its line an arrow must lie to have cast the shadow: this far (face radii), or this
    /// share of the way along, for the error of the shadow's direction.
    static let shadowLineReach = 0.03
    static let shadowLineSlope = 0.06

    /// The candidates that are scored; the others are left to a person (an expected count then
    /// says how many are missing). Two kinds are not scored, as the finder cannot tell them from
    /// what is not an arrow:
    /// - one beyond the face, where it would score M: the boss's edge, the stand, shadows and the
    ///   paper's margin make thin marks there like a miss's shaft;
    /// - a round group, when a shaft is on the face: the picture was taken with the end's arrows
    ///   in it, so a hole is an earlier end's. Only a picture of holes alone (an end pulled before
    ///   it was photographed) is scored from its holes.
    static func scorable<T>(_ items: [T], isShaft: (T) -> Bool, distance: (T) -> Double, arrowRadius: Double) -> [T] {
        let onTheFace = items.filter { ArcheryScoring.score(distance: distance($0), arrowRadius: arrowRadius).score > 0 }
        return onTheFace.contains(where: isShaft) ? onTheFace.filter(isShaft) : onTheFace
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
    /// phantoms on the benchmark's tuning ends) or one that may be a shadow, then a round group (a
    /// hole from an earlier end, or an arrow seen end on).
    static func tier(isShaft: Bool, distance: Double, mayBeShadow: Bool) -> Int {
        guard isShaft else { return 2 }
        return distance > ArrowReviewTuning.nearEdge || mayBeShadow ? 1 : 0
    }
}

/// A line in face coordinates from `origin` along (dx, dy): where a point lies along it (in the
/// direction's length units from the origin) and how far across it.
private struct FaceLine {
    let origin: (x: Double, y: Double)
    let dx: Double, dy: Double
    let length: Double

    /// Nil for a direction of no length.
    init?(origin: (x: Double, y: Double), dx: Double, dy: Double) {
        let length = (dx * dx + dy * dy).squareRoot()
        guard length > 0 else { return nil }
        (self.origin, self.dx, self.dy, self.length) = (origin, dx, dy, length)
    }

    func along(_ q: (x: Double, y: Double)) -> Double { ((q.x - origin.x) * dx + (q.y - origin.y) * dy) / length }
    func across(_ q: (x: Double, y: Double)) -> Double { abs(-(q.x - origin.x) * dy + (q.y - origin.y) * dx) / length }
}
