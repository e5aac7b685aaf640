import ReelworkCore
import SportMath

// The Basketball module's surface as the pipeline will use it: one `BasketballTracker` fed every
// decoded frame of one streamed decode, then `finish()` for the shots and the stats.
// Implementation files beside this one fill it in; keep these signatures.
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

/// One decoded frame as rows of 8-bit RGB. `withRow` gives a pointer to pixel (0, y)'s red byte
/// and the byte step from one pixel to the next along the row; the pointer must not escape `body`.
/// Media's `RGBImage` has exactly this shape (`extension RGBImage: @retroactive RGBFrameRows {}`).
public protocol RGBFrameRows {
    var width: Int { get }
    var height: Int { get }
    func withRow<R>(_ y: Int, _ body: (UnsafePointer<UInt8>, Int) throws -> R) rethrows -> R
}

/// An owned frame of packed RGB24 rows (width × height × 3 bytes): for tests, scenes and benchmarks.
public struct PackedRGBFrame: RGBFrameRows, Sendable {
    public let width: Int
    public let height: Int
    public let pixels: [UInt8]

    /// nil when `pixels` does not hold width × height × 3 bytes or a side is not positive.
    public init?(width: Int, height: Int, pixels: [UInt8]) {
        guard width > 0, height > 0, let count = width.checkedMultiplying(by: height)?.checkedMultiplying(by: 3),
              pixels.count == count else { return nil }
        (self.width, self.height, self.pixels) = (width, height, pixels)
    }

    public func withRow<R>(_ y: Int, _ body: (UnsafePointer<UInt8>, Int) throws -> R) rethrows -> R {
        precondition(y >= 0 && y < height, "row \(y) outside \(width)×\(height)")
        return try pixels.withUnsafeBufferPointer { buffer in
            // Non-empty: width and height are positive.
            try body(buffer.baseAddress.unsafelyUnwrapped + y * width * 3, 3)
        }
    }
}

/// A point in frame pixels.
public struct FramePoint: Sendable, Equatable {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) { (self.x, self.y) = (x, y) }
}

/// A "sports ball" box from the object detector, in frame pixels.
public struct BallBox: Sendable, Equatable {
    public var x1, y1, x2, y2: Double
    public var confidence: Double
    public init(x1: Double, y1: Double, x2: Double, y2: Double, confidence: Double) {
        (self.x1, self.y1, self.x2, self.y2, self.confidence) = (x1, y1, x2, y2, confidence)
    }
}

/// A job's basketball options: `hoop` {`rimLeft`: [x, y], `rimRight`: [x, y]} (optional: found in the
/// first frames when absent), `ballColor` {h 0–360, s 0–100, v 0–100} (default an orange ball),
/// `ballColorTolerance` (hue degrees, default 15), `threePointDistanceFt` (default 22.15, FIBA).
public struct BasketballOptions: Sendable, Equatable {
    public static let defaultBallColor = HSVColor(h: 22, s: 80, v: 80)
    public static let defaultThreePointDistanceFt = 22.15

    public var hoop: RimLine?
    public var ballColor: HSVColor
    public var ballColorTolerance: Double
    public var threePointDistanceFt: Double

    public init(hoop: RimLine? = nil, ballColor: HSVColor = defaultBallColor, ballColorTolerance: Double = 15,
                threePointDistanceFt: Double = defaultThreePointDistanceFt) {
        (self.hoop, self.ballColor, self.ballColorTolerance, self.threePointDistanceFt) =
            (hoop, ballColor, ballColorTolerance, threePointDistanceFt)
    }

    /// Throws `ReelworkError.invalidInput` naming the option and the problem. Whether the hoop lies
    /// inside the frame is checked when the tracker is created (the frame size is known then).
    public static func parse(_ options: JSONValue) throws -> BasketballOptions {
        try BasketballOptionsParser.parse(options)
    }
}

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
    private var lastTime = -Double.infinity
    private var usesFrameClock = false

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
        let t = correctedTime(time, frameIndex: frameIndex)
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

    /// The frame's time, or frame index / frame rate once timestamps have gone backwards or are not
    /// finite (a damaged file): a flight must never mix two clocks.
    private func correctedTime(_ time: Double, frameIndex: Int) -> Double {
        if !usesFrameClock, !(time.isFinite && time >= lastTime) {
            usesFrameClock = true
            let rate = frameRate
            observations.retime { Double($0) / rate }
        }
        let corrected = usesFrameClock ? Double(frameIndex) / frameRate : time
        lastTime = corrected
        return corrected
    }
}

/// Where the rim's ends came from.
public enum HoopSource: String, Sendable {
    case option, found
}

/// What a session found: the hoop, each attempt, the totals.
public struct BasketballResult: Sendable {
    public var hoop: RimLine
    public var hoopSource: HoopSource
    public var shots: [BasketballShot]
    public var stats: ShootingStats
    public var framesSeen: Int
    /// Frames in which a ball was tracked (colour, or a detector box).
    public var framesWithBall: Int
    /// Of those, frames in which only the detector's sports-ball box showed it (no blob of the
    /// ball's colour agreed): a ball against something of its colour, or of another colour.
    public var framesWithBallFromDetector: Int
    public var threePointDistanceFt: Double

    /// `result`: `hoop` {rimLeft, rimRight, source, pixelsPerFoot}, `shots[]`, `stats`,
    /// `framesSeen`, `framesWithBall`, `framesWithBallFromDetector`, `threePointDistanceFt`.
    public func json() -> JSONValue { BasketballJSON.result(self) }

    /// One row per shot, with `csvHeader` as its first row.
    public func csv() -> String { BasketballJSON.csv(shots) }

    /// The CSV's columns: the shot fields of `result.shots[i]` that are scalars.
    public static var csvHeader: [String] { BasketballJSON.csvHeader }
}

/// One attempt.
public struct BasketballShot: Sendable, Equatable {
    public var shotNumber: Int
    /// When the ball left the shooter, seconds.
    public var releaseTime: Double
    /// When the ball came down to the rim's height.
    public var rimTime: Double
    public var made: Bool
    public var shotType: ShotType
    /// Horizontal distance from the ball at release to the rim's centre, in the rim's plane.
    public var distanceFt: Double
    /// 0–1: the chance the attempt is right (real, made/missed and 2PT/3PT), calibrated on the
    /// accuracy benchmark (`ShotConfidence`): lowered by each `review` reason.
    public var confidence: Double
    public var releasePoint: FramePoint
    /// The ball's centre from release to the end of the attempt: [t, x, y].
    public var trajectory: [ShotPathPoint]
    /// Why a person should look at it (empty: nothing in doubt).
    public var review: [ShotReview]

    public init(shotNumber: Int, releaseTime: Double, rimTime: Double, made: Bool, shotType: ShotType, distanceFt: Double,
                confidence: Double, releasePoint: FramePoint, trajectory: [ShotPathPoint], review: [ShotReview] = []) {
        (self.shotNumber, self.releaseTime, self.rimTime, self.made) = (shotNumber, releaseTime, rimTime, made)
        (self.shotType, self.distanceFt, self.confidence) = (shotType, distanceFt, confidence)
        (self.releasePoint, self.trajectory, self.review) = (releasePoint, trajectory, review)
    }

    public func json() -> JSONValue { BasketballJSON.shot(self) }
}

public enum ShotType: String, Sendable, CaseIterable {
    case twoPoint = "2PT"
    case threePoint = "3PT"
}

public struct ShotPathPoint: Sendable, Equatable {
    public var t: Double
    public var x: Double
    public var y: Double
    public init(t: Double, x: Double, y: Double) { (self.t, self.x, self.y) = (t, x, y) }
}
