import Media
import ReelworkCore
import Vision

/// What happens to each sampled frame: detection (or following people by their landmarks), tracking,
/// pose; results into the recorder.
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

    init(detector: ObjectDetector, vision: VisionSettings, wantsPoses: Bool) {
        self.vision = vision
        self.wantsPoses = wantsPoses
        // An 80-class detector is taken to be COCO's (YOLOv4, YOLOv8/11); a custom detector keeps all its classes.
        let coco = detector.layout.classes == 80
        recorder = VisionRecorder(classes: coco ? COCOClass.sportsObjects : nil)
        personClass = coco ? COCOClass.person : nil
    }

    /// Whether poses follow people from their last landmarks (each crop needs the previous
    /// frame's pose, so poses are then estimated in line, not on their own thread).
    var followsPeople: Bool { wantsPoses && vision.personDetection == .tracked && poseWorker == nil }

    mutating func handle(_ frame: SampledFrame, with models: VisionModels) throws {
        framesHandled += 1
        var known: [Int: Pose] = [:]
        if followsPeople, !followed.isEmpty {
            let (found, lost) = try followAll(frame, with: models)
            // A track the tracker still holds but nobody follows (hidden behind another player a
            // moment ago) is looked for by the detector on every sample until it is found again
            // or its track ends.
            let missing = found.count < min(tracker.liveTrackCount, vision.maxPeoplePerFrame)
            if !lost, !missing, !detectionDue(at: frame.time) {
                detectedLastFrame = false
                var boxes: [Int: BoundingBox] = [:]
                for (id, pose) in found {
                    let box = pose.landmarkBox ?? followed[id]!.pose.landmarkBox!
                    boxes[id] = box
                    keep(pose, trackId: id, box: box, detected: false, at: frame.time)
                }
                tracker.follow(boxes)
                followed = Dictionary(uniqueKeysWithValues: found.map { id, pose in (id, Followed(pose, at: frame.time, after: followed[id])) })
                return
            }
            // The detector's turn, or someone was lost: the detector looks at this frame, and the
            // people still found keep the poses just estimated.
            known = found
        }
        try detect(frame, with: models, known: known)
    }

    /// The detector's turn: the first sample, and every `detectorRefreshSeconds` after its last run.
    private func detectionDue(at time: Double) -> Bool {
        guard let last = lastDetectionTime else { return true }
        return time - last >= vision.detectorRefreshSeconds - 1e-9
    }

    /// Each followed person's pose in a crop from their last alignment points; `lost` when anyone's
    /// presence fell or their landmarks jumped.
    private mutating func followAll(_ frame: SampledFrame, with models: VisionModels) throws -> (found: [Int: Pose], lost: Bool) {
        var found: [Int: Pose] = [:]
        var lost = false
        for id in followed.keys.sorted() {
            if let pose = try follow(id, in: frame, with: models) { found[id] = pose } else { lost = true }
        }
        // Two crops that found the same body (one person walked in front of the other): neither
        // pose can be trusted to be whose it was, so both are left to the detector and the tracker.
        for (a, b) in Self.sameBody(found) {
            found[a] = nil
            found[b] = nil
            lost = true
        }
        return (found, lost)
    }

    /// The pose of followed person `id` in `frame`, or nil when they are no longer where their last
    /// landmarks say.
    private mutating func follow(_ id: Int, in frame: SampledFrame, with models: VisionModels) throws -> Pose? {
        guard let last = followed[id], let alignment = last.pose.alignment, let crop = last.crop(at: frame.time) else { return nil }
        let pose: Pose
        do {
            pose = try models.pose.estimate(frame.image, crop: crop)
            poseRuns += 1
        } catch {
            throw StageError(stage: .pose, underlying: error)
        }
        guard pose.score >= Self.presenceThreshold, let next = pose.alignment, pose.landmarkBox != nil,
              alignment.isPlausible(next: next, after: frame.time - last.time) else { return nil }
        return pose
    }

    private mutating func detect(_ frame: SampledFrame, with models: VisionModels, known: [Int: Pose]) throws {
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
        guard wantsPoses else { return }

        let people = personClass.map { person in detections.filter { $0.classId == person } } ?? []
        let tracked = tracker.update(with: people)
        var stillFollowed: [Int: Followed] = [:]
        for person in Self.mostProminent(tracked, limit: vision.maxPeoplePerFrame) {
            let detected = person.detection != nil
            // A person followed until now keeps their landmark crop while it still finds them.
            if let pose = known[person.trackId] {
                keep(pose, trackId: person.trackId, box: person.box, detected: detected, at: frame.time)
                stillFollowed[person.trackId] = Followed(pose, at: frame.time, after: followed[person.trackId])
                continue
            }
            if let worker = poseWorker {
                var tensor = worker.tensor()
                guard let crop = models.pose.prepare(frame.image, personBox: person.box, into: &tensor) else {
                    worker.recycle(tensor)
                    continue
                }
                do {
                    try worker.submit(PoseWorker.Job(time: frame.time, trackId: person.trackId, box: person.box,
                                                     detected: detected, crop: crop, tensor: tensor))
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
            keep(pose, trackId: person.trackId, box: person.box, detected: detected, at: frame.time)
            if followsPeople, pose.score >= Self.presenceThreshold, pose.alignment != nil, pose.landmarkBox != nil {
                stillFollowed[person.trackId] = Followed(pose, at: frame.time, after: nil)
            }
        }
        if followsPeople { followed = stillFollowed }
        // Poses the thread has finished go into the compact recorder now, not at the end.
        if let worker = poseWorker { record(worker.drain()) }
    }

    /// Collects what the pose worker estimated; call once, after the last frame.
    mutating func finishPoses() throws {
        guard let worker = poseWorker else { return }
        poseWorker = nil
        do { record(try worker.finish()) } catch { throw StageError(stage: .pose, underlying: error) }
    }

    private mutating func record(_ estimates: [PoseWorker.Estimate]) {
        poseRuns += estimates.count
        for e in estimates { keep(e.pose, trackId: e.trackId, box: e.box, detected: e.detected, at: e.time) }
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
                let dx = p.centreX - q.centreX, dy = p.centreY - q.centreY
                if (dx * dx + dy * dy).squareRoot() < sameBodyDistance * max(p.bodyRadius, q.bodyRadius) { pairs.append((a, b)) }
            }
        }
        return pairs
    }

    /// Two people's hips closer than this share of a body radius are one body to the pose model
    /// (two players standing side by side are a body's width, about 0.5 radii, apart or more).
    static let sameBodyDistance = 0.35

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
