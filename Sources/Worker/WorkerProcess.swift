import Foundation
import Logging
import Queue
import ReelworkCore
import Store

/// A worker process: `slots` threads, each claiming one job at a time and running it, plus one
/// heartbeat thread keeping every running job's lease alive.
///
/// Each slot owns its own Redis and PostgreSQL connections (blocking C clients, one thread each) and
/// reconnects with backoff when either goes away, so a restarted server costs a pause, not the worker.
/// Shutdown (`stop()`): slots stop claiming at once; running jobs may finish within the grace
/// period; after it they are handed back (never marked failed).
public final class WorkerProcess: @unchecked Sendable {
    public let config: ReelworkConfig
    public let workerID: String
    private let logger: Logger
    private let keeper: LeaseKeeper
    private let stateLock = NSLock()
    private var stopRequestedAt: Date?
    private let finished = DispatchGroup()

    /// How long an idle slot blocks on the wake-up list before it looks again.
    static let idleWait = 1.0
    static let maxBackoff = 5.0

    public init(config: ReelworkConfig, logger: Logger) {
        self.config = config
        self.logger = logger
        self.workerID = config.workerID ?? "\(ProcessInfo.processInfo.hostName)-\(getpid())"
        self.keeper = LeaseKeeper(config: config, logger: logger)
    }

    public var isStopping: Bool { stateLock.withLock { stopRequestedAt != nil } }

    /// Stops claiming; running jobs get `shutdownGraceSeconds` to finish, then are handed back.
    public func stop() {
        stateLock.withLock { if stopRequestedAt == nil { stopRequestedAt = Date() } }
        logger.info("stopping: no new claims; running jobs have \(config.queue.shutdownGraceSeconds) s to finish")
    }

    private var graceOver: Bool {
        stateLock.withLock { stopRequestedAt.map { Date().timeIntervalSince($0) >= config.queue.shutdownGraceSeconds } ?? false }
    }

    public func start() {
        logger.info("worker \(workerID) starting with \(config.workerSlots) slot(s), lease \(config.queue.leaseSeconds) s")
        keeper.start()
        for slot in 0..<config.workerSlots {
            finished.enter()
            let thread = Thread { [self] in
                slotLoop(slot: slot)
                finished.leave()
            }
            thread.name = "reelwork-slot-\(slot)"
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    /// Blocks until every slot has stopped.
    public func wait() {
        finished.wait()
        keeper.stop()
        logger.info("worker \(workerID) stopped")
    }

    private func slotLoop(slot: Int) {
        let owner = "\(workerID)/\(slot)"
        var log = logger
        log[metadataKey: "slot"] = "\(slot)"
        let queue = JobQueue(prefix: config.queuePrefix)
        var redis: RedisConnection?
        var db: PGConnection?
        var backoff = 0.25
        while !isStopping {
            var claim: Claim?
            do {
                if redis?.isHealthy != true { redis = try RedisConnection(try RedisURL(parsing: config.redisURL), timeout: 10) }
                if db?.isHealthy != true {
                    db = try PGConnection(config.databaseURL)
                    try RunRepository.useAsynchronousCommits(on: db!)
                }
                guard let redis, let db else { continue }
                claim = try queue.claim(owner: owner, lease: config.queue.leaseSeconds, on: redis)
                guard let claim else {
                    try queue.waitForWork(timeout: Self.idleWait, on: redis)
                    continue
                }
                keeper.track(claim, owner: owner)
                defer { keeper.forget(claim.jobId) }
                let runner = JobRunner(config: config, owner: owner, db: db, redis: redis, queue: queue, logger: log,
                                       stopReason: { [weak self] in self?.stopReason(claim.jobId) })
                _ = try runner.run(claim, keeper: keeper)
                backoff = 0.25
            } catch {
                log.error("\(error); retrying in \(backoff) s")
                // The run could not record its outcome: give the job back so it is not stuck until its lease expires.
                if let claim, let redis, redis.isHealthy {
                    _ = try? queue.finish(claim, owner: owner, outcome: .handBack, on: redis)
                }
                Thread.sleep(forTimeInterval: backoff)
                backoff = min(backoff * 2, Self.maxBackoff)
            }
        }
    }

    private func stopReason(_ jobId: UUID) -> StopReason? {
        switch keeper.verdict(jobId) {
        case .lost: return .leaseLost
        case .cancel: return .cancelled
        case .ok: return graceOver ? .shutdown : nil
        }
    }
}
