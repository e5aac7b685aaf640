import Foundation
import ReelworkCore

/// Seed 002's scoring table with World Archery's line-cutter rule (Book 3 Art. 12.2).
///
/// Ring k's radius (the outer edge of its dividing line) is (11 − k) / 10 face radii; the X ring's
/// is 0.05. The dividing line lies inside the higher ring, so the tenths already include it; what
/// the rule adds is the arrow's own thickness: an arrow whose shaft touches the line counts in the
/// higher ring, i.e. its centre may be up to one arrow radius outside the ring's edge.
public enum ArcheryScoring {
    /// The confidence an impact is capped at when it is within the arrow's radius of a line: a
    /// person should look at it. Above the seed's 0.40 threshold so it is still reported.
    public static let lineCutterConfidence = 0.5
    /// The seed's detection threshold.
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
        let edges = [xRingRadius] + (1...10).map { Double($0) / 10 }
        return edges.contains { abs(distance - $0) <= arrowRadius }
    }

    /// 0° = 12 o'clock, clockwise, in [0, 360), from face coordinates with y down (12 o'clock is −y).
    public static func clockPosition(x: Double, y: Double) -> Double {
        guard x != 0 || y != 0 else { return 0 }
        var degrees = atan2(x, -y) * 180 / .pi
        if degrees < 0 { degrees += 360 }
        return degrees >= 360 ? 0 : degrees
    }

    /// Scores found impacts into an end: arrows sorted by clock position, totals, missing arrows.
    static func end(face: TargetFace, impacts: [ArrowImpact], options: ArcheryOptions) -> ArcheryEnd {
        let arrowRadius = options.arrowRadiusInFaceRadii
        let believed = ArrowCandidates.strongest(impacts.filter { $0.confidence >= minimumConfidence }, count: options.expectedArrowCount,
                                                 isShaft: \.isShaft, confidence: \.confidence)
        let arrows = believed.kept.compactMap { impact -> DetectedArrow? in
            guard let q = face.faceCoordinates(pixelX: impact.pixelX, pixelY: impact.pixelY) else { return nil }
            let distance = (q.x * q.x + q.y * q.y).squareRoot()
            let (score, isX) = score(distance: distance, arrowRadius: arrowRadius)
            var confidence = impact.confidence
            // Capped on a line, never below the threshold the candidates were filtered at (lineCutterConfidence > minimumConfidence).
            if isOnLine(distance: distance, arrowRadius: arrowRadius) { confidence = min(confidence, lineCutterConfidence) }
            return DetectedArrow(normalizedX: q.x, normalizedY: q.y, pixelX: impact.pixelX, pixelY: impact.pixelY,
                                 distanceFromCenter: distance, clockPositionDeg: clockPosition(x: q.x, y: q.y),
                                 confidence: confidence, boundingBox: impact.box, score: score, isXRing: isX)
        }.sorted { $0.clockPositionDeg < $1.clockPositionDeg }
        return finish(face: face, arrows: arrows, expected: options.expectedArrowCount, leftOut: believed.leftOut)
    }

    /// `leftOut`: candidates found beyond the expected count, not scored.
    static func finish(face: TargetFace, arrows: [DetectedArrow], expected: Int?, leftOut: Int = 0) -> ArcheryEnd {
        let totals = totals(arrows.map { ($0.score, $0.isXRing) })
        var missing: Int?, message: String?
        if let expected, arrows.count < expected {
            missing = expected - arrows.count
            message = "\(missing ?? 0) of \(expected) arrows not found: place them by hand before confirming the end"
        } else if let expected, leftOut > 0 {
            message = "\(expected + leftOut) possible arrows found for \(expected) shot: the \(expected) clearest are scored; check them on the picture before confirming the end"
        }
        return ArcheryEnd(face: face, arrows: arrows, total: totals.total, xCount: totals.xCount, tens: totals.tens,
                          expectedArrowCount: expected, missingArrows: missing, message: message,
                          leftOutCandidates: leftOut > 0 ? leftOut : nil)
    }

    /// `tens` counts every 10, X included (the usual score-sheet column "10+X").
    static func totals(_ scores: [(score: Int, isX: Bool)]) -> (total: Int, xCount: Int, tens: Int) {
        (scores.reduce(0) { $0 + $1.score }, scores.filter(\.isX).count, scores.filter { $0.score == 10 }.count)
    }
}
