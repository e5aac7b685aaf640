import Foundation

/// Where a delivery stands: a lifecycle of its own, not a job's (`pending` is not a stage's).
/// SQL takes the names as `NamedState` literals (`WebhookDeliveryStatus.pending.sql`).
public enum WebhookDeliveryStatus: String, Codable, NamedState {
    /// Waiting for its next attempt (or being sent now).
    case pending
    /// The endpoint answered 2xx.
    case succeeded
    /// Not sent again: the endpoint answered 410 Gone or was disabled.
    case failed
    /// Every attempt of the retry schedule failed.
    case abandoned
}

/// One delivery of one event to one endpoint, with every attempt (`GET /v1/webhooks/{id}/deliveries`).
public struct WebhookDeliveryRecord: Codable, Sendable, Equatable {
    /// The `webhook-id` header: the same for every attempt.
    public var id: String
    public var endpointId: UUID
    public var eventType: WebhookEventType
    public var data: JSONValue
    public var status: WebhookDeliveryStatus
    /// When the next attempt is due (pending only).
    public var nextAttemptAt: Date?
    public var createdAt: Date
    public var finishedAt: Date?
    public var attempts: [WebhookAttemptRecord]

    public init(id: String, endpointId: UUID, eventType: WebhookEventType, data: JSONValue, status: WebhookDeliveryStatus,
                nextAttemptAt: Date?, createdAt: Date, finishedAt: Date?, attempts: [WebhookAttemptRecord]) {
        self.id = id
        self.endpointId = endpointId
        self.eventType = eventType
        self.data = data
        self.status = status
        self.nextAttemptAt = nextAttemptAt
        self.createdAt = createdAt
        self.finishedAt = finishedAt
        self.attempts = attempts
    }
}

/// One attempt to send a delivery.
public struct WebhookAttemptRecord: Codable, Sendable, Equatable {
    public var attempt: Int
    /// The HTTP status the endpoint answered; nil when no answer came (timeout, refused, DNS).
    public var statusCode: Int?
    public var latencyMs: Int
    /// Why the attempt did not succeed; nil for a 2xx.
    public var error: String?
    public var attemptedAt: Date

    public init(attempt: Int, statusCode: Int?, latencyMs: Int, error: String?, attemptedAt: Date) {
        self.attempt = attempt
        self.statusCode = statusCode
        self.latencyMs = latencyMs
        self.error = error
        self.attemptedAt = attemptedAt
    }
}
