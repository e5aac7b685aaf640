import Foundation

/// One attempt's request: the delivery's id (the same for every attempt), where it goes, the
/// secrets that sign it (the current one first), and the body.
public struct WebhookMessage: Sendable, Equatable {
    public var id: String
    public var url: String
    public var secrets: [WebhookSecret]
    public var body: Data

    public init(id: String, url: String, secrets: [WebhookSecret], body: Data) {
        self.id = id
        self.url = url
        self.secrets = secrets
        self.body = body
    }
}
