import Foundation
import ReelworkCore
import SportKit

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

/// DOMAIN's shot metrics from one tracked shot. Each metric that cannot be computed is nil with a
/// reason in `unavailable`.
struct ShotMeasurement {
    static let mphPerFootPerSecond = 3600.0 / 5280.0
    /// Board width over a foot: boards are 41.5/39 in wide (DOMAIN entry angle).
    static let feetPerBoard = 41.5 / 39 / 12
    static let launchWindowFt = 15.0
    static let impactWindowFt = 15.0
    static let entryWindowFt = 10.0
    static let minEntryPoints = 5
    static let maxEntryAngle = 25.0
    static let foulLineExtrapolationFt = 3.0
    static let pocketExtrapolationFt = 5.0
    /// The ball must come back this many boards after its breakpoint for it to be one.
    static let minHookBackBoards = 1.0
    static let breakpointRefineFt = 3.0

    let track: ShotTrack
    let hand: Hand
    let hasMarkerColor: Bool
    var metrics: ShotMetrics

    init(_ track: ShotTrack, number: Int, hand: Hand, hasMarkerColor: Bool) {
        self.track = track
        self.hand = hand
        self.hasMarkerColor = hasMarkerColor
        metrics = ShotMetrics(shotNumber: number, startTime: track.points.first?.time ?? 0, endTime: track.points.last?.time ?? 0)
        metrics.result = track.end
        metrics.flags = track.flags
    }

    static func pocket(_ hand: Hand) -> Double { hand == .right ? 17.5 : 22.5 }

    mutating func measure() -> ShotMetrics {
        measureRevRate()
        if track.calibrated { measureLane() } else { markUncalibrated() }
        metrics.confidence = confidence()
        metrics.trajectory = trajectory()
        return metrics
    }

    // MARK: Lane metrics

    /// Points on the lane, in time order, with their lane coordinates.
    private var lanePoints: [(t: Double, board: Double, d: Double)] {
        track.points.compactMap { p in
            guard let b = p.board, let d = p.distanceFt, b.isFinite, d.isFinite else { return nil }
            return (p.time, b, d)
        }
    }

    private mutating func measureLane() {
        let points = lanePoints
        let farthest = points.map(\.d).max() ?? 0
        let gutter = track.end == .gutter
        let reachedPins = !gutter && farthest >= LaneCalibration.pinsDistanceFt - ShotSegmenter.pinsReachTolerance
        let beforePinsReason = gutter ? BowlingMessages.gutterBeforePins : BowlingMessages.exitedBeforePins

        // Speeds.
        let launch = points.filter { $0.d >= 0 && $0.d <= Self.launchWindowFt }
        setSpeed(\.launchSpeed, name: "launchSpeed", from: launch, missing: BowlingMessages.tooFewPointsForLaunch)
        if reachedPins {
            let end = min(farthest, LaneCalibration.pinsDistanceFt)
            let impact = points.filter { $0.d >= end - Self.impactWindowFt && $0.d <= end }
            setSpeed(\.impactSpeed, name: "impactSpeed", from: impact, missing: BowlingMessages.exitedBeforePins)
        } else {
            metrics.unavailable["impactSpeed"] = beforePinsReason
        }

        // Boards.
        set(\.foulLineBoard, "foulLineBoard", board(at: 0, in: points, extrapolation: Self.foulLineExtrapolationFt),
            reason: BowlingMessages.notTrackedAtDistance)
        set(\.arrowBoard, "arrowBoard", board(at: LaneCalibration.arrowsDistanceFt, in: points, extrapolation: Self.foulLineExtrapolationFt),
            reason: BowlingMessages.notTrackedAtDistance)
        let breakpoint = findBreakpoint(points)
        set(\.breakpointBoard, "breakpointBoard", breakpoint?.board, reason: BowlingMessages.noBreakpoint)
        set(\.breakpointDistance, "breakpointDistance", breakpoint?.distance, reason: BowlingMessages.noBreakpoint)
        let pocketBoard = gutter ? nil : self.pocketBoard(points)
        set(\.pocketBoard, "pocketBoard", pocketBoard, reason: beforePinsReason)
        set(\.pocketOffset, "pocketOffset", pocketBoard.map { abs($0 - Self.pocket(hand)) }, reason: beforePinsReason)

        // Entry angle.
        var angle: Double?
        if reachedPins {
            let end = min(farthest, LaneCalibration.pinsDistanceFt)
            let last = points.filter { $0.d >= end - Self.entryWindowFt && $0.d <= end }
            if last.count >= Self.minEntryPoints, let fit = LeastSquares.line(last.map(\.d), last.map(\.board)) {
                angle = atan(abs(fit.slope) * Self.feetPerBoard) * 180 / .pi
            }
            set(\.entryAngle, "entryAngle", angle, reason: BowlingMessages.tooFewPointsForAngle)
            if let angle, angle > Self.maxEntryAngle {
                metrics.flags.append(ShotFlag(code: "entryAngleUnusual", message: BowlingMessages.entryAngleUnusual))
            }
        } else {
            metrics.unavailable["entryAngle"] = beforePinsReason
        }

        // Strike probability: seed 000's form; a gutter ball never strikes.
        if gutter {
            metrics.strikeProbability = 0
        } else if let angle, let pocketBoard {
            let anglePart = abs(angle - 6) / 10, boardPart = abs(pocketBoard - Self.pocket(hand)) / 5
            metrics.strikeProbability = min(1, max(0, 1 - 0.5 * anglePart * anglePart - 0.5 * boardPart * boardPart))
        } else {
            metrics.unavailable["strikeProbability"] = BowlingMessages.incompleteTrajectory
        }
        metrics.phases = phases(breakpointDistance: breakpoint?.distance)
    }

    private mutating func setSpeed(_ key: WritableKeyPath<ShotMetrics, Double?>, name: String,
                                   from points: [(t: Double, board: Double, d: Double)], missing: String) {
        guard points.count >= 3, let fit = LeastSquares.line(points.map(\.t), points.map(\.d)) else {
            metrics.unavailable[name] = missing
            return
        }
        let mph = fit.slope * Self.mphPerFootPerSecond
        switch SpeedValidation(mph: mph) {
        case .invalid:
            metrics.unavailable[name] = BowlingMessages.speedIncorrect
        case .tooSlow:
            metrics[keyPath: key] = mph
            metrics.flags.append(ShotFlag(code: "\(name)TooSlow", message: BowlingMessages.speedTooSlow))
        case .validFlagged:
            metrics[keyPath: key] = mph
            metrics.flags.append(ShotFlag(code: "\(name)High", message: BowlingMessages.speedNeedsVerification))
        case .valid:
            metrics[keyPath: key] = mph
        }
    }

    private mutating func set(_ key: WritableKeyPath<ShotMetrics, Double?>, _ name: String, _ value: Double?, reason: String) {
        if let value, value.isFinite { metrics[keyPath: key] = value } else { metrics.unavailable[name] = reason }
    }

    /// The board where the path crosses `distance`: interpolated between the points either side, or
    /// extrapolated along a line fitted to the nearest 5 ft of path when the path stops short by at
    /// most `extrapolation` feet.
    func board(at distance: Double, in points: [(t: Double, board: Double, d: Double)], extrapolation: Double) -> Double? {
        guard let first = points.first else { return nil }
        if first.d == distance { return first.board }
        for i in points.indices.dropFirst() {
            let a = points[i - 1], b = points[i]
            if (a.d - distance) * (b.d - distance) <= 0, a.d != b.d {
                return a.board + (b.board - a.board) * (distance - a.d) / (b.d - a.d)
            }
        }
        let nearest = points.min { abs($0.d - distance) < abs($1.d - distance) } ?? first
        guard abs(nearest.d - distance) <= extrapolation else { return nil }
        let span = 5.0
        let near = points.filter { abs($0.d - nearest.d) <= span }
        guard near.count >= 2, let fit = LeastSquares.line(near.map(\.d), near.map(\.board)) else { return nil }
        return fit.slope * distance + fit.intercept
    }

    /// The board at 60 ft from a parabola fitted to the last 10 ft tracked (a hook's path is curved
    /// there, so a line would miss; a fit, unlike the two points either side of 60 ft, averages out
    /// the pixel noise, which near the pins is a few tenths of a board per frame). Points up to 1 ft
    /// past the pins count; it may reach at most 5 ft beyond the last point, as `board(at:)`.
    func pocketBoard(_ points: [(t: Double, board: Double, d: Double)]) -> Double? {
        let pins = LaneCalibration.pinsDistanceFt
        guard let farthest = points.map(\.d).max(), farthest >= pins - Self.pocketExtrapolationFt else { return nil }
        let end = min(farthest, pins + 1)
        let last = points.filter { $0.d >= end - Self.entryWindowFt && $0.d <= end }
        guard last.count >= Self.minEntryPoints, let fit = LeastSquares.parabola(last.map(\.d), last.map(\.board)) else {
            return board(at: pins, in: points, extrapolation: Self.pocketExtrapolationFt)
        }
        return fit.a * pins * pins + fit.b * pins + fit.c
    }

    /// The point farthest toward the bowler's outside gutter before the ball turns back: the smallest
    /// board for a right-hander, the largest for a left-hander. Refined with a parabola through the
    /// points within 3 ft, since frames rarely land exactly on it.
    func findBreakpoint(_ all: [(t: Double, board: Double, d: Double)]) -> (board: Double, distance: Double)? {
        let points = all.filter { $0.d >= 0 && $0.d <= LaneCalibration.pinsDistanceFt }
        // Work in "outward" units: larger means farther toward the outside gutter.
        let sign = hand == .right ? -1.0 : 1.0
        guard points.count >= 3,
              let index = points.indices.max(by: { sign * points[$0].board < sign * points[$1].board }),
              index > 0, index < points.count - 1 else { return nil }
        let extreme = points[index]
        let cameBack = points[index...].map { sign * (extreme.board - $0.board) }.max() ?? 0
        guard cameBack >= Self.minHookBackBoards else { return nil }
        let near = points.filter { abs($0.d - extreme.d) <= Self.breakpointRefineFt }
        if near.count >= 5, let fit = LeastSquares.parabola(near.map(\.d), near.map(\.board)),
           sign * fit.a < 0 {
            let d = -fit.b / (2 * fit.a)
            if abs(d - extreme.d) <= Self.breakpointRefineFt {
                return (fit.c - fit.b * fit.b / (4 * fit.a), d)
            }
        }
        return (extreme.board, extreme.d)
    }

    /// Per trajectory point: "release" behind the foul line, "skid" up to the breakpoint, "hook" after
    /// it (no breakpoint: "skid" throughout, the ball never turned).
    private func phases(breakpointDistance: Double?) -> [String?] {
        track.points.map { p in
            guard let d = p.distanceFt else { return nil }
            if d < 0 { return "release" }
            if let breakpointDistance, d >= breakpointDistance { return "hook" }
            return "skid"
        }
    }

    private mutating func markUncalibrated() {
        for name in ["launchSpeed", "impactSpeed"] { metrics.unavailable[name] = BowlingMessages.calibrateForSpeed }
        for name in ["foulLineBoard", "arrowBoard", "breakpointBoard", "breakpointDistance", "pocketBoard", "pocketOffset"] {
            metrics.unavailable[name] = BowlingMessages.calibrateForBoards
        }
        metrics.unavailable["entryAngle"] = BowlingMessages.calibrateForAngle
        metrics.unavailable["strikeProbability"] = BowlingMessages.calibrateForStrike
        metrics.phases = track.points.map { _ in nil }
    }

    // MARK: Rev rate

    private mutating func measureRevRate() {
        guard hasMarkerColor else {
            metrics.unavailable["revRate"] = BowlingMessages.noMarkerColor
            metrics.unavailable["revCategory"] = BowlingMessages.noMarkerColor
            return
        }
        let samples = track.points.compactMap { p in p.markerAngle.map { (time: p.time, angle: $0) } }
        switch RevRateEstimator.estimate(samples) {
        case .rpm(let rpm):
            // Categorised as reported (0.1 rpm), so 299.96 shown as "300" is not called a stroker.
            let reported = (rpm * 10).rounded() / 10
            metrics.revRate = reported
            metrics.revCategory = RevCategory(rpm: reported)
        case .notEnoughRotation:
            metrics.unavailable["revRate"] = BowlingMessages.rotationNotDetected
            metrics.unavailable["revCategory"] = BowlingMessages.rotationNotDetected
            metrics.flags.append(ShotFlag(code: "revRateFailed", message: BowlingMessages.revRateFailed))
        }
    }

    // MARK: Confidence and trajectory

    /// Mean point confidence (interpolated points count less), scaled down for very short paths.
    private func confidence() -> Double {
        guard !track.points.isEmpty else { return 0 }
        let mean = track.points.map(\.confidence).reduce(0, +) / Double(track.points.count)
        return min(1, max(0, mean * min(1, Double(track.points.count) / 10)))
    }

    private func trajectory() -> [TrajectoryPoint] {
        track.points.enumerated().map { i, p in
            TrajectoryPoint(t: p.time, x: p.x, y: p.y, board: p.board, distanceFt: p.distanceFt,
                            phase: i < metrics.phases.count ? metrics.phases[i] : nil, interpolated: p.interpolated)
        }
    }
}
