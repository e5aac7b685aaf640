import Foundation
import Logging

/// Redis's clock, read on this host: the local clock plus the offset last measured against Redis's
/// `TIME`. Leases already live on Redis's clock (QueueScripts); whatever a process signs with a time
/// for another host to check (presigned store URLs, SigV4 request dates) uses this one too, so a host
/// whose clock is an hour off still signs requests that AWS S3 accepts (it refuses more than 15
/// minutes of skew).
///
/// The offset is measured once when the clock is made and again, at most every `refreshSeconds`
/// (measured on the monotonic clock), when `now()` is asked after that. A measurement that fails
/// (Redis unreachable) keeps the last offset, and is tried again after `retrySeconds`: a host's
/// clock drifts by milliseconds an hour, so an old offset is still right to well within the
/// store's tolerance.
public final class RedisClock: @unchecked Sendable {
    // Safe: `state` is read and written with `lock` held; the rest is set in `init`.

    /// How often the offset is measured again.
    public static let defaultRefreshSeconds: TimeInterval = 300
    /// How soon a failed measurement is tried again.
    static let retrySeconds: TimeInterval = 10
    /// The measurement's Redis connection: short, so a signer waits little when Redis is down.
    static let timeout: TimeInterval = 2

    private let url: RedisURL
    private let localNow: @Sendable () -> Date
    private let refreshSeconds: TimeInterval
    private let logger: Logger?
    private let lock = NSLock()
    /// `due`: when `now()` measures again (nil: never measured); `measuring`: one caller is at it.
    private var state: (offset: TimeInterval, due: ContinuousClock.Instant?, measuring: Bool) = (0, nil, false)

    /// - Parameter localNow: this host's clock (a test passes one that is off).
    public init(url: RedisURL, refreshSeconds: TimeInterval = defaultRefreshSeconds, logger: Logger? = nil,
                localNow: @escaping @Sendable () -> Date = { Date() }) {
        self.url = url
        self.localNow = localNow
        self.refreshSeconds = refreshSeconds
        self.logger = logger
        _ = try? measure()
    }

    /// Redis's time now, as well as this host knows it. Never waits for Redis: a measurement that
    /// is due runs on a thread of its own (the coordinator signs on its event loop, where a Redis
    /// that does not answer would hold every request for the connection's timeout).
    public func now() -> Date {
        let due: Bool = lock.withLock {
            guard state.due.map({ ContinuousClock.now >= $0 }) ?? true, !state.measuring else { return false }
            state.measuring = true
            return true
        }
        if due { Thread.detachNewThread { [self] in _ = try? measure() } }
        return localNow() + offset
    }

    /// Seconds to add to this host's clock to get Redis's (the last measurement; 0 before any).
    public var offset: TimeInterval { lock.withLock { state.offset } }

    /// Asks Redis for `TIME` and takes the offset to the local clock at the middle of the round
    /// trip (the reply was read somewhere within it; the middle halves the worst error).
    @discardableResult
    public func measure() throws -> TimeInterval {
        do {
            let redis = try RedisConnection(url, timeout: Self.timeout)
            let sent = localNow()
            let reply = try redis.command("TIME")
            let received = localNow()
            guard let parts = reply.array, parts.count == 2, let seconds = parts[0].integer, let micros = parts[1].integer else {
                throw RedisError(.protocolViolation, "TIME answered \(reply), not [seconds, microseconds]")
            }
            let redisTime = Date(timeIntervalSince1970: TimeInterval(seconds) + TimeInterval(micros) / 1_000_000)
            let offset = redisTime.timeIntervalSince(sent + received.timeIntervalSince(sent) / 2)
            let previous: TimeInterval = lock.withLock {
                defer { state = (offset, ContinuousClock.now + .seconds(refreshSeconds), false) }
                return state.offset
            }
            // Said once for a skewed host (and again if its clock jumps), so its log shows the correction.
            if abs(offset - previous) >= 1 {
                logger?.notice("this host's clock is \(String(format: "%+.1f", -offset)) s off Redis's; store URLs and requests are signed on Redis's")
            }
            return offset
        } catch {
            // Keep the last offset; try again soon.
            lock.withLock { state.due = ContinuousClock.now + .seconds(Self.retrySeconds); state.measuring = false }
            throw error
        }
    }
}
