import Queue
import Threading

/// Where a subscription that resumes reads the events it missed (Redis in the coordinator, an
/// array in the fan-out's unit tests).
public protocol EventBacklog: Sendable {
    func bounds() async throws -> EventStream.Bounds
    /// Up to `count` events after `id`, oldest first.
    func range(after id: EventID, count: Int) async throws -> [EventStream.Entry]
}

/// The backlog in Redis, read through the coordinator's connection pool (never a blocking read).
struct RedisEventBacklog: EventBacklog {
    let redis: BlockingPool<RedisConnection>
    let stream: EventStream

    func bounds() async throws -> EventStream.Bounds {
        let stream = self.stream
        return try await redis.withConnection { try stream.bounds(on: $0) }
    }

    func range(after id: EventID, count: Int) async throws -> [EventStream.Entry] {
        let stream = self.stream
        return try await redis.withConnection { try stream.range(after: id, count: count, on: $0) }
    }
}
