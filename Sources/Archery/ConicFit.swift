import Foundation
import SportMath

/// An ellipse fitted to points by algebraic least squares (A x² + B xy + C y² + D x + E y + F = 0
/// with A + C = 1, in coordinates centred and scaled on the points so the 5 × 5 system is well
/// conditioned), refitted without the points far from it.
struct ConicFit {
    var centerX: Double
    var centerY: Double
    /// Semi-axes along `axis1` and the perpendicular `axis2`.
    var semiAxis1: Double
    var semiAxis2: Double
    var axis1: (x: Double, y: Double)
    var inliers: [(x: Double, y: Double)]

    static let minimumPoints = 12

    static func fit(_ points: [(x: Double, y: Double)], rounds: Int = 3) -> ConicFit? {
        var current = points
        var result: ConicFit?
        for _ in 0..<rounds {
            guard current.count >= minimumPoints, let conic = algebraicFit(current), let ellipse = ellipse(conic) else { return result }
            // Sampson-like distance: |Q(p)| / |∇Q(p)|.
            let distances = current.map { p -> Double in
                let (a, b, c, d, e, f) = conic
                let q = a * p.x * p.x + b * p.x * p.y + c * p.y * p.y + d * p.x + e * p.y + f
                let gx = 2 * a * p.x + b * p.y + d, gy = b * p.x + 2 * c * p.y + e
                return abs(q) / max(1e-12, (gx * gx + gy * gy).squareRoot())
            }
            let median = distances.sorted()[distances.count / 2]
            let limit = max(1.5, 4 * 1.4826 * median)
            let kept = zip(current, distances).filter { $0.1 <= limit }.map(\.0)
            result = ConicFit(centerX: ellipse.cx, centerY: ellipse.cy, semiAxis1: ellipse.a1, semiAxis2: ellipse.a2,
                              axis1: ellipse.axis1, inliers: kept)
            if kept.count == current.count { break }
            current = kept
        }
        return result
    }

    private static func algebraicFit(_ points: [(x: Double, y: Double)]) -> (Double, Double, Double, Double, Double, Double)? {
        let n = Double(points.count)
        let mx = points.reduce(0) { $0 + $1.x } / n, my = points.reduce(0) { $0 + $1.y } / n
        let spread = (points.reduce(0) { $0 + ($1.x - mx) * ($1.x - mx) + ($1.y - my) * ($1.y - my) } / n).squareRoot()
        guard spread > 1e-9 else { return nil }
        // Unknowns (A, B, D, E, F) with C = 1 − A: A(x² − y²) + Bxy + Dx + Ey + F = −y².
        var ata = [Double](repeating: 0, count: 25), atb = [Double](repeating: 0, count: 5)
        for p in points {
            let x = (p.x - mx) / spread, y = (p.y - my) / spread
            let row = [x * x - y * y, x * y, x, y, 1.0], rhs = -y * y
            for i in 0..<5 {
                atb[i] += row[i] * rhs
                for j in 0..<5 { ata[i * 5 + j] += row[i] * row[j] }
            }
        }
        guard let s = LinearSolver.solve(ata, atb) else { return nil }
        let a = s[0], b = s[1], c = 1 - s[0], d = s[2], e = s[3], f = s[4]
        // Back to image coordinates: x' = (x − mx)/k, so Q(x) = Q'((x − mx)/k, (y − my)/k).
        let k = spread
        let A = a / (k * k), B = b / (k * k), C = c / (k * k)
        let D = d / k - 2 * A * mx - B * my
        let E = e / k - 2 * C * my - B * mx
        let F = A * mx * mx + B * mx * my + C * my * my - d * mx / k - e * my / k + f
        return (A, B, C, D, E, F)
    }

    private static func ellipse(_ conic: (Double, Double, Double, Double, Double, Double))
        -> (cx: Double, cy: Double, a1: Double, a2: Double, axis1: (x: Double, y: Double))? {
        let (a, b, c, d, e, f) = conic
        let det = 4 * a * c - b * b
        guard det > 0, det.isFinite else { return nil }
        let cx = (b * e - 2 * c * d) / det, cy = (b * d - 2 * a * e) / det
        let f0 = a * cx * cx + b * cx * cy + c * cy * cy + d * cx + e * cy + f
        // Eigen decomposition of [[a, b/2], [b/2, c]].
        let mean = (a + c) / 2, diff = (a - c) / 2
        let root = (diff * diff + b * b / 4).squareRoot()
        let l1 = mean + root, l2 = mean - root
        let theta = 0.5 * atan2(b, a - c)
        guard l1 * f0 < 0, l2 * f0 < 0 else { return nil }
        let a1 = (-f0 / l1).squareRoot(), a2 = (-f0 / l2).squareRoot()
        guard a1.isFinite, a2.isFinite, cx.isFinite, cy.isFinite else { return nil }
        return (cx, cy, a1, a2, (cos(theta), sin(theta)))
    }
}
