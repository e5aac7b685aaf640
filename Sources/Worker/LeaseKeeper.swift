import Foundation
import Logging
import Queue
import ReelworkCore
import Store

/// Why a run must stop before it finishes.
enum StopReason: Equatable {
    /// The lease went to another run (expired, reaped): write nothing more.
    case leaseLost
    /// An operator cancelled the job.
    case cancelled
    /// The worker is shutting down and the grace period is over: hand the job back.
    case shutdown
}

/// Renews the leases of every run in this worker process, on its own thread and connections, so a
/// busy decode never starves its heartbeat. It also stamps PostgreSQL's `heartbeat_at`, which the
/// reconciler trusts when Redis has lost a lease. What a heartbeat learns (lost, cancelled) is kept
/// for the run to read at its next progress report.
final class LeaseKeeper: @unchecked Sendable {
    struct Entry {
        var claim: Claim
        var owner: String
        var run: ClaimedRun?
        var verdict: JobQueue.HeartbeatVerdict = .ok
    }

    private let config: ReelworkConfig
    private let queue: JobQueue
    private let logger: Logger
    private let lock = NSLock()
    private var entries: [UUID: Entry] = [:]
    private var stopped = false

    init(config: ReelworkConfig, logger: Logger) {
        self.config = config
        self.queue = JobQueue(prefix: config.queuePrefix)
        self.logger = logger
    }

    func track(_ claim: Claim, owner: String) {
        lock.withLock { entries[claim.jobId] = Entry(claim: claim, owner: owner) }
    }

    func started(_ run: ClaimedRun) {
        lock.withLock { entries[run.jobId]?.run = run }
    }

    func forget(_ jobId: UUID) {
        lock.withLock { _ = entries.removeValue(forKey: jobId) }
    }

    /// The latest heartbeat's word on a run.
    func verdict(_ jobId: UUID) -> JobQueue.HeartbeatVerdict {
        lock.withLock { entries[jobId]?.verdict ?? .ok }
    }

    func stop() {
        lock.withLock { stopped = true }
    }

    func start() {
        let thread = Thread { [self] in loop() }
        thread.name = "reelwork-heartbeat"
        thread.start()
    }

    private func loop() {
        var redis: RedisConnection?
        var db: PGConnection?
        while !lock.withLock({ stopped }) {
            let snapshot = lock.withLock { Array(entries.values) }
            do {
                if redis?.isHealthy != true { redis = try RedisConnection(try RedisURL(parsing: config.redisURL), timeout: 5) }
                for entry in snapshot {
                    let verdict = try queue.heartbeat(entry.claim, owner: entry.owner, lease: config.queue.leaseSeconds, on: redis!)
                    lock.withLock { entries[entry.claim.jobId]?.verdict = verdict }
                    if verdict != .ok { logger.warning("job \(entry.claim.jobId) attempt \(entry.claim.attempt): heartbeat says \(verdict.rawValue)") }
                }
            } catch {
                redis = nil
                logger.warning("heartbeat to Redis failed: \(error)")
            }
            do {
                if db?.isHealthy != true {
                    db = try PGConnection(config.databaseURL)
                    try RunRepository.useAsynchronousCommits(on: db!)
                }
                for entry in snapshot { if let run = entry.run { try RunRepository(db!).heartbeat(run) } }
            } catch {
                db = nil
                logger.warning("heartbeat to PostgreSQL failed: \(error)")
            }
            Thread.sleep(forTimeInterval: config.queue.heartbeatSeconds)
        }
    }
}
