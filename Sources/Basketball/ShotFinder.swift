/// Cuts the ball's points into attempts (DOMAIN.md "Basketball"): a flight whose centre rises at
/// least a ball's radius above the rim, traced back to the release (where the path stops fitting
/// a ballistic arc), released going up and toward the hoop from outside the hoop's own region, and
/// coming down to the rim's height near the hoop. A dribble or a pass never rises above the rim; a
/// ball bouncing up off the rim starts at the hoop and belongs to the attempt before it.
struct ShotFinder {
    /// Net depth below the rim, in rim widths: nets hang 15–18 in; the rim is 18 in.
    static let netDepthRimWidths = 1.0
    /// How far from the rim's ends an attempt may come down (an airball short or long), in rim widths.
    static let arrivalReachRimWidths = 3.0
    /// At most this long between the ball reaching the rim and the attempt's end.
    static let maxSettleSeconds = 3.0

    let rim: RimLine
    let frameRate: Double
    let threePointDistanceFt: Double
    /// The frame's size, for `ShotReview.atFrameEdge` (nil: not known, no such reason).
    var frameWidth: Int? = nil
    var frameHeight: Int? = nil

    var rimWidth: Double { rim.widthPixels }
    var ballRadius: Double { rim.expectedBallRadius }
    /// Image pixels per second² of a falling ball in the rim's plane.
    var gravity: Double { BallisticFit.gravityFeetPerSecondSquared * rim.pixelsPerFoot }
    /// How far a point may lie from the arc and still be on it: the centre's measuring error.
    var tolerance: Double { max(2.5, 0.3 * ballRadius) }

    func shots(in points: [BallPoint]) -> [BasketballShot] {
        var shots: [BasketballShot] = []
        for path in paths(points) {
            var from = path.startIndex
            while let shot = nextShot(in: path, from: from) {
                from = shot.end + 1
                if let found = shot.shot {
                    var numbered = found
                    numbered.shotNumber = shots.count + 1
                    shots.append(numbered)
                }
            }
        }
        return shots
    }

    /// Splits the points where the ball was lost for more than `BallObservations.maxGap`, unless
    /// it was only out of sight in flight (see `splits`).
    func paths(_ points: [BallPoint]) -> [ArraySlice<BallPoint>] {
        var result: [ArraySlice<BallPoint>] = []
        var start = 0
        for i in points.indices.dropFirst() where splits(points, at: i) {
            result.append(points[start..<i])
            start = i
        }
        if start < points.count { result.append(points[start..<points.count]) }
        return result
    }

    /// Whether the path breaks between points i − 1 and i: the clock went back, or the ball was
    /// lost for longer than `BallObservations.maxGap`, except where it flew out of sight above the
    /// rim (over the frame's top, behind a banner, too blurred to see) and came back on the same
    /// ballistic arc: the last points before and the first after, in flight above the rim and
    /// seen whole, fit one flight.
    func splits(_ points: [BallPoint], at i: Int) -> Bool {
        let gap = points[i].t - points[i - 1].t
        guard gap >= 0 else { return true }
        guard gap > BallObservations.maxGap else { return false }
        if gap <= Self.maxNetPassageSeconds, passesThroughTheNet(from: points[i - 1], to: points[i]) { return false }
        guard gap <= Self.maxHiddenFlightSeconds else { return true }
        // A ball cut by the frame's edge is smaller than a ball, and its centre is off.
        let inFlight = { (p: BallPoint) in self.isAboveRim(p) && p.radius >= 0.7 * self.ballRadius }
        let before = points[..<i].suffix(Self.arcPointsEachSide).filter(inFlight)
        let after = points[i...].prefix(Self.arcPointsEachSide).filter(inFlight)
        let around = before + after
        guard before.count >= 2, after.count >= 2, around.count >= 5, let fit = BallisticFit(around[...], gravity: gravity) else { return true }
        return around.contains { fit.residual($0) > 2 * tolerance }
    }

    /// Whether the ball, lost between `a` and `b`, went down through the hoop: last seen at the
    /// rim between its ends (the net's cords cut it up and its shade darkens it), found again
    /// lower, below the rim and within the net's reach sideways. No other way out of sight there
    /// comes back under the hoop.
    func passesThroughTheNet(from a: BallPoint, to b: BallPoint) -> Bool {
        let slack = ShotJudge.netSlackRimWidths * rimWidth
        let inHoop = { (p: BallPoint) in p.x >= self.rim.left.x - slack && p.x <= self.rim.right.x + slack }
        let rimA = rim.y(atX: a.x), rimB = rim.y(atX: b.x)
        return inHoop(a) && inHoop(b) && a.y >= rimA - 2 * ballRadius && a.y <= rimA + Self.netDepthRimWidths * rimWidth
            && b.y > rimB && b.y > a.y
    }

    /// How much further from the rim-gravity arc than from a free one a point may lie.
    static let fixedGravitySlack = 1.5
    /// Longest a ball may be hidden in the net on its way through.
    static let maxNetPassageSeconds = 0.6
    /// Longest a ball may be out of sight within one flight: a high arc's top above the frame.
    static let maxHiddenFlightSeconds = 1.2
    /// Points looked at either side of a gap: those in flight must lie on one arc to bridge it.
    static let arcPointsEachSide = 4

    /// The next flight above the rim at or after `from`: an attempt, or nil as `shot` when the flight
    /// is not one; `end` is the last index it used. nil when no flight is left.
    func nextShot(in path: ArraySlice<BallPoint>, from: Int) -> (shot: BasketballShot?, end: Int)? {
        var a = from
        while a < path.endIndex && !isAboveRim(path[a]) { a += 1 }
        guard a < path.endIndex else { return nil }
        var e = a
        var apex = a
        while e < path.endIndex && isAboveRim(path[e]) {
            if path[e].y < path[apex].y { apex = e }
            e += 1
        }
        guard let release = releaseIndex(in: path, apex: apex, lowerBound: from),
              let fit = BallisticFit(path[release...apex], gravity: gravity) else { return (nil, e - 1) }
        let r = path[release]
        let towardHoop = (rim.centre.x - r.x) * fit.horizontalVelocity > 0 || abs(r.x - rim.centre.x) <= rimWidth
        guard fit.verticalVelocity(at: r.t) < 0, towardHoop, !isInHoopRegion(r), apex - release >= 2 else { return (nil, e - 1) }
        // Arrival, near the hoop: the ball touches the rim (it may bounce up again from there) or
        // comes down to a ball's radius above the rim's height.
        var k = apex + 1
        while k < path.endIndex && path[k].y < rim.y(atX: path[k].x) - ballRadius && distanceToRim(path[k]) > touchDistance { k += 1 }
        guard k < path.endIndex else { return (nil, path.endIndex - 1) }
        let reach = Self.arrivalReachRimWidths * rimWidth
        guard path[k].x >= rim.left.x - reach, path[k].x <= rim.right.x + reach else { return (nil, k) }
        let rimTime = distanceToRim(path[k]) <= touchDistance ? path[k].t
            : crossingTime(path[k - 1], path[k], level: rim.y(atX: path[k].x) - ballRadius)
        let end = attemptEnd(in: path, from: k, rimTime: rimTime)
        let verdict = ShotJudge(rim: rim).verdict(path[apex...end])
        let distanceFt = abs(r.x - rim.centre.x) / rim.pixelsPerFoot
        let review = reasons(path, release: release, apex: apex, arrival: k, end: end, rimTime: rimTime,
                             verdict: verdict, distanceFt: distanceFt)
        let shot = BasketballShot(
            shotNumber: 0, releaseTime: r.t, rimTime: rimTime, made: verdict.made,
            shotType: distanceFt >= threePointDistanceFt ? .threePoint : .twoPoint, distanceFt: distanceFt,
            confidence: (ShotConfidence.value(review: review) * 100).rounded() / 100,
            releasePoint: FramePoint(x: r.x, y: r.y),
            trajectory: path[release...end].map { ShotPathPoint(t: $0.t, x: $0.x, y: $0.y) }, review: review)
        return (shot, end)
    }

    /// The ball's measured centre this near the rim's line touches it: a radius, half again for the
    /// sampling, and the band masked around the rim (a ball on the rim loses its cells in the band,
    /// which moves its box's centre away from the rim).
    var touchDistance: Double { 1.5 * ballRadius + BallBlobFinder.bandHalfHeight(rim) }

    /// From the ball's centre to the nearest point of the segment between the rim's ends.
    func distanceToRim(_ p: BallPoint) -> Double {
        let x = min(max(p.x, rim.left.x), rim.right.x)
        return distance(p.x, p.y, x, rim.y(atX: x))
    }

    func isAboveRim(_ p: BallPoint) -> Bool { p.y < rim.y(atX: p.x) - ballRadius }

    /// Around the rim and the board above it: a flight starting here is a bounce off the rim or
    /// the board, not a release.
    func isInHoopRegion(_ p: BallPoint) -> Bool {
        abs(p.x - rim.centre.x) <= 1.5 * rimWidth && p.y >= rim.centre.y - 3 * rimWidth && p.y <= rim.centre.y + 1.5 * rimWidth
    }

    /// Walks back from the apex while each earlier point still lies on the arc the later ones fit:
    /// the rim's fixed gravity while few points are known (a free curvature from a few pixel-rounded
    /// points near the apex is noise), then a free arc (`FreeArc`), which follows a long flight the
    /// camera sees in perspective.
    func releaseIndex(in path: ArraySlice<BallPoint>, apex: Int, lowerBound: Int) -> Int? {
        let lowest = max(lowerBound, path.startIndex)
        var j = apex
        // Start from the points just before the apex (the highest, surely in flight).
        while j > lowest && apex - j < 2 { j -= 1 }
        guard apex - j >= 2 else { return nil }
        while j > lowest {
            let earlier = path[j - 1]
            // The rim's gravity is not the flight's in perspective: its arc may be off by more.
            let residual: Double
            if let free = FreeArc(path[j...apex], gravity: gravity) {
                residual = free.residual(earlier)
            } else if let fit = BallisticFit(path[j...apex], gravity: gravity) {
                residual = fit.residual(earlier) / Self.fixedGravitySlack
            } else {
                return nil
            }
            guard path[j].t - earlier.t <= BallObservations.maxGap, residual <= tolerance else { break }
            j -= 1
        }
        return j
    }

    /// After the ball reached the rim: the first point below the net, or the last before the path
    /// ends or `maxSettleSeconds` pass.
    func attemptEnd(in path: ArraySlice<BallPoint>, from k: Int, rimTime: Double) -> Int {
        var end = k
        while end < path.endIndex - 1 {
            if path[end].y > rim.y(atX: path[end].x) + Self.netDepthRimWidths * rimWidth { break }
            if path[end + 1].t > rimTime + Self.maxSettleSeconds { break }
            end += 1
        }
        return end
    }

    /// Why a person should look at the attempt (`ShotReview`, thresholds in `ShotReviewTuning`), in
    /// a fixed order: the ball hidden at the rim, a close made/missed call, a release near the
    /// three-point line, few points on the arc, a gap bridged in flight, the frame's edge.
    func reasons(_ path: ArraySlice<BallPoint>, release: Int, apex: Int, arrival: Int, end: Int, rimTime: Double,
                 verdict: ShotVerdict, distanceFt: Double) -> [ShotReview] {
        var review: [ShotReview] = []
        // Frames around the rim time, counted on the whole path (the attempt may end sooner).
        let window = ShotReviewTuning.rimWindowSeconds
        let expected = Int((2 * window * frameRate).rounded()) + 1
        let seen = min(expected, path.count { abs($0.t - rimTime) <= window + 0.25 / frameRate })
        if Double(seen) < ShotReviewTuning.rimSeenShare * Double(expected) {
            review.append(.hiddenAtRim(seen: seen, of: expected))
        }
        if let close = verdict.closeCall { review.append(.madeMissedClose(close)) }
        let band = ShotReviewTuning.threePointBand
        if threePointDistanceFt > 0, band.contains(distanceFt / threePointDistanceFt) {
            review.append(.nearThreePointLine(distanceFt: distanceFt, lineFt: threePointDistanceFt))
        }
        let arcPoints = apex - release + 1
        if arcPoints < ShotReviewTuning.minArcPoints { review.append(.fewArcPoints(arcPoints)) }
        let flight = path[release...arrival]
        let longest = zip(flight.dropLast(), flight.dropFirst()).map { $1.t - $0.t }.max() ?? 0
        if longest > BallObservations.maxGap { review.append(.flightGap(seconds: longest)) }
        if let frameWidth, let frameHeight {
            let margin = ShotReviewTuning.edgeBallRadii * ballRadius
            let atEdge = path[release...end].contains { p in
                p.x < margin || p.y < margin || p.x > Double(frameWidth - 1) - margin || p.y > Double(frameHeight - 1) - margin
            }
            if atEdge { review.append(.atFrameEdge()) }
        }
        return review
    }
}

/// When the segment from `a` to `b` crosses image height `level`, linearly between their times.
func crossingTime(_ a: BallPoint, _ b: BallPoint, level: Double) -> Double {
    guard b.y != a.y else { return b.t }
    let f = min(1, max(0, (level - a.y) / (b.y - a.y)))
    return a.t + f * (b.t - a.t)
}
