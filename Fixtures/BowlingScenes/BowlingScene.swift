import Foundation

/// Everything a rendered bowling clip shows: camera, frame rate, ball colours and the shots in order.
/// Timeline: `leadInSeconds` of empty lane, then the first ball appears at the foul line (its release
/// time; no approach is drawn) and is drawn until it passes `lastDrawnDistanceFt` (into the pit); each
/// later shot is released `gapSeconds` after the previous ball disappeared; `tailSeconds` of empty lane
/// end the clip. Frame i is at i / framesPerSecond seconds.
public struct BowlingScene: Sendable {
    public struct CameraNoise: Sendable, Equatable {
        public var seed: UInt64
        /// Each channel moves by up to ± amplitude (0–255 scale).
        public var amplitude: Int

        public init(seed: UInt64 = 1, amplitude: Int = 4) {
            self.seed = seed
            self.amplitude = amplitude
        }
    }

    public struct Invalid: Error, CustomStringConvertible {
        public let description: String
    }

    public var camera: LaneCamera
    public var framesPerSecond: Int
    public var hand: BowlingHand
    public var ballColor: SceneColor
    public var markerColor: SceneColor
    public var shots: [BowlingShot]
    public var leadInSeconds: Double
    public var gapSeconds: Double
    public var tailSeconds: Double
    public var lastDrawnDistanceFt: Double
    /// nil: every frame is exactly the drawing. Otherwise seeded noise, still deterministic.
    public var noise: CameraNoise?

    public init(camera: LaneCamera = .behindBowler720p, framesPerSecond: Int = 30, hand: BowlingHand = .right,
                ballColor: SceneColor = .deepBlue, markerColor: SceneColor = .yellow, shots: [BowlingShot]? = nil,
                leadInSeconds: Double = 0.3, gapSeconds: Double = 1.0, tailSeconds: Double = 0.3,
                lastDrawnDistanceFt: Double = 62, noise: CameraNoise? = nil) {
        self.camera = camera
        self.framesPerSecond = framesPerSecond
        self.hand = hand
        self.ballColor = ballColor
        self.markerColor = markerColor
        self.shots = shots ?? [.hook(hand)]
        self.leadInSeconds = leadInSeconds
        self.gapSeconds = gapSeconds
        self.tailSeconds = tailSeconds
        self.lastDrawnDistanceFt = lastDrawnDistanceFt
        self.noise = noise
    }

    public func validate() throws {
        func fail(_ text: String) throws -> Never { throw Invalid(description: "BowlingScene: \(text)") }
        if shots.isEmpty { try fail("no shots") }
        if framesPerSecond <= 0 { try fail("framesPerSecond must be positive") }
        if leadInSeconds < 0 || gapSeconds < 0 || tailSeconds < 0 { try fail("negative time") }
        if lastDrawnDistanceFt < LaneGeometry.pinsDistanceFt || lastDrawnDistanceFt > LaneGeometry.pinDeckEndFt {
            try fail("lastDrawnDistanceFt must be between 60 and \(LaneGeometry.pinDeckEndFt)")
        }
        for (i, shot) in shots.enumerated() {
            if shot.launchSpeedMph <= 0 { try fail("shot \(i): launch speed must be positive") }
            // Below ≈0.2 the ball would stop before the pit; far below is no bowling shot anyway.
            if !(0.5...1).contains(shot.pinSpeedFraction) { try fail("shot \(i): pinSpeedFraction must be 0.5–1") }
            if !(LaneGeometry.rightEdgeBoard...LaneGeometry.leftEdgeBoard).contains(shot.launchBoard) {
                try fail("shot \(i): launch board must be on the lane (0.5–39.5)")
            }
            if !(0..<LaneGeometry.pinsDistanceFt).contains(shot.breakpointDistanceFt) {
                try fail("shot \(i): breakpoint distance must be 0–60 ft")
            }
        }
    }

    public var paths: [BallPath] { shots.map { BallPath($0, lastDrawnDistanceFt: lastDrawnDistanceFt) } }

    /// Seconds from the clip's start at which each ball is at the foul line.
    public var releaseTimes: [Double] {
        var times: [Double] = []
        var next = leadInSeconds
        for path in paths {
            times.append(next)
            next += path.timeAfterRelease(atDistance: lastDrawnDistanceFt) + gapSeconds
        }
        return times
    }

    public var durationSeconds: Double {
        let last = paths.last!
        return releaseTimes.last! + last.timeAfterRelease(atDistance: lastDrawnDistanceFt) + tailSeconds
    }

    public var frameCount: Int { Int((durationSeconds * Double(framesPerSecond)).rounded(.up)) }

    public func time(ofFrame index: Int) -> Double { Double(index) / Double(framesPerSecond) }
}
