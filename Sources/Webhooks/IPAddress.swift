/// An IPv4 or IPv6 address as bytes, with the ranges a webhook must not be sent to.
public enum IPAddress: Sendable, Hashable, CustomStringConvertible {
    case v4(UInt8, UInt8, UInt8, UInt8)
    /// Sixteen bytes, network order.
    case v6([UInt8])

    /// Why this address is internal, or nil for an ordinary public address: every block of IANA's
    /// special-purpose registries (RFC 6890) marked not globally reachable, and multicast. IPv6 forms that carry
    /// an IPv4 address (`embeddedV4`) are judged by the IPv4 address inside, so `::ffff:127.0.0.1`
    /// and `2002:7f00:1::` are loopback too.
    public var internalRange: String? {
        switch self {
        case let .v4(a, b, c, d):
            switch (a, b) {
            case (0, _): return a == 0 && b == 0 && c == 0 && d == 0 ? "unspecified (0.0.0.0)" : "\"this network\" (0.0.0.0/8)"
            case (127, _): return "loopback (127.0.0.0/8)"
            case (10, _): return "private (10.0.0.0/8)"
            case (172, 16...31): return "private (172.16.0.0/12)"
            case (192, 168): return "private (192.168.0.0/16)"
            case (169, 254): return "link-local (169.254.0.0/16)"
            case (100, 64...127): return "shared carrier-grade NAT (100.64.0.0/10)"
            // 192.0.0.9 and .10 (PCP and TURN anycast) are globally reachable.
            case (192, 0) where c == 0 && d != 9 && d != 10: return "IETF protocol assignments (192.0.0.0/24)"
            case (192, 0) where c == 2: return "documentation, TEST-NET-1 (192.0.2.0/24)"
            case (198, 51) where c == 100: return "documentation, TEST-NET-2 (198.51.100.0/24)"
            case (203, 0) where c == 113: return "documentation, TEST-NET-3 (203.0.113.0/24)"
            case (192, 88) where c == 99: return "deprecated 6to4 relay anycast (192.88.99.0/24)"
            case (198, 18...19): return "benchmarking (198.18.0.0/15)"
            case (224...239, _): return "multicast (224.0.0.0/4)"
            case (240...255, _): return a == 255 && b == 255 && c == 255 && d == 255 ? "broadcast (255.255.255.255)" : "reserved (240.0.0.0/4)"
            default: return nil
            }
        case .v6(let bytes):
            if let inner = embeddedV4 { return inner.internalRange.map { "\($0), inside the IPv6 address \(self)" } }
            if bytes.allSatisfy({ $0 == 0 }) { return "unspecified (::)" }
            if bytes.dropLast().allSatisfy({ $0 == 0 }) && bytes[15] == 1 { return "loopback (::1)" }
            if bytes[0] & 0xfe == 0xfc { return "unique local, private (fc00::/7)" }
            if bytes[0] == 0xfe && bytes[1] & 0xc0 == 0x80 { return "link-local (fe80::/10)" }
            if bytes[0] == 0xfe && bytes[1] & 0xc0 == 0xc0 { return "site-local (fec0::/10)" }
            if bytes[0] == 0xff { return "multicast (ff00::/8)" }
            return Self.specialPurposeV6(bytes)
        }
    }

    /// The blocks of IANA's IPv6 special-purpose registry that are not globally reachable, besides
    /// those above: discard-only and dummy prefixes, documentation, segment routing, and the IETF
    /// protocol assignments block 2001::/23 (Teredo, benchmarking, ORCHID among them) but for its
    /// globally reachable parts (PCP and TURN anycast, AMT, AS112, ORCHIDv2, DRIP).
    static func specialPurposeV6(_ b: [UInt8]) -> String? {
        let word = { (i: Int) in UInt16(b[2 * i]) << 8 | UInt16(b[2 * i + 1]) }
        if word(0) == 0x0100, word(1) == 0, word(2) == 0, word(3) == 0 { return "discard-only (100::/64)" }
        if word(0) == 0x0100, word(1) == 0, word(2) == 0, word(3) == 1 { return "dummy prefix (100:0:0:1::/64)" }
        if word(0) == 0x2001, word(1) == 0x0db8 { return "documentation (2001:db8::/32)" }
        if word(0) == 0x3fff, word(1) & 0xf000 == 0 { return "documentation (3fff::/20)" }
        if word(0) == 0x5f00 { return "segment routing SIDs (5f00::/16)" }
        guard word(0) == 0x2001, word(1) < 0x0200 else { return nil }
        let globallyReachable = (word(1) == 0x0001 && b[4..<15].allSatisfy { $0 == 0 } && (b[15] == 1 || b[15] == 2))  // 2001:1::1, ::2
            || word(1) == 0x0003                                                        // AMT, 2001:3::/32
            || (word(1) == 0x0004 && word(2) == 0x0112)                                 // AS112, 2001:4:112::/48
            || word(1) & 0xfff0 == 0x0020 || word(1) & 0xfff0 == 0x0030                 // ORCHIDv2, DRIP: 2001:20::/28, 2001:30::/28
        if globallyReachable { return nil }
        if word(1) == 0 { return "Teredo (2001::/32), whose IPv4 ends are hidden in it" }
        if word(1) == 0x0002, word(2) == 0 { return "benchmarking (2001:2::/48)" }
        return "IETF protocol assignments (2001::/23)"
    }

    /// The IPv4 address an IPv6 address carries in one of the forms that route or translate to it:
    /// mapped `::ffff:a.b.c.d`, compatible `::a.b.c.d`, SIIT `::ffff:0:a.b.c.d` (RFC 2765), NAT64
    /// `64:ff9b::/96` (RFC 6052) and its local-use `64:ff9b:1::/48` (RFC 8215, the address in the last
    /// 32 bits), and 6to4 `2002:AABB:CCDD::/48` (RFC 3056, the address in bytes 2 to 5).
    var embeddedV4: IPAddress? {
        guard case .v6(let b) = self, b.count == 16 else { return nil }
        let tail = IPAddress.v4(b[12], b[13], b[14], b[15])
        let zeros = b[0..<10].allSatisfy { $0 == 0 }
        if zeros && b[10] == 0xff && b[11] == 0xff { return tail }                    // ::ffff:a.b.c.d (mapped)
        if zeros && b[10] == 0 && b[11] == 0 && !(b[12] == 0 && b[13] == 0 && b[14] == 0) { return tail }  // ::a.b.c.d (compatible), not ::1 or ::
        if b[0..<8].allSatisfy({ $0 == 0 }) && b[8] == 0xff && b[9] == 0xff && b[10] == 0 && b[11] == 0 { return tail }  // ::ffff:0:a.b.c.d (SIIT)
        if b[0] == 0x00 && b[1] == 0x64 && b[2] == 0xff && b[3] == 0x9b {
            if b[4..<12].allSatisfy({ $0 == 0 }) { return tail }                       // 64:ff9b::/96
            if b[4] == 0x00 && b[5] == 0x01 { return tail }                             // 64:ff9b:1::/48
        }
        if b[0] == 0x20 && b[1] == 0x02 { return .v4(b[2], b[3], b[4], b[5]) }          // 2002::/16 (6to4)
        return nil
    }

    /// The address's bytes in network order (4 or 16).
    public var bytes: [UInt8] {
        switch self {
        case let .v4(a, b, c, d): return [a, b, c, d]
        case .v6(let bytes): return bytes
        }
    }

    public var description: String {
        switch self {
        case let .v4(a, b, c, d): return "\(a).\(b).\(c).\(d)"
        case .v6(let bytes):
            let groups = stride(from: 0, to: 16, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
            return groups.joined(separator: ":")
        }
    }
}
