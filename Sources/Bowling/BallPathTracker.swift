/// Follows one ball from frame to frame (seed 003 "Tracking Thresholds"): picks the candidate
/// nearest the motion prediction and fills short gaps.
///
/// The position reported is the detection's, not seed 003's 0.6 blend with the prediction: a
/// constant-velocity prediction lags a hooking ball, and blending it in moved the measured
/// breakpoint ~0.5 ft down-lane and the pocket board ~0.2 boards on the rendered clips
/// (docs/DOMAIN.md). The prediction still decides which blob is the ball.
final class BallPathTracker {
    /// Gaps up to this many frames are filled silently (seed 003 `maxFrameGap`).
    static let silentGap = 5
    /// Longer gaps end the path (seed 003 `maxOcclusionFrames`).
    static let maxGap = 10
    /// A path that is not (yet) a shot and barely moves gives way to a ball-like blob elsewhere
    /// seen this many frames in a row, so a still, ball-coloured object cannot hold the tracker while
    /// the real ball rolls past.
    static let rivalFramesToSwitch = 3
    /// "Barely moves": under this share of its radius per frame.
    static let stillSpeedPerRadius = 0.25
    static let silentGapConfidence = 0.7
    static let flaggedGapConfidence = 0.4

    /// What one frame did to the path.
    struct Step {
        /// Points to append, oldest first: interpolated ones, then the new observation.
        var points: [TrackPoint] = []
        /// Frames filled in before the observation.
        var gap = 0
        /// The previous path ended (lost, or a new ball was picked up too far from it).
        var endedPath = false
    }

    private struct Observation {
        var x: Double, y: Double, radius: Double, frameIndex: Int
    }

    /// Raw detections behind the velocity estimate: a 3-frame baseline halves the noise a
    /// 1-frame difference would put into the prediction.
    static let velocityBaseline = 3

    private let toLane: (Double, Double) -> (board: Double, distanceFt: Double)?
    /// The image radius of a ball touching the lane at an image point, from the calibration; nil
    /// without one (the blob's own radius is used then).
    private let ballRadiusAt: (Double, Double) -> Double?
    /// The latest raw detections of this path, oldest first (at most `velocityBaseline` + 1).
    private var history: [Observation] = []
    private var latest: Observation? { history.last }
    private var lastPoint: TrackPoint?
    private var rivalFrames = 0

    init(toLane: @escaping (Double, Double) -> (board: Double, distanceFt: Double)?,
         ballRadiusAt: @escaping (Double, Double) -> Double? = { _, _ in nil }) {
        self.toLane = toLane
        self.ballRadiusAt = ballRadiusAt
        history.reserveCapacity(Self.velocityBaseline + 2)
    }

    var isFollowing: Bool { latest != nil }

    /// One frame's candidates. `time` is already corrected (never going backwards). `mayAbandon`:
    /// the path is not part of a running shot, so it may be dropped for a rival.
    func step(_ candidates: [BallCandidate], time: Double, frameIndex: Int, mayAbandon: Bool = true) -> Step {
        var step = Step()
        if let latest, frameIndex - latest.frameIndex - 1 > Self.maxGap {
            endPath()
            step.endedPath = true
        }
        guard let latest else {
            // A new path starts from the biggest (nearest) ball-like blob.
            if let first = candidates.max(by: { $0.area < $1.area }) {
                step.points = [observe(first, time: time, frameIndex: frameIndex)]
            }
            return step
        }
        let frames = Double(frameIndex - latest.frameIndex)
        var velocity = (x: 0.0, y: 0.0)
        if let oldest = history.first, oldest.frameIndex < latest.frameIndex {
            let span = Double(latest.frameIndex - oldest.frameIndex)
            velocity = ((latest.x - oldest.x) / span, (latest.y - oldest.y) / span)
        }
        let predicted = (x: latest.x + velocity.x * frames, y: latest.y + velocity.y * frames)
        // Accept a ball within a few radii of the prediction, more the longer it has been hidden.
        let speed = (velocity.x * velocity.x + velocity.y * velocity.y).squareRoot()
        let gate = 4 * latest.radius + speed * frames
        var rival: BallCandidate?
        for candidate in candidates where distance(candidate, predicted) > gate && candidate.area > (rival?.area ?? 0) {
            rival = candidate
        }
        if mayAbandon, rival != nil, speed < Self.stillSpeedPerRadius * latest.radius { rivalFrames += 1 } else { rivalFrames = 0 }
        if rivalFrames >= Self.rivalFramesToSwitch, let rival {
            endPath()
            step.endedPath = true
            step.points = [observe(rival, time: time, frameIndex: frameIndex)]
            return step
        }
        let nearest = candidates.min { distance($0, predicted) < distance($1, predicted) }
        guard let nearest, distance(nearest, predicted) <= gate else {
            if frameIndex - latest.frameIndex > Self.maxGap {
                endPath()
                step.endedPath = true
            }
            return step
        }
        let point = observe(nearest, time: time, frameIndex: frameIndex)
        step.gap = frameIndex - latest.frameIndex - 1
        if step.gap > 0, let before = lastPoint {
            step.points = interpolate(from: before, to: point, missing: step.gap)
        }
        step.points.append(point)
        lastPoint = point
        return step
    }

    /// Restarts: the next candidate begins a new path.
    func endPath() {
        history.removeAll(keepingCapacity: true)
        lastPoint = nil
        rivalFrames = 0
    }

    private func observe(_ candidate: BallCandidate, time: Double, frameIndex: Int) -> TrackPoint {
        let x = candidate.x
        if history.count > Self.velocityBaseline { history.removeFirst() }
        history.append(Observation(x: candidate.x, y: candidate.y, radius: candidate.radius, frameIndex: frameIndex))
        let contactY = contact(x: x, centreY: candidate.y, blobRadius: candidate.radius)
        let lane = toLane(x, contactY)
        let point = TrackPoint(time: time, frameIndex: frameIndex, x: x, y: contactY, board: lane?.board,
                               distanceFt: lane?.distanceFt, markerAngle: candidate.markerAngle)
        if lastPoint == nil { lastPoint = point }
        return point
    }

    /// Where the ball touches the lane: one radius below the blob's centre. The blob's edges are
    /// eaten by the colour tolerance and by 4:2:0 chroma (about a pixel, which near the pins is half
    /// a foot), but its centre is not, so with a calibration the radius is the ball's true size at
    /// that spot (4.25 in); two fixed-point steps settle it.
    private func contact(x: Double, centreY: Double, blobRadius: Double) -> Double {
        var contactY = centreY + blobRadius
        for _ in 0..<2 {
            guard let radius = ballRadiusAt(x, contactY), radius.isFinite, radius > 0, radius < 4 * blobRadius + 4 else { break }
            contactY = centreY + radius
        }
        return contactY
    }

    private func interpolate(from a: TrackPoint, to b: TrackPoint, missing: Int) -> [TrackPoint] {
        let confidence = missing <= Self.silentGap ? Self.silentGapConfidence : Self.flaggedGapConfidence
        return (1...missing).map { k in
            let f = Double(k) / Double(missing + 1)
            func mix(_ u: Double, _ v: Double) -> Double { u + (v - u) * f }
            var board: Double?, distance: Double?
            if let ab = a.board, let bb = b.board { board = mix(ab, bb) }
            if let ad = a.distanceFt, let bd = b.distanceFt { distance = mix(ad, bd) }
            return TrackPoint(time: mix(a.time, b.time), frameIndex: a.frameIndex + k, x: mix(a.x, b.x), y: mix(a.y, b.y),
                              board: board, distanceFt: distance, interpolated: true, confidence: confidence)
        }
    }

    private func distance(_ c: BallCandidate, _ p: (x: Double, y: Double)) -> Double {
        ((c.x - p.x) * (c.x - p.x) + (c.y - p.y) * (c.y - p.y)).squareRoot()
    }
}
