import Media
import ReelworkCore

// The Bowling module's surface as the pipeline uses it (the `ball` and `shot_metrics` stages).
// Implementation files beside this one fill it in; keep these signatures.

/// A job's bowling options, parsed and validated before any frame is decoded:
/// `hand`, `ballProfile` {`color` {h, s, v}, `colorTolerance`, `markerColor`}, `calibration`
/// (seed 000's `CalibrationProfile` fields, or `{"lanePoints": {...}}`).
public struct BowlingOptions: Sendable {
    public var hand: Hand
    public var ballProfile: BallProfile
    /// nil: no calibration; the trajectory is reported in pixels only.
    public var calibration: LaneCalibration?

    public init(hand: Hand = .right, ballProfile: BallProfile, calibration: LaneCalibration? = nil) {
        (self.hand, self.ballProfile, self.calibration) = (hand, ballProfile, calibration)
    }

    /// Throws `ReelworkError.invalidInput` for malformed options and `.needsPerson` for ones only a
    /// person can fix (invalid calibration geometry), each naming the option and the problem.
    public static func parse(_ options: JSONValue) throws -> BowlingOptions {
        guard case .object = options else {
            throw ReelworkError.invalidInput("bowling options must be an object with ballProfile")
        }
        try OptionKeys.check(options, known: ["hand", "ballProfile", "calibration", "pose"], sport: .bowling)
        switch options["pose"] {
        case nil, .null?, .bool?: break
        default: throw ReelworkError.invalidInput("option pose must be true or false (true: find the bowler's pose on sampled frames)")
        }
        return BowlingOptions(hand: try Hand.parse(options, key: "hand"),
                              ballProfile: try BallProfile.parse(options["ballProfile"]),
                              calibration: try LaneCalibration.parse(options["calibration"]))
    }
}

/// The `ball` stage: fed every decoded frame in order; finds, tracks and cuts the ball's path into shots.
public final class BallTracker {
    /// While this many first frames are looked at, a lane that matches the ball colour stops the job.
    static let laneCheckFrames = 10
    /// Share of the searched pixels matching the ball colour beyond which the lane itself must match:
    /// the largest ball seed 003 allows (50,000 px at 1080p) is under 3% of a 1080p frame.
    static let maxBallColorShare = 0.25

    private let detector: BallDetector
    private let path: BallPathTracker
    private let segmenter: ShotSegmenter
    private let frameRate: Double
    private var framesSeen = 0
    private var framesWithBall = 0
    private var lastTime = -Double.infinity
    /// Timestamps went backwards once: every time since is frame index / frame rate.
    private var usesFrameClock = false

    /// Throws `.needsPerson` when the calibration does not fit this frame size.
    public init(options: BowlingOptions, frameWidth: Int, frameHeight: Int, frameRate: Double) throws {
        if let calibration = options.calibration {
            try calibration.checkVisible(width: frameWidth, height: frameHeight)
            // A lane whose far end lies beyond the horizon has no region to search: say so, rather
            // than failing later with "Ball not detected".
            guard !calibration.searchPolygon().isEmpty else { throw ReelworkError.needsPerson(BowlingMessages.invalidCalibration) }
        }
        self.frameRate = frameRate.isFinite && frameRate > 0 ? frameRate : 30
        let calibration = options.calibration
        detector = BallDetector(profile: options.ballProfile, width: frameWidth, height: frameHeight,
                                searchPolygon: calibration?.searchPolygon(),
                                expectedRadius: calibration.map { lane in { x, y in lane.ballRadiusPixels(x: x, y: y) } })
        path = BallPathTracker(toLane: { x, y in calibration?.lanePoint(x: x, y: y) },
                               ballRadiusAt: { x, y in calibration?.ballRadiusPixels(x: x, y: y) })
        segmenter = ShotSegmenter(calibrated: calibration != nil, frameHeight: frameHeight)
    }

    /// One decoded frame (display orientation), its time in seconds and index. May throw
    /// `.needsPerson` (e.g. the ball's colour matches the lane).
    public func process(_ image: RGBImage, time: Double, frameIndex: Int) throws {
        detector.detect(image)
        framesSeen += 1
        if framesSeen <= Self.laneCheckFrames, detector.searchedPixels > 0, detector.matchedShare > Self.maxBallColorShare {
            throw ReelworkError.needsPerson(BowlingMessages.ballColorMatchesLane)
        }
        if !detector.candidates.isEmpty { framesWithBall += 1 }
        let step = path.step(detector.candidates, time: correctedTime(time, frameIndex: frameIndex), frameIndex: frameIndex,
                             mayAbandon: !segmenter.isShooting)
        if step.endedPath { segmenter.endPath() }
        segmenter.add(step.points, gap: step.gap)
    }

    /// Ends the last shot. Throws `.needsPerson` ("Ball not detected. …") when no ball was ever seen.
    public func finish() throws -> BallTracks {
        path.endPath()
        segmenter.endPath()
        guard framesWithBall > 0 else { throw ReelworkError.needsPerson(BowlingMessages.ballNotDetected) }
        return BallTracks(shots: segmenter.shots, framesWithBall: framesWithBall)
    }

    /// The frame's time, or frame index / frame rate once timestamps have gone backwards (seed 003
    /// "Frame Timestamp Errors"); points already held are re-timed the same way so a shot never mixes clocks.
    private func correctedTime(_ time: Double, frameIndex: Int) -> Double {
        // Equal timestamps (a duplicated frame) are not "backwards"; only an earlier one switches clocks.
        if !usesFrameClock, !(time.isFinite && time >= lastTime) {
            usesFrameClock = true
            let rate = frameRate
            segmenter.retime { Double($0) / rate }
        }
        let corrected = usesFrameClock ? Double(frameIndex) / frameRate : time
        lastTime = corrected
        return corrected
    }
}

/// What the `ball` stage found: each shot's tracked points.
public struct BallTracks: Sendable {
    public var shots: [ShotTrack]
    /// Frames in which a ball was detected.
    public var framesWithBall: Int

    public init(shots: [ShotTrack], framesWithBall: Int) {
        (self.shots, self.framesWithBall) = (shots, framesWithBall)
    }
}

/// The `shot_metrics` stage.
public enum ShotMetricsCalculator {
    public static func measure(_ tracks: BallTracks, options: BowlingOptions) -> [ShotMetrics] {
        tracks.shots.enumerated().map { i, track in
            var measurement = ShotMeasurement(track, number: i + 1, hand: options.hand,
                                              hasMarkerColor: options.ballProfile.markerColor != nil)
            return measurement.measure()
        }
    }
}

/// One shot's metrics, each nil with a reason in `unavailable` when it cannot be computed.
/// `result.shots[i]`: seed 000's `Shot` field names, plus `startTime`, `endTime`, `confidence`,
/// `flags`, `unavailable` {metric: reason} and `trajectory` [{t, x, y, board, distanceFt, phase}];
/// `json()` is in ShotMetricsJSON.swift.
public struct ShotMetrics: Sendable {
    public var shotNumber: Int
    public var startTime: Double
    public var endTime: Double
    /// mph.
    public var launchSpeed: Double?
    public var impactSpeed: Double?
    public var foulLineBoard: Double?
    public var arrowBoard: Double?
    public var breakpointBoard: Double?
    /// Feet past the foul line.
    public var breakpointDistance: Double?
    public var pocketBoard: Double?
    public var pocketOffset: Double?
    /// Degrees.
    public var entryAngle: Double?
    /// Revolutions per minute.
    public var revRate: Double?
    public var revCategory: RevCategory?
    /// 0–1.
    public var strikeProbability: Double?
    /// nil: reached the pins.
    public var result: ShotEnd?
    public var confidence: Double = 0
    public var flags: [ShotFlag] = []
    /// Metric name → why it is nil.
    public var unavailable: [String: String] = [:]
    public var trajectory: [TrajectoryPoint] = []
    /// Per track point, filled while measuring.
    var phases: [String?] = []

    public init(shotNumber: Int, startTime: Double, endTime: Double) {
        (self.shotNumber, self.startTime, self.endTime) = (shotNumber, startTime, endTime)
    }
}
