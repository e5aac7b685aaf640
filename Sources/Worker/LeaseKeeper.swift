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

    private let config: ReelworkConfig
    private let thread: BackgroundLoop<Round>

    /// - Parameters:
    ///   - runs: the runs in progress now (a run the slot has forgotten is not renewed again).
    ///   - onRound: sees every round's result, on the keeper's thread (tests wait on it).
    init(config: ReelworkConfig, logger: Logger, runs: @escaping @Sendable () -> [RunControl],
         onRound: (@Sendable (Round) -> Void)? = nil) {
        self.config = config
        let queue = JobQueue(config: config)
        let connections = Connections(config: config)
        thread = BackgroundLoop(name: "reelwork-heartbeat", interval: config.queue.heartbeatSeconds) {
            Self.round(runs().filter { !$0.isTakenOver }, queue: queue, connections: connections, config: config, logger: logger)
        }
        thread.onRound = onRound
    }

    func start() { thread.start() }

    /// Renews now instead of at the next interval.
    func wake() { thread.wake() }

    func stop() { thread.stop() }

    func stopped() async { await thread.stopped() }

    private static func round(_ runs: [RunControl], queue: JobQueue, connections: Connections, config: ReelworkConfig,
                              logger: Logger) -> Round {
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

/// A background thread's own Redis and PostgreSQL connections, opened on first use and again after
/// a failure. Used from that one thread only.
final class Connections: @unchecked Sendable {
    // Safe: confined to the one thread that owns it (a BackgroundLoop's rounds).
    private let config: ReelworkConfig
    private var redisConnection: RedisConnection?
    private var postgresConnection: PGConnection?

    init(config: ReelworkConfig) { self.config = config }

    func redis() throws -> RedisConnection {
        if let redisConnection, redisConnection.isHealthy { return redisConnection }
        let opened = try RedisConnection(try RedisURL(parsing: config.redisURL), timeout: 5)
        redisConnection = opened
        return opened
    }

    /// A worker's connection: asynchronous commits except where an outcome asks for a durable one.
    func postgres() throws -> PGConnection {
        if let postgresConnection, postgresConnection.isHealthy { return postgresConnection }
        postgresConnection = nil
        let opened = try PGConnection(config.databaseURL)
        try RunRepository.useAsynchronousCommits(on: opened)
        postgresConnection = opened
        return opened
    }

    func dropRedis() { redisConnection = nil }
    func dropPostgres() { postgresConnection = nil }
}
