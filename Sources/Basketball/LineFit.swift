/// Least-squares line z = slope · t + intercept.
struct LineFit: Sendable {
    var slope: Double
    var intercept: Double

    init?(_ t: [Double], _ z: [Double]) {
        let n = Double(t.count)
        guard t.count >= 2, t.count == z.count else { return nil }
        let meanT = t.reduce(0, +) / n, meanZ = z.reduce(0, +) / n
        var stt = 0.0, stz = 0.0
        for i in t.indices {
            stt += (t[i] - meanT) * (t[i] - meanT)
            stz += (t[i] - meanT) * (z[i] - meanZ)
        }
        guard stt > 0 else { return nil }
        slope = stz / stt
        intercept = meanZ - slope * meanT
    }

    func at(_ t: Double) -> Double { slope * t + intercept }
}

/// A ballistic arc in image pixels: x moves uniformly, y falls with the gravity the rim's scale
/// gives (image y grows downwards). Gravity is fixed, not fitted, so a few points already predict
/// well beyond themselves.
struct BallisticFit: Sendable {
    static let gravityFeetPerSecondSquared = 32.174

    let gravity: Double
    let origin: Double
    let x: LineFit
    /// y − ½·g·τ² as a line in τ = t − origin.
    let lifted: LineFit

    init?(_ points: ArraySlice<BallPoint>, gravity: Double) {
        guard let first = points.first else { return nil }
        origin = first.t
        self.gravity = gravity
        let times = points.map { $0.t - first.t }
        guard let x = LineFit(times, points.map(\.x)),
              let lifted = LineFit(times, zip(times, points).map { τ, p in p.y - 0.5 * gravity * τ * τ }) else { return nil }
        (self.x, self.lifted) = (x, lifted)
    }

    func position(at t: Double) -> (x: Double, y: Double) {
        let τ = t - origin
        return (x.at(τ), lifted.at(τ) + 0.5 * gravity * τ * τ)
    }

    /// Image-y velocity (negative: going up).
    func verticalVelocity(at t: Double) -> Double { lifted.slope + gravity * (t - origin) }
    var horizontalVelocity: Double { x.slope }

    func residual(_ p: BallPoint) -> Double {
        let predicted = position(at: p.t)
        return max(abs(predicted.x - p.x), abs(predicted.y - p.y))
    }
}

/// Least-squares parabola y = a·t² + b·t + c: the free fit whose `a` is compared with gravity.
enum ParabolaFit {
    static func curvature(_ points: ArraySlice<BallPoint>) -> Double? {
        guard points.count >= 5, let first = points.first else { return nil }
        var s = [Double](repeating: 0, count: 5), r = [Double](repeating: 0, count: 3)
        for p in points {
            let t = p.t - first.t
            var power = 1.0
            for k in 0..<5 { s[k] += power; if k < 3 { r[k] += power * p.y }; power *= t }
        }
        // Normal equations [s4 s3 s2; s3 s2 s1; s2 s1 s0] · [a b c] = [r2 r1 r0], by Cramer's rule.
        func det(_ m: [[Double]]) -> Double {
            m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
                + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
        }
        let m = [[s[4], s[3], s[2]], [s[3], s[2], s[1]], [s[2], s[1], s[0]]]
        let d = det(m)
        guard d != 0, d.isFinite else { return nil }
        let ma = [[r[2], s[3], s[2]], [r[1], s[2], s[1]], [r[0], s[1], s[0]]]
        return det(ma) / d
    }
}
