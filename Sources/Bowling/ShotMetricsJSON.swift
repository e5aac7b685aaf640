import Foundation
import ReelworkCore
import SportKit

/// One point of a shot's reported path.
public struct TrajectoryPoint: Sendable, Equatable {
    public var t: Double
    /// Contact point, image pixels.
    public var x: Double
    public var y: Double
    public var board: Double?
    public var distanceFt: Double?
    /// "release" (behind the foul line), "skid" (before the breakpoint), "hook" (after it); nil without calibration.
    public var phase: String?
    public var interpolated: Bool
}

extension ShotMetrics {
    /// `result.shots[i]`, camelCase keys, nulls as JSON null. Rounded to what the measurement can
    /// support: times to the millisecond, pixels to 0.1, boards, feet, speeds and degrees to 0.01.
    public func json() -> JSONValue {
        var fields: [String: JSONValue] = [
            "shotNumber": .number(Double(shotNumber)),
            "startTime": Self.number(startTime, places: 3),
            "endTime": Self.number(endTime, places: 3),
            "launchSpeed": Self.number(launchSpeed, places: 2),
            "impactSpeed": Self.number(impactSpeed, places: 2),
            "foulLineBoard": Self.number(foulLineBoard, places: 2),
            "arrowBoard": Self.number(arrowBoard, places: 2),
            "breakpointBoard": Self.number(breakpointBoard, places: 2),
            "breakpointDistance": Self.number(breakpointDistance, places: 2),
            "pocketBoard": Self.number(pocketBoard, places: 2),
            "pocketOffset": Self.number(pocketOffset, places: 2),
            "entryAngle": Self.number(entryAngle, places: 2),
            "revRate": Self.number(revRate, places: 1),
            "revCategory": revCategory.map { .string($0.rawValue) } ?? .null,
            "strikeProbability": Self.number(strikeProbability, places: 3),
            "result": result.map { .string($0.rawValue) } ?? .null,
            "confidence": Self.number(confidence, places: 3),
        ]
        fields["flags"] = .array(flags.map(\.json))
        fields["unavailable"] = .object(unavailable.mapValues { .string($0) })
        fields["trajectory"] = .array(trajectory.map { p in
            .object([
                "t": Self.number(p.t, places: 3),
                "x": Self.number(p.x, places: 1),
                "y": Self.number(p.y, places: 1),
                "board": Self.number(p.board, places: 2),
                "distanceFt": Self.number(p.distanceFt, places: 2),
                "phase": p.phase.map { .string($0) } ?? .null,
                "interpolated": .bool(p.interpolated),
            ])
        })
        return .object(fields)
    }

    /// Non-finite numbers become null: JSON has no NaN.
    static func number(_ value: Double?, places: Int) -> JSONValue {
        guard let value, value.isFinite else { return .null }
        let scale = pow(10, Double(places))
        return .number((value * scale).rounded() / scale)
    }
}
