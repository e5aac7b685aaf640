import Foundation
import Logging
import Media
import Pipeline
import Queue
import ReelworkCore
import Store

/// Runs one claimed job id to an outcome recorded in PostgreSQL: succeeded, failed, or back in the
/// queue for another attempt. Redis is only told afterwards (the caller acks the claim).
struct JobRunner {
    let config: ReelworkConfig
    let workerID: String
    let db: PGConnection
    let redis: RedisConnection
    let queue: JobQueue
    let logger: Logger
    let shouldStop: () -> Bool

    enum Outcome: Equatable { case succeeded, failed, requeued, handedBack, notRunnable }

    func run(jobId: UUID) throws -> Outcome {
        let jobs = JobRepository(db)
        guard let run = try jobs.startAttempt(id: jobId, worker: workerID) else {
            logger.info("job \(jobId) is not queued any more; skipping")
            return .notRunnable
        }
        var log = logger
        log[metadataKey: "job"] = "\(jobId)"
        log[metadataKey: "attempt"] = "\(run.attempt)"
        log.info("running \(run.sport.rawValue) job")
        let pipeline = AnalysisPipeline(sport: run.sport, options: run.options,
                                        decodeOptions: DecodeOptions(threads: config.decodeThreads))
        let stages = StageRepository(db)
        try stages.plan(jobId: run.jobId, attempt: run.attempt, stages: pipeline.plan)
        let reporter = PostgresStageReporter(db: db, run: run, shouldStop: shouldStop)
        do {
            let output = try pipeline.run(location: videoLocation(run), reporter: reporter)
            guard try jobs.complete(run, document: output.document, facts: output.facts) else {
                log.warning("job changed hands while running; result discarded")
                return .notRunnable
            }
            log.info("succeeded")
            return .succeeded
        } catch let failure as StageFailure {
            let retry = failure.kind.isRetryable && run.attempt < run.maxAttempts
            try stages.skipRemaining(jobId: run.jobId, attempt: run.attempt, reason: "not run: \(failure.stage.rawValue) failed")
            try jobs.fail(run, message: failure.description, kind: failure.kind, retry: retry)
            if retry { try queue.enqueue(run.jobId, on: redis) }
            log.warning("\(retry ? "will retry" : "failed"): \(failure.description) [\(failure.kind.rawValue)]")
            return retry ? .requeued : .failed
        } catch is RunStopped {
            // Shutting down: give the job back without spending its error budget.
            try stages.skipRemaining(jobId: run.jobId, attempt: run.attempt, reason: "worker stopped; job handed back")
            if try jobs.handBack(run) { try queue.enqueue(run.jobId, on: redis) }
            log.info("handed back")
            return .handedBack
        }
    }

    /// A local path when this machine shares the storage directory, else the coordinator's content URL.
    func videoLocation(_ run: ClaimedRun) -> String {
        let local = VideoStorage(root: config.storageDir).path(forKey: run.storageKey)
        if config.videoSource != .http, FileManager.default.isReadableFile(atPath: local) { return local }
        let base = config.coordinatorURL.hasSuffix("/") ? String(config.coordinatorURL.dropLast()) : config.coordinatorURL
        return "\(base)/v1/videos/\(run.videoId.uuidString.lowercased())/content"
    }
}
