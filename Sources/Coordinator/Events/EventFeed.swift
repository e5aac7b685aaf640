import Foundation
import Metrics
import Queue
import ReelworkCore
import Synchronization

/// Fans the one event stream out to any number of subscribers in this process. One reader
/// (`EventReader`, one blocking Redis connection) calls `dispatch`; each subscriber has a bounded
/// buffer, so its memory is bounded whatever its client does:
/// - a subscriber whose buffer is full when an event arrives is cut off: it still gets what its
///   buffer holds, then `reconnect` naming the last event it got, so its client resumes after it
///   without a gap (`reelwork_event_subscribers_dropped_total` counts them);
/// - a subscription that resumes (`after`) is registered before it reads its backlog, so every
///   event is in the backlog or the buffer, and one in both is sent once (ids only grow).
public final class EventFeed: Sendable {
    public let backlog: any EventBacklog
    /// Events one subscriber may have waiting.
    public let bufferSize: Int
    /// Events per backlog read.
    public let pageSize: Int
    private let state = Mutex(State())

    struct State {
        var nextId: UInt64 = 0
        var subscribers: [UInt64: Subscriber] = [:]
        var closed = false
    }

    struct Subscriber {
        let filter: EventFilter
        let continuation: AsyncStream<FeedItem>.Continuation
        let ending: Ending
    }

    public init(backlog: any EventBacklog, bufferSize: Int = EventSettings().subscriberBuffer, pageSize: Int = 200) {
        self.backlog = backlog
        self.bufferSize = max(1, bufferSize)
        self.pageSize = max(1, pageSize)
        // Exported from the start, at 0, like the publish failures.
        _ = Self.dropped
    }

    /// Events matching `filter` from now, or from just after `after` (a client's `Last-Event-ID`):
    /// a malformed id, or one the stream no longer keeps all events after, starts from now, and
    /// the subscription's first item says so (`reset`).
    /// - Throws: the backlog's error when the stream's bounds cannot be read (Redis away).
    public func subscribe(filter: EventFilter, after: String? = nil) async throws -> EventSubscription {
        let ending = Ending()
        let (live, continuation) = AsyncStream.makeStream(of: FeedItem.self, bufferingPolicy: .bufferingOldest(bufferSize))
        let key: UInt64? = state.withLock { state in
            guard !state.closed else { return nil }
            state.nextId += 1
            state.subscribers[state.nextId] = Subscriber(filter: filter, continuation: continuation, ending: ending)
            return state.nextId
        }
        guard let key else {
            ending.set(EventNotice(message: "the server is shutting down; reconnect", lastEventId: after))
            continuation.finish()
            return EventSubscription(feed: self, filter: filter, live: live, ending: ending, cursor: nil, notice: nil)
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.subscribers.removeValue(forKey: key) }
        }
        guard let after else {
            return EventSubscription(feed: self, filter: filter, live: live, ending: ending, cursor: nil, notice: nil)
        }
        let bounds: EventStream.Bounds
        do { bounds = try await backlog.bounds() } catch {
            continuation.finish()
            throw error
        }
        guard let id = EventID(after) else {
            return EventSubscription(feed: self, filter: filter, live: live, ending: ending, cursor: bounds.lastGenerated, notice: .reset(
                EventNotice(message: "Last-Event-ID '\(after.prefix(64))' is not an event id (<milliseconds>-<sequence>); starting from now",
                            lastEventId: String(after.prefix(64))), id: bounds.lastGenerated))
        }
        guard bounds.canResume(after: id) else {
            return EventSubscription(feed: self, filter: filter, live: live, ending: ending, cursor: bounds.lastGenerated, notice: .reset(
                EventNotice(message: "event \(id) is no longer kept (or never was): events after it may be lost; starting from now",
                            lastEventId: id.description), id: bounds.lastGenerated))
        }
        return EventSubscription(feed: self, filter: filter, live: live, ending: ending, cursor: id, notice: nil)
    }

    /// Passes events, oldest first, to every subscriber whose filter they match.
    public func dispatch(_ events: [FeedEvent]) {
        guard !events.isEmpty else { return }
        let cutOff: [Subscriber] = state.withLock { state in
            var cutOff: [Subscriber] = []
            for (key, subscriber) in state.subscribers {
                for event in events where subscriber.filter.matches(event) {
                    if case .dropped = subscriber.continuation.yield(.event(event)) {
                        state.subscribers.removeValue(forKey: key)
                        cutOff.append(subscriber)
                        break
                    }
                }
            }
            return cutOff
        }
        // Finished outside the lock: finishing runs the stream's termination handler, which takes it.
        for subscriber in cutOff {
            subscriber.ending.set(EventNotice(message: "this client fell more than \(bufferSize) events behind; reconnect with Last-Event-ID to resume"))
            subscriber.continuation.finish()
            Self.dropped.increment()
        }
    }

    /// Tells every subscriber that time passed (heartbeats, duration limits). A full buffer skips
    /// the tick: its writer has events to write anyway.
    public func tick() {
        state.withLock { state in
            for subscriber in state.subscribers.values { subscriber.continuation.yield(.tick) }
        }
    }

    /// Ends every subscription (after what each has buffered) with `reconnect`; later ones end at once.
    public func close() {
        let ended = state.withLock { state in
            state.closed = true
            defer { state.subscribers = [:] }
            return Array(state.subscribers.values)
        }
        for subscriber in ended {
            subscriber.ending.set(EventNotice(message: "the server is shutting down; reconnect with Last-Event-ID to resume"))
            subscriber.continuation.finish()
        }
    }

    /// Subscribers connected now.
    public var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    static let dropped = Counter(label: MetricName.eventSubscribersDropped)

    /// Why the feed ended a subscription, told to its client as the last item.
    final class Ending: Sendable {
        private let notice = Mutex<EventNotice?>(nil)
        func set(_ value: EventNotice) { notice.withLock { $0 = $0 ?? value } }
        var value: EventNotice? { notice.withLock { $0 } }
    }
}
