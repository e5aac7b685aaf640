import Foundation
import Threading

/// Counts the uploads this coordinator is receiving; past `limit` a new one is turned away at once
/// (503 with Retry-After) instead of queueing on the disk and the probe's CPU.
final class UploadGate: Sendable {
    let limit: Int
    private let inFlight = LockedValue(0)

    init(limit: Int) { self.limit = limit }

    /// Takes a place if one is free.
    func enter() -> Bool {
        inFlight.withLock {
            guard $0 < limit else { return false }
            $0 += 1
            return true
        }
    }

    func leave() {
        inFlight.withLock { $0 -= 1 }
    }
}

/// Runs async work one at a time per key (a video's content hash), so two uploads of the same
/// bytes cannot interleave moving the file into place, recording it, and undoing that on failure.
actor KeyedSerializer {
    private var waiters: [String: [CheckedContinuation<Void, Never>]] = [:]

    func run<T: Sendable>(_ key: String, _ body: @Sendable () async throws -> T) async throws -> T {
        await acquire(key)
        defer { release(key) }
        return try await body()
    }

    private func acquire(_ key: String) async {
        if waiters[key] == nil {
            waiters[key] = []
            return
        }
        await withCheckedContinuation { waiters[key, default: []].append($0) }
    }

    private func release(_ key: String) {
        guard var queue = waiters[key], !queue.isEmpty else {
            waiters[key] = nil
            return
        }
        let next = queue.removeFirst()
        waiters[key] = queue
        next.resume()
    }
}
