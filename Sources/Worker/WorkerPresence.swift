import Foundation
import Logging
import Queue
import ReelworkCore
import Threading

/// What the lease keeper tells Redis about this worker at every beat (`GET /v1/workers` lists it),
/// and how it learns that an operator asked it to drain: the answer to that same beat. A drain is
/// then the SIGTERM path (`onDrain` calls the worker's `stop`), so the worker stops claiming,
/// finishes or hands back its jobs, and exits.
final class WorkerPresence: Sendable {
    /// Beats missed before a worker drops off the list: a record outlives a slow round, not a dead worker.
    static let missedBeats = 3.0
    /// Never shorter than this, whatever the heartbeat interval.
    static let minimumTTL = 15.0

    let workerID: String
    private let host: String
    private let slots: Int
    private let ttl: TimeInterval
    private let onDrain: @Sendable () -> Void
    private let state = LockedValue((fresh: true, drainSeen: false))

    init(workerID: String, config: ReelworkConfig, onDrain: @escaping @Sendable () -> Void) {
        self.workerID = workerID
        self.host = ProcessInfo.processInfo.hostName
        self.slots = config.workerSlots
        self.ttl = max(Self.minimumTTL, config.queue.heartbeatSeconds * Self.missedBeats)
        self.onDrain = onDrain
    }

    /// One beat; calls `onDrain` once, the first time a beat says the worker is to drain.
    func beat(running: Int, queue: JobQueue, on redis: RedisConnection, logger: Logger) throws {
        let fresh = state.withLock { $0.fresh }
        let drain = try queue.workerBeat(id: workerID, host: host, version: ReelworkVersion.current, slots: slots, running: running,
                                         fresh: fresh, ttl: ttl, on: redis)
        let first = state.withLock { s -> Bool in
            s.fresh = false
            defer { if drain { s.drainSeen = true } }
            return drain && !s.drainSeen
        }
        if first {
            logger.info("an operator asked worker \(workerID) to drain")
            onDrain()
        }
    }
}
