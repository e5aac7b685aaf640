import Foundation
import Threading

/// Keys that PostgreSQL just said are unknown or revoked, remembered for a few seconds, so a
/// client repeating a wrong key is refused without a lookup on the database's small pool. A key
/// is never cached as valid: revoking one still takes effect at once. Bounded: at `capacity` the
/// expired entries go, and if none had expired, all of them.
final class UnknownKeyCache: Sendable {
    static let defaultLifetime: TimeInterval = 10
    let lifetime: TimeInterval
    let capacity: Int
    private let expiries = LockedValue([String: TimeInterval]())

    init(lifetime: TimeInterval = defaultLifetime, capacity: Int = 10_000) {
        self.lifetime = lifetime
        self.capacity = capacity
    }

    /// Whether `presented` was found unknown less than `lifetime` ago.
    func contains(_ presented: String, now: TimeInterval = ProcessInfo.processInfo.systemUptime) -> Bool {
        expiries.withLock { ($0[presented] ?? 0) > now }
    }

    /// Remembers that `presented` is no valid key.
    func insert(_ presented: String, now: TimeInterval = ProcessInfo.processInfo.systemUptime) {
        expiries.withLock { expiries in
            if expiries.count >= capacity {
                expiries = expiries.filter { $0.value > now }
                if expiries.count >= capacity { expiries.removeAll() }
            }
            expiries[presented] = now + lifetime
        }
    }
}
