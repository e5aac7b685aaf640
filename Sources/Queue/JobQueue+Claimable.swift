import Foundation

/// What autoscaling reads (issue 30): the work a free slot could start now, and how long the
/// oldest of it has waited. Depth alone misleads a scaler: a paused club's backlog, or a club at
/// its cap, or a pool at the global cap, is work more workers cannot start; and a queue's latency
/// says when to scale better than its length does.
extension JobQueue {
    public struct Claimable: Equatable, Sendable {
        /// Ready jobs a free slot could claim now: clubs not paused and below their cap, each up to
        /// its free cap slots, all up to the global cap's free slots (0 while the queue is paused).
        public var jobs: Int
        /// How long the oldest of those clubs' ready jobs has waited, by Redis's clock (0 when none).
        public var oldestWait: TimeInterval

        public init(jobs: Int, oldestWait: TimeInterval) {
            self.jobs = jobs
            self.oldestWait = oldestWait
        }
    }

    public func claimable(on redis: RedisConnection) throws -> Claimable {
        let parts = try QueueScripts.claimable.run(on: redis, args: [prefix]).array ?? []
        guard parts.count == 2, let jobs = parts[0].integer, let waitMs = parts[1].integer else {
            throw RedisError(.protocolViolation, "claimable returned \(parts)")
        }
        return Claimable(jobs: jobs, oldestWait: Double(waitMs) / 1000)
    }
}
