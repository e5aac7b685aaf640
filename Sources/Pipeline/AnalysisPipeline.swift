import Foundation
import Media
import ReelworkCore

/// Runs a job's stages in order on one video. Used by the worker and by `reelwork analyze`, so both
/// produce the same document. Adding a stage: add its name to `StageName.plan(for:)` and a case in `run`.
public struct AnalysisPipeline {
    public let sport: Sport
    public let options: JSONValue
    public let decodeOptions: DecodeOptions
    /// Which attempt of the job this run is (1 for `reelwork analyze`).
    public let attempt: Int

    public init(sport: Sport, options: JSONValue = .emptyObject, decodeOptions: DecodeOptions = DecodeOptions(), attempt: Int = 1) {
        self.sport = sport
        self.options = options
        self.decodeOptions = decodeOptions
        self.attempt = attempt
    }

    public var plan: [StageName] { StageName.plan(for: sport, options: options) }

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
        for stage in plan {
            let started = Date()
            try reporter.stageStarted(stage, framesPlanned: context.facts.map { plannedFrames(stage, $0) } ?? nil)
            do {
                try runStage(stage, location: location, context: &context, reporter: reporter)
            } catch let interrupted as ReporterError {
                throw interrupted.underlying
            } catch {
                let failure = ClassifiedFailure(error)
                context.stages.append(.init(name: stage.rawValue, status: .failed, durationSeconds: Date().timeIntervalSince(started),
                                            framesDone: context.framesDone[stage], framesPlanned: nil, reason: failure.message))
                try reporter.stageFinished(stage, status: .failed, framesDone: context.framesDone[stage], error: failure)
                throw StageFailure(stage: stage, kind: failure.kind, message: failure.message)
            }
            context.stages.append(.init(name: stage.rawValue, status: .succeeded, durationSeconds: Date().timeIntervalSince(started),
                                        framesDone: context.framesDone[stage],
                                        framesPlanned: context.facts.map { plannedFrames(stage, $0) } ?? nil, reason: nil))
            try reporter.stageFinished(stage, status: .succeeded, framesDone: context.framesDone[stage], error: nil)
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
    }

    private func plannedFrames(_ stage: StageName, _ facts: VideoFacts) -> Int? {
        stage == .decode ? facts.frameCount : nil
    }

    private func runStage(_ stage: StageName, location: String, context: inout RunContext, reporter: StageReporter) throws {
        switch stage {
        case .probe:
            context.facts = try MediaProbe.probe(location)
        case .decode:
            let decoder = try VideoDecoder(location: location, options: decodeOptions)
            let planned = context.facts?.frameCount
            let report = try decoder.decodeAll { done in
                do {
                    try reporter.stageProgress(.decode, framesDone: done, framesPlanned: planned)
                } catch {
                    throw ReporterError(underlying: error)
                }
            }
            context.framesDone[.decode] = report.framesDecoded
            context.warnings += FrameQuality.warnings(for: report.qualitySamples)
            if report.damagedPackets > 0 {
                context.warnings.append(Warning(code: "damaged_packets",
                                                message: "\(report.damagedPackets) damaged packet(s) were skipped while decoding"))
            }
            context.result["framesDecoded"] = .number(Double(report.framesDecoded))
        case .noop:
            try NoopStage(options: try NoopOptions.parse(options) ?? NoopOptions(), attempt: attempt).run { done, planned in
                do { try reporter.stageProgress(.noop, framesDone: done, framesPlanned: planned) } catch { throw ReporterError(underlying: error) }
            }
            context.result["noop"] = .bool(true)
        }
    }
}

/// Wraps a reporter's error thrown from inside a stage, so it is not mistaken for the stage failing.
struct ReporterError: Error {
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
