import Foundation
import Media
import ReelworkCore
import SportKit
import Vision

/// `decode`, `objects`, `pose` and the sport's every-frame stage (bowling's `ball`) over one
/// streamed decode of the video.
///
/// Every frame is decoded once: counted and sampled for frame quality (the decode stage's
/// warnings); the frames the sampling selects (`vision.sampleFPS` per second) are converted to RGB
/// in the decoder's reused buffer and go straight on to the detector, the tracker and the pose
/// model before the next frame is decoded, so no frame is ever queued or copied.
///
/// The every-frame stage looks at every decoded frame, converted to RGB; `objects` and `pose`
/// still see only the frames `vision.sampleFPS` selects.
///
/// Models and the sport's options are checked before the first frame: a missing or unusable model
/// fails its stage (`objects` for the runtime or detector, `pose` for the pose model), the sport's
/// options its every-frame stage, before any decoding.
struct StreamedStages {
    let pipeline: AnalysisPipeline
    /// The streamed stages of the plan, in plan order.
    let stages: [StageName]

    private var vision: VisionSettings { pipeline.vision }
    private var wantsObjects: Bool { stages.contains(.objects) || stages.contains(.pose) }
    private var wantsPoses: Bool { stages.contains(.pose) }
    /// The sport's stage that sees every decoded frame, when it is one of these.
    private var everyFrameStage: StageName? { pipeline.sportPlan.everyFrameStage.flatMap { stages.contains($0) ? $0 : nil } }

    func run(location: String, context: inout AnalysisPipeline.RunContext, reporter: StageReporter) throws {
        var analysis: (any SportAnalysis)?
        if let stage = everyFrameStage {
            do { analysis = try pipeline.sportAnalysis(&context) } catch { throw StageError(stage: stage, underlying: error) }
        }
        var models = wantsObjects ? try checkoutModels() : nil
        let threads = models?.threads ?? 0
        let outcome = Result { try decodePass(location: location, models: models, analysis: analysis, context: context, reporter: reporter) }
        if let used = models { pipeline.models.checkin(used) }
        models = nil
        let (report, pass, consumer, size) = try outcome.get()
        // The decoder is gone, and the models too unless the pool keeps them: their memory goes back
        // to the system before the result document is built, so a long clip's result reuses it
        // instead of raising the peak (docs/benchmarks/vision.md, memory).
        FreedMemory.returnToSystem()

        context.framesDone[.decode] = report.framesDecoded
        // The decoder's count is a fact; the container's figure may have been an estimate.
        context.facts = context.facts?.withDecodedFrameCount(report.framesDecoded)
        context.warnings += FrameQuality.warnings(for: report.qualitySamples)
        if report.damagedPackets > 0 {
            context.warnings.append(Warning(code: "damaged_packets",
                                            message: "\(report.damagedPackets) damaged packet(s) were skipped while decoding"))
        }
        context.result["framesDecoded"] = .number(Double(report.framesDecoded))
        if let pass {
            context.recorder = pass.recorder
            // With an every-frame stage the decoder hands out every frame; the vision stages handled the sampled ones
            // (the detector ran on some of them, `result.vision.detectorRuns`).
            let sampled = pass.framesHandled
            context.framesDone[.objects] = sampled
            if wantsPoses { context.framesDone[.pose] = sampled }
            context.result["framesSampled"] = .number(Double(sampled))
            if stages.contains(.objects) { context.result["detections"] = pass.recorder.detectionsJSON() }
            if wantsPoses { context.result["poses"] = pass.recorder.posesJSON() }
            context.result["vision"] = description(threads: threads, pass, frameSize: size)
        }
        if let consumer, let everyFrameStage {
            let fields: [String: JSONValue]
            do {
                fields = try consumer.finish()
            } catch {
                // Only the every-frame stage failed (bowling's "Ball not detected"): the decode and
                // the models' pass did finish, and watchers should see that rather than a skip.
                for stage in stages where stage != everyFrameStage {
                    do {
                        try reporter.stageFinished(stage, status: .succeeded, framesDone: context.framesDone[stage], error: nil)
                    } catch {
                        throw ReporterError(underlying: error)
                    }
                }
                throw StageError(stage: everyFrameStage, underlying: error)
            }
            context.framesDone[everyFrameStage] = report.framesDecoded
            context.result.merge(fields) { _, new in new }
        }
    }

    /// `result.vision`: how the frames were looked at, and how to read `detections` and `poses`.
    private func description(threads: Int, _ pass: FramePass, frameSize size: (width: Int, height: Int)) -> JSONValue {
        .object([
            "sampleFps": .number(vision.sampleFPS),
            "frameWidth": .number(Double(size.width)),
            "frameHeight": .number(Double(size.height)),
            "detector": .string(URL(fileURLWithPath: vision.detectorModel).lastPathComponent),
            "poseModel": .string(URL(fileURLWithPath: vision.poseModel).lastPathComponent),
            "classes": .object(Dictionary(uniqueKeysWithValues: (pass.recorder.classes ?? [:]).map { (String($0.key), JSONValue.string($0.value)) })),
            "boxFormat": .string("[classId, confidence, x1, y1, x2, y2], frame pixels"),
            "landmarkFormat": .string("\(Pose.landmarkCount) BlazePose landmarks × [x, y, visibility], frame pixels"),
            "inferenceThreads": .number(Double(threads)),
            "poseRuns": .number(Double(pass.poseRuns)),
            "detectorRuns": .number(Double(pass.detectorRuns)),
            "personDetection": .string(vision.personDetection.rawValue),
        ])
    }

    /// Opens the decoder and runs the one decode pass; the decoder is freed when this returns.
    private func decodePass(location: String, models: VisionModels?, analysis: (any SportAnalysis)?, context: AnalysisPipeline.RunContext,
                            reporter: StageReporter) throws -> (DecodeReport, FramePass?, (any FrameConsumer)?, (width: Int, height: Int)) {
        let decoder: VideoDecoder
        do {
            decoder = try VideoDecoder(location: location, options: pipeline.decodeOptions)
        } catch {
            throw StageError(stage: .decode, underlying: error)
        }
        let facts = context.facts ?? decoder.facts
        if context.facts == nil {
            // No probe stage ran before: the limits are checked here, before the first frame.
            do { try pipeline.limits.check(facts) } catch { throw StageError(stage: .decode, underlying: error) }
        }
        for stage in stages {
            try reporter.stageStarted(stage, framesPlanned: pipeline.plannedFrames(stage, facts))
        }
        var pass = models.map { FramePass(detector: $0.detector, vision: vision, wantsPoses: wantsPoses) }
        if let models, wantsPoses, pipeline.inferenceThreads(withPoses: true).poseOnItsOwnThread {
            pass?.poseWorker = PoseWorker(estimator: models.pose)
        }
        // A failed pass stops the pose thread; a finished one has collected it already.
        defer { pass?.poseWorker?.cancel() }
        var consumer: (any FrameConsumer)?
        if let analysis, let everyFrameStage {
            do {
                consumer = try analysis.everyFrame(width: decoder.displaySize.width, height: decoder.displaySize.height, frameRate: facts.fps)
            } catch {
                throw StageError(stage: everyFrameStage, underlying: error)
            }
        }
        let planned = Planned(decode: facts.frameCount, sampled: pipeline.plannedFrames(.objects, facts))
        let report: DecodeReport
        do {
            let decodeProgress = { (done: Int) in try progress(reporter, .decode, done, planned.decode) }
            if let consumer, let everyFrameStage {
                // Every frame goes to the sport; the vision sampler picks the model's frames, and
                // the sport gets the detector's boxes with each of those the detector looked at
                // (where the sport wants them; the models read the frame first: neither changes it).
                var visionFrames = FrameSampler(pipeline.sampling)
                report = try decoder.decodeAll(sampling: .everyFrame, progress: decodeProgress, onSample: { frame in
                    var detections: FrameDetections?
                    if let models, visionFrames.isDue(time: frame.time, index: frame.frameIndex) {
                        try pass!.handle(frame, with: models, sportWantsDetections: consumer.wantsDetections)
                        detections = pass!.detectedLastFrame ? pass!.recorder.lastFrameDetections() : nil
                        try visionProgress(reporter, pass!.framesHandled, planned.sampled)
                    }
                    do { try consumer.consume(frame.image, time: frame.time, frameIndex: frame.frameIndex, detections: detections) } catch {
                        throw StageError(stage: everyFrameStage, underlying: error)
                    }
                    try progress(reporter, everyFrameStage, frame.frameIndex + 1, planned.decode)
                })
            } else if let models {
                report = try decoder.decodeAll(sampling: pipeline.sampling, progress: decodeProgress, onSample: { frame in
                    try pass!.handle(frame, with: models)
                    try visionProgress(reporter, frame.sampleIndex + 1, planned.sampled)
                })
            } else {
                report = try decoder.decodeAll(progress: decodeProgress)
            }
        } catch let error as StageError {
            throw error
        } catch let error as ReporterError {
            throw error
        } catch {
            throw StageError(stage: .decode, underlying: error)
        }
        try pass?.finishPoses()

        return (report, pass, consumer, decoder.displaySize)
    }

    private struct Planned {
        var decode: Int
        var sampled: Int?
    }

    private func checkoutModels() throws -> VisionModels {
        do {
            return try pipeline.models.checkout(vision, threads: pipeline.inferenceThreads(withPoses: wantsPoses).perSession)
        } catch let error as VisionError {
            throw StageError(stage: error.component == .pose ? .pose : .objects, underlying: error)
        } catch {
            throw StageError(stage: .objects, underlying: error)
        }
    }

    private func visionProgress(_ reporter: StageReporter, _ done: Int, _ planned: Int?) throws {
        if stages.contains(.objects) { try progress(reporter, .objects, done, planned) }
        if stages.contains(.pose) { try progress(reporter, .pose, done, planned) }
    }

    private func progress(_ reporter: StageReporter, _ stage: StageName, _ done: Int, _ planned: Int?) throws {
        do { try reporter.stageProgress(stage, framesDone: done, framesPlanned: planned) } catch { throw ReporterError(underlying: error) }
    }
}
