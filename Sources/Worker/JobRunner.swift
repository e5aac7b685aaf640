import Foundation
import Logging
import Media
import ObjectStorage
import Pipeline
import Queue
import ReelworkCore
import Sports
import Store

/// Runs one claimed job to an outcome: recorded in PostgreSQL first (fenced by the attempt), then
/// the lease is ended in Redis with the matching outcome.
struct JobRunner {
    let config: ReelworkConfig
    /// Where an S3 run's presigned read comes from (signed on Redis's clock: WorkerProcess.store).
    let store: any PartUploads
    let db: PGConnection
    let redis: RedisConnection
    let queue: JobQueue
    let logger: Logger
    /// Where the coordinator's failures to serve a video go (logged once per episode, counted).
    var health: DependencyHealth? = nil

    typealias Outcome = RunEnding.Outcome

    /// Runs the job `control` holds. Errors thrown are the connections' (the caller reconnects and
    /// hands the job back); anything PostgreSQL refuses or that cannot be stored counts against the
    /// job's attempts instead, so no job can loop forever between claim and hand-back.
    func run(_ control: RunControl) throws -> Outcome {
        let claim = control.claim, owner = control.owner
        let runs = RunRepository(db)
        let run: ClaimedRun
        switch try runs.start(jobId: claim.jobId, attempt: claim.attempt, worker: owner) {
        case .started(var started):
            // The store reads the sport as written; one this build does not know (a newer release
            // made the job) is refused here, before the run begins, and the claim handed back.
            started.sport = try Sport.parse(started.sport.rawValue)
            run = started
        case .finished, .gone:
            try queue.finish(claim, owner: owner, outcome: .done, on: redis)
            return .dropped
        case .behind(let entry):
            // Redis's attempt counter fell behind PostgreSQL's (Redis lost state): start over from PostgreSQL's.
            try queue.finish(claim, owner: owner, outcome: .done, on: redis)
            try queue.enqueue(entry.jobId, club: entry.club, priority: Priority(rawValue: entry.priority) ?? .normal,
                              attempt: entry.attempt, delay: entry.dueIn ?? 0, on: redis)
            return .dropped
        }
        control.begin(run)
        EventPublisher(config: config, logger: logger).publish(run.event(.jobRunning), on: redis)
        var log = logger
        log[metadataKey: "job"] = "\(run.jobId.uuidString.lowercased())"
        log[metadataKey: "attempt"] = "\(run.attempt)"
        log.info("running \(run.sport.rawValue) job")
        let ending = RunEnding(config: config, db: db, redis: redis, queue: queue, logger: log)
        do {
            return try execute(run, control, ending)
        } catch where !Self.isConnectionTrouble(error) {
            // PostgreSQL refused a write of this run: the same job would fail the same way on every
            // hand-back, so it spends an attempt instead.
            guard control.claimEnding(.run) else {
                if control.isTakenOver { return .takenOver }
                throw error // the outcome is recorded; only telling Redis failed
            }
            return try ending.fail(run, claim, owner: owner, stage: nil, message: "recording the run failed: \(error)",
                                   kind: Self.kindOfRefusal(error))
        }
    }

    private func execute(_ run: ClaimedRun, _ control: RunControl, _ ending: RunEnding) throws -> Outcome {
        let claim = control.claim, owner = control.owner
        var decode = DecodeOptions(threads: config.decodeThreads)
        decode.guards.shouldStop = { control.stopReason != nil }
        let video = try videoSource(run)
        decode.guards.httpAuthorization = video.authorization
        var pipeline = AnalysisPipeline(sport: run.sport, options: run.options, decodeOptions: decode, attempt: run.attempt,
                                        vision: config.vision, concurrentJobs: config.workerSlots, limits: config.limits)
        // A video on the network is read once, into a local copy that probe and decode share.
        let copies = UploadSpool.localCopies(storageDir: config.storageDir)
        if (try? copies.prepare()) != nil {
            pipeline.localCopies = .init(folder: copies.directory, maxBytes: config.maxUploadBytes)
        }
        let events = EventPublisher(config: config, logger: ending.logger)
        let reporter = PostgresStageReporter(db: db, redis: redis, events: events, run: run, plan: pipeline.plan, control: control)
        do {
            let output = try pipeline.run(location: video.location, reporter: MeteredStageReporter(reporter))
            guard control.claimEnding(.run) else { return .takenOver }
            let stored: Bool
            let lastFinishes = reporter.takeUnwrittenFinishes()
            do {
                stored = try RunRepository(db).complete(run, document: output.document, table: SportRegistry.table(for: run.sport),
                                                       facts: output.facts,
                                                       stages: lastFinishes,
                                                       maxResultBytes: config.limits.maxResultBytes)
            } catch where !Self.isConnectionTrouble(error) {
                // A result too large, one that cannot be encoded, or one PostgreSQL refuses: the
                // attempt fails with the reason, and the job's budget bounds the retries.
                return try ending.fail(run, claim, owner: owner, stage: nil, message: "storing the result failed: \(error)",
                                       kind: Self.kindOfRefusal(error))
            }
            guard stored else { return try ending.lost(run, fencedWrite: "result") }
            events.publish(lastFinishes.map(run.event) + [run.event(.jobSucceeded)], on: redis)
            try queue.finish(claim, owner: owner, outcome: .done, on: redis)
            ending.logger.info("succeeded")
            return .succeeded
        } catch let failure as StageFailure {
            // A stop (a cancel, shutdown, the watchdog) can surface as a stage's error, e.g. a read
            // FFmpeg gave up on because the run was told to stop: the stop decides the outcome.
            if let reason = control.stopReason { return try stopped(reason, run, control, ending) }
            guard control.claimEnding(.run) else { return .takenOver }
            try reporter.flush()
            if let fault = DependencyFault(failure, config: config) {
                // The coordinator failed to serve the video: the worker's trouble, not the video's.
                // The slot checks the coordinator before it claims again.
                health?.met(fault)
                if fault.handsTheJobBack { return try ending.handBack(run, claim, owner: owner, fault: fault) }
            }
            return try ending.fail(run, claim, owner: owner, stage: failure.stage, message: failure.message, kind: failure.kind)
        } catch let stop as RunStopped {
            return try stopped(stop.reason, run, control, ending)
        }
    }

    private func stopped(_ reason: StopReason, _ run: ClaimedRun, _ control: RunControl, _ ending: RunEnding) throws -> Outcome {
        guard control.claimEnding(.run) else { return .takenOver }
        let claim = control.claim, owner = control.owner
        switch reason {
        case .leaseLost:
            return try ending.lost(run)
        case .cancelled:
            return try ending.cancel(run, claim, owner: owner)
        case .shutdown:
            return try ending.handBack(run, claim, owner: owner)
        case .stalled(let message):
            // The run noticed the watchdog's verdict itself, before a takeover: same outcome.
            return try ending.fail(run, claim, owner: owner, stage: control.silence.stage, markStageFailed: true,
                                   message: message, kind: .internal)
        }
    }

    /// A lost or refused connection (PostgreSQL or Redis): the worker reconnects and the job is
    /// handed back, nothing is counted against it.
    static func isConnectionTrouble(_ error: any Error) -> Bool {
        switch error {
        case let postgres as PostgresError: return postgres.kind == .transient
        case let redis as RedisError: return redis.kind == .transient
        default: return false
        }
    }

    /// A result over our own size limit is the input's making and never retried; anything else
    /// (PostgreSQL refusing a write, a value that cannot be encoded) is ours: `internal`, retried
    /// within the job's attempts.
    static func kindOfRefusal(_ error: any Error) -> ErrorKind {
        (error as? ReelworkError)?.kind == .invalidInput ? .invalidInput : .internal
    }

    /// Where this run reads its video, and the `Authorization` to send there: a presigned URL of
    /// the bucket (no key of ours travels to the store), a local path when this machine shares the
    /// storage folder, else the coordinator's content URL with this worker's key.
    func videoSource(_ run: ClaimedRun) throws -> (location: String, authorization: String?) {
        switch config.storage {
        case .s3:
            do {
                return (try store.readLocation(key: run.storageKey, validFor: Self.videoReadSeconds), nil)
            } catch let error as ObjectStoreError {
                throw ReelworkError.invalidInput("video \(run.videoId.uuidString.lowercased()) cannot be read: \(error.message)")
            }
        case .local:
            let local = LocalObjectStore(root: config.storageDir).path(forKey: run.storageKey)
            if config.videoSource != .http, FileManager.default.isReadableFile(atPath: local) { return (local, nil) }
            return (Self.contentURL(run.videoId.uuidString.lowercased(), grant: VideoReadGrant(jobId: run.jobId, attempt: run.attempt), config: config),
                    Self.coordinatorAuthorization(config))
        }
    }

    /// How long a run's presigned read stays good: FFmpeg reconnects to the same URL when a read
    /// breaks (`reconnect`, MediaLocation.openOptions), so it must outlast the longest run; a run
    /// stalls long before this (stage timeouts).
    static let videoReadSeconds = 12 * 3600

    /// The coordinator's URL of a video's bytes, with the grant of the run that reads it (a worker
    /// key reads a video only while it holds that job's lease).
    static func contentURL(_ videoId: String, grant: VideoReadGrant, config: ReelworkConfig) -> String {
        let base = config.coordinatorURL.hasSuffix("/") ? String(config.coordinatorURL.dropLast()) : config.coordinatorURL
        return "\(base)/v1/videos/\(videoId)/content?\(grant.query)"
    }

    /// The `Authorization` a worker sends with every read from the coordinator: its key.
    static func coordinatorAuthorization(_ config: ReelworkConfig) -> String? {
        config.apiKey.map { "Bearer \($0)" }
    }
}
