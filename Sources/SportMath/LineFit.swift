/// Least-squares line z = slope · t + intercept (z on t, not orthogonal: t is exact, a time).
public struct LineFit: Sendable {
    public let slope: Double
    public let intercept: Double

    /// nil with fewer than two samples, mismatched lists, all t alike, or a slope that is not finite.
    public init?(_ t: [Double], _ z: [Double]) {
        let n = Double(t.count)
        guard t.count >= 2, t.count == z.count else { return nil }
        let meanT = t.reduce(0, +) / n, meanZ = z.reduce(0, +) / n
        var stt = 0.0, stz = 0.0
        for i in t.indices {
            stt += (t[i] - meanT) * (t[i] - meanT)
            stz += (t[i] - meanT) * (z[i] - meanZ)
        }
        guard stt > 1e-12, (stz / stt).isFinite else { return nil }
        slope = stz / stt
        intercept = meanZ - slope * meanT
    }

    public func at(_ t: Double) -> Double { slope * t + intercept }
}
