import Foundation

/// What follows an attempt.
public enum WebhookDecision: Sendable, Equatable {
    /// Done: the endpoint has it.
    case delivered
    /// Try again after this many seconds.
    case retry(after: TimeInterval)
    /// The schedule has run out: stop trying.
    case abandon
    /// The endpoint answered 410 Gone: disable it, and stop sending it this and every other delivery.
    case disableEndpoint(reason: String)

    /// The decision after `attemptsMade` attempts of the schedule, the last of which came to `outcome`.
    public init(after outcome: WebhookSendOutcome, attemptsMade: Int, schedule: RetrySchedule) {
        switch outcome {
        case .delivered:
            self = .delivered
        case .gone:
            self = .disableEndpoint(reason: "the endpoint answered 410 Gone")
        case .rejected(_, let retryAfter):
            self = schedule.delay(afterAttempts: attemptsMade, retryAfter: retryAfter).map { .retry(after: $0) } ?? .abandon
        case .failed:
            self = schedule.delay(afterAttempts: attemptsMade).map { .retry(after: $0) } ?? .abandon
        }
    }
}
