import SportMath

/// Fits one homography, image → face, to the boundary points of all rings at once: each point's
/// distance from the face centre after the map must be its ring's radius. Concentric circles fix
/// the centre, the tilt and the scale, but not the face's rotation about its centre, which
/// `FaceFinder` sets afterwards; the damping below keeps that free direction from wandering.
///
/// Levenberg–Marquardt on the 8 entries (h[8] = 1) in coordinates centred on the gold and scaled
/// by the face's guessed radius, then points more than 3σ (at least 1.5 px) off dropped and fitted again.
enum FaceFitter {
    struct RingPoint {
        var x: Double
        var y: Double
        var radius: Double
        var ring: Int
    }

    struct Fit {
        /// Working pixels → face coordinates (y down still; rotation not fixed).
        var map: Homography
        var inliers: [RingPoint]
        var rmsPx: Double
    }

    static func fit(points: [RingPoint], initial: Homography, centerX: Double, centerY: Double, scale: Double) -> Fit? {
        // Normalised coordinates: n = (p − c) / scale.
        let toNormal = Homography(h: [1 / scale, 0, -centerX / scale, 0, 1 / scale, -centerY / scale, 0, 0, 1])
        let fromNormal = Homography(h: [scale, 0, centerX, 0, scale, centerY, 0, 0, 1])
        guard var g = initial.after(fromNormal).normalized?.h else { return nil }
        var kept = points
        var rms = Double.infinity
        for round in 0..<4 {
            let normal = kept.map { (x: ($0.x - centerX) / scale, y: ($0.y - centerY) / scale, r: $0.radius) }
            guard normal.count >= 16, let solved = levenbergMarquardt(normal, start: g) else { return nil }
            g = solved
            // Residuals in working pixels: a face radius is about `scale` pixels.
            let residuals = normal.map { abs(residual($0, g) ?? .infinity) * scale }
            let sorted = residuals.sorted()
            let sigma = 1.4826 * sorted[sorted.count / 2]
            let limit = max(1.5, 3 * sigma)
            rms = (residuals.filter { $0 <= limit }.reduce(0) { $0 + $1 * $1 } / Double(max(1, residuals.filter { $0 <= limit }.count))).squareRoot()
            let next = zip(kept, residuals).filter { $0.1 <= limit }.map(\.0)
            if next.count == kept.count || round == 3 { kept = next; break }
            kept = next
        }
        return Fit(map: Homography(h: g + [1]).after(toNormal), inliers: kept, rmsPx: rms)
    }

    @inline(__always) private static func residual(_ p: (x: Double, y: Double, r: Double), _ g: [Double]) -> Double? {
        let w = g[6] * p.x + g[7] * p.y + 1
        guard abs(w) > 1e-9 else { return nil }
        let u = (g[0] * p.x + g[1] * p.y + g[2]) / w, v = (g[3] * p.x + g[4] * p.y + g[5]) / w
        return (u * u + v * v).squareRoot() - p.r
    }

    private static func cost(_ points: [(x: Double, y: Double, r: Double)], _ g: [Double]) -> Double {
        var sum = 0.0
        for p in points {
            guard let r = residual(p, g) else { return .infinity }
            sum += r * r
        }
        return sum
    }

    private static func levenbergMarquardt(_ points: [(x: Double, y: Double, r: Double)], start: [Double]) -> [Double]? {
        var g = Array(start.prefix(8))
        var current = cost(points, g)
        guard current.isFinite else { return nil }
        var lambda = 1e-3
        for _ in 0..<60 {
            var jtj = [Double](repeating: 0, count: 64), jtr = [Double](repeating: 0, count: 8)
            var row = [Double](repeating: 0, count: 8)
            for p in points {
                let w = g[6] * p.x + g[7] * p.y + 1
                let u = (g[0] * p.x + g[1] * p.y + g[2]) / w, v = (g[3] * p.x + g[4] * p.y + g[5]) / w
                let rho = max(1e-9, (u * u + v * v).squareRoot())
                let du = u / rho, dv = v / rho
                row[0] = du * p.x / w; row[1] = du * p.y / w; row[2] = du / w
                row[3] = dv * p.x / w; row[4] = dv * p.y / w; row[5] = dv / w
                row[6] = -(du * u + dv * v) * p.x / w; row[7] = -(du * u + dv * v) * p.y / w
                let r = rho - p.r
                for i in 0..<8 {
                    jtr[i] += row[i] * r
                    for j in i..<8 { jtj[i * 8 + j] += row[i] * row[j] }
                }
            }
            for i in 0..<8 { for j in 0..<i { jtj[i * 8 + j] = jtj[j * 8 + i] } }
            var improved = false
            for _ in 0..<8 {
                var damped = jtj
                for i in 0..<8 { damped[i * 8 + i] += lambda * jtj[i * 8 + i] + 1e-9 }
                guard let step = LinearSolver.solve(damped, jtr.map { -$0 }) else { lambda *= 10; continue }
                let candidate = zip(g, step).map { $0 + $1 }
                let next = cost(points, candidate)
                if next < current {
                    let relative = (current - next) / max(current, 1e-300)
                    g = candidate
                    current = next
                    lambda = max(1e-6, lambda / 3)
                    improved = true
                    if relative < 1e-10 { return g }
                    break
                }
                lambda *= 4
            }
            if !improved { break }
        }
        return g.allSatisfy(\.isFinite) ? g : nil
    }
}
