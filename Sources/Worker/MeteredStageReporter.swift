import Foundation
import Metrics
import Pipeline
import ReelworkCore
import Sports

/// Passes a run's stage events on to the reporter that records them, and measures them on the
/// way: each stage's duration (`reelwork_stage_duration_seconds{stage, outcome}`), frames decoded
/// and frames each analysis stage looked at (`reelwork_frames_decoded_total`,
/// `reelwork_frames_analysed_total{stage}`), counted as progress arrives, so their rates are
/// frames per second while jobs run, not bursts when they end.
final class MeteredStageReporter: StageReporter {
    private let inner: StageReporter
    private var startedAt: [StageName: ContinuousClock.Instant] = [:]
    /// Frames already counted, per stage (progress reports carry totals).
    private var counted: [StageName: Int] = [:]

    init(_ inner: StageReporter) {
        self.inner = inner
    }

    func stageStarted(_ stage: StageName, framesPlanned: Int?) throws {
        startedAt[stage] = .now
        try inner.stageStarted(stage, framesPlanned: framesPlanned)
    }

    func stageProgress(_ stage: StageName, framesDone: Int, framesPlanned: Int?) throws {
        // Counted first: the frames were decoded even if the run is told to stop now.
        countFrames(stage, done: framesDone)
        try inner.stageProgress(stage, framesDone: framesDone, framesPlanned: framesPlanned)
    }

    func stageAlive(_ stage: StageName) throws {
        try inner.stageAlive(stage)
    }

    func stageFinished(_ stage: StageName, status: StageStatus, framesDone: Int?, error: (any ClassifiedError)?) throws {
        if let framesDone { countFrames(stage, done: framesDone) }
        // The recorder decides what the end was (a stage that failed because the run was stopped
        // did not fail): a refused event is not timed.
        try inner.stageFinished(stage, status: status, framesDone: framesDone, error: error)
        guard let started = startedAt.removeValue(forKey: stage) else { return }
        Metrics.Timer(label: MetricName.stageDuration, dimensions: [("stage", stage.rawValue), ("outcome", status.rawValue)])
            .record(duration: ContinuousClock.now - started)
    }

    private func countFrames(_ stage: StageName, done: Int) {
        guard let counter = Self.frameCounters[stage] else { return }
        let new = done - counted[stage, default: 0]
        guard new > 0 else { return }
        counted[stage] = done
        counter.increment(by: new)
    }

    /// The stages that count frames, the streamed ones: `decode` every decoded frame; `objects`
    /// and `pose` the sampled frames the models saw, a sport's every-frame stage (bowling's `ball`)
    /// every frame it searched. (Noop's "frames" are not video frames.) Made once, on first use,
    /// after the process's metrics backend is set, for every stage the registry knows.
    static let frameCounters: [StageName: Counter] = Dictionary(uniqueKeysWithValues: SportRegistry.stages.filter(\.isStreamed).map { stage in
        (stage, stage == .decode ? Counter(label: MetricName.framesDecoded)
                                 : Counter(label: MetricName.framesAnalysed, dimensions: [("stage", stage.rawValue)]))
    })
}
