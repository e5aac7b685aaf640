import ReelworkCore
import SportMath

// One `BasketballTracker` is fed every decoded frame of one streamed decode, then `finish()`
// gives the shots and the stats.
//
// How a shot is found (DOMAIN.md, "Basketball (seed 001)", and docs/DOMAIN.md "Basketball"):
//   RimFinder          without the `hoop` option: an orange horizontal bar beside a white board
//   BallBlobFinder     orange cells that are moving (not orange for the last ½ s) and outside the
//                      rim's band, joined into round blobs of a basketball's size for this rim
//   BallObservations   one blob a frame, the one nearest the ball's predicted place; detector
//                      boxes, when given, favour a blob inside them or stand in for a missing one
//   ShotFinder         flights above the rim, traced back to the release (where the path stops
//                      fitting a ballistic arc), arriving at the rim's height near the hoop
//   ShotJudge          made: the centre crosses the rim's height downwards between its ends and
//                      goes on below the net inside the hoop
//   ShootingStats      seed 001's totals and percentages

/// The `ball` and `shots` stages in one: fed every decoded frame in order.
public final class BasketballTracker {
    let options: BasketballOptions
    let frameWidth: Int
    let frameHeight: Int
    let frameRate: Double
    let blobs: BallBlobFinder
    var rimFinder: RimFinder?
    var hoop: RimLine?
    var hoopSource: HoopSource
    var observations = BallObservations()
    var framesSeen = 0
    private var clock: FrameClock

    /// Throws `.invalidInput` when the `hoop` option lies outside this frame size or the size or
    /// rate is not usable.
    public init(options: BasketballOptions, frameWidth: Int, frameHeight: Int, frameRate: Double) throws {
        guard frameWidth > 0, frameHeight > 0, frameWidth <= InputBounds.maxSide, frameHeight <= InputBounds.maxSide else {
            throw ReelworkError.invalidInput("frame size \(frameWidth)×\(frameHeight) cannot be analysed")
        }
        if let hoop = options.hoop { try hoop.checkInside(width: frameWidth, height: frameHeight) }
        self.options = options
        (self.frameWidth, self.frameHeight) = (frameWidth, frameHeight)
        self.frameRate = frameRate.isFinite && frameRate > 0 && frameRate <= 1000 ? frameRate : 30
        clock = FrameClock(frameRate: self.frameRate)
        blobs = BallBlobFinder(width: frameWidth, height: frameHeight, color: options.ballColor,
                               hueTolerance: options.ballColorTolerance, frameRate: self.frameRate)
        hoop = options.hoop
        hoopSource = options.hoop == nil ? .found : .option
        if let hoop { blobs.setRim(hoop) } else { rimFinder = RimFinder(width: frameWidth, height: frameHeight, table: blobs.table) }
    }

    /// One decoded frame (display orientation, the size given at creation), its time in seconds and
    /// index; `ballBoxes`: the detector's "sports ball" boxes when this frame was sampled, nil when
    /// not. Throws `.needsPerson` naming the option `hoop` when no rim was found in the first frames,
    /// `.invalidInput` for a frame of another size.
    public func process<Frame: RGBFrameRows>(_ frame: Frame, time: Double, frameIndex: Int, ballBoxes: [BallBox]? = nil) throws {
        guard frame.width == frameWidth, frame.height == frameHeight else {
            throw ReelworkError.invalidInput("frame \(frameIndex) is \(frame.width)×\(frame.height), not \(frameWidth)×\(frameHeight)")
        }
        framesSeen += 1
        if hoop == nil, var finder = rimFinder {
            if let found = finder.look(at: frame) {
                hoop = found
                blobs.setRim(found)
                rimFinder = nil
            } else if finder.framesLooked >= RimFinder.framesToLook {
                throw ReelworkError.needsPerson(BasketballMessages.hoopNotFound)
            } else {
                rimFinder = finder
            }
        }
        // A flight must never mix two clocks: the points held are re-timed when the clock changes.
        let t = clock.time(time, frameIndex: frameIndex) { observations.retime($0) }
        blobs.find(in: frame)
        observations.add(candidates: blobs.candidates, boxes: ballBoxes ?? [], time: t, frameIndex: frameIndex,
                         expectedRadius: hoop.map { $0.expectedBallRadius })
    }

    /// Whether the last frame's ball was the one colour blob on the path the frames before it
    /// predict: the detector's boxes would add nothing on the next frame. False before a path is
    /// found, when no blob or more than one was within reach, and on a path held by boxes alone.
    public var followsBallByColour: Bool { observations.followedByColour }

    /// The shots and stats. Throws `.needsPerson` naming `hoop` when no rim was ever found.
    public func finish() throws -> BasketballResult {
        guard let hoop else { throw ReelworkError.needsPerson(BasketballMessages.hoopNotFound) }
        let shots = ShotFinder(rim: hoop, frameRate: frameRate, threePointDistanceFt: options.threePointDistanceFt,
                               frameWidth: frameWidth, frameHeight: frameHeight)
            .shots(in: observations.points)
        return BasketballResult(hoop: hoop, hoopSource: hoopSource, shots: shots, stats: ShootingStats(shots: shots),
                                framesSeen: framesSeen, framesWithBall: observations.framesWithBall,
                                framesWithBallFromDetector: observations.framesWithBallFromDetector,
                                threePointDistanceFt: options.threePointDistanceFt)
    }
}
