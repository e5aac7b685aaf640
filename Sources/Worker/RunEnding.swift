import Foundation
import Logging
import Queue
import ReelworkCore
import Store

/// The writes that end a run, in the order the queue's promises need: PostgreSQL first (fenced by
/// the attempt, committed durably), then the lease in Redis. Used by the slot thread that ran the
/// job and by the stage watchdog when it ends a run on a stuck thread's behalf, each on its own
/// connections.
struct RunEnding {
    let config: ReelworkConfig
    let db: PGConnection
    let redis: RedisConnection
    let queue: JobQueue
    let logger: Logger

    /// How a run ended, as the slot loop and the tests see it.
    enum Outcome: Equatable, Sendable {
        case succeeded, failed, retryScheduled, handedBack, cancelled, leaseLost, dropped
        /// Handed back because a service the run needs failed it: the slot waits before it claims again.
        case deferred
        /// The watchdog ended it; the thread that ran it must write nothing more.
        case takenOver
    }

    /// Publishes what the ending changed, once PostgreSQL holds it (a failure is only logged).
    var events: EventPublisher { EventPublisher(config: config, logger: logger) }

    /// How long after now the attempt after a failure of `kind` is due, or nil when the job fails
    /// for good. A delay, not a time: PostgreSQL and Redis each add it to their own clock.
    func retryDelay(_ run: ClaimedRun, kind: ErrorKind) -> TimeInterval? {
        let failures = run.failures + 1
        guard kind.isRetryable, failures < run.maxAttempts else { return nil }
        return config.queue.retryDelay(afterFailures: failures)
    }

    /// Records a failed attempt (retried per the job's budget and the error's kind). With `stage`,
    /// that stage is marked failed first (the watchdog's case: the stage itself could not say so);
    /// the stages never reached are marked skipped.
    func fail(_ run: ClaimedRun, _ claim: Claim, owner: String, stage: StageName?, markStageFailed: Bool = false,
              message: String, kind: ErrorKind) throws -> Outcome {
        let stages = StageRepository(db)
        var changes: [JobEvent] = []
        if let stage, markStageFailed {
            let failed = StageEvent.finished(stage, status: .failed, framesDone: nil, error: message, errorKind: kind)
            try stages.record(jobId: run.jobId, attempt: run.attempt, [failed])
            changes.append(run.event(failed))
        }
        let reason = stage.map { "not run: \($0.rawValue) failed" } ?? "not run: the run failed"
        changes += try skipRemaining(run, reason: reason)
        let retryIn = retryDelay(run, kind: kind)
        let full = stage.map { "\($0.rawValue): \(message)" } ?? message
        guard try RunRepository(db).fail(run, message: full, kind: kind, retryIn: retryIn) else {
            events.publish(changes, on: redis)
            return try lost(run)
        }
        events.publish(changes + [run.event(retryIn == nil ? .jobFailed : .jobRetryScheduled, errorKind: kind.rawValue, error: full)],
                       on: redis)
        try queue.finish(claim, owner: owner, outcome: retryIn.map { .retry(after: $0) } ?? .done, on: redis)
        logger.warning("\(retryIn == nil ? "failed" : "will retry"): \(full) [\(kind.rawValue)]")
        return retryIn == nil ? .failed : .retryScheduled
    }

    /// Marks the run's stages that never started as skipped for `reason`; returns their events.
    private func skipRemaining(_ run: ClaimedRun, reason: String) throws -> [JobEvent] {
        try StageRepository(db).skipRemaining(jobId: run.jobId, attempt: run.attempt, reason: reason)
            .map { run.event(.stageSkipped, stage: $0, error: reason) }
    }

    /// Records a cancel (the job's record says who asked for it).
    func cancel(_ run: ClaimedRun, _ claim: Claim, owner: String) throws -> Outcome {
        let reason = StopReason.cancelled.explanation
        var changes = try skipRemaining(run, reason: reason)
        let recorded = try RunRepository(db).cancelled(run)
        if recorded { changes.append(run.event(.jobCancelled)) }
        events.publish(changes, on: redis)
        if recorded { try queue.finish(claim, owner: owner, outcome: .done, on: redis) }
        logger.info("cancelled on request")
        return .cancelled
    }

    /// Gives the job back without spending its error budget: the worker is shutting down, or
    /// (`fault`) a service it needs failed the run, which is not the job's doing.
    func handBack(_ run: ClaimedRun?, _ claim: Claim, owner: String, fault: DependencyFault? = nil) throws -> Outcome {
        if let run {
            let reason = fault.map { "handed back: \($0.summary)" } ?? StopReason.shutdown.explanation
            var changes = try skipRemaining(run, reason: reason)
            let recorded = try RunRepository(db).handBack(run, reason: fault == nil ? "worker shut down" : reason)
            if recorded { changes.append(run.event(.jobQueued)) }
            events.publish(changes, on: redis)
            guard recorded else { return fault == nil ? .handedBack : .deferred }
        }
        try queue.finish(claim, owner: owner, outcome: .handBack, on: redis)
        logger.info("handed back: \(fault.map { "\($0.summary); it waits in the queue" } ?? "worker shutting down")")
        return fault == nil ? .handedBack : .deferred
    }

    /// Notes that the run lost its lease: another run owns the job, this one's work is discarded.
    /// `fencedWrite`: what the run tried to write when PostgreSQL turned it away.
    func lost(_ run: ClaimedRun, fencedWrite: String? = nil) throws -> Outcome {
        try RunRepository(db).lost(run)
        let refused = fencedWrite.map { " (its \($0) was refused: the job is no longer at attempt \(run.attempt))" } ?? ""
        logger.warning("lease lost; another run owns the job now, this run's work is discarded\(refused)")
        return .leaseLost
    }
}

extension StopReason {
    var explanation: String {
        switch self {
        case .leaseLost: return "lease lost"
        case .cancelled: return "cancelled"
        case .shutdown: return "worker stopped; job handed back"
        case .stalled(let message): return message
        }
    }
}
