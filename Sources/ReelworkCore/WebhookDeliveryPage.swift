/// A page of an endpoint's deliveries, newest first; `nextCursor` asks for the next page.
public struct WebhookDeliveryPage: Codable, Sendable, Equatable {
    public var deliveries: [WebhookDeliveryRecord]
    public var nextCursor: String?

    public init(deliveries: [WebhookDeliveryRecord], nextCursor: String?) {
        self.deliveries = deliveries
        self.nextCursor = nextCursor
    }
}
