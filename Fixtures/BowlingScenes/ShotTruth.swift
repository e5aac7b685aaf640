import Foundation

/// The answers the bowling analysis should give for one rendered shot, computed from the analytic path
/// (never from pixels) with DOMAIN.md's definitions. Speeds in mph, distances in feet, angles in
/// degrees, boards counted from the right gutter (0.5) to the left (39.5).
public struct ShotTruth: Equatable, Sendable, Codable {
    public var hand: BowlingHand
    /// Least-squares slope of distance over time for the frames with the ball between 0 and 15 ft.
    public var launchSpeed: Double?
    /// The same over the frames between 45 and 60 ft (the last 15 ft before the pins); for a gutter
    /// ball, its speed in the gutter there.
    public var impactSpeed: Double?
    /// Board at 0 ft, 15 ft (arrows) and 60 ft (pins), exact from the path (a gutter ball's pocket board
    /// is the gutter channel's, outside 0.5–39.5).
    public var foulLineBoard: Double
    public var arrowBoard: Double
    public var pocketBoard: Double
    /// Farthest toward the bowler's outside before the ball turns (smallest board right-handed, largest
    /// left-handed). For the renderer's path that is (Db, Bb); a gutter ball that leaves the lane first
    /// has it where it crosses the edge. `breakpointDistance` is nil when the board never changes.
    public var breakpointBoard: Double
    public var breakpointDistance: Double?
    /// atan(|LS slope of board over distance, frames between 50 and 60 ft| × 41.5/39 / 12); nil with
    /// fewer than 5 such frames (DOMAIN's minimum). The ball is drawn on to `lastDrawnDistanceFt`
    /// (62 ft by default): an analysis must cut its window at the pins to agree.
    public var entryAngle: Double?
    /// |rpm| of the marker's rotation in the image.
    public var revRate: Double
    public var isGutter: Bool
    /// Where the ball left the lane for the gutter.
    public var gutterDistance: Double?
    /// Clip seconds at which the ball is at 0 ft and at 60 ft (exact, usually between frames).
    public var releaseTime: Double
    public var pinsTime: Double
    /// First frame showing this ball, first frame with it at or past 60 ft, last frame showing it.
    public var firstFrame: Int?
    public var pinsFrame: Int?
    public var lastFrame: Int?
    /// The ball in every frame that shows it.
    public var samples: [BallAppearance]

    static func measure(path: BallPath, hand: BowlingHand, releaseTime: Double,
                        samples: [BallAppearance]) -> ShotTruth {
        let pins = LaneGeometry.pinsDistanceFt
        func within(_ low: Double, _ high: Double) -> [BallAppearance] {
            samples.filter { $0.distanceFt >= low && $0.distanceFt <= high }
        }
        let mphPerFtPerSecond = 3600.0 / 5280.0
        let early = within(0, 15), late = within(pins - 15, pins), entry = within(pins - 10, pins)
        let launch = LeastSquares.slope(x: early.map(\.time), y: early.map(\.distanceFt))
        let impact = LeastSquares.slope(x: late.map(\.time), y: late.map(\.distanceFt))
        var angle: Double?
        if entry.count >= 5, let slope = LeastSquares.slope(x: entry.map(\.distanceFt), y: entry.map(\.board)) {
            angle = atan(abs(slope) * 41.5 / 39 / 12) * 180 / .pi
        }
        let breakpoint = Self.breakpoint(path: path, hand: hand)
        return ShotTruth(
            hand: hand,
            launchSpeed: launch.map { $0 * mphPerFtPerSecond },
            impactSpeed: impact.map { $0 * mphPerFtPerSecond },
            foulLineBoard: path.board(atDistance: 0),
            arrowBoard: path.board(atDistance: LaneGeometry.arrowDistanceFt),
            pocketBoard: path.board(atDistance: pins),
            breakpointBoard: breakpoint.board,
            breakpointDistance: breakpoint.distance,
            entryAngle: angle,
            revRate: abs(path.shot.revRateRPM),
            isGutter: path.gutterEntryDistanceFt != nil,
            gutterDistance: path.gutterEntryDistanceFt,
            releaseTime: releaseTime,
            pinsTime: releaseTime + path.timeAfterRelease(atDistance: pins),
            firstFrame: samples.first?.frameIndex,
            pinsFrame: samples.first { $0.distanceFt >= pins }?.frameIndex,
            lastFrame: samples.last?.frameIndex,
            samples: samples)
    }

    /// The path is piecewise quadratic and monotone on each piece, so its outermost point is at the
    /// breakpoint, the foul line or where it stops being on the lane (gutter or pins). The breakpoint is
    /// listed first so a tie (the flat start of a ball that goes straight, then hooks) resolves to it.
    private static func breakpoint(path: BallPath, hand: BowlingHand) -> (board: Double, distance: Double?) {
        let shot = path.shot
        let end = path.gutterEntryDistanceFt ?? LaneGeometry.pinsDistanceFt
        if shot.launchBoard == shot.breakpointBoard && shot.breakpointBoard == shot.pocketBoard {
            return (shot.breakpointBoard, nil)
        }
        var candidates: [Double] = []
        if shot.breakpointDistanceFt > 0 && shot.breakpointDistanceFt < end { candidates.append(shot.breakpointDistanceFt) }
        candidates += [0, end]
        var best = candidates[0]
        for d in candidates.dropFirst() {
            let board = path.laneBoard(atDistance: d), bestBoard = path.laneBoard(atDistance: best)
            if hand == .right ? board < bestBoard : board > bestBoard { best = d }
        }
        return (path.laneBoard(atDistance: best), best)
    }
}

/// Ordinary least squares.
enum LeastSquares {
    /// The slope of y over x; nil with fewer than two points or no spread in x.
    static func slope(x: [Double], y: [Double]) -> Double? {
        guard x.count >= 2, x.count == y.count else { return nil }
        let n = Double(x.count)
        let meanX = x.reduce(0, +) / n, meanY = y.reduce(0, +) / n
        var covariance = 0.0, variance = 0.0
        for (a, b) in zip(x, y) {
            covariance += (a - meanX) * (b - meanY)
            variance += (a - meanX) * (a - meanX)
        }
        return variance > 0 ? covariance / variance : nil
    }
}
