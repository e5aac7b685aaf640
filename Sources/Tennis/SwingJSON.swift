import Foundation
import ReelworkCore
import SportKit

/// `result.swings[i]` as JSON: times to the millisecond, speeds to 0.01, angles to 0.1°, shares to 0.001.
enum SwingJSON {
    static func encode(_ swing: Swing) -> JSONValue {
        let k = swing.keyFrameTimes, m = swing.metrics
        return .object([
            "type": .string(swing.type.rawValue),
            "startTime": number(swing.startTime, 1000),
            "endTime": number(swing.endTime, 1000),
            "confidence": number(swing.confidence, 1000),
            "contactSource": .string(swing.contactSource.rawValue),
            "keyFrameTimes": .object([
                "preparation": number(k.preparation, 1000),
                "backswing": number(k.backswing, 1000),
                "contact": number(k.contact, 1000),
                "followThrough": number(k.followThrough, 1000),
                "recovery": number(k.recovery, 1000)
            ]),
            "metrics": .object([
                "peakWristSpeed": number(m.peakWristSpeed, 100),
                "peakWristSpeedUnit": .string(m.peakWristSpeedUnit.rawValue),
                "shoulderTurn": number(m.shoulderTurn, 10),
                "contactHeight": number(m.contactHeight, 1000),
                "followThrough": number(m.followThrough, 10),
                "trackingQuality": number(m.trackingQuality, 1000)
            ]),
            "unavailable": .object(swing.unavailable.mapValues { .string($0) }),
            "review": .array(swing.review.map(\.json))
        ])
    }

    /// Rounded to 1/scale; nil and non-finite values are null (never a made-up number).
    static func number(_ value: Double?, _ scale: Double) -> JSONValue {
        guard let value, value.isFinite else { return .null }
        return .number((value * scale).rounded() / scale)
    }
}
