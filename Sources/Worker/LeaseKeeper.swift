import Foundation
import Logging
import Queue
import ReelworkCore
import Store
import Threading

/// Renews the leases of every run in this worker process, on its own thread and connections, so a
/// busy decode never starves its heartbeat. It also stamps PostgreSQL's `heartbeat_at`, which the
/// reconciler trusts when Redis has lost a lease. What a heartbeat learns (the lease is lost, an
/// operator cancelled) becomes the run's stop request, which the run reads at its next progress
/// report. A run that has been taken over is no longer renewed.
final class LeaseKeeper: Sendable {
    /// What one round did.
    struct Round: Equatable, Sendable {
        var renewed = 0, lost = 0, cancelled = 0, failed = false
    }

    private let thread: BackgroundLoop<Round>
    /// When a round last ended without an error (`heartbeatAge`).
    private let lastBeat: LockedValue<ContinuousClock.Instant>

    /// - Parameters:
    ///   - runs: the runs in progress now (a run the slot has forgotten is not renewed again).
    ///   - presence: when set, each round also records the worker in Redis and learns of a drain request.
    ///   - onRound: sees every round's result, on the keeper's thread (tests wait on it).
    init(config: ReelworkConfig, logger: Logger, presence: WorkerPresence? = nil, runs: @escaping @Sendable () -> [RunControl],
         onRound: (@Sendable (Round) -> Void)? = nil) {
        let queue = JobQueue(config: config)
        let connections = Connections(config: config)
        let lastBeat = LockedValue(ContinuousClock.now)
        self.lastBeat = lastBeat
        thread = BackgroundLoop(name: "reelwork-heartbeat", interval: config.queue.heartbeatSeconds) {
            let round = Self.round(runs().filter { !$0.isTakenOver }, queue: queue, connections: connections, config: config,
                                   presence: presence, logger: logger)
            if !round.failed { lastBeat.withLock { $0 = .now } }
            return round
        }
        thread.onRound = onRound
    }

    func start() { thread.start() }

    /// Time since a round last reached Redis and PostgreSQL without an error: about the heartbeat
    /// interval when all is well, growing while the stores are unreachable or the thread is stuck.
    var heartbeatAge: Duration { ContinuousClock.now - lastBeat.withLock { $0 } }

    /// Renews now instead of at the next interval.
    func wake() { thread.wake() }

    func stop() { thread.stop() }

    func stopped() async { await thread.stopped() }

    private static func round(_ runs: [RunControl], queue: JobQueue, connections: Connections, config: ReelworkConfig,
                              presence: WorkerPresence?, logger: Logger) -> Round {
        var round = Round()
        do {
            let redis = try connections.redis()
            for run in runs {
                let verdict = try queue.heartbeat(run.claim, owner: run.owner, lease: config.queue.leaseSeconds, on: redis)
                switch verdict {
                case .ok: round.renewed += 1
                case .lost: round.lost += 1; run.requestStop(.leaseLost)
                case .cancel: round.cancelled += 1; run.requestStop(.cancelled)
                }
                if verdict != .ok { logger.warning("job \(run.jobId) attempt \(run.claim.attempt): heartbeat says \(verdict.rawValue)") }
            }
            try presence?.beat(running: runs.count, queue: queue, on: redis, logger: logger)
        } catch {
            connections.dropRedis()
            round.failed = true
            logger.warning("heartbeat to Redis failed: \(error)")
        }
        do {
            let db = try connections.postgres()
            for run in runs { if let started = run.run { try RunRepository(db).heartbeat(started) } }
        } catch {
            connections.dropPostgres()
            round.failed = true
            logger.warning("heartbeat to PostgreSQL failed: \(error)")
        }
        return round
    }
}
