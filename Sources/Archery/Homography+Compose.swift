import SportMath

extension Homography {
    /// `self` after `other`: the map x ↦ self(other(x)).
    func after(_ other: Homography) -> Homography {
        let a = h, b = other.h
        var m = [Double](repeating: 0, count: 9)
        for row in 0..<3 {
            for column in 0..<3 {
                m[row * 3 + column] = a[row * 3] * b[column] + a[row * 3 + 1] * b[3 + column] + a[row * 3 + 2] * b[6 + column]
            }
        }
        return Homography(h: m)
    }

    /// Scaled so h[8] = 1 (nil when h[8] is 0, a map that sends the origin to infinity).
    var normalized: Homography? {
        guard abs(h[8]) > 1e-15 else { return nil }
        let s = h[8]
        let m = h.map { $0 / s }
        return m.allSatisfy(\.isFinite) ? Homography(h: m) : nil
    }
}
