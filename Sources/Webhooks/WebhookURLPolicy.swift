import Foundation

/// Which URLs webhooks may be sent to. A club chooses the URL and the coordinator makes the
/// request, so without these checks a club could make the coordinator call services on its own
/// network (metadata services, databases, admin pages) and read their answers in the attempt log.
///
/// The form is checked when an endpoint is registered; where the host resolves is checked then
/// and again before every attempt, since DNS answers can change after registration.
public struct WebhookURLPolicy: Sendable {
    public static let maxLength = 2048

    /// Accept hosts that resolve to internal addresses (tests, local stacks).
    public var allowPrivate: Bool
    private let resolve: @Sendable (String) throws -> [IPAddress]

    /// - Parameter resolve: the resolver (tests pass their own); every address the host has is checked.
    public init(allowPrivate: Bool, resolve: @escaping @Sendable (String) throws -> [IPAddress] = HostResolver.resolve) {
        self.allowPrivate = allowPrivate
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
    /// - Throws: `WebhookURLError`.
    public func check(_ text: String) throws -> URL {
        let url = try Self.checkForm(text)
        guard !allowPrivate else { return url }
        let host = Self.bareHost(url)
        for address in try resolve(host) {
            if let range = address.internalRange { throw WebhookURLError.internalAddress(host: host, address: address, range: range) }
        }
        return url
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
