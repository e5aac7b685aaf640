/// The kinds of stroke the classifier tells apart (an overhead smash counts as a serve).
public enum SwingType: String, Sendable, Equatable, CaseIterable {
    case forehand, backhand, serve
}

/// Where a swing's contact time came from.
public enum ContactSource: String, Sendable, Equatable {
    /// The frame where a detected ball was closest to a detected racket.
    case racketBall
    /// No usable ball and racket in the window: the frame where the dominant wrist was fastest.
    case wristPeak
}

/// Seed 004's five keyframes, absolute seconds from the start of the video, in this order
/// (each ≤ the next; two may fall on the same sampled frame when sampling is coarse).
public struct KeyFrameTimes: Sendable, Equatable {
    /// The window's start: the still frame before the racket is taken back.
    public var preparation: Double
    /// The end of the take-back: the slowest frame before the forward acceleration, where the wrist
    /// turns around at its furthest point back.
    public var backswing: Double
    public var contact: Double
    /// After contact, the first frame where the wrist is slower than half its peak speed.
    public var followThrough: Double
    /// The window's end: the first still frame after the swing.
    public var recovery: Double

    public init(preparation: Double, backswing: Double, contact: Double, followThrough: Double, recovery: Double) {
        (self.preparation, self.backswing, self.contact, self.followThrough, self.recovery) =
            (preparation, backswing, contact, followThrough, recovery)
    }

    /// In order: preparation, backswing, contact, followThrough, recovery.
    public var ordered: [Double] { [preparation, backswing, contact, followThrough, recovery] }
}

/// The unit of `peakWristSpeed`.
public enum SpeedUnit: String, Sendable, Equatable {
    case torsoLengthsPerSecond = "torso/s"
    case metresPerSecond = "m/s"
}

/// Seed 004's `SegmentMetrics` for one swing; nil where it could not be measured (see `Swing.unavailable`).
public struct SwingMetrics: Sendable, Equatable {
    /// The dominant wrist's highest speed in the window, in `peakWristSpeedUnit`.
    public var peakWristSpeed: Double?
    public var peakWristSpeedUnit: SpeedUnit
    /// Degrees between the shoulder line at backswing and at contact (in the image plane).
    public var shoulderTurn: Double?
    /// The wrist's height at contact as a share of the body's height: 0 at the ankles, 1 at the top of the head.
    public var contactHeight: Double?
    /// Degrees of arc the wrist sweeps around the dominant shoulder from contact to recovery.
    public var followThrough: Double?
    /// Share (0–1) of the window's sampled frames with confident wrist, shoulders and hips.
    public var trackingQuality: Double

    public init(peakWristSpeed: Double?, peakWristSpeedUnit: SpeedUnit, shoulderTurn: Double?, contactHeight: Double?,
                followThrough: Double?, trackingQuality: Double) {
        (self.peakWristSpeed, self.peakWristSpeedUnit, self.shoulderTurn) = (peakWristSpeed, peakWristSpeedUnit, shoulderTurn)
        (self.contactHeight, self.followThrough, self.trackingQuality) = (contactHeight, followThrough, trackingQuality)
    }
}
