import Foundation
import Queue
import ReelworkCore
import Store

/// A background thread's own Redis and PostgreSQL connections, opened on first use and again after
/// one stopped being healthy. Used from that one thread only.
final class Connections: @unchecked Sendable {
    // Safe: confined to the one thread that owns it (a BackgroundLoop's rounds).
    private let config: ReelworkConfig
    private let redisTimeout: TimeInterval
    private let health: DependencyHealth?
    private var redisConnection: RedisConnection?
    private var postgresConnection: PGConnection?

    /// - Parameters:
    ///   - redisTimeout: how long a Redis call may take (longer than any blocking wait it makes).
    ///   - health: told when a connection opens (the server is reachable again).
    init(config: ReelworkConfig, redisTimeout: TimeInterval = 5, health: DependencyHealth? = nil) {
        self.config = config
        self.redisTimeout = redisTimeout
        self.health = health
    }

    func redis() throws -> RedisConnection {
        if let redisConnection, redisConnection.isHealthy { return redisConnection }
        let opened = try RedisConnection(try RedisURL(parsing: config.redisURL), timeout: redisTimeout)
        redisConnection = opened
        health?.recovered(.redis, from: [.unreachable])
        return opened
    }

    /// A worker's connection: asynchronous commits except where an outcome asks for a durable one.
    func postgres() throws -> PGConnection {
        if let postgresConnection, postgresConnection.isHealthy { return postgresConnection }
        postgresConnection = nil
        let opened = try PGConnection(config.databaseURL)
        try RunRepository.useAsynchronousCommits(on: opened)
        postgresConnection = opened
        health?.recovered(.postgres, from: [.unreachable])
        return opened
    }

    /// The Redis connection if one is open and healthy (nothing is opened).
    var healthyRedis: RedisConnection? { redisConnection?.isHealthy == true ? redisConnection : nil }

    func dropRedis() { redisConnection = nil }
    func dropPostgres() { postgresConnection = nil }
}
