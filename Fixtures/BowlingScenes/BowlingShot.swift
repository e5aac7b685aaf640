import Foundation

public enum BowlingHand: String, Codable, Sendable {
    case right, left
}

/// One delivery as the renderer draws it: speed along the lane and the board the ball is on at each
/// distance. The board path (DOMAIN boards, from the right gutter) is
///   b(d) = Bb + (b0 − Bb)·((Db − d)/Db)²   for d ≤ Db   (out toward the breakpoint, flat there),
///   b(d) = Bb + h·(d − Db)²                for d > Db   (the hook; h puts the ball on `pocketBoard` at 60 ft).
/// A right-hander's breakpoint board is below both ends, a left-hander's above: the same formula, mirrored.
/// A straight ball has all three boards equal.
public struct BowlingShot: Equatable, Sendable, Codable {
    public var launchSpeedMph: Double
    /// Speed at the pins / launch speed, under constant deceleration: d(t) = v0·t − ½·a·t² with
    /// a = v0²·(1 − f²)/(2·60 ft).
    public var pinSpeedFraction: Double
    public var launchBoard: Double
    public var breakpointBoard: Double
    public var breakpointDistanceFt: Double
    /// The board the hook reaches at 60 ft (a gutter ball leaves the lane before it).
    public var pocketBoard: Double
    /// Signed: positive turns the marker counterclockwise as seen in the image.
    public var revRateRPM: Double
    /// The marker's image angle at release, counterclockwise from the image's +x axis.
    public var markerStartAngleDegrees: Double

    public init(launchSpeedMph: Double, pinSpeedFraction: Double = 0.88, launchBoard: Double,
                breakpointBoard: Double, breakpointDistanceFt: Double, pocketBoard: Double,
                revRateRPM: Double = 300, markerStartAngleDegrees: Double = 30) {
        self.launchSpeedMph = launchSpeedMph
        self.pinSpeedFraction = pinSpeedFraction
        self.launchBoard = launchBoard
        self.breakpointBoard = breakpointBoard
        self.breakpointDistanceFt = breakpointDistanceFt
        self.pocketBoard = pocketBoard
        self.revRateRPM = revRateRPM
        self.markerStartAngleDegrees = markerStartAngleDegrees
    }

    /// A typical hook: right hand 15 → arrows ≈ 10 → breakpoint 7 at 40 ft → pocket 17.5; left mirrored.
    public static func hook(_ hand: BowlingHand, speedMph: Double = 17, revRateRPM: Double = 300) -> BowlingShot {
        let shot = BowlingShot(launchSpeedMph: speedMph, launchBoard: 15, breakpointBoard: 7,
                               breakpointDistanceFt: 40, pocketBoard: 17.5, revRateRPM: revRateRPM)
        return hand == .right ? shot : shot.mirrored
    }

    /// No hook: every board is `board`.
    public static func straight(board: Double = 17.5, speedMph: Double = 16, revRateRPM: Double = 200) -> BowlingShot {
        BowlingShot(launchSpeedMph: speedMph, launchBoard: board, breakpointBoard: board,
                    breakpointDistanceFt: 40, pocketBoard: board, revRateRPM: revRateRPM)
    }

    /// Drifts out past the bowler's outside edge (board 0.5 right-handed) at about 21.6 ft and rides the
    /// gutter channel to the pit.
    public static func gutter(_ hand: BowlingHand, speedMph: Double = 15) -> BowlingShot {
        let shot = BowlingShot(launchSpeedMph: speedMph, launchBoard: 10, breakpointBoard: -3,
                               breakpointDistanceFt: 45, pocketBoard: -3, revRateRPM: 250)
        return hand == .right ? shot : shot.mirrored
    }

    /// The left-handed mirror image (board b ↔ 40 − b; the marker turns the other way).
    public var mirrored: BowlingShot {
        var shot = self
        shot.launchBoard = 40 - launchBoard
        shot.breakpointBoard = 40 - breakpointBoard
        shot.pocketBoard = 40 - pocketBoard
        shot.revRateRPM = -revRateRPM
        shot.markerStartAngleDegrees = 180 - markerStartAngleDegrees
        return shot
    }
}
