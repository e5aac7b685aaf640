import Queue
import ReelworkCore

/// One subscriber's events, in id order, each once: a `reset` notice if the stream had to start
/// from now, then the backlog after the resume id (read in pages), then live events; when the
/// feed ends it (a full buffer, shutdown) a last `reconnect` names the id to resume after.
/// Iterate it from one task; dropping it unsubscribes.
public struct EventSubscription: AsyncSequence, Sendable {
    public typealias Element = FeedItem

    let feed: EventFeed
    let filter: EventFilter
    let live: AsyncStream<FeedItem>
    let ending: EventFeed.Ending
    /// The last id accounted for: events up to it were sent (or did not match).
    let cursor: EventID?
    let notice: FeedItem?

    public func makeAsyncIterator() -> Iterator {
        Iterator(subscription: self, pending: notice.map { [$0] } ?? [], cursor: cursor, backlogDone: cursor == nil,
                 live: live.makeAsyncIterator())
    }

    public struct Iterator: AsyncIteratorProtocol {
        let subscription: EventSubscription
        /// Items to give before reading more, in reverse order (popLast).
        var pending: [FeedItem]
        var cursor: EventID?
        var backlogDone: Bool
        var live: AsyncStream<FeedItem>.Iterator
        var finished = false

        init(subscription: EventSubscription, pending: [FeedItem], cursor: EventID?, backlogDone: Bool,
             live: AsyncStream<FeedItem>.Iterator) {
            self.subscription = subscription
            self.pending = pending
            self.cursor = cursor
            self.backlogDone = backlogDone
            self.live = live
        }

        public mutating func next() async throws -> FeedItem? {
            while true {
                if let item = pending.popLast() { return item }
                if finished { return nil }
                if !backlogDone, let from = cursor {
                    let page = try await subscription.feed.backlog.range(after: from, count: subscription.feed.pageSize)
                    backlogDone = page.count < subscription.feed.pageSize
                    if let last = page.last { cursor = last.id }
                    pending = page.compactMap(FeedEvent.init).filter(subscription.filter.matches).map(FeedItem.event).reversed()
                    continue
                }
                guard let item = await live.next() else {
                    finished = true
                    guard var notice = subscription.ending.value else { return nil }
                    notice.lastEventId = cursor?.description ?? notice.lastEventId
                    return .reconnect(notice)
                }
                if case .event(let event) = item {
                    // Sent with the backlog already.
                    if let cursor, event.id <= cursor { continue }
                    cursor = event.id
                }
                return item
            }
        }
    }
}
