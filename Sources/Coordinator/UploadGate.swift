import Foundation
import Threading

/// Counts the uploads this coordinator is receiving, in all and per club; past either limit a new
/// one is turned away at once (503 with Retry-After) instead of queueing on the disk and the
/// probe's CPU. The per-club share keeps one club's slow or many uploads from taking every slot.
final class UploadGate: Sendable {
    let limit: Int
    let perClub: Int
    private let inFlight = LockedValue(Counts())

    private struct Counts {
        var total = 0
        var byClub: [String: Int] = [:]
    }

    /// Why an upload was turned away.
    enum Refusal: Equatable {
        case coordinatorFull
        case clubFull
    }

    init(limit: Int, perClub: Int) {
        self.limit = limit
        self.perClub = perClub
    }

    /// Takes a place for `club` if one is free; otherwise says which limit was reached.
    func enter(club: String) -> Refusal? {
        inFlight.withLock { counts in
            guard counts.total < limit else { return .coordinatorFull }
            guard counts.byClub[club, default: 0] < perClub else { return .clubFull }
            counts.total += 1
            counts.byClub[club, default: 0] += 1
            return nil
        }
    }

    func leave(club: String) {
        inFlight.withLock { counts in
            counts.total -= 1
            let left = counts.byClub[club, default: 1] - 1
            counts.byClub[club] = left > 0 ? left : nil
        }
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
