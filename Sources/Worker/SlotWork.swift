import Foundation
import Logging
import Media
import ObjectStorage
import Queue
import ReelworkCore
import Store

/// One slot's rounds: each claims one job and runs it, or waits briefly for work. It owns the
/// slot's Redis and PostgreSQL connections (`Connections`: blocking C clients, used from the slot's
/// thread only), reopened after a failure with a backoff the slot's loop waits out between rounds.
final class SlotWork: @unchecked Sendable {
    // Safe: confined to the one thread that owns it (the slot's BackgroundLoop rounds); the
    // closures it is given are themselves Sendable.

    /// What one round did.
    enum Round: Equatable, Sendable {
        /// Ran a job to its end (or was ended by the watchdog, `takenOver`).
        case ran(UUID, takenOver: Bool)
        /// Found no work within the idle wait.
        case idle
        /// Something failed; the next round comes after `backoff` seconds.
        case failed(backoff: TimeInterval)
        /// The worker is stopping or this thread was retired: no more rounds.
        case retired
    }

    /// How long an idle slot blocks on the wake-up list before it looks again.
    static let idleWait = 1.0
    /// The first wait after a failure; each failure in a row doubles it, up to `maxBackoff`.
    static let initialBackoff = 0.25
    static let maxBackoff = 5.0

    let slot: SlotThread
    private let config: ReelworkConfig
    /// The worker's video store (its S3 URLs signed on Redis's clock).
    private let store: any PartUploads
    private let owner: String
    private let logger: Logger
    private let queue: JobQueue
    private let health: DependencyHealth
    private let isStopping: @Sendable () -> Bool
    private let shutdownDue: @Sendable () -> Bool
    private let track: @Sendable (RunControl, _ running: Bool) -> Void
    /// Redis calls may block for the idle wait, so their timeout is longer than that.
    private let connections: Connections
    private var backoff = initialBackoff

    /// - Parameters:
    ///   - health: what the worker knows of Redis, PostgreSQL and the coordinator (shared by its threads).
    ///   - isStopping: whether the worker stopped claiming.
    ///   - shutdownDue: whether the worker's shutdown grace period is over.
    ///   - track: records that a run started (true) or ended (false), for the lease keeper and watchdog.
    init(slot: SlotThread, workerID: String, config: ReelworkConfig, store: any PartUploads, logger: Logger, health: DependencyHealth,
         isStopping: @escaping @Sendable () -> Bool, shutdownDue: @escaping @Sendable () -> Bool,
         track: @escaping @Sendable (RunControl, _ running: Bool) -> Void) {
        self.slot = slot
        self.config = config
        self.store = store
        self.owner = "\(workerID)/\(slot.slot)"
        var log = logger
        log[metadataKey: "slot"] = "\(slot.slot)"
        self.logger = log
        self.queue = JobQueue(config: config)
        self.health = health
        self.connections = Connections(config: config, redisTimeout: 10, health: health)
        self.isStopping = isStopping
        self.shutdownDue = shutdownDue
        self.track = track
    }

    /// The loop's pace: at once after a job or an idle wait, after the backoff after a failure;
    /// nil (the thread leaves) once retired, or after a run the watchdog ended: the watchdog gives
    /// the slot a new thread, perhaps not yet when this one returns.
    static func pace(_ round: Round) -> TimeInterval? {
        switch round {
        case .ran(_, let takenOver): takenOver ? nil : 0
        case .idle: 0
        case .failed(let backoff): backoff
        case .retired: nil
        }
    }

    /// The wait for a backoff of `backoff` seconds: between half and all of it (equal jitter), so
    /// workers that failed together do not retry together.
    static func jittered(_ backoff: TimeInterval) -> TimeInterval {
        backoff / 2 + Double.random(in: 0...(backoff / 2))
    }

    func round() -> Round {
        guard !isStopping() && !slot.isRetired else { return .retired }
        var control: RunControl?
        do {
            let redis = try connections.redis(), db = try connections.postgres()
            guard videoSourceServes() else { return failed() }
            guard let claim = try queue.claim(owner: owner, lease: config.queue.leaseSeconds, on: redis) else {
                health.recovered(.redis)
                backoff = Self.initialBackoff
                try queue.waitForWork(timeout: Self.idleWait, on: redis)
                return .idle
            }
            health.recovered(.redis)
            let run = RunControl(claim: claim, owner: owner, slot: slot, shutdownDue: shutdownDue)
            control = run
            track(run, true)
            defer { track(run, false) }
            let runner = JobRunner(config: config, store: store, db: db, redis: redis, queue: queue, logger: logger, health: health)
            let outcome = try runner.run(run)
            if outcome == .takenOver { logger.info("job \(claim.jobId.uuidString.lowercased()) was ended by the watchdog; this thread retires") }
            // Each of these ended the run with a durable write.
            if [.succeeded, .failed, .retryScheduled, .handedBack, .cancelled, .deferred].contains(outcome) { health.recovered(.postgres) }
            // The run met a dependency's fault: wait before claiming again, even if a check passes.
            if outcome == .deferred { return failed() }
            backoff = Self.initialBackoff
            return .ran(claim.jobId, takenOver: outcome == .takenOver)
        } catch {
            if let fault = DependencyFault(error, config: config) {
                health.met(fault)
            } else {
                logger.error("\(error); retrying in about \(backoff) s")
            }
            // The run could not record its outcome: give the job back so it is not stuck until
            // its lease expires (unless the watchdog already ended it). PostgreSQL, if it still
            // says running, is put right by the next attempt's start (the earlier run: lost). A
            // claim PostgreSQL never started gives its attempt number back.
            if let control, !control.isTakenOver, let redis = connections.healthyRedis {
                _ = try? queue.finish(control.claim, owner: owner, outcome: control.run == nil ? .handBackUnstarted : .handBack, on: redis)
            }
            return failed()
        }
    }

    /// The round failed: the next one comes after the backoff, which grows.
    private func failed() -> Round {
        defer { backoff = min(backoff * 2, Self.maxBackoff) }
        return .failed(backoff: Self.jittered(backoff))
    }

    /// Whether the slot may claim, as far as the video source goes. While it is failing this
    /// worker (or was never checked and serves every video), the slot asks it for a video that
    /// does not exist: 404 means it answers and takes the worker's key (the coordinator) or
    /// signature (the store); no answer, 401, 403 or 5xx is the fault that keeps the slot from
    /// claiming jobs it could only hand back.
    private func videoSourceServes() -> Bool {
        guard health.mustCheckVideoSource else { return true }
        let isStopping = self.isStopping
        do {
            if health.videoSource == .store {
                let absent = try store.readLocation(key: ObjectKey.video(sha256: Self.absentHash), validFor: 60)
                try MediaProbe.checkOpens(absent, guards: MediaGuards(shouldStop: { isStopping() }))
            } else {
                let guards = MediaGuards(shouldStop: { isStopping() }, httpAuthorization: JobRunner.coordinatorAuthorization(config))
                try MediaProbe.checkOpens(JobRunner.contentURL(Self.absentVideo, grant: Self.absentGrant, config: config), guards: guards)
            }
        } catch {
            if let fault = DependencyFault(error, config: config) {
                health.met(fault)
                return false
            }
        }
        health.recovered(health.videoSource)
        return true
    }

    /// The content hash whose object the store check asks for: no video has it.
    static let absentHash = String(repeating: "0", count: 64)
    /// The id the coordinator check asks for: no video has it.
    static let absentVideo = "00000000-0000-0000-0000-000000000000"
    /// The grant it shows: no job has it either, so the answer is the same 404.
    static let absentGrant = VideoReadGrant(jobId: UUID(uuidString: absentVideo)!, attempt: 1)
}
