import Foundation

/// Gaussian smoothing of samples by their times, not their indices, so any sampling rate (and an
/// uneven one) gets the same smoothing in seconds.
enum TimeSmoothing {
    /// Each value becomes the Gaussian-weighted mean (σ = `sigma` s, cut at 3σ) of the values in
    /// `range` around it. Deterministic: weights depend only on the times.
    static func smooth(_ values: [PixelPoint], times: [Double], range: Range<Int>, sigma: Double) -> [PixelPoint] {
        guard sigma > 0 else { return Array(values[range]) }
        let reach = 3 * sigma
        return range.map { i in
            var sum = PixelPoint.zero, weights = 0.0
            var j = i
            while j > range.lowerBound, times[i] - times[j - 1] <= reach { j -= 1 }
            while j < range.upperBound, times[j] - times[i] <= reach {
                let u = (times[j] - times[i]) / sigma
                let w = exp(-0.5 * u * u)
                sum = sum + values[j] * w
                weights += w
                j += 1
            }
            return weights > 0 ? sum * (1 / weights) : values[i]
        }
    }
}
