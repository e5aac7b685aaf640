import Foundation

/// Gaussian smoothing of samples by their times, not their indices, so any sampling rate (and an
/// uneven one) gets the same smoothing in seconds.
enum TimeSmoothing {
    /// Each value becomes the Gaussian-weighted mean (σ = `sigma` s, cut at 3σ) of the trusted
    /// values in `range` around it (all of them when `trusted` is nil). A value with no trusted one
    /// within reach takes the nearest trusted value in time (the earlier on a tie), or stays as it is
    /// when `range` has none: an unsure landmark is carried over from where it was last seen rather
    /// than lending its wild place to the sums. Deterministic: weights depend only on the times.
    static func smooth(_ values: [PixelPoint], times: [Double], range: Range<Int>, sigma: Double,
                       trusted: [Bool]? = nil) -> [PixelPoint] {
        func isTrusted(_ j: Int) -> Bool { trusted?[j] ?? true }
        let reach = 3 * max(0, sigma)
        // The last trusted index at or before each index, and the first at or after (two passes).
        var before = [Int?](repeating: nil, count: range.count), after = [Int?](repeating: nil, count: range.count)
        var last: Int?
        for i in range {
            if isTrusted(i) { last = i }
            before[i - range.lowerBound] = last
        }
        last = nil
        for i in range.reversed() {
            if isTrusted(i) { last = i }
            after[i - range.lowerBound] = last
        }
        return range.map { i in
            var sum = PixelPoint.zero, weights = 0.0
            var j = i
            while j > range.lowerBound, times[i] - times[j - 1] <= reach { j -= 1 }
            while j < range.upperBound, times[j] - times[i] <= reach {
                if isTrusted(j) {
                    let u = sigma > 0 ? (times[j] - times[i]) / sigma : 0
                    let w = exp(-0.5 * u * u)
                    sum = sum + values[j] * w
                    weights += w
                }
                j += 1
            }
            if weights > 0 { return sum * (1 / weights) }
            switch (before[i - range.lowerBound], after[i - range.lowerBound]) {
            case let (b?, a?): return times[i] - times[b] <= times[a] - times[i] ? values[b] : values[a]
            case let (b?, nil): return values[b]
            case let (nil, a?): return values[a]
            case (nil, nil): return values[i]
            }
        }
    }
}
