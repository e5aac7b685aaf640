import Media
import ReelworkCore
import Vision

/// What happens to each sampled frame: detection (or following people by their landmarks), tracking,
/// pose; results into the recorder.
///
/// Two ways to find people (`VisionSettings.PersonDetection`):
/// - `.everySample`: the detector on every frame, each tracked person's crop around their box.
/// - `.tracked` (MediaPipe's way): each followed person's crop comes from their last pose's
///   alignment points; the detector runs on the first sample, after a sample where someone was
///   lost, while a track is not followed (`UnfollowedPeople`), and every `detectorRefreshSeconds`.
///   A frame's poses are judged when the next frame arrives (`settlePending`), so with a pose
///   thread the pose of one sample is estimated while the next one decodes; a person lost on a
///   sample has no pose there.
///
/// Without poses (basketball's `objects`), the detector runs on a sampled frame unless the sport's
/// own every-frame tracker says it is following what the detector would find
/// (`FrameConsumer.wantsDetections`); `.everySample` keeps it on every sample.
///
/// Holds no reference to the models (they are passed to each call), so the models can be released
/// as soon as the last frame is done, before the result document is built.
struct FramePass {
    let vision: VisionSettings
    let wantsPoses: Bool
    var tracker = PersonTracker()
    var recorder: VisionRecorder
    /// Pose model runs, including those for coasting tracks whose pose was not kept.
    var poseRuns = 0
    /// Detector runs: every sampled frame, unless people are followed by their landmarks.
    private(set) var detectorRuns = 0
    /// Sampled frames handled (the recorder holds detections only for those the detector saw).
    private(set) var framesHandled = 0
    /// Whether the detector ran on the last frame handled (the recorder's last boxes are its).
    private(set) var detectedLastFrame = false
    /// Set when poses are estimated on their own thread; nil: in line, frame by frame.
    var poseWorker: PoseWorker?
    /// The class id of people, when the detector's classes are COCO's.
    private let personClass: Int?
    /// People followed from sample to sample by their landmarks, by track id.
    private var followed: [Int: Followed] = [:]
    private var lastDetectionTime: Double?
    /// The last settled frame lost someone: the detector looks at the next one.
    private var lostSomeone = false
    /// Tracks nobody follows, and which of them the pose model has never seen.
    private var unfollowed = UnfollowedPeople()
    /// The poses asked for on the last frame, judged when the next one arrives.
    private var pending: PendingFrame?

    init(detector: ObjectDetector, vision: VisionSettings, wantsPoses: Bool) {
        self.vision = vision
        self.wantsPoses = wantsPoses
        // An 80-class detector is taken to be COCO's (YOLOv4, YOLOv8/11); a custom detector keeps all its classes.
        let coco = detector.layout.classes == 80
        recorder = VisionRecorder(classes: coco ? COCOClass.sportsObjects : nil)
        personClass = coco ? COCOClass.person : nil
    }

    /// Whether poses follow people from their last landmarks.
    private var followsPeople: Bool { wantsPoses && vision.personDetection == .tracked }

    /// `sportWantsDetections`: whether the sport's every-frame stage asks for the detector's boxes
    /// on this frame; nil where the plan has no such stage (without poses the detector then runs,
    /// its boxes being the result). With poses followed, the people decide when the detector runs
    /// and the every-frame stage gets the boxes of those frames.
    mutating func handle(_ frame: SampledFrame, with models: VisionModels, sportWantsDetections: Bool? = nil) throws {
        framesHandled += 1
        if !wantsPoses, vision.personDetection == .tracked, sportWantsDetections == false {
            detectedLastFrame = false
            return
        }
        guard followsPeople else { return try handleWithDetector(frame, with: models) }
        try settlePending()
        let detect = followed.isEmpty || lostSomeone || detectionDue(at: frame.time)
            || unfollowed.needDetector(followed: followed.count, liveTracks: tracker.liveTrackIds, limit: vision.maxPeoplePerFrame)
        var requests: [PoseRequest] = []
        if detect {
            let detections = try runDetector(on: frame, with: models)
            for person in Self.mostProminent(tracker.update(with: people(in: detections)), limit: vision.maxPeoplePerFrame) {
                // A person followed until now keeps their landmark crop; a new one is cropped around their box.
                let from = followed[person.trackId]
                guard let crop = from?.crop(at: frame.time) ?? PoseCrop(around: person.box) else { continue }
                requests.append(PoseRequest(trackId: person.trackId, box: person.box, detected: person.detection != nil,
                                            crop: crop, from: from))
            }
        } else {
            detectedLastFrame = false
            for id in followed.keys.sorted() {
                guard let from = followed[id], let crop = from.crop(at: frame.time) else { continue }
                requests.append(PoseRequest(trackId: id, box: nil, detected: false, crop: crop, from: from))
            }
        }
        pending = PendingFrame(time: frame.time, detected: detect, requests: requests,
                               poses: try estimate(requests, in: frame, with: models))
    }

    /// Collects what the pose worker estimated (and judges the last followed frame); call once,
    /// after the last frame.
    mutating func finishPoses() throws {
        try settlePending()
        guard let worker = poseWorker else { return }
        poseWorker = nil
        do { record(try worker.finish()) } catch { throw StageError(stage: .pose, underlying: error) }
    }

    // MARK: the detector on every sample

    private mutating func handleWithDetector(_ frame: SampledFrame, with models: VisionModels) throws {
        let detections = try runDetector(on: frame, with: models)
        guard wantsPoses else { return }
        let tracked = tracker.update(with: people(in: detections))
        for person in Self.mostProminent(tracked, limit: vision.maxPeoplePerFrame) {
            if let worker = poseWorker {
                var tensor = worker.tensor()
                guard let crop = models.pose.prepare(frame.image, personBox: person.box, into: &tensor) else {
                    worker.recycle(tensor)
                    continue
                }
                do {
                    try worker.submit(PoseWorker.Job(time: frame.time, trackId: person.trackId, box: person.box,
                                                     detected: person.detection != nil, crop: crop, tensor: tensor))
                } catch {
                    throw StageError(stage: .pose, underlying: error)
                }
                continue
            }
            let pose: Pose?
            do {
                pose = try models.pose.estimate(frame.image, personBox: person.box)
                poseRuns += 1
            } catch {
                throw StageError(stage: .pose, underlying: error)
            }
            guard let pose else { continue }
            keep(pose, trackId: person.trackId, box: person.box, detected: person.detection != nil, at: frame.time)
        }
        // Poses the thread has finished go into the compact recorder now, not at the end.
        if let worker = poseWorker { record(worker.drain()) }
    }

    private mutating func record(_ estimates: [PoseWorker.Estimate]) {
        poseRuns += estimates.count
        for e in estimates { keep(e.pose, trackId: e.trackId, box: e.box, detected: e.detected, at: e.time) }
    }

    // MARK: people followed by their landmarks

    /// One person's crop asked for on a frame: `from` is set when it came from their last pose.
    private struct PoseRequest {
        var trackId: Int
        /// The tracker's box on a frame the detector saw; nil on one it did not.
        var box: BoundingBox?
        var detected: Bool
        var crop: PoseCrop
        var from: Followed?
    }

    private struct PendingFrame {
        var time: Double
        var detected: Bool
        var requests: [PoseRequest]
        /// Estimated in line; empty while the pose thread has them.
        var poses: [Int: Pose]
    }

    /// Estimates the requested crops in line, or hands them to the pose thread (then returns none).
    private mutating func estimate(_ requests: [PoseRequest], in frame: SampledFrame, with models: VisionModels) throws -> [Int: Pose] {
        var poses: [Int: Pose] = [:]
        do {
            for request in requests {
                if let worker = poseWorker {
                    var tensor = worker.tensor()
                    guard models.pose.prepare(frame.image, crop: request.crop, into: &tensor) else {
                        worker.recycle(tensor)
                        continue
                    }
                    try worker.submit(PoseWorker.Job(time: frame.time, trackId: request.trackId, box: request.box ?? request.crop.box,
                                                     detected: request.detected, crop: request.crop, tensor: tensor))
                } else {
                    poses[request.trackId] = try models.pose.estimate(frame.image, crop: request.crop)
                    poseRuns += 1
                }
            }
        } catch {
            throw StageError(stage: .pose, underlying: error)
        }
        return poses
    }

    /// Judges the last frame's poses: a followed person is still there when the pose model's
    /// presence holds, their landmarks moved as a body can and no other followed crop found the
    /// same body; anyone else lost. Records what holds and moves the tracker on a frame the
    /// detector did not see.
    private mutating func settlePending() throws {
        guard let frame = pending else { return }
        pending = nil
        var poses = frame.poses
        if let worker = poseWorker {
            let estimates: [PoseWorker.Estimate]
            do { estimates = try worker.waitForAll() } catch { throw StageError(stage: .pose, underlying: error) }
            poseRuns += estimates.count
            for e in estimates { poses[e.trackId] = e.pose }
        }
        var kept: [Int: Pose] = [:], stillFollowed: [Int: Pose] = [:]
        var unseen: Set<Int> = []
        var lost = false
        for request in frame.requests {
            guard let pose = poses[request.trackId] else { continue }
            if let from = request.from {
                if pose.score >= Self.presenceThreshold, pose.landmarkBox != nil, let last = from.pose.alignment,
                   let next = pose.alignment, last.isPlausible(next: next, after: frame.time - from.time) {
                    stillFollowed[request.trackId] = pose
                } else {
                    lost = true
                }
            } else if let box = request.box {
                // Cropped around a box: kept as in the every-sample mode, followed when the model sees them.
                keep(pose, trackId: request.trackId, box: box, detected: request.detected, at: frame.time)
                if pose.score >= Self.presenceThreshold, pose.alignment != nil, pose.landmarkBox != nil {
                    kept[request.trackId] = pose
                } else if request.detected {
                    unseen.insert(request.trackId)
                }
            }
        }
        // Two crops that found the same body (one person walked in front of the other): which of
        // them it is cannot be told from the pose (keeping the one nearer its prediction swapped
        // identities on the bench's walkers), so both are left to the detector and the tracker.
        for (a, b) in Self.sameBody(stillFollowed) {
            stillFollowed[a] = nil
            stillFollowed[b] = nil
            lost = true
        }
        var boxes: [Int: BoundingBox] = [:]
        for request in frame.requests {
            guard let pose = stillFollowed[request.trackId], let box = request.box ?? pose.landmarkBox else { continue }
            boxes[request.trackId] = box
            keep(pose, trackId: request.trackId, box: box, detected: request.detected, at: frame.time)
        }
        if frame.detected { unfollowed.detectorRan(unseen: unseen) } else { tracker.follow(boxes) }
        var next: [Int: Followed] = [:]
        for (id, pose) in stillFollowed { next[id] = Followed(pose, at: frame.time, after: followed[id]) }
        for (id, pose) in kept { next[id] = Followed(pose, at: frame.time, after: nil) }
        followed = next
        unfollowed.followed(next.keys)
        lostSomeone = lost
    }

    /// The detector's turn: the first sample, and every `detectorRefreshSeconds` after its last run.
    private func detectionDue(at time: Double) -> Bool {
        guard let last = lastDetectionTime else { return true }
        return time - last >= vision.detectorRefreshSeconds - 1e-9
    }

    /// A person followed by their landmarks: their last pose, when it was found, and how fast its
    /// alignment centre moved from the sample before (pixels per second; zero when they were
    /// found by the detector). MediaPipe crops around the last frame's points as they are; between
    /// samples a tenth of a second apart a player moves far enough that the crop is moved on
    /// with them.
    struct Followed {
        var pose: Pose
        var time: Double
        var velocityX = 0.0, velocityY = 0.0

        init(_ pose: Pose, at time: Double, after previous: Followed?) {
            self.pose = pose
            self.time = time
            if let previous, let a = previous.pose.alignment, let b = pose.alignment, time > previous.time {
                velocityX = (b.centreX - a.centreX) / (time - previous.time)
                velocityY = (b.centreY - a.centreY) / (time - previous.time)
            }
        }

        /// The crop for a frame at `time`: around the last alignment points, moved on by the velocity.
        func crop(at time: Double) -> PoseCrop? {
            guard var a = pose.alignment else { return nil }
            let dx = velocityX * (time - self.time), dy = velocityY * (time - self.time)
            a.centreX += dx; a.scaleX += dx
            a.centreY += dy; a.scaleY += dy
            return PoseCrop(following: a)
        }
    }

    /// Pairs of followed people whose alignment centres are closer than `sameBodyDistance` of the
    /// larger body radius.
    static func sameBody(_ poses: [Int: Pose]) -> [(Int, Int)] {
        let ids = poses.keys.sorted()
        var pairs: [(Int, Int)] = []
        for (i, a) in ids.enumerated() {
            for b in ids[(i + 1)...] {
                guard let p = poses[a]?.alignment, let q = poses[b]?.alignment else { continue }
                if p.centreDistance(to: q) < sameBodyDistance * max(p.bodyRadius, q.bodyRadius) { pairs.append((a, b)) }
            }
        }
        return pairs
    }

    /// Two people's hips closer than this share of a body radius are one body to the pose model
    /// (two players standing side by side are a body's width, about 0.5 radii, apart or more).
    static let sameBodyDistance = 0.35

    // MARK: shared

    private mutating func runDetector(on frame: SampledFrame, with models: VisionModels) throws -> [Detection] {
        let detections: [Detection]
        do {
            detections = try models.detector.detect(frame.image)
        } catch {
            throw StageError(stage: .objects, underlying: error)
        }
        detectorRuns += 1
        lastDetectionTime = frame.time
        detectedLastFrame = true
        recorder.record(detections, at: frame.time)
        return detections
    }

    private func people(in detections: [Detection]) -> [Detection] {
        personClass.map { person in detections.filter { $0.classId == person } } ?? []
    }

    /// MediaPipe's rule: the pose model's presence below this means nobody is in the crop.
    static let presenceThreshold = 0.5

    /// A coasting track (detector missed them) only counts when the pose model still sees a person.
    private mutating func keep(_ pose: Pose, trackId: Int, box: BoundingBox, detected: Bool, at time: Double) {
        guard detected || pose.score >= Self.presenceThreshold else { return }
        recorder.record(pose, track: trackId, box: box, at: time)
    }

    /// Detected people before coasting ones, larger boxes first: the players near the camera.
    static func mostProminent(_ people: [PersonTracker.TrackedPerson], limit: Int) -> [PersonTracker.TrackedPerson] {
        guard people.count > limit else { return people }
        return Array(people.sorted { a, b in
            if (a.detection == nil) != (b.detection == nil) { return a.detection != nil }
            return a.box.area > b.box.area
        }.prefix(limit))
    }
}
