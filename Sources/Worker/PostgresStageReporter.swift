import Foundation
import Pipeline
import ReelworkCore
import Store

/// Writes a run's stage events to `job_stages`, fenced by the run's attempt. Progress writes are
/// throttled (status stays truthful within a second, without one UPDATE per frame).
final class PostgresStageReporter: StageReporter {
    static let progressInterval: TimeInterval = 0.25

    private let stages: StageRepository
    private let run: ClaimedRun
    private let stopReason: () -> StopReason?
    /// Per stage: `decode`, `objects` and `pose` report progress at the same time, and each must be written.
    private var lastProgressWrite: [StageName: Date] = [:]

    init(db: PGConnection, run: ClaimedRun, stopReason: @escaping () -> StopReason?) {
        self.stages = StageRepository(db)
        self.run = run
        self.stopReason = stopReason
    }

    func stageStarted(_ stage: StageName, framesPlanned: Int?) throws {
        try stages.started(jobId: run.jobId, attempt: run.attempt, stage: stage, framesPlanned: framesPlanned)
    }

    func stageProgress(_ stage: StageName, framesDone: Int, framesPlanned: Int?) throws {
        if let reason = stopReason() { throw RunStopped(reason: reason) }
        // The last frame's count is written by stageFinished, right after.
        if let framesPlanned, framesDone >= framesPlanned { return }
        let now = Date()
        guard now.timeIntervalSince(lastProgressWrite[stage] ?? .distantPast) >= Self.progressInterval else { return }
        lastProgressWrite[stage] = now
        try stages.progress(jobId: run.jobId, attempt: run.attempt, stage: stage, framesDone: framesDone, framesPlanned: framesPlanned)
    }

    func stageFinished(_ stage: StageName, status: StageStatus, framesDone: Int?, error: (any ClassifiedError)?) throws {
        try stages.finished(jobId: run.jobId, attempt: run.attempt, stage: stage, status: status, framesDone: framesDone,
                            error: error?.message, errorKind: error?.kind)
    }
}

/// Thrown from inside a run when the worker must stop before the run could finish.
struct RunStopped: Error {
    let reason: StopReason
}
