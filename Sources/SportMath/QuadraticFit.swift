/// Least-squares parabola z = a·t² + b·t + c: a bowling ball's board over distance, a basketball's
/// height over time (or its sideways drift when it flies toward or away from the camera).
public struct QuadraticFit: Sendable, Equatable {
    public let a: Double
    public let b: Double
    public let c: Double

    /// nil with fewer than three samples, mismatched lists, or fewer than three distinct t.
    public init?(_ t: [Double], _ z: [Double]) {
        guard t.count >= 3, t.count == z.count else { return nil }
        // Centred t keeps the normal equations (over the powers t⁰…t⁴) well conditioned.
        let mean = t.reduce(0, +) / Double(t.count)
        var s = [Double](repeating: 0, count: 5), r = [Double](repeating: 0, count: 3)
        for (ti, zi) in zip(t, z) {
            let x = ti - mean
            var power = 1.0
            for k in 0..<5 {
                s[k] += power
                if k < 3 { r[k] += power * zi }
                power *= x
            }
        }
        guard let solution = LinearSolver.solve([s[4], s[3], s[2], s[3], s[2], s[1], s[2], s[1], s[0]], [r[2], r[1], r[0]]) else { return nil }
        let (a, b, c) = (solution[0], solution[1], solution[2])
        // Undo the centring: a(t−m)² + b(t−m) + c.
        (self.a, self.b, self.c) = (a, b - 2 * a * mean, a * mean * mean - b * mean + c)
    }

    public func at(_ t: Double) -> Double { (a * t + b) * t + c }
}
