import Foundation

/// One attempt: its outcome, when it was made and how long it took (name resolution, connection,
/// request and the part of the answer that was read).
public struct WebhookSendResult: Sendable, Equatable {
    public var outcome: WebhookSendOutcome
    /// When the attempt started; its whole seconds are the `webhook-timestamp` it was signed with.
    public var sentAt: Date
    public var latencyMs: Int

    public init(outcome: WebhookSendOutcome, sentAt: Date, latencyMs: Int) {
        self.outcome = outcome
        self.sentAt = sentAt
        self.latencyMs = latencyMs
    }

    /// The `webhook-timestamp` of a request sent at `date`: Unix seconds.
    public static func timestamp(_ date: Date) -> Int { Int(date.timeIntervalSince1970.rounded(.down)) }
}
