/// Why an attempt got no HTTP answer.
public enum WebhookSendFailure: Sendable, Equatable, CustomStringConvertible {
    /// No complete answer within the timeout (connecting, sending or reading).
    case timeout(seconds: Double)
    /// Nothing listens at the address (the connection was refused).
    case connectionRefused(String)
    /// The host name could not be resolved.
    case dns(String)
    /// The URL broke the policy when it was checked before sending (its host now resolves to an
    /// internal address, say).
    case refusedURL(String)
    /// Anything else: TLS, a connection closed mid-answer, a malformed answer.
    case other(String)

    public var description: String {
        switch self {
        case .timeout(let seconds): "timed out: no complete answer within \(Self.format(seconds)) s"
        case .connectionRefused(let target): "connection refused by \(target)"
        case .dns(let reason): "DNS: \(reason)"
        case .refusedURL(let reason): "not sent: \(reason)"
        case .other(let reason): reason
        }
    }

    private static func format(_ seconds: Double) -> String {
        Int(exactly: seconds).map(String.init) ?? String(seconds)
    }
}
