import SportKit

/// Cuts the ball's paths into shots (DOMAIN: several shots per video). A shot starts when the ball
/// moves steadily down-lane past the foul line (without calibration: steadily up the image) and
/// ends at the pins, in a gutter, or when the path is lost.
final class ShotSegmenter {
    /// Consecutive points moving down-lane that start a shot.
    static let startRun = 4
    /// Net movement over that run: feet (calibrated) or a share of the frame height (not).
    static let startDistanceFt = 0.5
    static let startShareOfHeight = 0.01
    /// A calibrated shot's run must begin this close to the foul line: a ball first seen far down
    /// the lane (the last shot's ball reappearing in the gutter channel, a ball on the return) is
    /// not a new shot.
    static let maxStartDistanceFt = 10.0
    /// Points kept while waiting for a shot to start (the bowler's approach can be long).
    static let pendingLimit = 120
    /// A shot tracked to within this many feet of the pins reached them (the pocket may be
    /// extrapolated over as much, DOMAIN).
    static let pinsReachTolerance = 5.0

    private let calibrated: Bool
    private let frameHeight: Double
    private var pending: [TrackPoint] = []
    private var shot: ShotTrack?
    /// The current path's shot is over; its ball (rolling into the pit) is ignored until the path ends.
    private var pathDone = false
    private(set) var shots: [ShotTrack] = []
    /// A shot is running: its path must not be dropped.
    var isShooting: Bool { shot != nil }

    init(calibrated: Bool, frameHeight: Int) {
        self.calibrated = calibrated
        self.frameHeight = Double(max(frameHeight, 1))
    }

    /// Appends a frame's new points; `gap` is how many of them fill a gap before the observation.
    func add(_ points: [TrackPoint], gap: Int) {
        guard !pathDone, !points.isEmpty else { return }
        if shot == nil {
            pending += points
            if pending.count > Self.pendingLimit { pending.removeFirst(pending.count - Self.pendingLimit) }
            guard let start = startIndex() else { return }
            shot = ShotTrack(points: Array(pending[start...]), calibrated: calibrated)
            pending.removeAll()
        } else {
            shot?.points += points
            if gap > BallPathTracker.silentGap {
                shot?.flags.append(ShotFlag(code: "trackingGap", message: BowlingMessages.longGap(frames: gap)))
            }
        }
        checkEnd()
    }

    /// The path was lost (or the video ended): a shot still running ends here.
    func endPath() {
        if var current = shot {
            if calibrated {
                let reached = current.points.compactMap(\.distanceFt).max() ?? 0
                if reached < LaneCalibration.pinsDistanceFt - Self.pinsReachTolerance {
                    current.end = .incomplete
                    current.flags.append(ShotFlag(code: "lostTracking", message: BowlingMessages.lostTracking))
                }
            }
            shots.append(current)
        }
        shot = nil
        pending.removeAll()
        pathDone = false
    }

    /// Recomputes every held point's time from its frame index (the timestamps went backwards).
    func retime(_ timeOf: (Int) -> Double) {
        for i in pending.indices { pending[i].time = timeOf(pending[i].frameIndex) }
        if var current = shot {
            for i in current.points.indices { current.points[i].time = timeOf(current.points[i].frameIndex) }
            shot = current
        }
    }

    /// Where the shot begins in `pending`: the start of the down-lane run that ends at the latest
    /// point, if that run is long enough and (calibrated) has crossed the foul line.
    private func startIndex() -> Int? {
        guard pending.count >= Self.startRun, let last = pending.last else { return nil }
        var first = pending.count - 1
        while first > 0, progress(pending[first - 1], pending[first]) > 0 { first -= 1 }
        guard pending.count - first >= Self.startRun else { return nil }
        if calibrated {
            guard let distance = last.distanceFt, distance >= 0,
                  let startDistance = pending[first].distanceFt, startDistance <= Self.maxStartDistanceFt else { return nil }
            return progress(pending[first], last) >= Self.startDistanceFt ? first : nil
        }
        return progress(pending[first], last) >= Self.startShareOfHeight * frameHeight ? first : nil
    }

    /// How far the ball moved down-lane from a to b: feet with calibration, pixels up the image without.
    private func progress(_ a: TrackPoint, _ b: TrackPoint) -> Double {
        if calibrated {
            guard let da = a.distanceFt, let db = b.distanceFt else { return 0 }
            return db - da
        }
        return a.y - b.y
    }

    private func checkEnd() {
        guard calibrated, var current = shot, let last = current.points.last(where: { !$0.interpolated }),
              let board = last.board, let distance = last.distanceFt else { return }
        if distance >= LaneCalibration.pinsDistanceFt {
            finish(current)
        } else if distance >= 0, board < LaneCalibration.rightEdgeBoard || board > LaneCalibration.leftEdgeBoard {
            current.end = .gutter
            finish(current)
        }
    }

    private func finish(_ current: ShotTrack) {
        shots.append(current)
        shot = nil
        pathDone = true
    }
}
