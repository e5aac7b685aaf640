import Foundation

/// Looks a host name up with the system's resolver (getaddrinfo: /etc/hosts, DNS, and numeric
/// forms such as `127.1` or `[::1]` alike), which is what the HTTP client will connect to.
public enum HostResolver {
    /// Every address `host` resolves to (IP literals resolve to themselves).
    /// - Throws: `WebhookURLError.unresolvable` with the resolver's reason.
    public static func resolve(_ host: String) throws -> [IPAddress] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, nil, &hints, &list)
        guard status == 0 else {
            throw WebhookURLError.unresolvable(host: host, reason: String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(list) }
        var addresses: [IPAddress] = []
        var entry = list
        while let info = entry?.pointee {
            if let address = info.ai_addr.flatMap(Self.address), !addresses.contains(address) { addresses.append(address) }
            entry = info.ai_next
        }
        guard !addresses.isEmpty else { throw WebhookURLError.unresolvable(host: host, reason: "no IPv4 or IPv6 address") }
        return addresses
    }

    /// The address an IP literal (`192.0.2.7`, `::1`) stands for, or nil for anything else; never
    /// asks a resolver.
    public static func literal(_ text: String) -> IPAddress? {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_flags = AI_NUMERICHOST
        var list: UnsafeMutablePointer<addrinfo>?
        guard !text.isEmpty, getaddrinfo(text, nil, &hints, &list) == 0 else { return nil }
        defer { freeaddrinfo(list) }
        return list?.pointee.ai_addr.flatMap(Self.address)
    }

    private static func address(_ socket: UnsafeMutablePointer<sockaddr>) -> IPAddress? {
        switch Int32(socket.pointee.sa_family) {
        case AF_INET:
            return socket.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { v4 in
                withUnsafeBytes(of: v4.pointee.sin_addr) { IPAddress.v4($0[0], $0[1], $0[2], $0[3]) }
            }
        case AF_INET6:
            return socket.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { v6 in
                withUnsafeBytes(of: v6.pointee.sin6_addr) { IPAddress.v6(Array($0)) }
            }
        default:
            return nil
        }
    }
}
