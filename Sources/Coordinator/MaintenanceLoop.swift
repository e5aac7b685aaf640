import Foundation
import Logging
import Queue
import ReelworkCore
import Store
import Threading

/// The coordinator's singleton background work, run by whichever coordinator holds the Redis lock:
/// - the **reaper** (every `reaperIntervalSeconds`): expired leases go back in line as stalls (or fail
///   past `maxStalls`), due retries become ready; PostgreSQL is told the same. Redis keeps each stall
///   verdict until PostgreSQL has recorded it, so a failure between the two stores only delays it;
/// - the **reconciler** (every `reconcileIntervalSeconds`): every job PostgreSQL says is waiting but
///   Redis does not hold is enqueued again, and every running job with a stale heartbeat and no lease
///   is requeued as a stall, so even a flushed Redis loses nothing.
/// It runs on its own `BackgroundLoop` with its own blocking connections, and survives either
/// server going away.
public final class MaintenanceLoop: Sendable {
    /// What one round did (for logs and tests).
    public struct Round: Equatable, Sendable {
        /// Whether this coordinator held the maintenance lock (only the holder does the work).
        public var holdsLock = false
        /// Stall verdicts recorded in PostgreSQL, by verdict.
        public var requeued = 0, failed = 0, cancelled = 0
        /// Due retries made ready; jobs the reconciler put back into Redis.
        public var promoted = 0, reconciled = 0
        /// Why the round stopped early, if it did.
        public var error: String?

        public init() {}
        var didWork: Bool { requeued + failed + cancelled + promoted + reconciled > 0 }

        /// The round's counts, for the log.
        var summary: String {
            "stalls requeued \(requeued), failed \(failed), cancelled \(cancelled); retries made ready \(promoted); jobs reconciled \(reconciled)"
        }
    }

    public static let lockName = "maintenance"
    private let loop: BackgroundLoop<Round>

    /// - Parameter onRound: sees every round's result, on the loop's thread (tests wait on it).
    public init(config: ReelworkConfig, logger: Logger, onRound: (@Sendable (Round) -> Void)? = nil) {
        let work = MaintenanceWork(config: config, logger: logger)
        loop = BackgroundLoop(name: "reelwork-maintenance", interval: config.queue.reaperIntervalSeconds) { work.round() }
        loop.onRound = onRound
    }

    public func start() { loop.start() }

    /// Stops after the round in progress, without blocking the caller's thread.
    public func stopped() async { await loop.stopped() }

    public func stop() { loop.stop() }
}

/// The maintenance loop's state and rounds; used from the loop's thread only.
final class MaintenanceWork: @unchecked Sendable {
    // Safe: confined to the one thread that owns it (the maintenance BackgroundLoop's rounds).
    let config: ReelworkConfig
    let queue: JobQueue
    private let logger: Logger
    let owner = "coordinator-\(ProcessInfo.processInfo.hostName)-\(getpid())-\(UUID().uuidString.prefix(8))"
    private let events: EventPublisher
    private var redis: RedisConnection?
    private var db: PGConnection?
    private var lastReconcile = Date.distantPast
    private var holding = false

    init(config: ReelworkConfig, logger: Logger) {
        self.config = config
        self.queue = JobQueue(config: config)
        self.logger = logger
        self.events = EventPublisher(stream: EventStream(config: config), logger: logger)
    }

    func round() -> MaintenanceLoop.Round {
        var round = MaintenanceLoop.Round()
        do {
            if redis?.isHealthy != true { redis = try RedisConnection(try RedisURL(parsing: config.redisURL), timeout: 5) }
            if db?.isHealthy != true { db = try PGConnection(config.databaseURL) }
            guard let redis, let db else { return round }
            let ttl = max(5, config.queue.reaperIntervalSeconds * 5)
            round.holdsLock = try queue.acquireLock(MaintenanceLoop.lockName, owner: owner, ttl: ttl, on: redis)
            if round.holdsLock != holding {
                logger.info(round.holdsLock ? "maintenance: this coordinator runs the reaper and reconciler" : "maintenance: another coordinator holds the lock")
            }
            holding = round.holdsLock
            guard holding else { return round }
            // Every worker obeys the caps in Redis; keep them as configured (a flush would clear them).
            try queue.configure(globalCap: config.queue.globalCap, clubCap: config.queue.clubCap, on: redis)
            try reap(redis: redis, db: db, into: &round)
            if Date().timeIntervalSince(lastReconcile) >= config.queue.reconcileIntervalSeconds {
                round.reconciled = try reconcile(redis: redis, db: db)
                lastReconcile = Date()
            }
            if round.didWork { logger.info("maintenance: \(round.summary)") }
        } catch {
            round.error = "\(error)"
            logger.warning("maintenance round failed: \(error)")
            if redis?.isHealthy != true { redis = nil }
            if db?.isHealthy != true { db = nil }
        }
        return round
    }

    /// One reaper pass. Redis decides (atomically) and keeps its verdicts; PostgreSQL is then told
    /// every verdict not yet recorded (this pass's and any a failure left over), fenced by attempt,
    /// and only then does Redis forget them.
    func reap(redis: RedisConnection, db: PGConnection, into round: inout MaintenanceLoop.Round) throws {
        let reaped = try queue.reap(maxStalls: config.queue.maxStalls, on: redis)
        let repo = MaintenanceRepository(db)
        var changed: [(id: UUID, type: JobEvent.Kind, attempt: Int?, error: String?)] = []
        defer { publish(changed, redis: redis, db: db) }
        for report in try queue.stallReports(on: redis) {
            let verdict = report.verdict
            let recorded: Bool
            do {
                recorded = try repo.recordStall(jobId: report.jobId, attempt: report.attempt, stalls: report.stalls, verdict: verdict)
            } catch let error as PostgresError where error.kind == .invalidInput {
                // A data error or a violated constraint: PostgreSQL will refuse this report every
                // time, and keeping it would stop every later round here. Anything else (a lost
                // connection, a deadlock, a timeout) keeps it for the next round.
                logger.error("maintenance: cannot record the stall of job \(report.jobId.uuidString.lowercased()) attempt \(report.attempt): \(error); dropped")
                try queue.acknowledgeStallReports([report], on: redis)
                continue
            }
            try queue.acknowledgeStallReports([report], on: redis)
            if recorded {
                let change: (id: UUID, type: JobEvent.Kind, attempt: Int?, error: String?) = switch verdict {
                case .requeued: (report.jobId, .jobQueued, report.attempt, "stalled: the worker stopped renewing its lease")
                case .failed: (report.jobId, .jobFailed, report.attempt, "stalled \(report.stalls) times: the worker running it stopped renewing its lease")
                case .cancelled: (report.jobId, .jobCancelled, report.attempt, nil)
                }
                changed.append(change)
            }
            switch verdict {
            case .requeued: round.requeued += 1
            case .failed: round.failed += 1
            case .cancelled: round.cancelled += 1
            }
        }
        try repo.promoted(reaped.promoted)
        changed += reaped.promoted.map { ($0, .jobQueued, nil, nil) }
        round.promoted = reaped.promoted.count
    }

    /// Publishes the changes a round recorded (the statements that made them did not read each
    /// job's club and batch, so they are looked up here, once per round that changed anything).
    private func publish(_ changes: [(id: UUID, type: JobEvent.Kind, attempt: Int?, error: String?)], redis: RedisConnection,
                         db: PGConnection) {
        guard !changes.isEmpty else { return }
        do {
            let subjects = try JobRepository(db).eventSubjects(changes.map(\.id))
            events.publish(changes.compactMap { change in
                subjects[change.id]?.event(change.type, attempt: change.attempt,
                                           errorKind: change.type == .jobFailed ? "stalled" : nil, error: change.error)
            }, on: redis)
        } catch {
            events.failed(changes.count, "cannot read the jobs' clubs: \(error)")
        }
    }

    /// One reconciler pass: returns how many jobs it put back into Redis.
    func reconcile(redis: RedisConnection, db: PGConnection) throws -> Int {
        let repo = MaintenanceRepository(db)
        let candidates = try repo.reconcileCandidates(settle: config.queue.reconcileSettleSeconds,
                                                      staleRun: config.queue.leaseSeconds * 2, limit: 10_000)
        var count = 0
        var changed: [(id: UUID, type: JobEvent.Kind, attempt: Int?, error: String?)] = []
        defer { publish(changed, redis: redis, db: db) }
        for (entry, status) in candidates where try !queue.holds(entry.jobId, on: redis) {
            var toEnqueue: QueueEntry? = entry
            if status == .running {
                let recorded = try repo.requeueAbandoned(jobId: entry.jobId, attempt: entry.attempt, maxStalls: config.queue.maxStalls)
                toEnqueue = recorded?.entry
                switch recorded?.verdict {
                case .requeued: changed.append((entry.jobId, .jobQueued, entry.attempt, "stalled: its run was abandoned"))
                case .failed: changed.append((entry.jobId, .jobFailed, entry.attempt, "stalled too often: its run was abandoned"))
                case .cancelled, nil: break
                }
            }
            guard let e = toEnqueue else { continue }
            if try queue.enqueue(e.jobId, club: e.club, priority: Priority(rawValue: e.priority) ?? .normal, attempt: e.attempt,
                                 delay: status == .retryScheduled ? e.dueIn ?? 0 : 0, on: redis) {
                count += 1
            }
        }
        return count
    }
}
