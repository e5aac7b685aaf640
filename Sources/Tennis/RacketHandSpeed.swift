import Foundation
import Pictures
import ReelworkCore

/// The racket hand's speed (the result's `peakWristSpeed`) in words a coach reads: km/h (and m/s)
/// when the job knew the player's height (`playerHeight`, so the result is in m/s); otherwise
/// the swing's share of the same player's fastest swing in the clip, since torso lengths per
/// second mean nothing on court.
public enum RacketHandSpeed {
    /// The key `annotated` adds to each swing: its speed ÷ the fastest of its player's swings, 0–1.
    public static let shareKey = "shareOfFastestSwing"

    /// `swings` with `shareKey` on each that has a speed, against the fastest swing of the same
    /// player (`trackId`) in the same unit.
    public static func annotated(_ swings: [JSONValue]) -> [JSONValue] {
        func group(_ swing: JSONValue) -> String {
            "\(swing["trackId"]?.number ?? -1)|\(ResultValues.text(swing, "metrics", "peakWristSpeedUnit") ?? "")"
        }
        var fastest: [String: Double] = [:]
        for swing in swings {
            if let speed = speed(swing), speed > 0 { fastest[group(swing)] = max(fastest[group(swing)] ?? 0, speed) }
        }
        return swings.map { swing in
            guard case .object(var fields) = swing, let speed = speed(swing), let best = fastest[group(swing)] else { return swing }
            fields[shareKey] = .number(speed / best)
            return .object(fields)
        }
    }

    public static func speed(_ swing: JSONValue) -> Double? {
        ResultValues.number(swing, "metrics", "peakWristSpeed").flatMap { $0.isFinite ? $0 : nil }
    }

    /// Whether the swing's speed is in metres per second (the player's height was given).
    public static func isMeasured(_ swing: JSONValue) -> Bool {
        ResultValues.text(swing, "metrics", "peakWristSpeedUnit") == "m/s"
    }

    public static func share(_ swing: JSONValue) -> Double? { swing[shareKey]?.number }

    /// "84 km/h (23.4 m/s)".
    public static func kilometresPerHour(_ metresPerSecond: Double) -> String {
        String(format: "%.0f km/h (%.1f m/s)", metresPerSecond * 3.6, metresPerSecond)
    }

    /// "92 % of fastest swing", or "fastest swing" for the fastest itself.
    public static func relative(_ share: Double) -> String {
        share >= 0.9995 ? "fastest swing" : String(format: "%.0f %% of fastest swing", share * 100)
    }

    /// One swing's speed: in km/h, else against the player's fastest swing, else "–".
    public static func text(_ swing: JSONValue) -> String {
        guard let speed = speed(swing) else { return ResultValues.missing }
        if isMeasured(swing) { return kilometresPerHour(speed) }
        return share(swing).map(relative) ?? ResultValues.missing
    }

    /// The report's lines on speed over `swings` (annotated): the mean and the fastest in km/h
    /// for those measured in m/s; the mean share of the fastest for the others, with how to get km/h.
    public static func totals(_ swings: [JSONValue]) -> [Total] {
        let measured = swings.filter(isMeasured).compactMap(speed)
        let shares = swings.filter { !isMeasured($0) }.compactMap(share)
        var totals: [Total] = []
        if let mean = ResultValues.mean(measured), let fastest = measured.max() {
            totals.append(Total("Racket-hand speed (mean)", kilometresPerHour(mean)))
            totals.append(Total("Racket-hand speed (fastest)", kilometresPerHour(fastest)))
        }
        if let mean = ResultValues.mean(shares) {
            let which = measured.isEmpty ? "" : " (\(shares.count) swings without the player's height)"
            totals.append(Total("Racket-hand speed (mean)\(which)", String(format: "%.0f %% of the player's fastest swing", mean * 100)))
            totals.append(Total("Speeds in km/h", "give the player's height (option playerHeight, metres)"))
        }
        return totals.isEmpty ? [Total("Racket-hand speed (mean)", ResultValues.missing)] : totals
    }
}
