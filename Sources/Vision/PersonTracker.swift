/// Follows people from frame to frame by box overlap, so each player keeps one track id for as
/// long as they stay in view.
///
/// Each frame's person boxes are matched to the tracks greedily, highest IoU first, against where
/// each track is expected to be (its last box moved by its recent motion, so a runner does not
/// outpace their own box); what is left is then matched by centre distance, nearest first, within
/// half the person's usual size (the larger side of their box, smoothed), a reach that grows the
/// longer the track has gone unseen: a sudden sprint, or a player reappearing from behind another
/// (at first only partly visible, so with a much smaller box). A matched track takes
/// the new box; a confident unmatched box starts a new track; a track unseen for more than
/// `maxMissedFrames` sampled frames ends, and its id is never reused. Plain value type: copy it to
/// branch, one owner updates it.
public struct PersonTracker: Sendable {
    public struct Settings: Sendable, Equatable {
        /// Least IoU between a track's expected box and a detection for them to match.
        public var minIoU = 0.2
        /// Otherwise, the most their centres may be apart, as a share of the person's usual size…
        public var maxCentreDistance = 0.5
        /// …growing by this share of it for each frame the track has gone unseen.
        public var reachGrowthPerMissedFrame = 0.2
        /// Least confidence for an unmatched detection to start a track (weaker ones may only extend one).
        public var newTrackConfidence = 0.5
        /// Sampled frames a track may go undetected (e.g. hidden behind the net) before it ends.
        public var maxMissedFrames = 15

        public init() {}
    }

    /// A person this frame: a track id with the box where they are.
    public struct TrackedPerson: Sendable, Equatable {
        public var trackId: Int
        /// The detection's box, or the expected box when the detector missed them this frame.
        public var box: BoundingBox
        /// This frame's detection; nil while the track coasts through a missed frame.
        public var detection: Detection?
        /// Frames in a row without a detection (0 when detected this frame).
        public var missedFrames: Int
    }

    private struct Track {
        var id: Int
        var box: BoundingBox
        /// Centre motion per sampled frame, smoothed.
        var velocityX = 0.0, velocityY = 0.0
        var missed = 0
        /// The larger side of the person's box, smoothed: a box cut by an occluder or the frame's
        /// edge for a frame or two does not shrink it much.
        var size: Double

        init(id: Int, box: BoundingBox) {
            self.id = id
            self.box = box
            self.size = max(box.width, box.height)
        }

        /// The person was seen at `box` this frame.
        mutating func take(_ box: BoundingBox) {
            let gap = Double(missed + 1)
            let moveX = (box.centerX - self.box.centerX) / gap, moveY = (box.centerY - self.box.centerY) / gap
            // Smoothed so one jittery box does not throw the next expectation off.
            velocityX = 0.5 * velocityX + 0.5 * moveX
            velocityY = 0.5 * velocityY + 0.5 * moveY
            self.box = box
            size = 0.7 * size + 0.3 * max(box.width, box.height)
            missed = 0
        }

        /// Where the person is expected `frames` sampled frames after the last detection.
        func predicted(_ frames: Int) -> BoundingBox {
            box.offsetBy(dx: velocityX * Double(frames), dy: velocityY * Double(frames))
        }
    }

    public let settings: Settings
    private var tracks: [Track] = []
    private var nextId = 1

    public init(settings: Settings = Settings()) {
        self.settings = settings
    }

    /// Advances one sampled frame with that frame's person detections; returns every live track
    /// (detected or coasting), ordered by track id.
    public mutating func update(with people: [Detection]) -> [TrackedPerson] {
        var pairs: [(iou: Double, track: Int, detection: Int)] = []
        for (t, track) in tracks.enumerated() {
            let expected = track.predicted(track.missed + 1)
            for (d, person) in people.enumerated() {
                let overlap = expected.iou(person.box)
                if overlap >= settings.minIoU { pairs.append((overlap, t, d)) }
            }
        }
        pairs.sort { $0.iou != $1.iou ? $0.iou > $1.iou : ($0.track, $0.detection) < ($1.track, $1.detection) }

        var matchedDetection = [Int?](repeating: nil, count: tracks.count)
        var detectionTaken = [Bool](repeating: false, count: people.count)
        for pair in pairs where matchedDetection[pair.track] == nil && !detectionTaken[pair.detection] {
            matchedDetection[pair.track] = pair.detection
            detectionTaken[pair.detection] = true
        }
        var near: [(distance: Double, track: Int, detection: Int)] = []
        for (t, track) in tracks.enumerated() where matchedDetection[t] == nil {
            let expected = track.predicted(track.missed + 1)
            let reach = settings.maxCentreDistance * track.size * (1 + settings.reachGrowthPerMissedFrame * Double(track.missed))
            for (d, person) in people.enumerated() where !detectionTaken[d] {
                let distance = ((person.box.centerX - expected.centerX) * (person.box.centerX - expected.centerX)
                    + (person.box.centerY - expected.centerY) * (person.box.centerY - expected.centerY)).squareRoot()
                if distance <= reach { near.append((distance, t, d)) }
            }
        }
        near.sort { $0.distance != $1.distance ? $0.distance < $1.distance : ($0.track, $0.detection) < ($1.track, $1.detection) }
        for pair in near where matchedDetection[pair.track] == nil && !detectionTaken[pair.detection] {
            matchedDetection[pair.track] = pair.detection
            detectionTaken[pair.detection] = true
        }

        var result: [TrackedPerson] = []
        var survivors: [Track] = []
        for (t, var track) in tracks.enumerated() {
            if let d = matchedDetection[t] {
                track.take(people[d].box)
                result.append(TrackedPerson(trackId: track.id, box: track.box, detection: people[d], missedFrames: 0))
            } else {
                track.missed += 1
                guard track.missed <= settings.maxMissedFrames else { continue }
                result.append(TrackedPerson(trackId: track.id, box: track.predicted(track.missed),
                                            detection: nil, missedFrames: track.missed))
            }
            survivors.append(track)
        }
        for (d, person) in people.enumerated() where !detectionTaken[d] && person.confidence >= settings.newTrackConfidence {
            let track = Track(id: nextId, box: person.box)
            nextId += 1
            survivors.append(track)
            result.append(TrackedPerson(trackId: track.id, box: person.box, detection: person, missedFrames: 0))
        }
        tracks = survivors
        return result.sorted { $0.trackId < $1.trackId }
    }

    /// Advances one sampled frame on which no detector ran: the tracks in `boxes` (by track id) were
    /// followed by their landmarks to those boxes, the others coast as through a missed detection.
    /// Keeps each track's box and motion current, so the next detection matches the same ids.
    public mutating func follow(_ boxes: [Int: BoundingBox]) {
        var survivors: [Track] = []
        for var track in tracks {
            if let box = boxes[track.id] {
                track.take(box)
            } else {
                track.missed += 1
                guard track.missed <= settings.maxMissedFrames else { continue }
            }
            survivors.append(track)
        }
        tracks = survivors
    }

    /// The ids of the tracks alive now.
    public var liveTrackIds: Set<Int> { Set(tracks.map(\.id)) }
}
