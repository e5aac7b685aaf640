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

    /// Counts and logs events that could not be published.
    public func failed(_ count: Int, _ reason: String) {
        Self.failures.increment(by: count)
        logger.warning("could not publish \(count) live event(s): \(reason)")
    }

    static let failures = Counter(label: MetricName.eventsPublishFailed)
}
