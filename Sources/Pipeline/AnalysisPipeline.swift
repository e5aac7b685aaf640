import Foundation
import Media
import ReelworkCore
import SportKit
import Sports
import Vision

/// Runs a job's stages in order on one video. Used by the worker and by `reelwork analyze`, so both
/// produce the same document. The sport's stages are its plug-in's (`SportPlugin`, `SportRegistry`):
/// this type runs them and knows no sport.
///
/// `decode`, `objects` and `pose` run together (`StreamedStages`): one decode pass, the sampled
/// frames flowing on to the models as they are decoded; all three are `running` at once, each with
/// its own progress.
public struct AnalysisPipeline {
    public let sport: Sport
    public let options: JSONValue
    public let decodeOptions: DecodeOptions
    /// Which attempt of the job this run is (1 for `reelwork analyze`).
    public let attempt: Int
    /// Models, runtime, sampling rate and inference threads for `objects` and `pose`.
    public let vision: VisionSettings
    /// Jobs this process runs at once (worker slots); with `vision.inferenceThreads` = 0 the cores
    /// are shared out between them.
    public let concurrentJobs: Int
    /// Where loaded models come from (and go back to, for the next job).
    public let models: VisionModelPool
    /// The video's bounds (length, picture size, frames), checked after probing and before decoding.
    public let limits: InputLimits
    /// Where a video at an http(s) location is copied before the probe (a worker's; nil: read in
    /// place, as `reelwork analyze` does).
    public var localCopies: LocalCopies?

    /// A folder for the local copies of network videos, and the largest copy taken.
    public struct LocalCopies: Sendable {
        public var folder: URL
        public var maxBytes: Int64

        public init(folder: URL, maxBytes: Int64) {
            self.folder = folder
            self.maxBytes = maxBytes
        }
    }

    /// `decodeOptions.guards` gets `limits.maxPixels` unless it already has a bound.
    public init(sport: Sport, options: JSONValue = .emptyObject, decodeOptions: DecodeOptions = DecodeOptions(), attempt: Int = 1,
                vision: VisionSettings = VisionSettings(), concurrentJobs: Int = 1, models: VisionModelPool = .shared,
                limits: InputLimits = InputLimits()) {
        self.sport = sport
        self.options = options
        var decodeOptions = decodeOptions
        if decodeOptions.guards.maxPixels == nil { decodeOptions.guards.maxPixels = limits.maxPixels }
        self.decodeOptions = decodeOptions
        self.attempt = attempt
        self.vision = vision
        self.concurrentJobs = concurrentJobs
        self.models = models
        self.limits = limits
        sportPlan = SportRegistry.plan(for: sport, options: options)
    }

    public var plan: [StageName] { StageName.plan(for: sport, options: options) }
    /// The sport's part of the plan: what it takes from the streamed decode, and its stages.
    let sportPlan: SportPlan

    /// What a finished run produced.
    public struct Output: Sendable {
        /// Nil only for the diagnostic `noop` pipeline, which opens no video.
        public var facts: VideoFacts?
        public var document: AnalysisDocument
    }

    /// Runs every stage of `plan` on the video at `location` (a path or an http(s) URL).
    /// A stage's failure is reported, then thrown as `StageFailure`; reporter errors are thrown as they are.
    public func run(location: String, reporter: StageReporter) throws -> Output {
        var context = RunContext()
        defer { if let copy = context.localCopy { try? FileManager.default.removeItem(atPath: copy) } }
        for group in groups(plan) {
            let started = Date()
            do {
                try runGroup(group, location: location, context: &context, reporter: reporter)
            } catch let interrupted as ReporterError {
                throw interrupted.underlying
            } catch {
                let failed = (error as? StageError)?.stage ?? group[0]
                let underlying = (error as? StageError)?.underlying ?? error
                let failure = ClassifiedFailure(underlying)
                context.stages.append(.init(name: failed.rawValue, status: .failed, durationSeconds: Date().timeIntervalSince(started),
                                            framesDone: context.framesDone[failed], framesPlanned: nil, reason: failure.message))
                try reporter.stageFinished(failed, status: .failed, framesDone: context.framesDone[failed], error: failure)
                throw StageFailure(stage: failed, kind: failure.kind, message: failure.message, underlying: underlying)
            }
            for stage in group {
                context.stages.append(.init(name: stage.rawValue, status: .succeeded, durationSeconds: Date().timeIntervalSince(started),
                                            framesDone: context.framesDone[stage], framesPlanned: plannedFrames(stage, context.facts),
                                            reason: nil))
                try reporter.stageFinished(stage, status: .succeeded, framesDone: context.framesDone[stage], error: nil)
            }
        }
        let document = AnalysisDocument(video: context.facts.map(AnalysisDocument.Video.init), stages: context.stages,
                                        warnings: context.warnings, result: .object(context.result))
        return Output(facts: context.facts, document: document)
    }

    /// State passed from stage to stage within one run.
    struct RunContext {
        var facts: VideoFacts?
        var warnings: [Warning] = []
        var result: [String: JSONValue] = [:]
        var stages: [AnalysisDocument.Stage] = []
        var framesDone: [StageName: Int] = [:]
        /// What the streamed stages saw, for the sport stages after them.
        var recorder: VisionRecorder?
        /// The sport's analysis, made (options parsed) when its first stage starts.
        var analysis: (any SportAnalysis)?
        /// What the decode gave the sport's stages after it, built from `recorder` once.
        var decoded: DecodedInput?
        /// The local copy of a network video (`localCopies`) the stages after the probe read; removed when the run ends.
        var localCopy: String?
    }

    /// Whether `stage` consumes frames as they stream out of the one decode pass: `decode`, the
    /// models', and the sport's every-frame stage.
    func isStreamed(_ stage: StageName) -> Bool {
        stage == .decode || stage == .objects || stage == .pose || stage == sportPlan.everyFrameStage
    }

    /// The plan cut into what runs together: each stage alone, except consecutive streamed stages.
    private func groups(_ plan: [StageName]) -> [[StageName]] {
        var groups: [[StageName]] = []
        for stage in plan {
            if isStreamed(stage), let last = groups.last?.last, isStreamed(last) {
                groups[groups.count - 1].append(stage)
            } else {
                groups.append([stage])
            }
        }
        return groups
    }

    var sampling: FrameSampling { .fps(vision.sampleFPS) }

    /// How the job's inference threads are used. With two or more and a pose stage, the pose model
    /// runs on a thread of its own beside the detector (`PoseWorker`), both sessions keeping the
    /// full count: decoding, detection and pose then overlap instead of taking turns. On 2 cores
    /// one job ran faster with the pose thread than in line, and faster still with two intra-op
    /// threads per session (docs/benchmarks/vision.md, "end to end"; spinning is off, so idle session threads
    /// cost nothing). With one thread (a worker with a slot per core) poses
    /// stay in line; when other jobs share the machine (worker slots) each session gets half, so
    /// the jobs together do not ask for twice the cores. Slots × threads on a mixed set of clips:
    /// docs/benchmarks/throughput.md, "Throughput per machine" (`loadtest/throughput-sweep.sh`).
    func inferenceThreads(withPoses: Bool) -> (perSession: Int, poseOnItsOwnThread: Bool) {
        let total = vision.resolvedInferenceThreads(concurrentJobs: concurrentJobs)
        guard withPoses, total >= 2 else { return (total, false) }
        return (concurrentJobs > 1 ? max(1, total / 2) : total, true)
    }

    func plannedFrames(_ stage: StageName, _ facts: VideoFacts?) -> Int? {
        guard let facts else { return nil }
        if stage == .decode || stage == sportPlan.everyFrameStage { return facts.frameCount }
        if stage == .objects || stage == .pose { return sampling.plannedFrames(frameCount: facts.frameCount, duration: facts.durationSeconds) }
        return nil
    }

    /// The sport's analysis of this run, its options parsed (a bad option throws here, in the
    /// sport's first stage). Nil for a sport without a plug-in.
    func sportAnalysis(_ context: inout RunContext) throws -> (any SportAnalysis)? {
        if let analysis = context.analysis { return analysis }
        context.analysis = try SportRegistry.plugin(for: sport)?.analysis(options: options)
        return context.analysis
    }

    private func runGroup(_ group: [StageName], location: String, context: inout RunContext, reporter: StageReporter) throws {
        let location = context.localCopy ?? location
        if group.contains(where: isStreamed) {
            try StreamedStages(pipeline: self, stages: group).run(location: location, context: &context, reporter: reporter)
            return
        }
        let stage = group[0]
        try reporter.stageStarted(stage, framesPlanned: plannedFrames(stage, context.facts))
        switch stage {
        case .probe:
            if let copies = localCopies, MediaCopy.isNetwork(location) {
                let copy = copies.folder.appendingPathComponent("\(UUID().uuidString.lowercased()).video").path
                context.localCopy = copy
                try MediaCopy.copy(location, to: copy, maxBytes: copies.maxBytes, guards: decodeOptions.guards) {
                    // A long copy is work too: without a sign of life the watchdog would take the run for stuck.
                    do { try reporter.stageAlive(.probe) } catch { throw ReporterError(underlying: error) }
                }
            }
            let facts = try MediaProbe.probe(context.localCopy ?? location, guards: decodeOptions.guards)
            // The coordinator checked at upload; limits may have been lowered since, or the file changed.
            try limits.check(facts)
            context.facts = facts
        case .noop:
            try NoopStage(options: try NoopOptions.parse(options) ?? NoopOptions(), attempt: attempt).run { done, planned in
                do { try reporter.stageProgress(.noop, framesDone: done, framesPlanned: planned) } catch { throw ReporterError(underlying: error) }
            }
            context.result["noop"] = .bool(true)
        default:
            guard let analysis = try sportAnalysis(&context) else { preconditionFailure("\(stage.rawValue) is no stage of \(sport.rawValue)") }
            if context.decoded == nil { context.decoded = DecodedInput(sampled: context.recorder?.sampledVision()) }
            context.result.merge(try analysis.run(stage, on: context.decoded!)) { _, new in new }
        }
    }
}

/// Wraps a reporter's error thrown from inside a stage, so it is not mistaken for the stage failing.
struct ReporterError: Error {
    let underlying: any Error
}

/// An error from inside a group of stages, with the stage it belongs to.
struct StageError: Error {
    let stage: StageName
    let underlying: any Error
}

/// Any error as a classified one: unclassified errors are our own bugs, so `internal`.
struct ClassifiedFailure: ClassifiedError {
    let kind: ErrorKind
    let message: String

    init(_ error: any Error) {
        if let classified = error as? any ClassifiedError {
            kind = classified.kind
            message = classified.message
        } else {
            kind = .internal
            message = "\(error)"
        }
    }
}

extension AnalysisPipeline {
    /// Loads the models a worker's jobs will need and keeps them in `pool` for the first job, so a
    /// worker with a wrong model path, a corrupt model or an unknown output layout stops at start
    /// with the reason instead of failing every job it claims. Throws a VisionError naming the
    /// model, the setting and the problem.
    public static func preloadModels(_ vision: VisionSettings, concurrentJobs: Int, pool: VisionModelPool = .shared) throws {
        try pool.preload(vision, threads: vision.resolvedInferenceThreads(concurrentJobs: concurrentJobs))
    }
}
