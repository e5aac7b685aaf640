import Foundation

/// A webhook endpoint as the API shows it: never its secret, which is shown once, when it is made
/// or rotated.
public struct WebhookEndpointRecord: Codable, Sendable, Equatable {
    public var id: UUID
    /// The club's name.
    public var club: String
    public var url: String
    public var events: [WebhookEventType]
    public var createdAt: Date
    /// Until then the secret replaced by the last rotation also signs deliveries.
    public var previousSecretExpiresAt: Date?
    /// Set when the endpoint stopped receiving deliveries (it answered 410 Gone, or an operator
    /// disabled it), with the reason.
    public var disabledAt: Date?
    public var disabledReason: String?

    public init(id: UUID, club: String, url: String, events: [WebhookEventType], createdAt: Date,
                previousSecretExpiresAt: Date?, disabledAt: Date?, disabledReason: String?) {
        self.id = id
        self.club = club
        self.url = url
        self.events = events
        self.createdAt = createdAt
        self.previousSecretExpiresAt = previousSecretExpiresAt
        self.disabledAt = disabledAt
        self.disabledReason = disabledReason
    }

    public var isDisabled: Bool { disabledAt != nil }
}
