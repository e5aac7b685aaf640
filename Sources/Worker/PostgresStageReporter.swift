import Foundation
import Pipeline
import Queue
import ReelworkCore
import Store

/// Writes a run's stage events to `job_stages`, fenced by the run's attempt, in as few statements
/// as the run allows:
/// - the plan's rows are written with the first stage's start;
/// - the last planned stage's success is written with the run's result, which follows at once
///   (`takeUnwrittenFinishes`, for `RunRepository.complete`). Other stages' outcomes are written
///   when they happen: the next stage may take a while to start (models loading, a remote video
///   opening), and watchers must not see a finished stage still running meanwhile;
/// - progress writes are throttled (status stays truthful within a second, without one UPDATE per frame).
/// A no-op job thus costs two statements besides the run's start, not four.
///
/// Each write is then published as a live event (after it, so the event never runs ahead of
/// what `GET /v1/jobs/{id}` shows); progress events are throttled with the progress writes.
///
/// Every event also tells the run's `RunControl` that the run is alive (the stage watchdog's
/// clock), and every progress report asks it whether the run must stop.
final class PostgresStageReporter: StageReporter {
    static let progressInterval: TimeInterval = 0.25

    private let stages: StageRepository
    private let run: ClaimedRun
    private let plan: [StageName]
    private let control: RunControl
    private let redis: RedisConnection
    private let events: EventPublisher
    private var planWritten = false
    private var unwrittenFinishes: [StageEvent] = []
    /// Per stage: `decode`, `objects` and `pose` report progress at the same time, and each must be written.
    private var lastProgressWrite: [StageName: Date] = [:]

    init(db: PGConnection, redis: RedisConnection, events: EventPublisher, run: ClaimedRun, plan: [StageName], control: RunControl) {
        self.stages = StageRepository(db)
        self.redis = redis
        self.events = events
        self.run = run
        self.plan = plan
        self.control = control
    }

    func stageStarted(_ stage: StageName, framesPlanned: Int?) throws {
        control.progressed(stage)
        let started = StageEvent.started(stage, framesPlanned: framesPlanned)
        if planWritten {
            try write([started])
        } else {
            try stages.plan(jobId: run.jobId, attempt: run.attempt, stages: plan, running: started)
            planWritten = true
            events.publish(run.event(started), on: redis)
        }
    }

    func stageAlive(_ stage: StageName) throws {
        if let reason = control.stopReason { throw RunStopped(reason: reason) }
        control.progressed(stage)
    }

    func stageProgress(_ stage: StageName, framesDone: Int, framesPlanned: Int?) throws {
        if let reason = control.stopReason { throw RunStopped(reason: reason) }
        control.progressed(stage)
        // The last frame's count is written by stageFinished, right after.
        if let framesPlanned, framesDone >= framesPlanned { return }
        let now = Date()
        guard now.timeIntervalSince(lastProgressWrite[stage] ?? .distantPast) >= Self.progressInterval else { return }
        lastProgressWrite[stage] = now
        try flush()
        try stages.progress(jobId: run.jobId, attempt: run.attempt, stage: stage, framesDone: framesDone, framesPlanned: framesPlanned)
        events.publish(run.event(.stageProgress, stage: stage.rawValue, framesDone: framesDone, framesPlanned: framesPlanned), on: redis)
    }

    func stageFinished(_ stage: StageName, status: StageStatus, framesDone: Int?, error: (any ClassifiedError)?) throws {
        // A stage that failed because the run was told to stop (a read FFmpeg gave up on) did not
        // fail: the stop decides what the run records.
        if status == .failed, let reason = control.stopReason { throw RunStopped(reason: reason) }
        control.progressed(stage)
        let finished = StageEvent.finished(stage, status: status, framesDone: framesDone, error: error?.message, errorKind: error?.kind)
        if status == .succeeded && planWritten && stage == plan.last {
            unwrittenFinishes.append(finished)
        } else {
            try write([finished])
        }
    }

    /// Writes whatever is not written yet (the plan, the last stage's success).
    func flush() throws {
        try write([])
    }

    /// The stage outcomes not written yet, for the caller to write with the run's result; the
    /// reporter forgets them.
    func takeUnwrittenFinishes() -> [StageEvent] {
        defer { unwrittenFinishes = [] }
        return unwrittenFinishes
    }

    private func write(_ events: [StageEvent]) throws {
        if !planWritten {
            try stages.plan(jobId: run.jobId, attempt: run.attempt, stages: plan)
            planWritten = true
        }
        let all = unwrittenFinishes + events
        guard !all.isEmpty else { return }
        try stages.record(jobId: run.jobId, attempt: run.attempt, all)
        unwrittenFinishes = []
        self.events.publish(all.map(run.event), on: redis)
    }
}

/// Thrown from inside a run when the worker must stop before the run could finish.
struct RunStopped: Error {
    let reason: StopReason
}
