import Foundation

/// A block of addresses in CIDR form (`127.0.0.2/32`, `10.1.0.0/16`, `fd00::/8`): the internal
/// addresses an operator lets webhooks reach on purpose (a receiver of their own on the local
/// network), while every other internal address stays refused.
public struct IPRange: Sendable, Hashable, CustomStringConvertible {
    public let base: IPAddress
    public let prefixLength: Int

    /// Parses `ADDRESS/BITS` or a bare address (all its bits).
    /// - Throws: `WebhookURLError.malformed` naming the text.
    public init(parsing text: String) throws {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard let address = HostResolver.literal(parts[0]) else {
            throw IPRangeError(text: text, reason: "'\(parts[0].prefix(64))' is not an IPv4 or IPv6 address")
        }
        let bits = address.bytes.count * 8
        var length = bits
        if parts.count == 2 {
            guard let n = Int(parts[1]), (0...bits).contains(n) else {
                throw IPRangeError(text: text, reason: "the prefix length must be a whole number from 0 to \(bits)")
            }
            length = n
        }
        base = address
        prefixLength = length
    }

    /// Whether `address` is in this block (an IPv4 address never matches an IPv6 block, or the reverse).
    public func contains(_ address: IPAddress) -> Bool {
        let a = base.bytes, b = address.bytes
        guard a.count == b.count else { return false }
        var remaining = prefixLength
        for i in a.indices where remaining > 0 {
            let mask: UInt8 = remaining >= 8 ? 0xff : ~(0xff >> UInt8(remaining))
            if a[i] & mask != b[i] & mask { return false }
            remaining -= 8
        }
        return true
    }

    public var description: String { "\(base)/\(prefixLength)" }

    /// Parses a comma-separated list (`127.0.0.2/32, fd00::/8`); empty text is an empty list.
    public static func list(_ text: String) throws -> [IPRange] {
        try text.split(separator: ",").map { try IPRange(parsing: $0.trimmingCharacters(in: .whitespaces)) }
    }
}

/// A range that could not be read, with the reason.
public struct IPRangeError: Error, CustomStringConvertible {
    public let text: String
    public let reason: String
    public var description: String { "'\(text.prefix(100))' is not an address range like 127.0.0.2/32: \(reason)" }
}
