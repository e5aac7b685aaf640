import Foundation
import NIOHTTP1

/// What one attempt to send a delivery came to.
public enum WebhookSendOutcome: Sendable, Equatable {
    /// Any 2xx: delivered.
    case delivered(status: Int)
    /// 410 Gone: the receiver asks never to be sent anything again.
    case gone
    /// Any other status; `retryAfter` is the receiver's `Retry-After` in seconds, if it sent one
    /// that could be read. Nothing of the answer's body is kept: a club must not read a foreign
    /// server's answers through its endpoint's attempt history.
    case rejected(status: Int, retryAfter: TimeInterval?)
    /// No HTTP answer.
    case failed(WebhookSendFailure)

    /// The HTTP status, when one came back.
    public var statusCode: Int? {
        switch self {
        case .delivered(let status), .rejected(let status, _): status
        case .gone: 410
        case .failed: nil
        }
    }

    /// What went wrong, for the attempt's history; nil when delivered.
    public var error: String? {
        switch self {
        case .delivered: nil
        case .gone: "410 Gone: the receiver asked for no more deliveries"
        case let .rejected(status, _):
            // The standard reason phrase for the code, not the one the server sent.
            "HTTP \(status)" + (HTTPResponseStatus(statusCode: status).reasonPhrase.isEmpty ? "" : " \(HTTPResponseStatus(statusCode: status).reasonPhrase)")
        case .failed(let failure): failure.description
        }
    }
}
