import ReelworkCore

// The Tennis module's surface as the pipeline uses it (the `swings` and `metrics` stages).
// Implementation files beside this one fill it in; keep these signatures.
//
// How a swing is found (DOMAIN.md, "Tennis (seed 004)"):
//   TrackKinematics   confident frames only; landmarks smoothed in time; torso length (local median);
//                     the dominant wrist's speed in torso lengths per second (time-aware differences)
//   PeakFinder        speed peaks ≥ SwingTuning.peakThreshold, ≥ 0.6 s apart (the higher one wins)
//   SwingPhases       the window and keyframes around each peak
//   ContactFinder     contact from the racket–ball closest approach, when both are detected
//   SwingClassifier   serve / forehand / backhand from the body at contact
//   SwingMeasurer     seed 004 SegmentMetrics, confidence, reasons for what cannot be measured
//   SwingJSON         `result.swings[i]`

/// A job's tennis options: `dominantHand` ("right"/"left", default right), `playerHeight` (metres,
/// optional: speeds in m/s when given). Sampling rate is the vision setting `sampleFps`.
public struct TennisOptions: Sendable, Equatable {
    public var dominantHand: Hand
    public var playerHeight: Double?

    public init(dominantHand: Hand = .right, playerHeight: Double? = nil) {
        self.dominantHand = dominantHand
        self.playerHeight = playerHeight
    }

    /// Throws `ReelworkError.invalidInput` naming the option and the problem.
    public static func parse(_ options: JSONValue) throws -> TennisOptions {
        try TennisOptionsParser.parse(options)
    }
}

/// One body landmark in frame pixels (BlazePose's 33, in BlazePose's order).
public struct Landmark: Sendable, Equatable {
    public var x: Double
    public var y: Double
    public var visibility: Double
    public init(x: Double, y: Double, visibility: Double) { (self.x, self.y, self.visibility) = (x, y, visibility) }
}

/// A box in frame pixels.
public struct Box: Sendable, Equatable {
    public var x1, y1, x2, y2: Double
    public var confidence: Double
    public init(x1: Double, y1: Double, x2: Double, y2: Double, confidence: Double) {
        (self.x1, self.y1, self.x2, self.y2, self.confidence) = (x1, y1, x2, y2, confidence)
    }
}

/// One sampled frame of one tracked player.
public struct PoseFrame: Sendable {
    public var time: Double
    public var landmarks: [Landmark]
    public init(time: Double, landmarks: [Landmark]) { (self.time, self.landmarks) = (time, landmarks) }
}

/// Balls and rackets the detector found in one sampled frame.
public struct ObjectFrame: Sendable {
    public var time: Double
    public var balls: [Box]
    public var rackets: [Box]
    public init(time: Double, balls: [Box], rackets: [Box]) { (self.time, self.balls, self.rackets) = (time, balls, rackets) }
}

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

public enum SwingDetector {
    /// The `swings` stage for one player's track (frames in time order).
    public static func detect(track: [PoseFrame], objects: [ObjectFrame], options: TennisOptions) -> [SwingCandidate] {
        SwingCandidateFinder.find(track: track, objects: objects, options: options)
    }
}

public enum SwingMetricsCalculator {
    /// The `metrics` stage for one swing.
    public static func measure(_ swing: SwingCandidate, track: [PoseFrame], options: TennisOptions) -> Swing {
        SwingMeasurer.measure(swing, track: track, options: options)
    }
}

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
