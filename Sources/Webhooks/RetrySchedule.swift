import Foundation
import ReelworkCore

/// When a delivery's attempts are made: the first at once, each later one a step of the schedule
/// after the one before, and none once the schedule has run out (the delivery is abandoned).
/// A receiver's `Retry-After` can push an attempt later, never earlier, and at most to `maxRetryAfter`.
public struct RetrySchedule: Sendable, Equatable {
    /// The wait before each attempt; `delays[0]` (0) is the first attempt's.
    public let delays: [TimeInterval]
    public let maxRetryAfter: TimeInterval

    /// Standard Webhooks' schedule (`WebhookSettings.standardRetrySchedule`), `Retry-After` capped at 10 h.
    public static let standard = RetrySchedule(delays: WebhookSettings.standardRetrySchedule, maxRetryAfter: 36_000)

    /// - Parameter delays: as `WebhookSettings.parseSchedule` accepts them (checked there, where a
    ///   bad value can be named); an empty list is taken as a single attempt.
    public init(delays: [TimeInterval], maxRetryAfter: TimeInterval) {
        self.delays = delays.isEmpty ? [0] : delays
        self.maxRetryAfter = max(0, maxRetryAfter)
    }

    public init(settings: WebhookSettings) {
        self.init(delays: settings.retrySchedule, maxRetryAfter: settings.maxRetryAfterSeconds)
    }

    /// Attempts the schedule allows in all.
    public var attempts: Int { delays.count }

    /// The wait before the next attempt once `attemptsMade` attempts of this schedule have failed,
    /// or nil when none is left. `retryAfter` (seconds the receiver asked for) lengthens the wait.
    public func delay(afterAttempts attemptsMade: Int, retryAfter: TimeInterval? = nil) -> TimeInterval? {
        guard attemptsMade >= 1, attemptsMade < delays.count else { return nil }
        let step = delays[attemptsMade]
        guard let retryAfter, retryAfter.isFinite else { return step }
        return max(step, min(retryAfter, maxRetryAfter))
    }
}
