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
