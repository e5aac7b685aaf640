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
        QuadraticFit(xs, ys).map { ($0.a, $0.b, $0.c) }
    }
}
