import Foundation
import ReelworkCore

/// Seed 002's scoring table with World Archery's line-cutter rule (Book 3 Art. 12.2).
///
/// Ring k's radius (the outer edge of its dividing line) is (11 − k) / 10 face radii; the X ring's
/// is 0.05. The dividing line lies inside the higher ring, so the tenths already include it; what
/// the rule adds is the arrow's own thickness: an arrow whose shaft touches the line counts in the
/// higher ring, i.e. its centre may be up to one arrow radius outside the ring's edge.
public enum ArcheryScoring {
    /// The seed's detection threshold, on the finder's own confidence (before review reasons).
    public static let minimumConfidence = 0.40
    static let xRingRadius = 0.05

    /// Score and X for a centre `distance` (face radii) and an arrow radius (face radii).
    public static func score(distance: Double, arrowRadius: Double) -> (score: Int, isX: Bool) {
        guard distance.isFinite else { return (0, false) }
        let isX = distance <= xRingRadius + arrowRadius
        for ring in stride(from: 10, through: 1, by: -1) where distance <= Double(11 - ring) / 10 + arrowRadius {
            return (ring, isX)
        }
        return (0, false)
    }

    /// True when the impact is within `arrowRadius` of a scoring line (the X ring's included), so
    /// the choice between two scores rests on the line-cutter rule.
    public static func isOnLine(distance: Double, arrowRadius: Double) -> Bool {
        abs(distance - nearestLine(to: distance).radius) <= arrowRadius
    }

    /// The scoring line nearest a distance from the centre (face radii): its radius and the two
    /// scores it divides ("the X and the 10", "the 8 and the 9", "the 1 and a miss").
    static func nearestLine(to distance: Double) -> (radius: Double, between: String) {
        let edges = [xRingRadius] + (1...10).map { Double($0) / 10 }
        let radius = edges.min { abs(distance - $0) < abs(distance - $1) } ?? 1
        if radius == xRingRadius { return (radius, "the X and the 10") }
        let inner = 11 - Int((radius * 10).rounded())
        return (radius, inner == 1 ? "the 1 and a miss" : "the \(inner - 1) and the \(inner)")
    }

    /// 0° = 12 o'clock, clockwise, in [0, 360), from face coordinates with y down (12 o'clock is −y).
    public static func clockPosition(x: Double, y: Double) -> Double {
        guard x != 0 || y != 0 else { return 0 }
        var degrees = atan2(x, -y) * 180 / .pi
        if degrees < 0 { degrees += 360 }
        return degrees >= 360 ? 0 : degrees
    }

    /// Scores found impacts into an end: arrows sorted by clock position, totals, missing arrows.
    static func end(face: TargetFace, impacts: [ArrowImpact], options: ArcheryOptions) -> ArcheryResult {
        let arrowRadius = options.arrowRadiusInFaceRadii
        let distance = { (impact: ArrowImpact) -> Double in
            face.radius(pixelX: impact.pixelX, pixelY: impact.pixelY) ?? .infinity
        }
        let candidates = ArrowCandidates.scorable(impacts.filter { $0.confidence >= minimumConfidence }, isShaft: \.isShaft, distance: distance,
                                                  arrowRadius: arrowRadius)
        let believed = ArrowCandidates.strongest(candidates, count: options.expectedArrowCount,
                                                 tier: { ArrowCandidates.tier(isShaft: $0.isShaft, distance: distance($0), mayBeShadow: $0.mayBeShadow) }, confidence: \.confidence)
        let crowd = options.expectedArrowCount.flatMap { believed.leftOut > 0 ? (found: $0 + believed.leftOut, shot: $0) : nil }
        let arrows = believed.kept.compactMap { impact -> DetectedArrow? in
            guard let q = face.faceCoordinates(pixelX: impact.pixelX, pixelY: impact.pixelY) else { return nil }
            let cues = ArrowCues(isShaft: impact.isShaft, crossesAnother: impact.crossesAnother, endsAlike: impact.endsAlike, crowd: crowd)
            return arrow(faceX: q.x, faceY: q.y, pixel: (impact.pixelX, impact.pixelY), box: impact.box, cues: cues, arrowRadius: arrowRadius)
        }.sorted { $0.clockPositionDeg < $1.clockPositionDeg }
        return finish(face: face, arrows: arrows, expected: options.expectedArrowCount, leftOut: believed.leftOut)
    }

    /// An arrow at normalised face coordinates, scored, with the review reasons its cues and its
    /// place give and the confidence they leave (`ArrowConfidence`).
    static func arrow(faceX x: Double, faceY y: Double, pixel: (x: Double, y: Double), box: BoundingBox, cues: ArrowCues,
                      arrowRadius: Double) -> DetectedArrow {
        let distance = (x * x + y * y).squareRoot()
        let (score, isX) = score(distance: distance, arrowRadius: arrowRadius)
        let review = review(distance: distance, arrowRadius: arrowRadius, cues: cues)
        return DetectedArrow(normalizedX: x, normalizedY: y, pixelX: pixel.x, pixelY: pixel.y, distanceFromCenter: distance,
                             clockPositionDeg: clockPosition(x: x, y: y), confidence: ArrowConfidence.value(review: review),
                             boundingBox: box, score: score, isXRing: isX, review: review)
    }

    static func review(distance: Double, arrowRadius: Double, cues: ArrowCues) -> [ArrowReview] {
        var review = [ArrowReview]()
        if isOnLine(distance: distance, arrowRadius: arrowRadius) { review.append(.onScoringLine(distance: distance, arrowRadius: arrowRadius)) }
        if !cues.isShaft { review.append(.noShaftSeen()) }
        if cues.crossesAnother { review.append(.crossingShafts()) }
        if cues.isShaft, cues.endsAlike { review.append(.endsAlike()) }
        if distance > ArrowReviewTuning.nearEdge { review.append(.nearFaceEdge(distance: distance)) }
        if let crowd = cues.crowd { review.append(.moreFoundThanShot(found: crowd.found, shot: crowd.shot)) }
        return review
    }

    /// `leftOut`: candidates found beyond the expected count, not scored.
    static func finish(face: TargetFace, arrows: [DetectedArrow], expected: Int?, leftOut: Int = 0) -> ArcheryResult {
        let totals = totals(arrows.map { ($0.score, $0.isXRing) })
        var missing: Int?, message: String?
        if let expected, arrows.count < expected {
            missing = expected - arrows.count
            message = "\(missing ?? 0) of \(expected) arrows not found: place them by hand before confirming the end"
        } else if let expected, leftOut > 0 {
            message = "\(expected + leftOut) possible arrows found for \(expected) shot: the \(expected) clearest are scored; check them on the picture before confirming the end"
        }
        return ArcheryResult(face: face, arrows: arrows, total: totals.total, xCount: totals.xCount, tens: totals.tens,
                          expectedArrowCount: expected, missingArrows: missing, message: message,
                          leftOutCandidates: leftOut > 0 ? leftOut : nil)
    }

    /// `tens` counts every 10, X included (the usual score-sheet column "10+X").
    static func totals(_ scores: [(score: Int, isX: Bool)]) -> (total: Int, xCount: Int, tens: Int) {
        (scores.reduce(0) { $0 + $1.score }, scores.filter(\.isX).count, scores.filter { $0.score == 10 }.count)
    }
}

/// What the finder saw of an arrow beyond its place, from which its review reasons come.
struct ArrowCues {
    var isShaft: Bool
    var crossesAnother: Bool
    var endsAlike: Bool
    /// How many possible arrows were found and how many were shot, when more were found.
    var crowd: (found: Int, shot: Int)?
}
