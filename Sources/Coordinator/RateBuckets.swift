import Foundation
import Threading

/// Requests per second per client (an address, a key), counted in this coordinator's memory with a
/// token bucket each (a burst of twice the rate, refilled continuously). The per-address limit
/// runs before anything that costs: the key lookup in PostgreSQL, Redis's per-key counter, a
/// dashboard page; a client sending forged keys, or none, spends only its own share. The
/// dashboard's stills use one per key.
///
/// Memory is bounded: at `maxAddresses` the buckets that have refilled (their clients went quiet)
/// are dropped, and if that frees nothing the oldest half goes; a flood from many clients then
/// costs at most that many entries.
final class RateBuckets: Sendable {
    let ratePerSecond: Double
    let burst: Double
    let maxAddresses: Int
    private let buckets = LockedValue([String: Bucket]())

    struct Bucket {
        var tokens: Double
        var updated: TimeInterval
    }

    init(ratePerSecond: Int, maxAddresses: Int = 65_536) {
        self.ratePerSecond = Double(ratePerSecond)
        self.burst = Double(ratePerSecond) * 2
        self.maxAddresses = maxAddresses
    }

    /// Takes one request's token for `address`; false when its bucket is empty.
    func admit(_ address: String, now: TimeInterval = ProcessInfo.processInfo.systemUptime) -> Bool {
        buckets.withLock { buckets in
            if buckets[address] == nil, buckets.count >= maxAddresses { evict(&buckets, now: now) }
            var bucket = buckets[address] ?? Bucket(tokens: burst, updated: now)
            bucket.tokens = min(burst, bucket.tokens + max(0, now - bucket.updated) * ratePerSecond)
            bucket.updated = now
            let admitted = bucket.tokens >= 1
            if admitted { bucket.tokens -= 1 }
            buckets[address] = bucket
            return admitted
        }
    }

    /// Addresses tracked now (for tests).
    var count: Int { buckets.withLock { $0.count } }

    private func evict(_ buckets: inout [String: Bucket], now: TimeInterval) {
        let refill = burst / ratePerSecond
        buckets = buckets.filter { now - $0.value.updated < refill }
        if buckets.count >= maxAddresses {
            let newest = buckets.sorted { $0.value.updated > $1.value.updated }.prefix(maxAddresses / 2)
            buckets = Dictionary(uniqueKeysWithValues: newest.map { ($0.key, $0.value) })
        }
    }
}
