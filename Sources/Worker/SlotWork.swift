import Foundation
import Logging
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
    static let maxBackoff = 5.0

    let slot: SlotThread
    private let config: ReelworkConfig
    private let owner: String
    private let logger: Logger
    private let queue: JobQueue
    private let isStopping: @Sendable () -> Bool
    private let shutdownDue: @Sendable () -> Bool
    private let track: @Sendable (RunControl, _ running: Bool) -> Void
    /// Redis calls may block for the idle wait, so their timeout is longer than that.
    private let connections: Connections
    private var backoff = 0.25

    /// - Parameters:
    ///   - isStopping: whether the worker stopped claiming.
    ///   - shutdownDue: whether the worker's shutdown grace period is over.
    ///   - track: records that a run started (true) or ended (false), for the lease keeper and watchdog.
    init(slot: SlotThread, workerID: String, config: ReelworkConfig, logger: Logger, isStopping: @escaping @Sendable () -> Bool,
         shutdownDue: @escaping @Sendable () -> Bool, track: @escaping @Sendable (RunControl, _ running: Bool) -> Void) {
        self.slot = slot
        self.config = config
        self.owner = "\(workerID)/\(slot.slot)"
        var log = logger
        log[metadataKey: "slot"] = "\(slot.slot)"
        self.logger = log
        self.queue = JobQueue(config: config)
        self.connections = Connections(config: config, redisTimeout: 10)
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

    func round() -> Round {
        guard !isStopping() && !slot.isRetired else { return .retired }
        var control: RunControl?
        do {
            let redis = try connections.redis(), db = try connections.postgres()
            guard let claim = try queue.claim(owner: owner, lease: config.queue.leaseSeconds, on: redis) else {
                try queue.waitForWork(timeout: Self.idleWait, on: redis)
                return .idle
            }
            let run = RunControl(claim: claim, owner: owner, slot: slot, shutdownDue: shutdownDue)
            control = run
            track(run, true)
            defer { track(run, false) }
            let runner = JobRunner(config: config, db: db, redis: redis, queue: queue, logger: logger)
            let outcome = try runner.run(run)
            if outcome == .takenOver { logger.info("job \(claim.jobId) was ended by the watchdog; this thread retires") }
            backoff = 0.25
            return .ran(claim.jobId, takenOver: outcome == .takenOver)
        } catch {
            logger.error("\(error); retrying in \(backoff) s")
            // The run could not record its outcome: give the job back so it is not stuck until
            // its lease expires (unless the watchdog already ended it).
            if let control, !control.isTakenOver, let redis = connections.healthyRedis {
                _ = try? queue.finish(control.claim, owner: owner, outcome: .handBack, on: redis)
            }
            defer { backoff = min(backoff * 2, Self.maxBackoff) }
            return .failed(backoff: backoff)
        }
    }
}
