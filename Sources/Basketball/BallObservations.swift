/// Where the ball was in one frame.
struct BallPoint: Sendable, Equatable {
    var t: Double
    var frameIndex: Int
    var x: Double
    var y: Double
    var radius: Double
    /// From a detector box alone (no blob of the ball's colour agreed).
    var fromDetector: Bool
}

/// Picks one ball a frame out of the candidates and keeps the list of points.
///
/// While a path is fresh (last point at most `maxGap` ago) the candidate nearest the place the
/// last two points predict wins, if it is within reach; otherwise the largest candidate starts a
/// new path. A detector box is extra evidence: a candidate inside one is preferred, and a box alone
/// stands in for the ball in a frame where no blob was found (a ball against something of its
/// colour), near the path when there is one; a path held by boxes alone yields to the next blob.
struct BallObservations {
    static let maxGap = 0.25
    /// Fastest believable ball, feet per second, in rim widths (1.5 ft): 60 ft/s.
    static let maxSpeedRimWidthsPerSecond = 40.0

    private(set) var points: [BallPoint] = []
    private(set) var framesWithBall = 0
    /// Frames in which only a detector box showed the ball.
    private(set) var framesWithBallFromDetector = 0
    /// The last frame's ball was the only blob of its colour within reach of a fresh path's
    /// prediction, on a path colour was holding: a detector box could not have changed the pick.
    private(set) var followedByColour = false

    mutating func add(candidates: [BallCandidate], boxes: [BallBox], time: Double, frameIndex: Int, expectedRadius: Double?) {
        let usableBoxes = boxes.filter { box in
            box.x1.isFinite && box.x2.isFinite && box.y1.isFinite && box.y2.isFinite && box.confidence.isFinite
                && box.x2 > box.x1 && box.y2 > box.y1 && box.confidence > 0
        }
        let prediction = predicted(at: time)
        let reach = prediction.map { reachAt(time: time, radius: $0.radius, expectedRadius: expectedRadius) }
        var best: (point: BallPoint, score: Double)?
        var candidatesInReach = 0
        let onColourPath = prediction != nil && points.last?.fromDetector == false
        for candidate in candidates {
            let inBox = usableBoxes.contains { $0.x1 <= candidate.x && candidate.x <= $0.x2 && $0.y1 <= candidate.y && candidate.y <= $0.y2 }
            var score: Double
            // A path carried by detector boxes alone gives way to any blob of the ball's colour:
            // a stray box must not hold the track away from the ball.
            if let prediction, let reach, onColourPath {
                let d = distance(candidate.x, candidate.y, prediction.x, prediction.y)
                guard d <= reach else { continue }
                candidatesInReach += 1
                score = d
            } else {
                // No fresh path: the largest blob (smaller score is better).
                score = -candidate.area
            }
            if inBox { score = score > 0 ? score * 0.5 : score * 2 }
            if best.map({ score < $0.score }) ?? true {
                best = (BallPoint(t: time, frameIndex: frameIndex, x: candidate.x, y: candidate.y, radius: candidate.radius,
                                  fromDetector: false), score)
            }
        }
        if best == nil, let box = bestBox(usableBoxes, prediction: prediction, reach: reach, expectedRadius: expectedRadius) {
            best = (BallPoint(t: time, frameIndex: frameIndex, x: (box.x1 + box.x2) / 2, y: (box.y1 + box.y2) / 2,
                              radius: max(box.x2 - box.x1, box.y2 - box.y1) / 2, fromDetector: true), 0)
        }
        followedByColour = onColourPath && candidatesInReach == 1
        guard let best else { return }
        points.append(best.point)
        framesWithBall += 1
        if best.point.fromDetector { framesWithBallFromDetector += 1 }
    }

    /// Re-times every point with `clock(frameIndex)` (the tracker switched to the frame clock).
    mutating func retime(_ clock: (Int) -> Double) {
        for i in points.indices { points[i].t = clock(points[i].frameIndex) }
    }

    private func predicted(at time: Double) -> (x: Double, y: Double, radius: Double)? {
        guard let last = points.last, time - last.t <= Self.maxGap, time >= last.t else { return nil }
        let dt = time - last.t
        if points.count >= 2 {
            let before = points[points.count - 2]
            let span = last.t - before.t
            if span > 0, span <= Self.maxGap {
                return (last.x + (last.x - before.x) / span * dt, last.y + (last.y - before.y) / span * dt, last.radius)
            }
        }
        return (last.x, last.y, last.radius)
    }

    /// How far from the prediction a candidate may be: a few radii, plus what a fast ball's change
    /// of direction (a bounce off the rim or the floor) adds over the time since the last point.
    private func reachAt(time: Double, radius: Double, expectedRadius: Double?) -> Double {
        let r = expectedRadius ?? radius
        let dt = max(0, time - (points.last?.t ?? time))
        let rimWidth = r / RimLine.ballRadiusOverRimWidth
        return 4 * r + Self.maxSpeedRimWidthsPerSecond * rimWidth * dt
    }

    private func bestBox(_ boxes: [BallBox], prediction: (x: Double, y: Double, radius: Double)?, reach: Double?,
                         expectedRadius: Double?) -> BallBox? {
        boxes.filter { box in
            let radius = max(box.x2 - box.x1, box.y2 - box.y1) / 2
            if let expectedRadius, !(0.45 * expectedRadius...2.2 * expectedRadius).contains(radius) { return false }
            if let prediction, let reach {
                return distance((box.x1 + box.x2) / 2, (box.y1 + box.y2) / 2, prediction.x, prediction.y) <= reach
            }
            return true
        }.max { $0.confidence < $1.confidence }
    }
}

@inline(__always) func distance(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> Double {
    ((x1 - x2) * (x1 - x2) + (y1 - y2) * (y1 - y2)).squareRoot()
}
