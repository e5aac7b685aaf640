import Foundation
import ReelworkCore
import Webhooks

/// A delivery a dispatcher has claimed for one attempt. Only the holder of `leaseToken` can record
/// the attempt's outcome; the lease ends at `WebhookRepository.claimDue`'s `lease`, after which
/// the delivery is due again (the holder is presumed dead).
public struct ClaimedWebhookDelivery: Sendable, Equatable {
    /// The `webhook-id`.
    public var id: String
    public var endpointId: UUID
    public var url: String
    public var eventType: WebhookEventType
    public var data: JSONValue
    /// When the event was recorded: the body's `timestamp`, the same for every attempt.
    public var createdAt: Date
    /// The endpoint's secrets as stored, the current one first (then the previous one, while its
    /// grace period lasts).
    public var secretTexts: [String]
    /// Attempts made before this one, in all and since the schedule last (re)started.
    public var attempts: Int
    public var schedulePosition: Int
    public var leaseToken: UUID

    /// The request for this attempt, its links under `baseURL`.
    /// - Throws: `WebhookSecret.FormatError` when a stored secret cannot be read.
    public func message(baseURL: String?) throws -> WebhookMessage {
        WebhookMessage(id: id, url: url, secrets: try secretTexts.map(WebhookSecret.init(parsing:)),
                       body: WebhookPayload.body(type: eventType, timestamp: createdAt, data: data, baseURL: baseURL))
    }
}
