import Foundation

/// A shot's analytic path in lane coordinates: where the ball's centre is at each time after release.
/// The renderer draws it and the ground truth samples it, so the two cannot disagree.
public struct BallPath: Sendable {
    public let shot: BowlingShot
    /// Launch speed, ft/s.
    public let initialSpeed: Double
    /// Constant deceleration, ft/s².
    public let deceleration: Double
    /// Where the analytic board first crosses a lane edge before the pins (then the ball runs in the gutter).
    public let gutterEntryDistanceFt: Double?
    /// The ball is drawn from the foul line until it passes this distance (into the pit).
    public let lastDrawnDistanceFt: Double

    /// How far the ball takes to slide from the lane edge into the middle of the gutter channel.
    static let gutterDropFt = 1.5

    public init(_ shot: BowlingShot, lastDrawnDistanceFt: Double = 62) {
        self.shot = shot
        self.lastDrawnDistanceFt = lastDrawnDistanceFt
        initialSpeed = shot.launchSpeedMph * 5280 / 3600
        let f = shot.pinSpeedFraction
        deceleration = initialSpeed * initialSpeed * (1 - f * f) / (2 * LaneGeometry.pinsDistanceFt)
        gutterEntryDistanceFt = Self.firstEdgeCrossing(shot)
    }

    /// The hook parameter h of the path after the breakpoint.
    var hookCurvature: Double {
        let run = LaneGeometry.pinsDistanceFt - shot.breakpointDistanceFt
        return run > 0 ? (shot.pocketBoard - shot.breakpointBoard) / (run * run) : 0
    }

    /// Feet past the foul line `seconds` after release: v0·t − ½·a·t².
    public func distance(afterRelease seconds: Double) -> Double {
        initialSpeed * seconds - 0.5 * deceleration * seconds * seconds
    }

    /// Speed (ft/s) `seconds` after release.
    public func speed(afterRelease seconds: Double) -> Double {
        initialSpeed - deceleration * seconds
    }

    /// Seconds after release at which the ball reaches `distanceFt` (the earlier root of the quadratic).
    public func timeAfterRelease(atDistance distanceFt: Double) -> Double {
        guard deceleration > 0 else { return distanceFt / initialSpeed }
        let discriminant = initialSpeed * initialSpeed - 2 * deceleration * distanceFt
        precondition(discriminant >= 0, "the ball stops before \(distanceFt) ft")
        // v0 − √disc loses digits when a is small; this form is the same root without the cancellation.
        return 2 * distanceFt / (initialSpeed + discriminant.squareRoot())
    }

    /// The board formula on the lane, ignoring gutters (see `BowlingShot`).
    public func laneBoard(atDistance d: Double) -> Double {
        let b0 = shot.launchBoard, bb = shot.breakpointBoard, db = shot.breakpointDistanceFt
        if d <= db, db > 0 {
            let u = (db - d) / db
            return bb + (b0 - bb) * u * u
        }
        let past = d - max(db, 0)
        return bb + hookCurvature * past * past
    }

    /// The board of the ball's centre: the lane formula, or the gutter channel after the ball left the lane.
    public func board(atDistance d: Double) -> Double {
        guard let entry = gutterEntryDistanceFt, d > entry else { return laneBoard(atDistance: d) }
        let rightSide = laneBoard(atDistance: entry) < 20
        let edge = rightSide ? LaneGeometry.rightEdgeBoard : LaneGeometry.leftEdgeBoard
        let channel = LaneGeometry.gutterCentreBoard(rightSide: rightSide)
        let progress = min(1, (d - entry) / Self.gutterDropFt)
        return edge + (channel - edge) * progress
    }

    /// The ball's centre: one radius above the lane, lower once it has dropped into the gutter.
    public func centre(atDistance d: Double) -> LaneCoordinate {
        var height = LaneGeometry.ballRadiusFt
        if let entry = gutterEntryDistanceFt, d > entry {
            height -= LaneGeometry.gutterDepthFt * min(1, (d - entry) / Self.gutterDropFt)
        }
        return .onLane(board: board(atDistance: d), distanceFt: d, height: height)
    }

    /// The marker's image angle in radians `seconds` after release: θ0 + 2π·(rpm/60)·t.
    public func markerAngle(afterRelease seconds: Double) -> Double {
        shot.markerStartAngleDegrees * .pi / 180 + 2 * .pi * shot.revRateRPM / 60 * seconds
    }

    /// Scans 0–60 ft in 0.01 ft steps and refines by bisection: the board formula is piecewise quadratic,
    /// so a crossing cannot hide between steps except where it only grazes the edge.
    private static func firstEdgeCrossing(_ shot: BowlingShot) -> Double? {
        let path = BallPath(analyticOnly: shot)
        func outside(_ d: Double) -> Bool {
            let b = path.laneBoard(atDistance: d)
            return b < LaneGeometry.rightEdgeBoard || b > LaneGeometry.leftEdgeBoard
        }
        var previous = 0.0
        for step in 1...6000 {
            let d = Double(step) * 0.01
            if outside(d) {
                var inside = previous, out = d
                for _ in 0..<50 {
                    let middle = (inside + out) / 2
                    if outside(middle) { out = middle } else { inside = middle }
                }
                return out
            }
            previous = d
        }
        return nil
    }

    private init(analyticOnly shot: BowlingShot) {
        self.shot = shot
        initialSpeed = 1
        deceleration = 0
        gutterEntryDistanceFt = nil
        lastDrawnDistanceFt = LaneGeometry.pinsDistanceFt
    }
}
