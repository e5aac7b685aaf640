import Foundation
import Logging
import Queue
import ReelworkCore
import Store

/// A worker process: `slots` threads, each claiming one job at a time from Redis and running it.
///
/// Each slot owns its own Redis and PostgreSQL connections (blocking C clients, one thread each), and
/// reconnects with backoff when either goes away, so a restarted server costs a pause, not the worker.
/// `stop()` makes slots stop claiming; a running job is handed back at its next progress report.
public final class WorkerProcess: @unchecked Sendable {
    public let config: ReelworkConfig
    public let workerID: String
    private let logger: Logger
    private let stopLock = NSLock()
    private var stopping = false
    private var threads: [Thread] = []
    private let finished = DispatchGroup()

    /// How long a blocking claim waits before checking for shutdown.
    static let claimTimeout = 1.0
    static let maxBackoff = 5.0

    public init(config: ReelworkConfig, logger: Logger) {
        self.config = config
        self.logger = logger
        self.workerID = config.workerID ?? "\(ProcessInfo.processInfo.hostName)-\(getpid())"
    }

    public var isStopping: Bool { stopLock.withLock { stopping } }

    /// Asks every slot to stop; `wait()` returns once they have.
    public func stop() {
        stopLock.withLock { stopping = true }
    }

    /// Starts the slot threads.
    public func start() {
        logger.info("worker \(workerID) starting with \(config.workerSlots) slot(s)")
        for slot in 0..<config.workerSlots {
            finished.enter()
            let thread = Thread { [self] in
                self.slotLoop(slot: slot)
                self.finished.leave()
            }
            thread.name = "reelwork-slot-\(slot)"
            thread.stackSize = 8 << 20
            threads.append(thread)
            thread.start()
        }
    }

    /// Blocks until every slot has stopped.
    public func wait() {
        finished.wait()
        logger.info("worker \(workerID) stopped")
    }

    private func slotLoop(slot: Int) {
        let slotID = "\(workerID)/\(slot)"
        var log = logger
        log[metadataKey: "slot"] = "\(slot)"
        let queue = JobQueue(prefix: config.queuePrefix)
        var redis: RedisConnection?
        var db: PGConnection?
        var backoff = 0.25
        var recovered = false
        while !isStopping {
            do {
                if redis?.isHealthy != true { redis = try RedisConnection(try RedisURL(parsing: config.redisURL), timeout: 10) }
                if db?.isHealthy != true { db = try PGConnection(config.databaseURL) }
                guard let redis, let db else { continue }
                if !recovered {
                    // A restarted worker with a stable REELWORK_WORKER_ID gets its unfinished claims back.
                    let moved = try queue.requeueProcessing(worker: slotID, on: redis)
                    if moved > 0 { log.info("put \(moved) unfinished claim(s) back in the queue") }
                    recovered = true
                }
                backoff = 0.25
                guard let jobId = try queue.claim(worker: slotID, timeout: Self.claimTimeout, on: redis) else { continue }
                let runner = JobRunner(config: config, workerID: slotID, db: db, redis: redis, queue: queue,
                                       logger: log, shouldStop: { [weak self] in self?.isStopping ?? true })
                _ = try runner.run(jobId: jobId)
                try queue.ack(jobId, worker: slotID, on: redis)
            } catch {
                // A claim may be left in our processing list; take it up again once connected.
                recovered = false
                log.error("\(error); retrying in \(backoff) s")
                Thread.sleep(forTimeInterval: backoff)
                backoff = min(backoff * 2, Self.maxBackoff)
            }
        }
    }
}
