import Foundation

/// Which URLs webhooks may be sent to. A club chooses the URL and the coordinator makes the
/// request, so without these checks a club could make the coordinator call services on its own
/// network (metadata services, databases, admin pages) and read their answers in the attempt log.
///
/// The form is checked when an endpoint is registered; where the host resolves is checked then
/// and again before every attempt, since DNS answers can change after registration, and the
/// attempt connects to the address that was checked (`target`).
public struct WebhookURLPolicy: Sendable {
    public static let maxLength = 2048

    /// Accept hosts that resolve to internal addresses (tests, local stacks).
    public var allowPrivate: Bool
    /// Internal addresses accepted all the same (an operator's own receiver on the local network).
    public var allowedRanges: [IPRange]
    private let resolve: @Sendable (String) throws -> [IPAddress]

    /// - Parameters:
    ///   - allowedRanges: internal blocks webhooks may reach although `allowPrivate` is off.
    ///   - resolve: the resolver (tests pass their own); every address the host has is checked.
    public init(allowPrivate: Bool, allowedRanges: [IPRange] = [],
                resolve: @escaping @Sendable (String) throws -> [IPAddress] = HostResolver.resolve) {
        self.allowPrivate = allowPrivate
        self.allowedRanges = allowedRanges
        self.resolve = resolve
    }

    /// The URL, if its form is acceptable: http or https, a host, no user name or password, a port
    /// from 1 to 65535, no whitespace or control characters. Does not resolve the host.
    /// - Throws: `WebhookURLError`.
    public static func checkForm(_ text: String) throws -> URL {
        guard !text.isEmpty else { throw WebhookURLError.malformed(reason: "it is empty") }
        guard text.utf8.count <= Self.maxLength else { throw WebhookURLError.tooLong(length: text.utf8.count, limit: Self.maxLength) }
        if text.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.properties.generalCategory == .control }) {
            throw WebhookURLError.malformed(reason: "it contains a space or a control character")
        }
        guard let parts = URLComponents(string: text), let url = URL(string: text) else {
            throw WebhookURLError.malformed(reason: "it cannot be parsed (a URL looks like https://example.org/hooks/reelwork)")
        }
        guard let scheme = parts.scheme?.lowercased() else { throw WebhookURLError.malformed(reason: "it has no scheme; start it with https://") }
        guard scheme == "http" || scheme == "https" else {
            throw WebhookURLError.unsupportedScheme(String(scheme.unicodeScalars.prefix(32).map { $0.escaped(asASCII: true) }.joined()))
        }
        if parts.percentEncodedUser != nil || parts.percentEncodedPassword != nil { throw WebhookURLError.credentials }
        guard let host = parts.percentEncodedHost, !host.isEmpty else { throw WebhookURLError.missingHost }
        if let port = parts.port, !(1...65535).contains(port) { throw WebhookURLError.badPort(String(port)) }
        if parts.port == nil, let authority = Self.authority(of: text), let colon = authority.lastIndex(of: ":"),
           !authority.hasSuffix("]"), authority[authority.index(after: colon)...].isEmpty == false {
            // URLComponents drops a port it cannot read (`:99999999999`, `:http`): never guess one.
            throw WebhookURLError.badPort(String(authority[authority.index(after: colon)...].prefix(16)))
        }
        return url
    }

    /// `checkForm`, then every address the host resolves to is checked (unless `allowPrivate`).
    /// For registering an endpoint; a send uses `target`, which also says where to connect.
    /// - Throws: `WebhookURLError`.
    public func check(_ text: String) throws -> URL {
        let url = try Self.checkForm(text)
        guard !allowPrivate else { return url }
        _ = try target(text)
        return url
    }

    /// Where a request to `text` must go: `checkForm`, then the host resolved once and every
    /// address of the answer checked, and the first of them to connect to. The sender connects to
    /// exactly that address, never resolving the name again: a DNS answer that changes between the
    /// check and the connection (rebinding) cannot lead a request inside the network.
    /// - Throws: `WebhookURLError`.
    public func target(_ text: String) throws -> WebhookTarget {
        let url = try Self.checkForm(text)
        let host = Self.bareHost(url)
        let addresses = try resolve(host)
        guard let first = addresses.first else { throw WebhookURLError.unresolvable(host: host, reason: "no IPv4 or IPv6 address") }
        if !allowPrivate {
            for address in addresses {
                if let range = address.internalRange, !allowedRanges.contains(where: { $0.contains(address) }) {
                    throw WebhookURLError.internalAddress(host: host, address: address, range: range)
                }
            }
        }
        return WebhookTarget(url: url, host: host, address: first)
    }

    /// The URL as logs may show it: without its query and fragment, where receivers often put a
    /// token of their own.
    public static func forLogs(_ text: String) -> String {
        String(text.prefix { $0 != "?" && $0 != "#" })
    }

    /// The host without the brackets of an IPv6 literal.
    static func bareHost(_ url: URL) -> String {
        let host = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedHost ?? ""
        return host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
    }

    /// The text between `//` and the path, query or fragment.
    private static func authority(of text: String) -> Substring? {
        guard let start = text.range(of: "://")?.upperBound else { return nil }
        let rest = text[start...]
        return rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
    }
}
