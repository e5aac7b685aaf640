import Foundation
import Logging
import Queue
import ReelworkCore
import Store
import Threading

/// The coordinator's connections: PostgreSQL and Redis pools, and the queue's key layout.
public final class Backends: Sendable {
    public let config: ReelworkConfig
    public let db: PGPool
    public let redis: BlockingPool<RedisConnection>
    public let queue: JobQueue
    public let logger: Logger
    /// This process's fan-out of live events (`GET /v1/events`, the dashboard's stream).
    public let events: EventFeed
    let publisher: EventPublisher
    /// Keys just found unknown or revoked: refused again without a database lookup.
    let unknownKeys = UnknownKeyCache()

    public init(config: ReelworkConfig, logger: Logger) throws {
        self.config = config
        self.logger = logger
        let redisURL = try RedisURL(parsing: config.redisURL)
        self.db = PGPool(conninfo: config.databaseURL, size: 4)
        self.redis = BlockingPool(label: "reelwork.redis", size: 4,
                                  open: { try RedisConnection(redisURL, timeout: 5) },
                                  keep: { connection, _ in connection.isHealthy },
                                  closedError: RedisError(.connection, "the Redis connection pool is closed"))
        self.queue = JobQueue(config: config)
        let stream = EventStream(config: config)
        self.publisher = EventPublisher(stream: stream, logger: logger)
        self.events = EventFeed(backlog: RedisEventBacklog(redis: self.redis, stream: stream), bufferSize: config.events.subscriberBuffer)
    }

    /// Publishes live events after the PostgreSQL write that made them true; never throws (a
    /// failure is logged and counted, the request goes on).
    func publish(_ events: [JobEvent]) async {
        guard !events.isEmpty else { return }
        let publisher = self.publisher
        do {
            try await redis { publisher.publish(events, on: $0) }
        } catch {
            publisher.failed(events.count, "\(error)")
        }
    }

    /// Runs `body` with a PostgreSQL connection.
    func sql<T: Sendable>(_ body: @escaping (PGConnection) throws -> T) async throws -> T {
        try await db.withConnection(body)
    }

    /// Runs `body` with a Redis connection.
    func redis<T: Sendable>(_ body: @escaping (RedisConnection) throws -> T) async throws -> T {
        try await redis.withConnection(body)
    }
}
