import Foundation
import Queue

/// Samples the queue's counts (ready, delayed, running, running per club) on a thread of its own,
/// so a load run can check the caps held throughout, not just at the end.
final class QueueStatsSampler: @unchecked Sendable {
    // Safe: `samples` and `running` are read and written with `lock` held.
    let queue: JobQueue
    let url: RedisURL
    let interval: TimeInterval
    private let lock = NSLock()
    private var samples: [JobQueue.Stats] = []
    private var running = true
    private let done = DispatchSemaphore(value: 0)

    init(queue: JobQueue, url: RedisURL, interval: TimeInterval = 0.05) {
        self.queue = queue
        self.url = url
        self.interval = interval
    }

    func start() {
        Thread.detachNewThread { [self] in
            var redis = try? RedisConnection(url)
            while lock.withLock({ running }) {
                if let r = redis, let stats = try? queue.stats(on: r) {
                    lock.withLock { samples.append(stats) }
                } else {
                    redis = try? RedisConnection(url)
                }
                Thread.sleep(forTimeInterval: interval)
            }
            done.signal()
        }
    }

    /// Stops sampling and returns every sample taken (each cost Redis one script call).
    func stop() -> [JobQueue.Stats] {
        lock.withLock { running = false }
        done.wait()
        return lock.withLock { samples }
    }
}
