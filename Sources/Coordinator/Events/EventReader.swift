import Foundation
import Logging
import Queue
import ReelworkCore
import ServiceLifecycle
import Threading

/// The coordinator's one reader of the event stream: a thread with one blocking Redis connection
/// (XREAD BLOCK) that hands what it reads to the `EventFeed`, however many clients listen. Its
/// wait is short (`tickSeconds`), and after every read the feed ticks, so subscribers' heartbeats
/// need no timer of their own. It starts reading at the newest event; after Redis went away it
/// goes on after the last event it passed on.
final class EventReader: Sendable {
    /// What one round did (tests and logs).
    struct Round: Sendable {
        var dispatched = 0
        var error: String?
    }

    private let loop: BackgroundLoop<Round>

    init(config: ReelworkConfig, feed: EventFeed, logger: Logger) {
        let work = EventReaderWork(config: config, feed: feed, logger: logger)
        loop = BackgroundLoop(name: "reelwork-events", round: { work.round() },
                              pace: { $0.error == nil ? .after(0) : .after(work.tickSeconds) })
    }

    func start() { loop.start() }
    func stopped() async { await loop.stopped() }

    /// How long a read waits for an event: short enough for heartbeats of `heartbeat` seconds to
    /// come on time, at most a second.
    static func tickSeconds(heartbeat: TimeInterval) -> TimeInterval {
        min(1, max(0.02, heartbeat / 3))
    }
}

/// The reader's connection and position; used from the reader's thread only.
final class EventReaderWork: @unchecked Sendable {
    // Safe: confined to the one thread that owns it (the reader BackgroundLoop's rounds).
    let config: ReelworkConfig
    let stream: EventStream
    let feed: EventFeed
    let logger: Logger
    let tickSeconds: TimeInterval
    private var redis: RedisConnection?
    private var position: EventID?
    private var failing = false

    static let batch = 1_000

    init(config: ReelworkConfig, feed: EventFeed, logger: Logger) {
        self.config = config
        self.stream = EventStream(config: config)
        self.feed = feed
        self.logger = logger
        self.tickSeconds = EventReader.tickSeconds(heartbeat: config.events.heartbeatSeconds)
    }

    func round() -> EventReader.Round {
        var round = EventReader.Round()
        defer { feed.tick() }
        do {
            if redis?.isHealthy != true {
                let opened = try RedisConnection(try RedisURL(parsing: config.redisURL), timeout: tickSeconds + 5)
                let newest = try stream.bounds(on: opened).lastGenerated ?? .zero
                // A Redis that lost the stream (flushed) numbers from the start again.
                if position == nil || newest < position! { position = newest }
                redis = opened
            }
            guard let redis, let from = position else { return round }
            let entries = try stream.read(after: from, count: Self.batch, block: tickSeconds, on: redis)
            if let last = entries.last { position = last.id }
            let events = entries.compactMap(FeedEvent.init)
            if events.count < entries.count { logger.warning("events: skipped \(entries.count - events.count) stream entries that are not job events") }
            feed.dispatch(events)
            round.dispatched = events.count
            if failing { logger.info("events: reading the event stream again") }
            failing = false
        } catch {
            round.error = "\(error)"
            if !failing { logger.warning("events: cannot read the event stream: \(error); subscribers wait") }
            failing = true
            if redis?.isHealthy != true { redis = nil }
        }
        return round
    }
}

/// Reads the event stream for as long as the application runs; on shutdown ends every
/// subscription (their clients are told to reconnect), so open event responses do not hold the
/// server up.
struct EventFeedService: Service {
    let reader: EventReader
    let feed: EventFeed

    func run() async throws {
        reader.start()
        try? await gracefulShutdown()
        feed.close()
        await reader.stopped()
    }
}
