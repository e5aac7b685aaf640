import Foundation

/// One attempt: its outcome, when it was made and how long it took (name resolution, connection,
/// request and the part of the answer that was read).
public struct WebhookSendResult: Sendable, Equatable {
    public var outcome: WebhookSendOutcome
    /// When the attempt started; its whole seconds are the `webhook-timestamp` it was signed with.
    public var sentAt: Date
    public var latencyMs: Int
    /// Bytes of the answer's body that were read (at most `WebhookSender.maxResponseBytes`); the
    /// rest is never read. Kept for tests and logs, never recorded with the attempt.
    public var answerBytesRead: Int

    public init(outcome: WebhookSendOutcome, sentAt: Date, latencyMs: Int, answerBytesRead: Int = 0) {
        self.outcome = outcome
        self.sentAt = sentAt
        self.latencyMs = latencyMs
        self.answerBytesRead = answerBytesRead
    }

    /// The `webhook-timestamp` of a request sent at `date`: Unix seconds.
    public static func timestamp(_ date: Date) -> Int { Int(date.timeIntervalSince1970.rounded(.down)) }
}
