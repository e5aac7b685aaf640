import Foundation
import Logging
import Queue
import ReelworkCore
import Store

/// A worker process: `slots` threads, each claiming one job at a time and running it, plus a
/// heartbeat thread keeping every running job's lease alive and a watchdog thread ending runs
/// whose threads stopped answering (a hung stage, a stop request nobody read).
///
/// Each slot owns its own Redis and PostgreSQL connections (blocking C clients, one thread each) and
/// reconnects with backoff when either goes away, so a restarted server costs a pause, not the worker.
/// Shutdown (`stop()`): slots stop claiming at once; running jobs may finish within the grace
/// period; after it they are handed back (never marked failed), by the watchdog if their thread
/// is stuck.
public final class WorkerProcess: @unchecked Sendable {
    // Safe: `stopRequestedAt`, `active` and `generations` are read and written with `stateLock` held.
    public let config: ReelworkConfig
    public let workerID: String
    private let logger: Logger
    private var keeper: LeaseKeeper!
    private var watchdog: StageWatchdog!
    private let stateLock = NSLock()
    private var stopRequestedAt: Date?
    private var active: [UUID: RunControl] = [:]
    private var generations: [Int: Int] = [:]
    private let finished = DispatchGroup()

    /// How long an idle slot blocks on the wake-up list before it looks again.
    static let idleWait = 1.0
    static let maxBackoff = 5.0

    public init(config: ReelworkConfig, logger: Logger) {
        self.config = config
        self.logger = logger
        self.workerID = config.workerID ?? "\(ProcessInfo.processInfo.hostName)-\(getpid())"
        keeper = LeaseKeeper(config: config, logger: logger) { [unowned self] in activeRuns() }
        watchdog = StageWatchdog(config: config, logger: logger, runs: { [unowned self] in activeRuns() },
                                 shutdownDue: { [unowned self] in graceOver },
                                 onTakeover: { [unowned self] in replaceThread(of: $0) })
    }

    public var isStopping: Bool { stateLock.withLock { stopRequestedAt != nil } }

    /// Stops claiming; running jobs get `shutdownGraceSeconds` to finish, then are handed back.
    public func stop() {
        stateLock.withLock { if stopRequestedAt == nil { stopRequestedAt = Date() } }
        logger.info("stopping: no new claims; running jobs have \(config.queue.shutdownGraceSeconds) s to finish, then are handed back")
    }

    private var graceOver: Bool {
        stateLock.withLock { stopRequestedAt.map { Date().timeIntervalSince($0) >= config.queue.shutdownGraceSeconds } ?? false }
    }

    private func activeRuns() -> [RunControl] {
        stateLock.withLock { Array(active.values) }
    }

    public func start() {
        logger.info("worker \(workerID) starting with \(config.workerSlots) slot(s), lease \(config.queue.leaseSeconds) s, stage timeout \(config.queue.stageTimeoutSeconds) s")
        keeper.start()
        watchdog.start()
        for slot in 0..<config.workerSlots { startThread(slot: slot) }
    }

    /// Blocks until every slot has stopped (a slot whose thread is stuck in a taken-over run counts
    /// as stopped: the process may exit under it).
    public func wait() {
        finished.wait()
        watchdog.stop()
        keeper.stop()
        logger.info("worker \(workerID) stopped")
    }

    private func startThread(slot: Int) {
        let generation: Int = stateLock.withLock {
            generations[slot, default: -1] += 1
            return generations[slot]!
        }
        let slotThread = SlotThread(slot: slot, generation: generation)
        finished.enter()
        let thread = Thread { [self] in
            slotLoop(slotThread)
            if slotThread.depart() { finished.leave() }
        }
        thread.name = "reelwork-slot-\(slot)" + (generation > 0 ? "-\(generation)" : "")
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// The watchdog ended `run` on its thread's behalf: that thread is retired (it no longer counts
    /// as running) and, unless the worker is stopping, the slot gets a fresh thread.
    private func replaceThread(of run: RunControl) {
        _ = stateLock.withLock { active.removeValue(forKey: run.jobId) }
        run.slot.retire()
        // The new thread counts before the old one stops counting, so `wait` never sees zero between.
        if !isStopping {
            logger.warning("slot \(run.slot.slot): its thread is stuck in job \(run.jobId); starting a new one")
            startThread(slot: run.slot.slot)
        }
        if run.slot.depart() { finished.leave() }
    }

    private func slotLoop(_ slot: SlotThread) {
        let owner = "\(workerID)/\(slot.slot)"
        var log = logger
        log[metadataKey: "slot"] = "\(slot.slot)"
        let queue = JobQueue(config: config)
        var redis: RedisConnection?
        var db: PGConnection?
        var backoff = 0.25
        while !isStopping && !slot.isRetired {
            var control: RunControl?
            do {
                if redis?.isHealthy != true { redis = try RedisConnection(try RedisURL(parsing: config.redisURL), timeout: 10) }
                if db?.isHealthy != true {
                    db = nil
                    let opened = try PGConnection(config.databaseURL)
                    try RunRepository.useAsynchronousCommits(on: opened)
                    db = opened
                }
                guard let redis, let db else { continue }
                guard let claim = try queue.claim(owner: owner, lease: config.queue.leaseSeconds, on: redis) else {
                    try queue.waitForWork(timeout: Self.idleWait, on: redis)
                    continue
                }
                let run = RunControl(claim: claim, owner: owner, slot: slot, shutdownDue: { [unowned self] in graceOver })
                control = run
                stateLock.withLock { active[claim.jobId] = run }
                defer { stateLock.withLock { if active[claim.jobId] === run { active[claim.jobId] = nil } } }
                let runner = JobRunner(config: config, db: db, redis: redis, queue: queue, logger: log)
                let outcome = try runner.run(run)
                if outcome == .takenOver { log.info("job \(claim.jobId) was ended by the watchdog; this thread retires") }
                backoff = 0.25
            } catch {
                log.error("\(error); retrying in \(backoff) s")
                // The run could not record its outcome: give the job back so it is not stuck until
                // its lease expires (unless the watchdog already ended it).
                if let control, !control.isTakenOver, let redis, redis.isHealthy {
                    _ = try? queue.finish(control.claim, owner: owner, outcome: .handBack, on: redis)
                }
                Thread.sleep(forTimeInterval: backoff)
                backoff = min(backoff * 2, Self.maxBackoff)
            }
        }
    }
}
