/// Least-squares parabola z = a·t² + b·t + c (a ball's height over time, or its sideways drift
/// when it flies toward or away from the camera).
public struct QuadraticFit: Sendable, Equatable {
    public let a: Double
    public let b: Double
    public let c: Double

    /// nil with fewer than three samples, mismatched lists, or times that cannot fix a parabola
    /// (all equal, or only two distinct).
    public init?(_ t: [Double], _ z: [Double]) {
        guard t.count >= 3, t.count == z.count else { return nil }
        // Normal equations over the powers t⁰…t⁴, solved by the shared solver.
        var s = [Double](repeating: 0, count: 5), r = [Double](repeating: 0, count: 3)
        for (ti, zi) in zip(t, z) {
            var power = 1.0
            for k in 0..<5 {
                s[k] += power
                if k < 3 { r[k] += power * zi }
                power *= ti
            }
        }
        guard let x = LinearSolver.solve([s[4], s[3], s[2], s[3], s[2], s[1], s[2], s[1], s[0]], [r[2], r[1], r[0]]) else { return nil }
        (a, b, c) = (x[0], x[1], x[2])
    }

    public func at(_ t: Double) -> Double { (a * t + b) * t + c }
}
