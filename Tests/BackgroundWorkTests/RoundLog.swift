import Foundation
import TestSupport

/// Every round a background loop reported (its `onRound` hook), and a wait for one that matches:
/// the test wakes when a round ends, never on a timer.
final class RoundLog<Round: Sendable>: @unchecked Sendable {
    // Safe: `seen` is read and written only with `condition` locked.
    private let condition = NSCondition()
    private var seen: [Round] = []

    var rounds: [Round] { condition.withLock { seen } }

    @Sendable func record(_ round: Round) {
        condition.withLock {
            seen.append(round)
            condition.broadcast()
        }
    }

    /// Waits until a round that `matches` has ended.
    func awaitRound(timeout: TimeInterval = 10, _ matches: (Round) -> Bool) throws {
        try waitFor(timeout: timeout, "a matching round") { $0.contains(where: matches) }
    }

    /// Waits until at least `count` rounds have ended.
    func awaitCount(_ count: Int, timeout: TimeInterval = 10) throws {
        try waitFor(timeout: timeout, "\(count) rounds") { $0.count >= count }
    }

    private func waitFor(timeout: TimeInterval, _ what: String, until done: ([Round]) -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        try condition.withLock {
            while !done(seen) {
                guard condition.wait(until: deadline) else {
                    throw TestSetupError(description: "not \(what) within \(timeout) s: \(seen.count) round(s): \(seen)")
                }
            }
        }
    }
}
