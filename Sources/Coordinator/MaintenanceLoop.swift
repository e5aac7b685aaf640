import Foundation
import Logging
import Queue
import ReelworkCore
import Store

/// The coordinator's singleton background work, run by whichever coordinator holds the Redis lock:
/// - the **reaper** (every `reaperIntervalSeconds`): expired leases go back in line as stalls (or fail
///   past `maxStalls`), due retries become ready; PostgreSQL is told the same;
/// - the **reconciler** (every `reconcileIntervalSeconds`): every job PostgreSQL says is waiting but
///   Redis does not hold is enqueued again, and every running job with a stale heartbeat and no lease
///   is requeued as a stall, so even a flushed Redis loses nothing.
/// It runs on its own thread with its own blocking connections, and survives either server going away.
public final class MaintenanceLoop: @unchecked Sendable {
    // Safe: `stopped` is read and written with `lock` held; the rest is immutable or used by the loop's thread only.
    /// What one pass did (for logs and tests).
    public struct PassResult: Equatable, Sendable {
        public var requeued = 0, failed = 0, cancelled = 0, promoted = 0, reconciled = 0
        public var isEmpty: Bool { self == PassResult() }
    }

    public static let lockName = "maintenance"
    private let config: ReelworkConfig
    private let queue: JobQueue
    private let logger: Logger
    private let owner = "coordinator-\(ProcessInfo.processInfo.hostName)-\(getpid())-\(UUID().uuidString.prefix(8))"
    private let lock = NSLock()
    private var stopped = false
    private let done = DispatchSemaphore(value: 0)

    public init(config: ReelworkConfig, logger: Logger) {
        self.config = config
        self.queue = JobQueue(config: config)
        self.logger = logger
    }

    public func start() {
        let thread = Thread { [self] in
            loop()
            done.signal()
        }
        thread.name = "reelwork-maintenance"
        thread.start()
    }

    public func stop() {
        lock.withLock { stopped = true }
        done.wait()
    }

    private func loop() {
        var redis: RedisConnection?
        var db: PGConnection?
        var lastReconcile = Date.distantPast
        var holding = false
        while !lock.withLock({ stopped }) {
            do {
                if redis?.isHealthy != true { redis = try RedisConnection(try RedisURL(parsing: config.redisURL), timeout: 5) }
                if db?.isHealthy != true { db = try PGConnection(config.databaseURL) }
                let ttl = max(5, config.queue.reaperIntervalSeconds * 5)
                let nowHolding = try queue.acquireLock(Self.lockName, owner: owner, ttl: ttl, on: redis!)
                if nowHolding != holding { logger.info(nowHolding ? "maintenance: this coordinator runs the reaper and reconciler" : "maintenance: another coordinator holds the lock") }
                holding = nowHolding
                if holding {
                    // Every worker obeys the caps in Redis; keep them as configured (a flush would clear them).
                    try queue.configure(globalCap: config.queue.globalCap, clubCap: config.queue.clubCap, on: redis!)
                    var pass = try reap(redis: redis!, db: db!)
                    if Date().timeIntervalSince(lastReconcile) >= config.queue.reconcileIntervalSeconds {
                        pass.reconciled = try reconcile(redis: redis!, db: db!)
                        lastReconcile = Date()
                    }
                    if !pass.isEmpty { logger.info("maintenance: \(pass)") }
                }
            } catch {
                logger.warning("maintenance pass failed: \(error)")
                if redis?.isHealthy != true { redis = nil }
                if db?.isHealthy != true { db = nil }
            }
            Thread.sleep(forTimeInterval: config.queue.reaperIntervalSeconds)
        }
    }

    /// One reaper pass. Redis decides (atomically); PostgreSQL is then told, fenced by attempt.
    func reap(redis: RedisConnection, db: PGConnection) throws -> PassResult {
        let reaped = try queue.reap(maxStalls: config.queue.maxStalls, on: redis)
        var pass = PassResult()
        let repo = MaintenanceRepository(db)
        for expired in reaped.expired {
            let verdict = MaintenanceRepository.StallVerdict(rawValue: expired.verdict) ?? .requeued
            try repo.recordStall(jobId: expired.jobId, attempt: expired.attempt, stalls: expired.stalls, verdict: verdict)
            switch verdict {
            case .requeued: pass.requeued += 1
            case .failed: pass.failed += 1
            case .cancelled: pass.cancelled += 1
            }
        }
        try repo.promoted(reaped.promoted)
        pass.promoted = reaped.promoted.count
        return pass
    }

    /// One reconciler pass: returns how many jobs it put back into Redis.
    func reconcile(redis: RedisConnection, db: PGConnection) throws -> Int {
        let repo = MaintenanceRepository(db)
        let candidates = try repo.reconcileCandidates(settle: config.queue.reconcileSettleSeconds,
                                                      staleRun: config.queue.leaseSeconds * 2, limit: 10_000)
        var count = 0
        for (entry, status) in candidates where try !queue.holds(entry.jobId, on: redis) {
            var toEnqueue: QueueEntry? = entry
            if status == .running {
                toEnqueue = try repo.requeueAbandoned(jobId: entry.jobId, attempt: entry.attempt, maxStalls: config.queue.maxStalls)
            }
            guard let e = toEnqueue else { continue }
            if try queue.enqueue(e.jobId, club: e.club, priority: Priority(rawValue: e.priority) ?? .normal, attempt: e.attempt,
                                 due: status == .retryScheduled ? e.due : nil, on: redis) {
                count += 1
            }
        }
        return count
    }
}
