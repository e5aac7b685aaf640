import ReelworkCore

/// Scores an end from a video of the face: frames are looked at one by one (as decoded), only
/// those where the face is found whole and where it was in the frame before (a steady camera, no one
/// in front) count; arrows are followed from frame to frame by their face coordinates.
///
/// An arrow's arrival is the first steady frame it was seen in, from which it stayed (seen in every
/// later steady frame but at most `allowedMisses` of them); the end is scored from the arrows
/// present at the last steady frame, each at the mean of its positions.
public struct ArcheryVideoScorer: Sendable {
    /// Steady: the face's centre moved less than this share of its radius since the last frame,
    /// and its radius changed less than this share.
    public static let steadyTolerance = 0.02
    /// Two sightings this close (face radii) are the same arrow.
    public static let matchDistance = 0.05
    public static let allowedMisses = 1

    struct Track {
        var firstSeen: Double
        var positions: [(x: Double, y: Double)]
        var missed: Int
        var seenLast: Bool
        /// The finder's confidence, summed over the sightings, and how many of them saw a shaft, a
        /// shaft crossing another, a shaft alike at both ends, a shaft that may be a shadow.
        var confidenceSum: Double
        var shaftSightings: Int
        var crossingSightings = 0
        var endsAlikeSightings = 0
        var shadowSightings = 0

        var isShaft: Bool { 2 * shaftSightings >= positions.count }
        var mayBeShadow: Bool { 2 * shadowSightings > positions.count }
        /// Where the arrow is: the mean of its sightings (face coordinates).
        var meanPosition: (x: Double, y: Double) {
            let n = Double(max(1, positions.count))
            return (positions.reduce(0) { $0 + $1.x } / n, positions.reduce(0) { $0 + $1.y } / n)
        }

        /// The mean position's distance from the centre, in face radii.
        var meanDistance: Double { let p = meanPosition; return (p.x * p.x + p.y * p.y).squareRoot() }

        mutating func add(_ impact: ArrowImpact, at point: (x: Double, y: Double)) {
            positions.append(point)
            confidenceSum += impact.confidence
            shaftSightings += impact.isShaft ? 1 : 0
            crossingSightings += impact.crossesAnother ? 1 : 0
            endsAlikeSightings += impact.endsAlike ? 1 : 0
            shadowSightings += impact.mayBeShadow ? 1 : 0
        }

        /// Cues that most sightings agree on.
        func cues(crowd: (found: Int, shot: Int)?) -> ArrowCues {
            ArrowCues(isShaft: isShaft, crossesAnother: 2 * crossingSightings >= positions.count,
                      endsAlike: 2 * endsAlikeSightings >= positions.count, crowd: crowd)
        }
        var confidence: Double { confidenceSum / Double(max(1, positions.count)) }
    }

    public private(set) var framesSeen = 0
    public private(set) var steadyFrames = 0
    let options: ArcheryOptions
    var previous: TargetFace?
    var lastSteady: (face: TargetFace, time: Double)?
    var tracks = [Track]()
    /// The most ring boundaries any frame so far showed (`ringsNeeded`).
    var mostRingsFound = 0

    public init(options: ArcheryOptions) { self.options = options }

    /// Looks at one frame (in time order).
    public mutating func add(time: Double, image: ArcheryImage) {
        framesSeen += 1
        guard time.isFinite else { return }
        let working = WorkingImage(image)
        guard let found = try? FaceFinder.find(in: working) else { previous = nil; return }
        defer { previous = found.face }
        mostRingsFound = max(mostRingsFound, found.face.ringsFound)
        guard let before = previous, found.face.ringsFound >= Self.ringsNeeded(mostFound: mostRingsFound),
              Self.isSteady(before, found.face) else { return }
        steadyFrames += 1
        lastSteady = (found.face, time)
        let impacts = ArrowFinder.find(in: working, face: found, options: options)
        var matched = Set<Int>()
        for i in tracks.indices { tracks[i].seenLast = false }
        for impact in impacts {
            guard let p = found.face.faceCoordinates(pixelX: impact.pixelX, pixelY: impact.pixelY) else { continue }
            let best = tracks.indices.filter { !matched.contains($0) }.min { distance(tracks[$0], p) < distance(tracks[$1], p) }
            let target: Int
            if let best, distance(tracks[best], p) <= Self.matchDistance {
                target = best
            } else {
                tracks.append(Track(firstSeen: time, positions: [], missed: 0, seenLast: true, confidenceSum: 0, shaftSightings: 0))
                target = tracks.count - 1
            }
            matched.insert(target)
            tracks[target].seenLast = true
            tracks[target].add(impact, at: p)
        }
        for i in tracks.indices where !tracks[i].seenLast { tracks[i].missed += 1 }
        // A sighting that did not stay (a hand, a shadow) is forgotten.
        tracks.removeAll { $0.missed > Self.allowedMisses }
    }

    /// The end, with each arrow's arrival time (seconds, same order as `end.arrows`). Throws
    /// `needsPerson` when no two consecutive frames showed the whole face steadily.
    public func finish() throws -> ArcheryVideoResult {
        guard let last = lastSteady else {
            throw ReelworkError.needsPerson("No steady view of the whole target face in the video: film the face from a tripod, from within 35° of straight on, with no one in front of it")
        }
        let radius = options.arrowRadiusInFaceRadii
        var placed = [(arrow: DetectedArrow, time: Double)]()
        let candidates = ArrowCandidates.scorable(tracks.filter(\.seenLast), isShaft: \.isShaft, distance: \.meanDistance, arrowRadius: radius)
        let believed = ArrowCandidates.strongest(candidates, count: options.expectedArrowCount,
                                                 tier: { ArrowCandidates.tier(isShaft: $0.isShaft, distance: $0.meanDistance, mayBeShadow: $0.mayBeShadow) },
                                                 confidence: \.confidence)
        let crowd = options.expectedArrowCount.flatMap { believed.leftOut > 0 ? (found: $0 + believed.leftOut, shot: $0) : nil }
        for track in believed.kept {
            let (x, y) = track.meanPosition
            let pixel = last.face.pixel(faceX: x, faceY: y) ?? (x: .nan, y: .nan)
            let arrow = ArcheryScoring.arrow(faceX: x, faceY: y, pixel: pixel, box: BoundingBox(x: pixel.x, y: pixel.y, width: 0, height: 0),
                                             cues: track.cues(crowd: crowd), arrowRadius: radius)
            placed.append((arrow, track.firstSeen))
        }
        placed.sort { $0.arrow.clockPositionDeg < $1.arrow.clockPositionDeg }
        let end = ArcheryScoring.finish(face: last.face, arrows: placed.map(\.arrow), expected: options.expectedArrowCount,
                                        leftOut: believed.leftOut)
        return ArcheryVideoResult(end: end, arrivalTimes: placed.map(\.time), framesSeen: framesSeen, steadyFrames: steadyFrames)
    }

    /// Every frame in order, then `finish()`.
    public static func score(frames: [(time: Double, image: ArcheryImage)], options: ArcheryOptions) throws -> ArcheryVideoResult {
        var scorer = ArcheryVideoScorer(options: options)
        for frame in frames { scorer.add(time: frame.time, image: frame.image) }
        return try scorer.finish()
    }

    /// The ring boundaries a frame must show to be scored: at least the face finder's minimum, and
    /// at most one fewer than the best frame so far. A frame showing two fewer than the video can
    /// has part of the face hidden (someone in front of it) and would lose arrows; a dim video
    /// whose every frame shows only the minimum is still scored.
    static func ringsNeeded(mostFound: Int) -> Int { max(FaceFinder.minimumRings, mostFound - 1) }

    static func isSteady(_ a: TargetFace, _ b: TargetFace) -> Bool {
        let r = max(a.radiusPx, b.radiusPx)
        let dx = a.centerX - b.centerX, dy = a.centerY - b.centerY
        return (dx * dx + dy * dy).squareRoot() <= steadyTolerance * r && abs(a.radiusPx - b.radiusPx) <= steadyTolerance * r
    }

    private func distance(_ track: Track, _ point: (x: Double, y: Double)) -> Double {
        guard let p = track.positions.last else { return .infinity }
        let dx = p.x - point.x, dy = p.y - point.y
        return (dx * dx + dy * dy).squareRoot()
    }
}

/// An end scored from a video.
public struct ArcheryVideoResult: Sendable, Equatable {
    public var end: ArcheryResult
    /// Seconds, one per arrow in `end.arrows`' order.
    public var arrivalTimes: [Double]
    public var framesSeen: Int
    public var steadyFrames: Int

    /// The end's document with `arrows[i].arrivalTime` added, and `framesSeen`, `steadyFrames`.
    public func json() -> JSONValue {
        guard case .object(var fields) = end.json(), case .array(let arrows)? = fields["arrows"] else { return end.json() }
        fields["arrows"] = .array(zip(arrows, arrivalTimes).map { arrow, time in
            guard case .object(var a) = arrow else { return arrow }
            a["arrivalTime"] = ArcheryJSON.number(time, 1000)
            return .object(a)
        })
        fields["framesSeen"] = .number(Double(framesSeen))
        fields["steadyFrames"] = .number(Double(steadyFrames))
        return .object(fields)
    }
}
