import Foundation
import Logging
import ObjectStorage
import Queue
import ReelworkCore
import S3Storage
import ServiceLifecycle
import Telemetry
import Threading

/// A worker process, run as a ServiceLifecycle `Service`: `slots` loops, each claiming one job at
/// a time and running it (`SlotWork`), plus a lease keeper renewing every running job's lease and
/// a watchdog ending runs whose threads stopped answering (a hung stage, a stop request nobody read).
/// All of them are `BackgroundLoop`s.
///
/// A restarted server costs a pause, not the worker: each slot reconnects with backoff.
/// Graceful shutdown (the service group's SIGTERM or SIGINT, or `stop()`): slots stop claiming at
/// once; running jobs may finish within the grace period; after it they are handed back (never
/// marked failed), by the watchdog if their thread is stuck. An operator's drain (`POST
/// /v1/workers/{id}/drain`, seen by the lease keeper's next beat) takes the same path.
/// So does a worker that abandoned `maxAbandonedThreads` stage threads to stuck C calls: their memory
/// is only freed when the process ends, so it drains and then reports `mustRestart`, which the
/// `worker` command turns into a non-zero exit for its supervisor to restart.
public final class WorkerProcess: Service, @unchecked Sendable {
    // Safe: `stopRequestedAt`, `active`, `slots`, `generations` and `abandoned` are read and written with
    // `stateLock` held; `keeper` and `watchdog` are set in `init` and never changed.
    public let config: ReelworkConfig
    public let workerID: String
    private let logger: Logger
    private var keeper: LeaseKeeper!
    private var watchdog: StageWatchdog!
    /// What the worker knows of Redis, PostgreSQL and the coordinator (logs and metrics of their faults).
    let health: DependencyHealth
    /// The video store, made once: an S3 store signs its read URLs on Redis's clock (`RedisClock`),
    /// so a worker whose own clock is off still hands FFmpeg a URL the store accepts.
    let store: any PartUploads
    private let stateLock = NSLock()
    private var stopRequestedAt: ContinuousClock.Instant?   // monotonic: the grace is a duration on this host
    private var active: [UUID: RunControl] = [:]
    private var slots: [Int: BackgroundLoop<SlotWork.Round>] = [:]
    private var generations: [Int: Int] = [:]
    private var abandoned = 0
    private let finished = DispatchGroup()

    /// - Parameter localNow: this host's clock, which the store's signing clock corrects to Redis's
    ///   (a test passes one that is off).
    public init(config: ReelworkConfig, logger: Logger, localNow: @escaping @Sendable () -> Date = { Date() }) {
        self.config = config
        self.logger = logger
        // A Redis URL that does not parse stops the worker at its first connection, with the reason.
        let clock = RedisClock(url: (try? RedisURL(parsing: config.redisURL)) ?? RedisURL(), logger: logger, localNow: localNow)
        store = ObjectStores.make(config, now: { clock.now() })
        self.workerID = config.workerID ?? "\(ProcessInfo.processInfo.hostName)-\(getpid())"
        let id = workerID
        let source = DependencyFault.videoSource(config).0
        health = DependencyHealth(logger: logger, videoSource: source, checkFirst: source == .store || config.videoSource == .http)
        let presence = WorkerPresence(workerID: id, config: config) { [unowned self] in stop() }
        keeper = LeaseKeeper(config: config, logger: logger, health: health, presence: presence) { [unowned self] in activeRuns() }
        watchdog = StageWatchdog(config: config, logger: logger, runs: { [unowned self] in activeRuns() },
                                 shutdownDue: { [unowned self] in graceOver },
                                 onTakeover: { [unowned self] in replaceThread(of: $0) })
    }

    /// The `X-Amz-Date` (`yyyyMMdd'T'HHmmss'Z'`) of a read URL this worker's store signs now; nil
    /// when its videos are not in an S3 store.
    var storeSigningDate: String? {
        guard case .s3 = config.storage,
              let url = try? store.readLocation(key: ObjectKey.video(sha256: SlotWork.absentHash), validFor: 60) else { return nil }
        return URLComponents(string: url)?.queryItems?.first { $0.name == "X-Amz-Date" }?.value
    }

    /// Runs until graceful shutdown (or cancellation), then until every slot has stopped.
    public func run() async throws {
        start()
        await withTaskCancellationHandler {
            await withGracefulShutdownHandler {
                await stopped()
            } onGracefulShutdown: {
                self.stop()
            }
        } onCancel: {
            self.stop()
        }
    }

    public var isStopping: Bool { stateLock.withLock { stopRequestedAt != nil } }

    /// Stage threads abandoned so far, each stuck in a call the watchdog could not interrupt.
    public var abandonedThreads: Int { stateLock.withLock { abandoned } }

    /// Whether this worker stopped because it abandoned too many threads and needs a fresh process.
    public var mustRestart: Bool { abandonedThreads >= config.queue.maxAbandonedThreads }

    /// Time since the lease keeper last renewed every running job's lease without an error.
    public var heartbeatAge: Duration { keeper.heartbeatAge }

    /// Stops claiming; running jobs get `shutdownGraceSeconds` to finish, then are handed back.
    public func stop() {
        let loops: [BackgroundLoop<SlotWork.Round>] = stateLock.withLock {
            if stopRequestedAt == nil { stopRequestedAt = .now }
            return Array(slots.values)
        }
        // An idle or backing-off slot leaves now; a busy one after its job.
        loops.forEach { $0.requestStop() }
        logger.info("stopping: no new claims; running jobs have \(config.queue.shutdownGraceSeconds) s to finish, then are handed back")
    }

    private var graceOver: Bool {
        stateLock.withLock { stopRequestedAt.map { (ContinuousClock.now - $0).inSeconds >= config.queue.shutdownGraceSeconds } ?? false }
    }

    private func activeRuns() -> [RunControl] {
        stateLock.withLock { Array(active.values) }
    }

    /// The exit status of a worker that stopped to be restarted (`EX_TEMPFAIL`: try again).
    public static let restartExitCode: Int32 = 75

    public func start() {
        logger.info("worker \(workerID) starting with \(config.workerSlots) slot(s), lease \(config.queue.leaseSeconds) s, stage timeout \(config.queue.stageTimeoutSeconds) s")
        // Local copies a killed worker left behind; a run's own copy is younger than a run can last.
        UploadSpool.localCopies(storageDir: config.storageDir).sweep(olderThan: TimeInterval(JobRunner.videoReadSeconds))
        // The date its reads are signed with, so a host whose clock is off shows it is corrected.
        if let signed = storeSigningDate { logger.info("store URLs are signed on Redis's clock: X-Amz-Date \(signed)") }
        keeper.start()
        watchdog.start()
        for slot in 0..<config.workerSlots { startThread(slot: slot) }
    }

    /// Returns when every slot has stopped (a slot whose thread is stuck in a taken-over run counts
    /// as stopped: the process may exit under it), then stops the watchdog and the lease keeper.
    public func stopped() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            finished.notify(queue: .global()) { continuation.resume() }
        }
        await watchdog.stopped()
        await keeper.stopped()
        // Off the workers list at once rather than when its record expires.
        if let redis = try? RedisConnection(try RedisURL(parsing: config.redisURL), timeout: 2) {
            try? JobQueue(config: config).workerLeft(id: workerID, on: redis)
        }
        logger.info("worker \(workerID) stopped")
    }

    private func startThread(slot: Int) {
        let slotThread: SlotThread = stateLock.withLock {
            generations[slot, default: -1] += 1
            return SlotThread(slot: slot, generation: generations[slot]!)
        }
        // Strong references: a retired thread may return from its C call after the service has
        // ended, and must still find the worker it reports to.
        let work = SlotWork(slot: slotThread, workerID: workerID, config: config, store: store, logger: logger, health: health,
                            isStopping: { self.isStopping }, shutdownDue: { self.graceOver },
                            track: { run, running in
                                self.stateLock.withLock {
                                    if running { self.active[run.jobId] = run } else if self.active[run.jobId] === run { self.active[run.jobId] = nil }
                                }
                            })
        let loop = BackgroundLoop(name: "reelwork-slot-\(slot)" + (slotThread.generation > 0 ? "-\(slotThread.generation)" : ""),
                                  stackSize: 8 << 20, round: work.round,
                                  pace: { SlotWork.pace($0).map { .after($0) } ?? .finish })
        loop.onExit = { if slotThread.depart() { self.finished.leave() } }
        finished.enter()
        let stopping: Bool = stateLock.withLock {
            slots[slot] = loop
            return stopRequestedAt != nil
        }
        if stopping { loop.requestStop() }
        loop.start()
    }

    /// The watchdog ended `run` on its thread's behalf: that thread is retired (it no longer counts
    /// as running) and, unless the worker is stopping, the slot gets a fresh thread.
    private func replaceThread(of run: RunControl) {
        let count: Int = stateLock.withLock {
            active.removeValue(forKey: run.jobId)
            abandoned += 1
            return abandoned
        }
        run.slot.retire()
        if count >= config.queue.maxAbandonedThreads {
            logger.error("\(count) stage thread(s) stuck in calls that cannot be interrupted (\(QueueSettings.Env.maxAbandonedThreads)=\(config.queue.maxAbandonedThreads)): their memory is lost until this process ends; draining, then exiting with status \(Self.restartExitCode) so the supervisor starts a fresh worker")
            stop()
        }
        // The new thread counts before the old one stops counting, so `stopped` never sees zero between.
        if !isStopping {
            logger.warning("slot \(run.slot.slot): its thread is stuck in job \(run.jobId.uuidString.lowercased()); starting a new one")
            startThread(slot: run.slot.slot)
        }
        if run.slot.depart() { finished.leave() }
    }
}
