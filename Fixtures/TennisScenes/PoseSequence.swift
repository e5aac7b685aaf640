import ReelworkCore
import SportKit

/// One generated clip as the `pose` and `objects` stages would have left it (`SampledVision`: the
/// player's track, any passer-by's, a sampled frame per pose time), with the truth the generator
/// placed: every real swing's type and contact, and the idle motions that are not swings.
public struct PoseSequence: Sendable {
    public var seed: UInt64
    /// Sampled frames per second; frame k is at k / fps.
    public var fps: Double
    public var frameCount: Int
    public var hand: Hand
    public var sampled: SampledVision
    public var playerTrackId: Int
    public var swings: [SwingTruth]
    /// What else the player did ("ball bounce", "walk", "shadow swing", "split step"), with when.
    public var idle: [IdleMotion]
    public var conditions: PoseConditions

    public var duration: Double { Double(frameCount - 1) / fps }
}

/// A real swing: its type as `result.swings[i].type` spells it, and when the racket meets the ball.
public struct SwingTruth: Sendable, Equatable {
    public var type: String
    /// The forward swing's fastest moment (the wrist passes the contact point), seconds.
    public var contactTime: Double
    /// The sampled frame nearest `contactTime`.
    public var contactFrame: Int
    /// The take-back's start and the recovery's end, seconds (may lie outside the clip at its edges).
    public var startTime: Double
    public var endTime: Double
    /// The wrist's speed at contact in the body's own space, torso lengths per second (the image
    /// shows less of it when part of the motion is towards the camera).
    public var peakSpeed: Double
}

/// A motion that is not a swing, for the worst-case reports.
public struct IdleMotion: Sendable, Equatable {
    public var kind: String
    public var start: Double
    public var end: Double
}

/// What the generator drew for a sequence, kept so a bad case can be explained.
public struct PoseConditions: Sendable, Equatable {
    public var cameraAzimuthDegrees: Double
    public var cameraRollDegrees: Double
    public var torsoPixels: Double
    /// Landmark noise, torso lengths (σ of a Gaussian on each coordinate).
    public var noise: Double
    /// Share of frames whose pose is missing altogether, and a longer run of them (seconds, 0: none).
    public var dropRate: Double
    public var dropBurst: Double
    /// Share of landmarks thrown off with a low visibility (BlazePose unsure of a limb).
    public var glitchRate: Double
    /// Chance that the racket wrist is unsure in a frame where it moves fast (motion blur).
    public var blurRate: Double
    public var anklesHidden: Bool
    public var twoHandedBackhand: Bool
    /// People walking or jogging through the frame, and how often the player's arm is read from a
    /// passer-by's while they overlap.
    public var passersBy: Int
    public var jogging: Bool
    public var swapRate: Double

    /// The conditions as JSON (for the worst-case files).
    public func json() -> JSONValue {
        .object([
            "cameraAzimuthDegrees": .number(cameraAzimuthDegrees), "cameraRollDegrees": .number(cameraRollDegrees),
            "torsoPixels": .number(torsoPixels), "noise": .number(noise), "dropRate": .number(dropRate),
            "dropBurst": .number(dropBurst), "glitchRate": .number(glitchRate), "blurRate": .number(blurRate),
            "anklesHidden": .bool(anklesHidden), "twoHandedBackhand": .bool(twoHandedBackhand),
            "passersBy": .number(Double(passersBy)), "jogging": .bool(jogging), "swapRate": .number(swapRate),
        ])
    }
}
