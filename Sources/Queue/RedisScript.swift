import Foundation
import Synchronization

/// A Lua script run atomically by Redis. It is loaded once (SCRIPT LOAD gives its SHA) and then
/// called by SHA; when Redis forgot it (restart, SCRIPT FLUSH, FLUSHALL) it is loaded again.
public final class RedisScript: Sendable {
    public let name: String
    public let source: String
    private let sha = Mutex<String?>(nil)

    public init(name: String, source: String) {
        self.name = name
        self.source = source
    }

    public func run(on redis: RedisConnection, args: [String]) throws -> RedisReply {
        let known = sha.withLock { $0 }
        if let known {
            do {
                return try redis.command(["EVALSHA", known, "0"] + args)
            } catch let error as RedisError where error.source == .server && error.message.hasPrefix("NOSCRIPT") {
                // Redis lost its script cache; load again below.
            }
        }
        guard let loaded = try redis.command("SCRIPT", "LOAD", source).string else {
            throw RedisError(.protocolViolation, "SCRIPT LOAD of \(name) returned no SHA")
        }
        sha.withLock { $0 = loaded }
        return try redis.command(["EVALSHA", loaded, "0"] + args)
    }
}
