/// Why a webhook URL is refused. Each message names the problem and what would be accepted; none
/// repeats credentials found in the URL.
public enum WebhookURLError: Error, Equatable, CustomStringConvertible {
    case malformed(reason: String)
    case tooLong(length: Int, limit: Int)
    case unsupportedScheme(String)
    case credentials
    case missingHost
    case badPort(String)
    case unresolvable(host: String, reason: String)
    case internalAddress(host: String, address: IPAddress, range: String)

    public var description: String {
        switch self {
        case .malformed(let reason):
            return "the webhook URL is not a valid URL: \(reason)"
        case let .tooLong(length, limit):
            return "the webhook URL is \(length) characters long; at most \(limit) are allowed"
        case .unsupportedScheme(let scheme):
            return "the webhook URL's scheme is '\(scheme)'; only http and https are allowed"
        case .credentials:
            return "the webhook URL contains a user name or password; remove them (deliveries are signed, so the receiver can check who sent them)"
        case .missingHost:
            return "the webhook URL has no host"
        case .badPort(let port):
            return "the webhook URL's port '\(port)' is not a port number from 1 to 65535"
        case let .unresolvable(host, reason):
            return "the webhook URL's host \(host) cannot be resolved: \(reason)"
        case let .internalAddress(host, address, range):
            let resolved = host == address.description ? "" : " resolves to \(address), which"
            return "the webhook URL's host \(host)\(resolved) is \(range); webhooks go only to public addresses "
                + "(\(WebhookURLError.allowAddressesSetting) names internal blocks to allow, \(WebhookURLError.allowPrivateSetting)=1 allows them all, for tests and local stacks)"
        }
    }

    /// The setting that lifts the address check (named here so the message and the settings agree).
    static let allowPrivateSetting = "REELWORK_WEBHOOK_ALLOW_PRIVATE"
    static let allowAddressesSetting = "REELWORK_WEBHOOK_ALLOW_ADDRESSES"
}
