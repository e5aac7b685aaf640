import Foundation
import Threading

/// Event streams open on this coordinator per API key: past `limit` a key's next stream is refused
/// (429), so one client cannot hold an unbounded number of long-lived responses. A stream gives
/// its place back when its response ends, however it ends.
final class StreamQuota: Sendable {
    let limit: Int
    private let open = LockedValue([UUID: Int]())

    init(limit: Int) { self.limit = limit }

    /// Takes a place for `key` if it has one free.
    func enter(_ key: UUID) -> Bool {
        open.withLock { open in
            guard open[key, default: 0] < limit else { return false }
            open[key, default: 0] += 1
            return true
        }
    }

    func leave(_ key: UUID) {
        open.withLock { open in
            let left = open[key, default: 1] - 1
            open[key] = left > 0 ? left : nil
        }
    }

    /// Streams open now for `key` (for tests and logs).
    func count(_ key: UUID) -> Int { open.withLock { $0[key, default: 0] } }
}
