import Foundation

/// A checked webhook URL and the one address a request to it connects to.
public struct WebhookTarget: Sendable, Equatable {
    public var url: URL
    /// The URL's host without an IPv6 literal's brackets: what the `Host` header and TLS name say.
    public var host: String
    /// The address that was checked, which the connection must go to.
    public var address: IPAddress

    /// Whether the URL names its host by address, so there is nothing to resolve.
    public var hostIsAddress: Bool { HostResolver.literal(host) != nil }
}
