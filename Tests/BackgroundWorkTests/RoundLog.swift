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

    func awaitRound(timeout: TimeInterval = 10, _ matches: (Round) -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        try condition.withLock {
            while !seen.contains(where: matches) {
                guard condition.wait(until: deadline) else {
                    throw TestSetupError(description: "no matching round within \(timeout) s: \(seen)")
                }
            }
        }
    }

    /// Waits until at least `count` rounds have ended.
    func awaitCount(_ count: Int, timeout: TimeInterval = 10) throws {
        let deadline = Date().addingTimeInterval(timeout)
        try condition.withLock {
            while seen.count < count {
                guard condition.wait(until: deadline) else {
                    throw TestSetupError(description: "\(seen.count) of \(count) rounds within \(timeout) s")
                }
            }
        }
    }
}
