/// What a scripted shot is meant to do; the scene checks its flight does it.
public enum ShotKind: String, Sendable, CaseIterable {
    /// Through the rim without touching it.
    case swish
    /// Off the board, then down through the rim.
    case bank
    /// Hits the rim and stays out.
    case rimOut
    /// Short: touches nothing.
    case airball
    /// Off the board and out.
    case offBoard
    /// Hits the front of the rim and drops down right beside it: missed, though it falls past the net.
    case rimDrop
    /// Drops inside the rim, its centre below the rim's height, and pops back up and out: missed.
    /// The flight is a swish's until the centre is 0.45 ft below the rim, then scripted (the scene's
    /// rim is two posts in the camera's plane, which cannot throw a ball back up from inside).
    case inAndOut

    var isMade: Bool { self == .swish || self == .bank }
}

/// One event of a scripted session.
public enum SceneEvent: Sendable {
    /// The player at `playerX` feet bounces the ball beside him (hand height to the floor, ½ s a bounce).
    case dribble(playerX: Double, bounces: Int)
    /// A chest pass at 4.5 ft, out of the frame.
    case pass(playerX: Double, towardHoop: Bool)
    /// Gather, rise and release at `distanceFt` from the rim's centre, 7.5 ft up.
    case shot(ShotKind, distanceFt: Double)
    /// No ball in view.
    case pause(seconds: Double)
}

/// What a scripted shot really did.
public struct AttemptTruth: Sendable {
    public var kind: ShotKind
    public var distanceFt: Double
    public var releaseTime: Double
    public var made: Bool
    public var touchedRim: Bool
    public var touchedBoard: Bool
    public var isThreePoint: Bool { distanceFt >= Court.threePointDistanceFt }
}
