import Foundation
import Hummingbird
import Logging
import Queue
import ReelworkCore

/// Requests per second per key, counted in Redis so every coordinator shares one count: a
/// counter per key and second that expires by itself. A key over its rate gets 429 with
/// `Retry-After`. When Redis cannot answer, requests are let through (and logged): the routes
/// that need Redis report it themselves, and the others should not fail because of a counter.
struct RateLimiter: Sendable {
    let backends: Backends

    private static let script = RedisScript(name: "rate_limit", source: """
        local n = redis.call('INCR', ARGV[1])
        if n == 1 then redis.call('EXPIRE', ARGV[1], 2) end
        return n
        """)

    func admit(_ caller: Caller, now: Date = Date()) async throws {
        let limit = backends.config.clubLimits.requestsPerSecondPerKey
        let second = Int(now.timeIntervalSince1970)
        let key = "\(backends.config.queuePrefix):rate:\(caller.keyId.uuidString.lowercased()):\(second)"
        let count: Int
        do {
            count = try await backends.redis { try Self.script.run(on: $0, args: [key]).integer ?? 0 }
        } catch {
            backends.logger.warning("rate limit not checked (Redis: \(error))")
            return
        }
        if count > limit {
            throw APIError.busy(.tooManyRequests, "rate_limited",
                                "this key made more than \(limit) requests this second (\(ClubLimits.Env.requestsPerSecondPerKey)); slow down",
                                retryAfterSeconds: 1)
        }
    }
}
