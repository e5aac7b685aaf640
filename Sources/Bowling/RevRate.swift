/// Seed 000's rev-rate categories (boundaries from its `calculateRevCategory`).
public enum RevCategory: String, Sendable, Equatable {
    case stroker, tweener, cranker

    public init(rpm: Double) {
        switch rpm {
        case ..<300: self = .stroker
        case 300..<400: self = .tweener
        default: self = .cranker
        }
    }
}

/// Rev rate from the PAP marker's angle around the ball centre (DOMAIN "Rev rate").
enum RevRateEstimator {
    /// seed 003 `revRateMinRotation`, degrees.
    static let minRotationDegrees = 45.0

    enum Outcome: Equatable {
        case rpm(Double)
        /// Too few marker sightings, or under 45° of rotation seen.
        case notEnoughRotation
    }

    /// `samples`: (time s, angle rad), in time order. Each angle is unwrapped to the turn nearest
    /// where the marker should be: after the previous sighting (assuming under 180° between them)
    /// until three sightings give a rate, then where the least-squares line through the sightings
    /// so far puts it. Far down the lane the marker is seen only now and then, several frames and
    /// more than half a turn apart: unwrapping those by the previous sighting alone lost turns and
    /// read the rate a quarter low. The rate is the slope of the final line.
    static func estimate(_ samples: [(time: Double, angle: Double)]) -> Outcome {
        guard samples.count >= 3 else { return .notEnoughRotation }
        var unwrapped = [samples[0].angle]
        var line = RunningLine()
        line.add(samples[0].time, samples[0].angle)
        for i in 1..<samples.count {
            let expected = line.count >= 3 ? line.value(at: samples[i].time) ?? unwrapped[i - 1] : unwrapped[i - 1]
            var step = (samples[i].angle - expected).truncatingRemainder(dividingBy: 2 * .pi)
            if step > .pi { step -= 2 * .pi } else if step <= -.pi { step += 2 * .pi }
            unwrapped.append(expected + step)
            line.add(samples[i].time, unwrapped[i])
        }
        let observed = ((unwrapped.max() ?? 0) - (unwrapped.min() ?? 0)) * 180 / .pi
        guard observed >= minRotationDegrees,
              let fit = LeastSquares.line(samples.map(\.time), unwrapped) else { return .notEnoughRotation }
        return .rpm(abs(fit.slope) / (2 * .pi) * 60)
    }
}

/// A least-squares line kept as running sums, so each new point updates the fit in O(1).
private struct RunningLine {
    private(set) var count = 0
    private var sumX = 0.0, sumY = 0.0, sumXX = 0.0, sumXY = 0.0

    mutating func add(_ x: Double, _ y: Double) {
        count += 1
        sumX += x; sumY += y; sumXX += x * x; sumXY += x * y
    }

    /// The fitted value at x; nil while every x is the same.
    func value(at x: Double) -> Double? {
        let n = Double(count), denominator = n * sumXX - sumX * sumX
        guard count >= 2, abs(denominator) > 1e-12 * max(1, n * sumXX) else { return nil }
        let slope = (n * sumXY - sumX * sumY) / denominator
        return (sumY - slope * sumX) / n + slope * x
    }
}
