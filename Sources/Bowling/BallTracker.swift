import Media
import ReelworkCore
import SportMath

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
    private var clock: FrameClock
    private var framesSeen = 0
    private var framesWithBall = 0

    /// Throws `.needsPerson` when the calibration does not fit this frame size.
    public init(options: BowlingOptions, frameWidth: Int, frameHeight: Int, frameRate: Double) throws {
        if let calibration = options.calibration {
            try calibration.checkVisible(width: frameWidth, height: frameHeight)
            // A lane whose far end lies beyond the horizon has no region to search: say so, rather
            // than failing later with "Ball not detected".
            guard !calibration.searchPolygon().isEmpty else { throw ReelworkError.needsPerson(BowlingMessages.invalidCalibration) }
        }
        clock = FrameClock(frameRate: frameRate.isFinite && frameRate > 0 ? frameRate : 30)
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
        // Points already held are re-timed when the clock changes, so a shot never mixes clocks.
        let time = clock.time(time, frameIndex: frameIndex) { segmenter.retime($0) }
        let step = path.step(detector.candidates, time: time, frameIndex: frameIndex,
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
