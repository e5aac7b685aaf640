import Foundation
import ReelworkCore

/// The Redis side of the job queue: a ready list of job ids, and one processing list per worker.
///
/// Guarantees (foundation level; leases, delays and caps come with the queue issue):
/// - a claim moves an id from `ready` to the worker's processing list in one atomic BLMOVE, so an id is
///   never in neither list: a crashed worker's id stays visible in its processing list;
/// - `ack` removes the id from the processing list only after PostgreSQL holds the outcome;
/// - Redis holds ids only; PostgreSQL stays the source of truth for what a job is.
public struct JobQueue: Sendable {
    public let prefix: String

    public init(prefix: String = "reelwork") {
        self.prefix = prefix
    }

    public var readyKey: String { "\(prefix):queue:ready" }
    public func processingKey(worker: String) -> String { "\(prefix):queue:processing:\(worker)" }

    /// Makes `jobId` claimable. Ids are pushed on the left and claimed from the right (FIFO).
    public func enqueue(_ jobId: UUID, on redis: RedisConnection) throws {
        try redis.command("LPUSH", readyKey, jobId.uuidString.lowercased())
    }

    /// Waits up to `timeout` seconds for a job id and moves it to `worker`'s processing list.
    /// Returns nil when nothing arrived in time.
    public func claim(worker: String, timeout: Double, on redis: RedisConnection) throws -> UUID? {
        let reply = try redis.command("BLMOVE", readyKey, processingKey(worker: worker), "RIGHT", "LEFT",
                                      String(format: "%.3f", timeout))
        guard let text = reply.string else { return nil }
        guard let id = UUID(uuidString: text) else {
            // Not ours to interpret: drop it from our list so it cannot wedge the worker.
            try redis.command("LREM", processingKey(worker: worker), "1", text)
            throw RedisError(.protocolViolation, "queue held a value that is not a job id: '\(text)'")
        }
        return id
    }

    /// Forgets a claimed id once its outcome is recorded in PostgreSQL.
    public func ack(_ jobId: UUID, worker: String, on redis: RedisConnection) throws {
        try redis.command("LREM", processingKey(worker: worker), "1", jobId.uuidString.lowercased())
    }

    /// Puts every id left in `worker`'s processing list back on the ready list (used at worker start
    /// with a stable worker id, and by an operator for a dead worker). Returns how many moved.
    @discardableResult
    public func requeueProcessing(worker: String, on redis: RedisConnection) throws -> Int {
        var moved = 0
        while case .string = try redis.command("LMOVE", processingKey(worker: worker), readyKey, "RIGHT", "RIGHT") {
            moved += 1
        }
        return moved
    }

    /// Number of ids waiting to be claimed.
    public func readyCount(on redis: RedisConnection) throws -> Int {
        try redis.command("LLEN", readyKey).integer ?? 0
    }
}
