/// The detector's thresholds, with why each has its value. Speeds are in torso lengths per second
/// (shoulder midpoint to hip midpoint, ≈ 0.29 × body height ≈ 0.5 m for a 1.75 m player).
public enum SwingTuning {
    /// A wrist-speed peak below this is not a swing. A groundstroke's wrist covers ~1.5 m in the
    /// ~0.25 s around contact (≥ 6 m/s, ≈ 12 torso/s instantaneous); sampled at 10 fps, a central
    /// difference averages over 0.2 s, so real swings measure ~8–15 torso/s. Walking (1.4 m/s ≈
    /// 3 torso/s), shuffling between shots and pose jitter (< 1 torso/s) stay well below 6.
    /// Limitation: a sprinting player (4–5 m/s) can reach it too, since speed is not relative to the body.
    public static let peakThreshold = 6.0
    /// The threshold a speed differenced over `span` seconds must reach. Across a gap in the
    /// wrist's confident frames (motion blur at the fastest moment, a run of frames without a
    /// pose) the difference is the average over the whole gap, and a stroke's wrist is fast for
    /// only about `referenceSpan` (`peakThreshold` is set for a difference over that long: two
    /// intervals at 10 samples a second), so its average over a longer gap is lower by about the
    /// gap's share: the threshold falls as `referenceSpan / span`, never below
    /// `minBridgedThresholdShare` of `peakThreshold` (walking arms, jitter stay below that).
    public static func peakThreshold(span: Double) -> Double {
        guard span > referenceSpan else { return peakThreshold }
        return peakThreshold * max(minBridgedThresholdShare, referenceSpan / span)
    }
    public static let referenceSpan = 0.2
    public static let minBridgedThresholdShare = 0.5
    /// Peaks closer than this are one swing (the higher peak is kept): a rally's strokes are ≥ 1 s
    /// apart, while one stroke can show two peaks (take-back and forward swing, or a jittery peak).
    public static let minPeakSeparation = 0.6
    /// The window ends where the wrist is slower than this share of the peak ("still").
    public static let quietFraction = 0.25
    /// …or this far from the peak, whichever comes first (a stroke lasts ~1–1.5 s).
    public static let maxWindowBefore = 1.0
    public static let maxWindowAfter = 1.0
    /// A serve's contact is the wrist's highest sample within this many seconds of the speed peak:
    /// the arm's upward rush can peak in the image up to ~0.1 s before full reach, and a serve's
    /// wrist is fast for only ~0.2 s, so a wider reach would find the toss's slow top instead.
    public static let overheadReach = 0.15
    /// A racket wrist this close (torso lengths) to another person's wrist or elbow in the same frame
    /// is taken to be borrowed from them (`BorrowedLandmarks`). Two tracks of different people hold
    /// the same point only when the pose model copied it; BlazePose's jitter is a few hundredths.
    public static let borrowedLimbDistance = 0.15
    /// Travel, not a swing (`BodyTravel`): the hips' median speed within this many seconds of the
    /// peak is at least this share of the wrist's peak speed, and the wrist relative to the hips is
    /// slower than this share of `peakThreshold`. Walking arms swing at ~2 torso/s and jogging ones
    /// at ~4 around the body, a groundstroke's wrist at 8 or more.
    public static let travelReach = 0.5
    public static let travelShare = 0.3
    public static let travelRelativeShare = 0.75
    /// Review (`SwingReview`): the racket wrist should be seen in every frame this many sampled
    /// frames either side of contact (the contact tolerance); the track should start this
    /// long before contact (a take-back lasts 0.3–0.6 s) and end this long after it; a peak under
    /// this multiple of `peakThreshold` may be a practice swing.
    public static let reviewContactFrames = 2
    public static let reviewEdgeBefore = 0.5
    public static let reviewEdgeAfter = 0.3
    public static let reviewNearThreshold = 1.3
    /// Another person whose hips come within this many of the player's torso lengths of the
    /// player's hips within `reviewNearbyReach` seconds of contact is next to them.
    public static let reviewNearbyTorsos = 1.5
    public static let reviewNearbyReach = 0.5
    /// Follow-through keyframe: the first frame after contact slower than this share of the peak.
    public static let followThroughFraction = 0.5
    /// Position smoothing: a Gaussian in time with this σ (s). At 10 fps neighbours 0.1 s away get
    /// weight e^(−5.6) ≈ 0.004, so a stroke that lasts 2–3 samples is not blurred (σ = 0.04 s
    /// already cut a swing's measured peak by 3 %); at 30 fps and above it averages BlazePose's
    /// frame-to-frame jitter over about three frames (neighbours weigh 0.54, the next ones 0.09).
    public static let smoothingSigma = 0.03
    /// Consecutive confident frames further apart than this (or 2.5 sampling intervals, if longer)
    /// are not differenced: across a longer gap a stroke could have come and gone, or the person
    /// been someone else. Up to it, a stroke whose fastest part fell into the gap is still seen,
    /// at the lower threshold `peakThreshold(span:)` gives for a difference that long.
    public static let maxGap = 0.4
    /// The torso length used to normalise is the median over confident frames within ± this many
    /// seconds: one bad frame cannot change it, yet a player walking to the net (growing in the
    /// image) is still measured in their own torso lengths.
    public static let torsoMedianRadius = 2.5
    /// Racket–ball contact: least detector confidence for either box, and the largest centre
    /// distance (in racket box sizes) still counted as a hit rather than a ball passing by.
    public static let minObjectConfidence = 0.2
    public static let maxContactDistanceInRacketSizes = 1.5
    /// Racket–ball contact only where the detector saw at least this share of the swing window's
    /// samples (`ContactFinder`): one frame in a window says nothing of when the ball was closest.
    public static let minObjectCoverage = 0.8
    /// Torso length (shoulder midpoint to hip midpoint) as a share of standing height: shoulder
    /// height 0.818 H minus hip height 0.530 H (Drillis & Contini 1966 segment proportions, as
    /// reproduced in Winter, "Biomechanics and Motor Control of Human Movement", fig. 4.1).
    public static let torsoShareOfHeight = 0.288
}
