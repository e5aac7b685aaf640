/// A plane-to-plane perspective map (3×3, row-major, h[8] = 1 after fitting): bowling maps the
/// image to the lane with one, archery the image to the target face. Shared here so both sports use
/// the same fit and the same horizon rules.
public struct Homography: Sendable, Equatable {
    public var h: [Double]

    /// The map with these nine entries, row-major (nothing is normalised or checked).
    public init(h: [Double]) { self.h = h }

    /// The map taking each `source[i]` to `target[i]` (exactly four pairs): the direct linear
    /// transform with h33 = 1, an 8×8 system. Nil when the points are degenerate (three in a line,
    /// repeated points).
    public static func fitting(from source: [(x: Double, y: Double)], to target: [(x: Double, y: Double)]) -> Homography? {
        guard source.count == 4, target.count == 4 else { return nil }
        var a = [Double](), b = [Double]()
        a.reserveCapacity(64)
        for i in 0..<4 {
            let (x, y) = source[i], (u, v) = target[i]
            a += [x, y, 1, 0, 0, 0, -u * x, -u * y]
            b.append(u)
            a += [0, 0, 0, x, y, 1, -v * x, -v * y]
            b.append(v)
        }
        guard let solution = LinearSolver.solve(a, b) else { return nil }
        return Homography(h: solution + [1])
    }

    /// Nil on the horizon line (w ≈ 0), where the point has no image.
    public func apply(_ x: Double, _ y: Double) -> (x: Double, y: Double)? {
        let w = h[6] * x + h[7] * y + h[8]
        guard abs(w) > 1e-12 else { return nil }
        let u = (h[0] * x + h[1] * y + h[2]) / w, v = (h[3] * x + h[4] * y + h[5]) / w
        return u.isFinite && v.isFinite ? (u, v) : nil
    }

    /// The homogeneous scale at (x, y); its sign tells which side of the horizon the point is on.
    public func w(_ x: Double, _ y: Double) -> Double { h[6] * x + h[7] * y + h[8] }

    /// The map back (the adjugate over the determinant); nil when the map is singular.
    public var inverse: Homography? {
        let m = h
        let c00 = m[4] * m[8] - m[5] * m[7], c01 = m[5] * m[6] - m[3] * m[8], c02 = m[3] * m[7] - m[4] * m[6]
        let det = m[0] * c00 + m[1] * c01 + m[2] * c02
        guard det.isFinite, abs(det) > 1e-15 else { return nil }
        let adjugate = [
            c00, m[2] * m[7] - m[1] * m[8], m[1] * m[5] - m[2] * m[4],
            c01, m[0] * m[8] - m[2] * m[6], m[2] * m[3] - m[0] * m[5],
            c02, m[1] * m[6] - m[0] * m[7], m[0] * m[4] - m[1] * m[3],
        ]
        return Homography(h: adjugate.map { $0 / det })
    }
}
