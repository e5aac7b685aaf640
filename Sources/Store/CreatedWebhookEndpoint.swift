import ReelworkCore
import Webhooks

/// An endpoint just created or rotated, with its new secret: the only time the secret leaves the
/// server. The route shows `secret.text` once.
public struct CreatedWebhookEndpoint: Sendable {
    public let endpoint: WebhookEndpointRecord
    public let secret: WebhookSecret
}
