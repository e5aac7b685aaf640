/// A swing found by the `swings` stage (type, window, keyframes), before its metrics.
public struct SwingCandidate: Sendable, Equatable {
    public var type: SwingType
    /// The window around the wrist-speed peak, absolute seconds (= preparation and recovery).
    public var startTime: Double
    public var endTime: Double
    public var keyFrameTimes: KeyFrameTimes
    /// Where contact came from: the racket–ball closest approach, or the wrist-speed peak.
    public var contactSource: ContactSource
    /// The sampled frame where the dominant wrist was fastest, and that speed in torso lengths/s.
    public var peakTime: Double
    public var peakSpeed: Double
    /// The threshold that speed was held to: `SwingTuning.peakThreshold`, or less where the wrist was
    /// unsure or missing around its fastest moment (`SwingTuning.peakThreshold(span:)`).
    public var peakThreshold: Double
    /// How much the peak stands out of its window, 0–1: 1 − (faster window edge's speed) / peak.
    public var prominence: Double

    public init(type: SwingType, startTime: Double, endTime: Double, keyFrameTimes: KeyFrameTimes, contactSource: ContactSource,
                peakTime: Double, peakSpeed: Double, peakThreshold: Double = SwingTuning.peakThreshold, prominence: Double) {
        (self.type, self.startTime, self.endTime, self.keyFrameTimes) = (type, startTime, endTime, keyFrameTimes)
        (self.contactSource, self.peakTime, self.peakSpeed, self.prominence) = (contactSource, peakTime, peakSpeed, prominence)
        self.peakThreshold = peakThreshold
    }
}
