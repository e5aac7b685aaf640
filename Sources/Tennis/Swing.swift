import ReelworkCore

/// A swing with its metrics.
public struct Swing: Sendable, Equatable {
    public var type: SwingType
    public var startTime: Double
    public var endTime: Double
    /// 0–1: the chance the swing is right (real, contact within 2 frames, right type), calibrated
    /// on the accuracy benchmark (`SwingConfidence`).
    public var confidence: Double
    public var keyFrameTimes: KeyFrameTimes
    public var contactSource: ContactSource
    public var metrics: SwingMetrics
    /// Why a metric is null, by metric name.
    public var unavailable: [String: String]
    /// Why a person should look at this swing; empty when nothing is in doubt.
    public var review: [SwingReview]
    /// Frames around contact without the racket wrist (an input to `confidence`; not in the JSON).
    var missingAtContact = 0

    public init(type: SwingType, startTime: Double, endTime: Double, confidence: Double, keyFrameTimes: KeyFrameTimes,
                contactSource: ContactSource, metrics: SwingMetrics, unavailable: [String: String], review: [SwingReview] = []) {
        (self.type, self.startTime, self.endTime, self.confidence) = (type, startTime, endTime, confidence)
        (self.keyFrameTimes, self.contactSource, self.metrics, self.unavailable) = (keyFrameTimes, contactSource, metrics, unavailable)
        self.review = review
    }

    /// `result.swings[i]`: `type`, `startTime`, `endTime`, `confidence`, `keyFrameTimes` {preparation,
    /// backswing, contact, followThrough, recovery}, `metrics` {peakWristSpeed, shoulderTurn,
    /// contactHeight, followThrough, trackingQuality}, `unavailable` {metric: reason}, `review`
    /// [{code, message}].
    public func json() -> JSONValue {
        SwingJSON.encode(self)
    }
}
