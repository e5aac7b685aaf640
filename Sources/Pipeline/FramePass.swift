import Media
import ReelworkCore
import Vision

/// What happens to each sampled frame: detection, tracking, pose; results into the recorder.
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
    /// Set when poses are estimated on their own thread; nil: in line, frame by frame.
    var poseWorker: PoseWorker?
    /// The class id of people, when the detector's classes are COCO's.
    private let personClass: Int?

    init(detector: ObjectDetector, vision: VisionSettings, wantsPoses: Bool) {
        self.vision = vision
        self.wantsPoses = wantsPoses
        // An 80-class detector is taken to be COCO's (YOLOv4, YOLOv8/11); a custom detector keeps all its classes.
        let coco = detector.layout.classes == 80
        recorder = VisionRecorder(classes: coco ? COCOClass.sportsObjects : nil)
        personClass = coco ? COCOClass.person : nil
    }

    mutating func handle(_ frame: SampledFrame, with models: VisionModels) throws {
        let detections: [Detection]
        do {
            detections = try models.detector.detect(frame.image)
        } catch {
            throw StageError(stage: .objects, underlying: error)
        }
        recorder.record(detections, at: frame.time)
        guard wantsPoses else { return }

        let people = personClass.map { person in detections.filter { $0.classId == person } } ?? []
        let tracked = tracker.update(with: people)
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

    /// A coasting track (detector missed them) only counts when the pose model still sees a person.
    private mutating func keep(_ pose: Pose, trackId: Int, box: BoundingBox, detected: Bool, at time: Double) {
        guard detected || pose.score >= 0.5 else { return }
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
