import Foundation
import Logging
import Media
import Pipeline
import Queue
import ReelworkCore
import Store

/// Runs one claimed job to an outcome: recorded in PostgreSQL first (fenced by the attempt), then
/// the lease is ended in Redis with the matching outcome.
struct JobRunner {
    let config: ReelworkConfig
    let owner: String
    let db: PGConnection
    let redis: RedisConnection
    let queue: JobQueue
    let logger: Logger
    let stopReason: () -> StopReason?

    enum Outcome: Equatable { case succeeded, failed, retryScheduled, handedBack, cancelled, leaseLost, dropped }

    func run(_ claim: Claim, keeper: LeaseKeeper) throws -> Outcome {
        let runs = RunRepository(db)
        let run: ClaimedRun
        switch try runs.start(jobId: claim.jobId, attempt: claim.attempt, worker: owner) {
        case .started(let started):
            run = started
        case .finished, .gone:
            try queue.finish(claim, owner: owner, outcome: .done, on: redis)
            return .dropped
        case .behind(let entry):
            // Redis's attempt counter fell behind PostgreSQL's (Redis lost state): start over from PostgreSQL's.
            try queue.finish(claim, owner: owner, outcome: .done, on: redis)
            try queue.enqueue(entry.jobId, club: entry.club, priority: Priority(rawValue: entry.priority) ?? .normal,
                              attempt: entry.attempt, due: entry.due, on: redis)
            return .dropped
        }
        keeper.started(run)
        var log = logger
        log[metadataKey: "job"] = "\(run.jobId)"
        log[metadataKey: "attempt"] = "\(run.attempt)"
        log.info("running \(run.sport.rawValue) job")

        let pipeline = AnalysisPipeline(sport: run.sport, options: run.options,
                                        decodeOptions: DecodeOptions(threads: config.decodeThreads), attempt: run.attempt,
                                        vision: config.vision, concurrentJobs: config.workerSlots)
        let reporter = PostgresStageReporter(db: db, run: run, plan: pipeline.plan, stopReason: stopReason)
        do {
            let output = try pipeline.run(location: videoLocation(run), reporter: reporter)
            guard try runs.complete(run, document: output.document, facts: output.facts,
                                    stages: reporter.takeUnwrittenFinishes()) else { return try lost(run, log) }
            try queue.finish(claim, owner: owner, outcome: .done, on: redis)
            log.info("succeeded")
            return .succeeded
        } catch let failure as StageFailure {
            try reporter.flush()
            try StageRepository(db).skipRemaining(jobId: run.jobId, attempt: run.attempt, reason: "not run: \(failure.stage.rawValue) failed")
            let failures = run.failures + 1
            let retryAt = failure.kind.isRetryable && failures < run.maxAttempts
                ? Date().addingTimeInterval(config.queue.retryDelay(afterFailures: failures)) : nil
            guard try runs.fail(run, message: failure.description, kind: failure.kind, retryAt: retryAt) else { return try lost(run, log) }
            try queue.finish(claim, owner: owner, outcome: retryAt.map { .retry(at: $0) } ?? .done, on: redis)
            log.warning("\(retryAt == nil ? "failed" : "will retry"): \(failure.description) [\(failure.kind.rawValue)]")
            return retryAt == nil ? .failed : .retryScheduled
        } catch let stopped as RunStopped {
            try reporter.flush()
            try StageRepository(db).skipRemaining(jobId: run.jobId, attempt: run.attempt, reason: stopped.reason.explanation)
            switch stopped.reason {
            case .leaseLost:
                return try lost(run, log)
            case .cancelled:
                if try runs.cancelled(run) { try queue.finish(claim, owner: owner, outcome: .done, on: redis) }
                log.info("cancelled by an operator")
                return .cancelled
            case .shutdown:
                if try runs.handBack(run) { try queue.finish(claim, owner: owner, outcome: .handBack, on: redis) }
                log.info("handed back: worker shutting down")
                return .handedBack
            }
        }
    }

    private func lost(_ run: ClaimedRun, _ log: Logger) throws -> Outcome {
        try RunRepository(db).lost(run)
        log.warning("lease lost; another run owns the job now, this run's work is discarded")
        return .leaseLost
    }

    /// A local path when this machine shares the storage directory, else the coordinator's content URL.
    func videoLocation(_ run: ClaimedRun) -> String {
        let local = VideoStorage(root: config.storageDir).path(forKey: run.storageKey)
        if config.videoSource != .http, FileManager.default.isReadableFile(atPath: local) { return local }
        let base = config.coordinatorURL.hasSuffix("/") ? String(config.coordinatorURL.dropLast()) : config.coordinatorURL
        return "\(base)/v1/videos/\(run.videoId.uuidString.lowercased())/content"
    }
}

extension StopReason {
    var explanation: String {
        switch self {
        case .leaseLost: return "lease lost"
        case .cancelled: return "cancelled by an operator"
        case .shutdown: return "worker stopped; job handed back"
        }
    }
}
