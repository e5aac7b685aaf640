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
    ///   - health: where Redis's and PostgreSQL's faults go (logged once per episode, counted).
    init(config: ReelworkConfig, logger: Logger, health: DependencyHealth? = nil, presence: WorkerPresence? = nil,
         runs: @escaping @Sendable () -> [RunControl], onRound: (@Sendable (Round) -> Void)? = nil) {
        let queue = JobQueue(config: config)
        let connections = Connections(config: config, health: health)
        let lastBeat = LockedValue(ContinuousClock.now)
        self.lastBeat = lastBeat
        let trouble = Trouble(config: config, health: health, logger: logger)
        thread = BackgroundLoop(name: "reelwork-heartbeat", interval: config.queue.heartbeatSeconds) {
            let round = Self.round(runs().filter { !$0.isTakenOver }, queue: queue, connections: connections, config: config,
                                   presence: presence, trouble: trouble)
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
                              presence: WorkerPresence?, trouble: Trouble) -> Round {
        var round = Round()
        let logger = trouble.logger
        do {
            let redis = try connections.redis()
            for run in runs {
                let verdict = try queue.heartbeat(run.claim, owner: run.owner, lease: config.queue.leaseSeconds, on: redis)
                switch verdict {
                case .ok: round.renewed += 1
                case .lost: round.lost += 1; run.requestStop(.leaseLost)
                case .cancel: round.cancelled += 1; run.requestStop(.cancelled)
                }
                if verdict != .ok { logger.warning("job \(run.jobId.uuidString.lowercased()) attempt \(run.claim.attempt): heartbeat says \(verdict.rawValue)") }
            }
            try presence?.beat(running: runs.count, queue: queue, on: redis, logger: logger)
            // Heartbeats write even when Redis is out of memory (allow-oom): they prove nothing about that.
            if presence != nil || !runs.isEmpty { trouble.health?.recovered(.redis, from: Set(DependencyFault.Cause.allCases).subtracting([.outOfMemory])) }
        } catch {
            connections.dropRedis()
            round.failed = true
            trouble.report(error, "heartbeat to Redis failed")
        }
        do {
            let db = try connections.postgres()
            for run in runs { if let started = run.run { try RunRepository(db).heartbeat(started) } }
        } catch {
            connections.dropPostgres()
            round.failed = true
            trouble.report(error, "heartbeat to PostgreSQL failed")
        }
        return round
    }
}

/// Where a background thread's errors go: a dependency's fault to `health` (logged once per
/// episode, counted), anything else to the log as it is.
struct Trouble: Sendable {
    let config: ReelworkConfig
    let health: DependencyHealth?
    let logger: Logger

    /// Reports `error`; returns the dependency fault it shows, if any.
    @discardableResult
    func report(_ error: any Error, _ what: String) -> DependencyFault? {
        if let health, let fault = DependencyFault(error, config: config) {
            health.met(fault)
            return fault
        }
        logger.warning("\(what): \(error)")
        return nil
    }
}
