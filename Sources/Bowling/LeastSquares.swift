import SportMath

/// Straight-line and parabola fits for the metrics (DOMAIN defines speeds and entry angle as
/// least-squares slopes).
enum LeastSquares {
    /// y = slope·x + intercept; nil with fewer than two distinct x.
    static func line(_ xs: [Double], _ ys: [Double]) -> (slope: Double, intercept: Double)? {
        let n = Double(xs.count)
        guard xs.count >= 2, xs.count == ys.count else { return nil }
        let meanX = xs.reduce(0, +) / n, meanY = ys.reduce(0, +) / n
        var sxx = 0.0, sxy = 0.0
        for i in xs.indices {
            sxx += (xs[i] - meanX) * (xs[i] - meanX)
            sxy += (xs[i] - meanX) * (ys[i] - meanY)
        }
        guard sxx > 1e-12 else { return nil }
        let slope = sxy / sxx
        return slope.isFinite ? (slope, meanY - slope * meanX) : nil
    }

    /// y = a·x² + b·x + c; nil with fewer than three distinct x.
    static func parabola(_ xs: [Double], _ ys: [Double]) -> (a: Double, b: Double, c: Double)? {
        guard xs.count >= 3, xs.count == ys.count else { return nil }
        // Centred x keeps the normal equations well conditioned.
        let mean = xs.reduce(0, +) / Double(xs.count)
        var s = [Double](repeating: 0, count: 5), t = [Double](repeating: 0, count: 3)
        for i in xs.indices {
            let x = xs[i] - mean
            var power = 1.0
            for k in 0..<5 {
                s[k] += power
                if k < 3 { t[k] += power * ys[i] }
                power *= x
            }
        }
        guard let sol = LinearSolver.solve([s[4], s[3], s[2], s[3], s[2], s[1], s[2], s[1], s[0]], [t[2], t[1], t[0]])
        else { return nil }
        let (a, b, c) = (sol[0], sol[1], sol[2])
        // Undo the centring: a(x−m)² + b(x−m) + c.
        return (a, b - 2 * a * mean, a * mean * mean - b * mean + c)
    }
}
