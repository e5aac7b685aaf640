import Foundation
import Queue
import ReelworkCore
import Threading

/// Samples the queue's counts (ready, delayed, running, running per club) on a `BackgroundLoop`,
/// so a load run can check the caps held throughout, not just at the end.
final class QueueStatsSampler: Sendable {
    private let samples = LockedValue<[JobQueue.Stats]>([])
    private let loop: BackgroundLoop<JobQueue.Stats?>

    init(queue: JobQueue, url: RedisURL, interval: TimeInterval = 0.05) {
        let connection = SamplerConnection(url: url)
        loop = BackgroundLoop(name: "queue-stats-sampler", interval: interval) { connection.sample(queue) }
        loop.onRound = { [samples] stats in
            if let stats { samples.withLock { $0.append(stats) } }
        }
    }

    func start() { loop.start() }

    /// Stops sampling and returns every sample taken (each cost Redis one script call).
    func stop() -> [JobQueue.Stats] {
        loop.stop()
        return samples.withLock { $0 }
    }
}

/// The sampler's Redis connection, reopened after a failure; used from the sampler's thread only.
private final class SamplerConnection: @unchecked Sendable {
    // Safe: confined to the one thread that owns it (the sampler's BackgroundLoop rounds).
    let url: RedisURL
    var redis: RedisConnection?

    init(url: RedisURL) { self.url = url }

    func sample(_ queue: JobQueue) -> JobQueue.Stats? {
        if let redis, let stats = try? queue.stats(on: redis) { return stats }
        redis = try? RedisConnection(url)
        return nil
    }
}
