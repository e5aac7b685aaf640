import Foundation
import Logging
import Metrics
import ReelworkCore

/// Publishes job and stage events for processes whose real work must not depend on them: a
/// failed append is logged and counted (`reelwork_events_publish_failed_total`), never thrown
/// into a job's path. Call it after the PostgreSQL write that made the change true.
public struct EventPublisher: Sendable {
    public let stream: EventStream
    let logger: Logger

    public init(stream: EventStream, logger: Logger) {
        self.stream = stream
        self.logger = logger
        // Exported from the start, at 0, so a scrape (and an alert on its rate) sees the series before the first failure.
        _ = Self.failures
    }

    /// Appends `events` on `redis` (nil: there is no healthy connection; they are counted as lost).
    public func publish(_ events: [JobEvent], on redis: RedisConnection?) {
        guard !events.isEmpty else { return }
        guard let redis else { return failed(events.count, "no Redis connection") }
        do {
            try stream.append(events, on: redis)
        } catch {
            failed(events.count, "\(error)")
        }
    }

    public func publish(_ event: JobEvent, on redis: RedisConnection?) {
        publish([event], on: redis)
    }

    /// Counts events that could not be published, and logs it: the first failure at once, then
    /// at most one line a minute with how many more failed (while Redis refuses writes, every
    /// event of every running job fails; the counter has them all).
    public func failed(_ count: Int, _ reason: String) {
        Self.failures.increment(by: count)
        guard let (unlogged, since) = Self.quiet.pass(count) else { return }
        let earlier = unlogged > 0 ? " (and \(unlogged) more in the last \(Int(since)) s)" : ""
        logger.warning("could not publish \(count) live event(s)\(earlier): \(reason); \(MetricName.eventsPublishFailed) counts them all")
    }

    static let failures = Counter(label: MetricName.eventsPublishFailed)

    /// One log line a minute at most, for the whole process.
    static let quiet = LogQuota(seconds: 60)
}

/// Lets one log line through per interval and counts what it held back.
final class LogQuota: @unchecked Sendable {
    // Safe: `last` and `held` are read and written with `lock` held.
    private let seconds: TimeInterval
    private let lock = NSLock()
    private var last: Date?
    private var held = 0

    init(seconds: TimeInterval) {
        self.seconds = seconds
    }

    /// Nil: hold this one back (counting `count`). Otherwise log now, mentioning the number held
    /// back since the last line, and how long ago that was.
    func pass(_ count: Int, now: Date = Date()) -> (held: Int, since: TimeInterval)? {
        lock.withLock {
            if let last, now.timeIntervalSince(last) < seconds {
                held += count
                return nil
            }
            defer {
                last = now
                held = 0
            }
            return (held, last.map { now.timeIntervalSince($0) } ?? 0)
        }
    }
}
