import Foundation

/// What one attempt to send a delivery came to.
public enum WebhookSendOutcome: Sendable, Equatable {
    /// Any 2xx: delivered.
    case delivered(status: Int)
    /// 410 Gone: the receiver asks never to be sent anything again.
    case gone
    /// Any other status; `retryAfter` is the receiver's `Retry-After` in seconds, if it sent one
    /// that could be read, and `excerpt` the start of its answer's body.
    case rejected(status: Int, retryAfter: TimeInterval?, excerpt: String)
    /// No HTTP answer.
    case failed(WebhookSendFailure)

    /// The HTTP status, when one came back.
    public var statusCode: Int? {
        switch self {
        case .delivered(let status), .rejected(let status, _, _): status
        case .gone: 410
        case .failed: nil
        }
    }

    /// What went wrong, for the attempt's history; nil when delivered.
    public var error: String? {
        switch self {
        case .delivered: nil
        case .gone: "410 Gone: the receiver asked for no more deliveries"
        case let .rejected(status, _, excerpt): "HTTP \(status)" + (excerpt.isEmpty ? "" : ": \(excerpt)")
        case .failed(let failure): failure.description
        }
    }
}
