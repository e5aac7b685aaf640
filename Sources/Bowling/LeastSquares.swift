import SportMath

/// Straight-line and parabola fits for the metrics (DOMAIN defines speeds and entry angle as
/// least-squares slopes).
enum LeastSquares {
    /// y = slope·x + intercept; nil with fewer than two distinct x.
    static func line(_ xs: [Double], _ ys: [Double]) -> (slope: Double, intercept: Double)? {
        LineFit(xs, ys).map { ($0.slope, $0.intercept) }
    }

    /// y = a·x² + b·x + c; nil with fewer than three distinct x.
    static func parabola(_ xs: [Double], _ ys: [Double]) -> (a: Double, b: Double, c: Double)? {
        QuadraticFit(xs, ys).map { ($0.a, $0.b, $0.c) }
    }
}
