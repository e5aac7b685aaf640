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

    /// `samples`: (time s, angle rad), in time order. The angle is unwrapped assuming the marker
    /// turns less than 180° between sightings; the rate is the least-squares slope of angle over time.
    static func estimate(_ samples: [(time: Double, angle: Double)]) -> Outcome {
        guard samples.count >= 3 else { return .notEnoughRotation }
        var unwrapped = [samples[0].angle]
        for i in 1..<samples.count {
            var step = (samples[i].angle - samples[i - 1].angle).truncatingRemainder(dividingBy: 2 * .pi)
            if step > .pi { step -= 2 * .pi } else if step <= -.pi { step += 2 * .pi }
            unwrapped.append(unwrapped[i - 1] + step)
        }
        let observed = ((unwrapped.max() ?? 0) - (unwrapped.min() ?? 0)) * 180 / .pi
        guard observed >= minRotationDegrees,
              let fit = LeastSquares.line(samples.map(\.time), unwrapped) else { return .notEnoughRotation }
        return .rpm(abs(fit.slope) / (2 * .pi) * 60)
    }
}
