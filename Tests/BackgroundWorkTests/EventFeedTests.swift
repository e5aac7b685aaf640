import Coordinator
import Foundation
import Queue
import ReelworkCore
import Synchronization
import XCTest

/// The fan-out of live events, with an in-memory stream: bounded buffers (a slow subscriber is
/// cut off with `reconnect`, its memory never grows past its buffer), resume without gaps or
/// duplicates, reset for ids that cannot be resumed, filters, and shutdown.
final class EventFeedTests: XCTestCase {
    /// The stream's stored entries; `bounds` as Redis would report them.
    final class MemoryBacklog: EventBacklog {
        let entries = Mutex<[EventStream.Entry]>([])
        let maxDeleted = Mutex<EventID?>(nil)

        func bounds() async throws -> EventStream.Bounds {
            let entries = self.entries.withLock { $0 }
            return EventStream.Bounds(lastGenerated: entries.last?.id, maxDeleted: maxDeleted.withLock { $0 }, first: entries.first?.id,
                                      length: entries.count, entriesAdded: entries.count)
        }

        func range(after id: EventID, count: Int) async throws -> [EventStream.Entry] {
            Array(entries.withLock { $0 }.filter { $0.id > id }.prefix(count))
        }
    }

    let backlog = MemoryBacklog()
    let jobA = UUID(), jobB = UUID()

    func event(_ n: UInt64, club: String = "a", job: UUID? = nil) -> FeedEvent {
        let event = JobEvent(type: .stageProgress, jobId: job ?? jobA, club: club, stage: "decode", framesDone: Int(n))
        return FeedEvent(id: EventID(milliseconds: 1_000 + n, sequence: 0), event: event,
                         data: String(decoding: try! ReelworkJSON.encoder.encode(event), as: UTF8.self))
    }

    /// Stores events as the writers would (the reader dispatches them later, or not yet).
    func store(_ events: [FeedEvent]) {
        backlog.entries.withLock { $0 += events.map { EventStream.Entry(id: $0.id, data: $0.data) } }
    }

    /// The next `count` items, skipping ticks.
    func take(_ count: Int, from iterator: inout EventSubscription.Iterator) async throws -> [FeedItem] {
        var items: [FeedItem] = []
        while items.count < count, let item = try await iterator.next() {
            if item != .tick { items.append(item) }
        }
        return items
    }

    func ids(_ items: [FeedItem]) -> [UInt64] {
        items.compactMap { if case .event(let e) = $0 { return e.id.milliseconds - 1_000 } else { return nil } }
    }

    func testASlowSubscriberIsCutOffWithReconnectAfterWhatItsBufferHeldAndNeverHoldsMore() async throws {
        let feed = EventFeed(backlog: backlog, bufferSize: 8)
        let slow = try await feed.subscribe(filter: EventFilter())
        let fast = try await feed.subscribe(filter: EventFilter())
        var fastIterator = fast.makeAsyncIterator()
        var received: [UInt64] = []
        for n in 1...100 as ClosedRange<UInt64> {
            feed.dispatch([event(n)])
            received += ids(try await take(1, from: &fastIterator))
        }
        XCTAssertEqual(received, Array(1...100), "a subscriber that keeps up gets everything")
        XCTAssertEqual(feed.subscriberCount, 1, "the slow one was dropped as soon as its buffer was full")
        var slowIterator = slow.makeAsyncIterator()
        var items: [FeedItem] = []
        while let item = try await slowIterator.next() { items.append(item) }
        XCTAssertEqual(ids(items), Array(1...8), "it gets what its buffer held, no more")
        guard case .reconnect(let notice) = items.last else { return XCTFail("no reconnect at the end: \(items)") }
        XCTAssertEqual(notice.lastEventId, event(8).id.description, "resume after the last event it got: no gap")
        XCTAssertTrue(notice.message.contains("fell more than 8 events behind"), notice.message)
    }

    func testResumingReadsTheBacklogThenLiveEventsWithoutGapsOrDuplicates() async throws {
        let feed = EventFeed(backlog: backlog, bufferSize: 100, pageSize: 3)
        store((1...10).map { event($0) })
        let subscription = try await feed.subscribe(filter: EventFilter(), after: event(4).id.description)
        // Events 8…10 were stored before the subscription but reach the feed after it (the reader
        // lags): they are in the backlog and the live buffer both. 11 and 12 come later.
        feed.dispatch((8...10).map { event($0) })
        store((11...12).map { event($0) })
        feed.dispatch((11...12).map { event($0) })
        var iterator = subscription.makeAsyncIterator()
        let got1 = try await take(8, from: &iterator)
        XCTAssertEqual(ids(got1), Array(5...12), "5…12 once each, in order, the backlog read 3 at a time")
        feed.dispatch([event(13)])
        let got2 = try await take(1, from: &iterator)
        XCTAssertEqual(ids(got2), [13])
    }

    func testAnIdNoLongerKeptOrMalformedStartsFromNowAndTheFirstItemSaysSo() async throws {
        let feed = EventFeed(backlog: backlog)
        store((5...6).map { event($0) })
        backlog.maxDeleted.withLock { $0 = event(4).id }
        for (after, says) in [(event(2).id.description, "no longer kept"), ("last-week", "not an event id"),
                              (event(99).id.description, "no longer kept")] {
            let subscription = try await feed.subscribe(filter: EventFilter(), after: after)
            var iterator = subscription.makeAsyncIterator()
            feed.dispatch([event(7)])
            let items = try await take(2, from: &iterator)
            guard case .reset(let notice, let id) = items.first else { return XCTFail("\(after): no reset first: \(items)") }
            XCTAssertTrue(notice.message.contains(says), notice.message)
            XCTAssertEqual(id, event(6).id, "the newest event then: a client resumes after it")
            XCTAssertEqual(ids(Array(items.dropFirst())), [7], "then events from now on, none from before")
        }
        let kept = try await feed.subscribe(filter: EventFilter(), after: event(5).id.description)
        var iterator = kept.makeAsyncIterator()
        feed.dispatch([event(7)])
        let got3 = try await take(2, from: &iterator)
        XCTAssertEqual(ids(got3), [6, 7], "a kept id resumes with no reset")
    }

    func testAClubSubscriberNeverSeesAnotherClubsEventsAndJobAndBatchFiltersNarrow() async throws {
        let feed = EventFeed(backlog: backlog)
        let clubA = try await feed.subscribe(filter: EventFilter(club: "a"))
        let jobB = try await feed.subscribe(filter: EventFilter(jobId: self.jobB))
        store([event(1, club: "a"), event(2, club: "b", job: self.jobB), event(3, club: "a", job: self.jobB)])
        feed.dispatch([event(1, club: "a"), event(2, club: "b", job: self.jobB), event(3, club: "a", job: self.jobB)])
        feed.close()
        var a = clubA.makeAsyncIterator(), b = jobB.makeAsyncIterator()
        let got4 = try await take(3, from: &a)
        XCTAssertEqual(ids(got4), [1, 3])
        let got5 = try await take(3, from: &b)
        XCTAssertEqual(ids(got5), [2, 3])
        // A resumed club subscription filters its backlog too.
        let resumed = try await EventFeed(backlog: backlog).subscribe(filter: EventFilter(club: "b"), after: EventID.zero.description)
        var r = resumed.makeAsyncIterator()
        let got6 = try await take(1, from: &r)
        XCTAssertEqual(ids(got6), [2])
    }

    func testClosingEndsEverySubscriptionWithReconnectAndTicksReachIdleOnes() async throws {
        let feed = EventFeed(backlog: backlog)
        let subscription = try await feed.subscribe(filter: EventFilter())
        var iterator = subscription.makeAsyncIterator()
        feed.tick()
        let tick = try await iterator.next()
        XCTAssertEqual(tick, .tick)
        feed.dispatch([event(1)])
        feed.close()
        let rest = try await take(2, from: &iterator)
        XCTAssertEqual(ids(rest), [1])
        guard case .reconnect(let notice) = rest.last else { return XCTFail("\(rest)") }
        XCTAssertEqual(notice.lastEventId, event(1).id.description)
        let next = try await iterator.next()
        XCTAssertNil(next)
        XCTAssertEqual(feed.subscriberCount, 0)
    }

    func testDroppingASubscriptionUnsubscribes() async throws {
        let feed = EventFeed(backlog: backlog)
        do {
            let subscription = try await feed.subscribe(filter: EventFilter())
            var iterator = subscription.makeAsyncIterator()
            feed.dispatch([event(1)])
            _ = try await iterator.next()
            XCTAssertEqual(feed.subscriberCount, 1)
        }
        XCTAssertEqual(feed.subscriberCount, 0, "a client gone leaves nothing behind")
    }
}
